import { describe, expect, it } from 'vitest';
import { TradeWindow, type PriceRatio } from '../../../src/engine/reference-price.ts';
import { MICROS_PER_MINUTE, px, qty, u } from './helpers.ts';

/** The ratio as an exact decimal-free comparison: num/den == price units. */
function expectPrice(ratio: PriceRatio | null, price: number): void {
  expect(ratio).not.toBeNull();
  expect((ratio as PriceRatio).num).toBe(BigInt(price) * (ratio as PriceRatio).den);
}

const T = 1_000 * MICROS_PER_MINUTE;

/** Records a trade of `q` base at price `p` (decimal strings, precision 8). */
function record(w: TradeWindow, time: number, p: string, q: string): void {
  const price = px(p);
  const base = qty(q);
  w.record(time, price, Number((BigInt(price) * BigInt(base)) / 100_000_000n), base);
}

describe('TradeWindow (reference price for filters)', () => {
  it('has no price before any trade', () => {
    const w = new TradeWindow(8, [5]);
    expect(w.average(5, T)).toBeNull();
    expect(w.average(0, T)).toBeNull();
    expect(w.lastPrice).toBeNull();
  });

  it('is the volume-weighted average of the trades in the window', () => {
    const w = new TradeWindow(8, [5]);
    record(w, T, '100', '1');
    record(w, T + 1, '120', '3');
    expectPrice(w.average(5, T + 2), u('115'));
    expect(w.lastPrice).toBe(px('120'));
  });

  it('keeps an exact ratio for a VWAP that is not a whole number of units', () => {
    const w = new TradeWindow(8, [5]);
    record(w, T, '1', '1');
    record(w, T, '2', '2');
    const avg = w.average(5, T) as PriceRatio;
    // (1 + 4) / 3 = 1.666... : num / den == 500000000 / 3
    expect(avg.num * 3n).toBe(500_000_000n * avg.den);
  });

  it('drops trades at or before now - avgPriceMins', () => {
    const w = new TradeWindow(8, [5]);
    record(w, T, '100', '1');
    record(w, T + 2 * MICROS_PER_MINUTE, '200', '1');
    expectPrice(w.average(5, T + 5 * MICROS_PER_MINUTE - 1), u('150'));
    expectPrice(w.average(5, T + 5 * MICROS_PER_MINUTE), u('200'));
  });

  it('falls back to the last trade price when the window is empty', () => {
    const w = new TradeWindow(8, [5]);
    record(w, T, '100', '1');
    record(w, T, '300', '1');
    expectPrice(w.average(5, T + 10 * MICROS_PER_MINUTE), u('300'));
  });

  it('avgPriceMins 0 means the last price', () => {
    const w = new TradeWindow(8, [5]);
    record(w, T, '100', '3');
    record(w, T, '200', '1');
    expectPrice(w.average(0, T), u('200'));
  });

  it('answers a window length nobody configured by scanning', () => {
    const w = new TradeWindow(8, [5]);
    record(w, T, '100', '1');
    record(w, T + 2 * MICROS_PER_MINUTE, '200', '1');
    expectPrice(w.average(1, T + 2 * MICROS_PER_MINUTE), u('200'));
    expectPrice(w.average(3, T + 2 * MICROS_PER_MINUTE), u('150'));
  });

  it('keeps each configured window separately', () => {
    const w = new TradeWindow(8, [1, 5]);
    record(w, T, '100', '1');
    record(w, T + 2 * MICROS_PER_MINUTE, '200', '1');
    expectPrice(w.average(1, T + 2 * MICROS_PER_MINUTE), u('200'));
    expectPrice(w.average(5, T + 2 * MICROS_PER_MINUTE), u('150'));
  });

  it('stays exact over many trades (sums beyond 2^53)', () => {
    const w = new TradeWindow(8, [5]);
    for (let i = 0; i < 3000; i++) record(w, T + i, '60000.01', '9000');
    expectPrice(w.average(5, T + 3000), px('60000.01'));
  });

  it('stays correct after old entries are compacted away', () => {
    const w = new TradeWindow(8, [1]);
    for (let i = 0; i < 5000; i++) record(w, T + i * 1000, '100', '1');
    const later = T + 5000 * 1000 + 2 * MICROS_PER_MINUTE;
    record(w, later, '300', '1');
    record(w, later + 1, '100', '1');
    expectPrice(w.average(1, later + 2), u('200'));
  });
});

describe('TradeWindow memory', () => {
  it('keeps only the longest window (plus slack) however long the tape, even when nobody reads it', () => {
    const window = new TradeWindow(8, [5]);
    // 200k trades, one every 100 ms: 5.5 hours of tape, of which a 5-minute window is ~3,000 trades.
    for (let i = 0; i < 200_000; i++) window.record(i * 100_000, 100, 100, 1);
    expect(window.retained).toBeLessThan(3_000 + 2 * 1_024 + 1_100);
    expect(window.average(5, 199_999 * 100_000)).not.toBeNull();
  });
});
