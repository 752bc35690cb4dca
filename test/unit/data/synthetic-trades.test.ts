import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateTradeBatches, type SyntheticTradesSpec } from '../../../src/data/synthetic/synthetic-trades.ts';
import { formatTradesCsv } from '../../../src/data/synthetic/dump-csv.ts';
import { BUYER_MAKER } from '../../../src/data/tape.ts';
import { SCALE8, tradesOf } from './helpers.ts';

const DAY = Date.UTC(2024, 0, 1) * 1000;

const SPEC: SyntheticTradesSpec = {
  symbol: 'BTCUSDT',
  seed: 'test',
  scale: SCALE8,
  tickSize: 1_000_000,
  stepSize: 1_000,
  startPrice: 4_200_000_000_000,
  startTime: DAY,
  endTime: DAY + 6 * 3_600_000_000,
  tradesPerDay: 80_000,
  dailyVolatility: 0.025,
  medianQty: 80_000,
  firstTradeId: 1_000,
  timeUnit: 'us',
};

function csvHash(spec: SyntheticTradesSpec): string {
  const hash = createHash('sha256');
  for (const batch of generateTradeBatches(spec)) hash.update(formatTradesCsv(batch, spec.scale, spec.timeUnit));
  return hash.digest('hex');
}

describe('synthetic trades', () => {
  it('the same seed gives the same bytes; another seed or symbol does not', () => {
    const a = csvHash(SPEC);
    expect(csvHash(SPEC)).toBe(a);
    expect(csvHash({ ...SPEC, seed: 'other' })).not.toBe(a);
    expect(csvHash({ ...SPEC, symbol: 'ETHUSDT' })).not.toBe(a);
  });

  const trades = tradesOf([...generateTradeBatches(SPEC)]);

  it('has about the requested number of trades', () => {
    // A quarter of a day at 80k/day: 20k expected; the Hawkes process and volatility make it vary.
    expect(trades.length).toBeGreaterThan(10_000);
    expect(trades.length).toBeLessThan(40_000);
  });

  it('keeps ids consecutive, times non-decreasing and inside the range', () => {
    trades.forEach((t, i) => {
      expect(t.id).toBe(1_000 + i);
      if (i > 0) expect(t.time).toBeGreaterThanOrEqual(trades[i - 1]!.time);
    });
    expect(trades[0]!.time).toBeGreaterThanOrEqual(SPEC.startTime);
    expect(trades.at(-1)!.time).toBeLessThan(SPEC.endTime);
  });

  it('puts prices on the tick grid and sizes on the step grid, quoteQty = price × qty truncated', () => {
    for (const t of trades) {
      if (!(t.price > 0 && t.price % SPEC.tickSize === 0 && t.qty > 0 && t.qty % SPEC.stepSize === 0)) throw new Error(`off-grid trade ${JSON.stringify(t)}`);
      if (t.quoteQty !== Number((BigInt(t.price) * BigInt(t.qty)) / 100_000_000n)) throw new Error(`quoteQty of ${t.id}`);
    }
  });

  it('stays near its start price with a daily volatility of a few percent', () => {
    const prices = trades.map((t) => t.price / 1e8);
    expect(Math.min(...prices)).toBeGreaterThan(42_000 * 0.9);
    expect(Math.max(...prices)).toBeLessThan(42_000 * 1.1);
  });

  it('has both sides, with runs (taker side autocorrelated) and multi-fill orders at one time', () => {
    const buyerMaker = trades.filter((t) => t.isBuyerMaker).length / trades.length;
    expect(buyerMaker).toBeGreaterThan(0.35);
    expect(buyerMaker).toBeLessThan(0.65);
    let same = 0;
    let sameTime = 0;
    for (let i = 1; i < trades.length; i++) {
      if (trades[i]!.isBuyerMaker === trades[i - 1]!.isBuyerMaker) same++;
      if (trades[i]!.time === trades[i - 1]!.time) sameTime++;
    }
    expect(same / (trades.length - 1)).toBeGreaterThan(0.6);
    expect(sameTime / trades.length).toBeGreaterThan(0.1);
  });

  it('clusters volatility: absolute minute returns are positively autocorrelated', () => {
    const byMinute = new Map<number, number>();
    for (const t of trades) byMinute.set(Math.floor((t.time - DAY) / 60e6), t.price);
    const closes = [...byMinute.values()];
    const abs = closes.slice(1).map((p, i) => Math.abs(Math.log(p / closes[i]!)));
    const mean = abs.reduce((s, x) => s + x, 0) / abs.length;
    let num = 0;
    let den = 0;
    for (let i = 0; i < abs.length; i++) {
      den += (abs[i]! - mean) ** 2;
      if (i > 0) num += (abs[i]! - mean) * (abs[i - 1]! - mean);
    }
    expect(num / den).toBeGreaterThan(0.05);
  });

  it('stamps whole milliseconds when asked for ms', () => {
    const ms = tradesOf([...generateTradeBatches({ ...SPEC, timeUnit: 'ms', endTime: DAY + 600_000_000 })]);
    expect(ms.length).toBeGreaterThan(0);
    expect(ms.every((t) => t.time % 1000 === 0)).toBe(true);
  });

  it('flags every trade best-match and sets isBuyerMaker through the flags column', () => {
    const [batch] = generateTradeBatches({ ...SPEC, endTime: DAY + 600_000_000 });
    expect(batch!.flags.every((f) => (f & 2) === 2)).toBe(true);
    expect(batch!.flags.some((f) => (f & BUYER_MAKER) === 0)).toBe(true);
  });
});
