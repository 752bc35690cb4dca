import { describe, expect, it } from 'vitest';
import { aggTradesFromTrades } from '../../../src/data/synthetic/agg-trades-from-trades.ts';
import { klinesFromTrades } from '../../../src/data/synthetic/klines-from-trades.ts';
import { BEST_MATCH, BUYER_MAKER, type TradeBatch } from '../../../src/data/tape.ts';

const T0 = Date.UTC(2024, 0, 1) * 1000;
const MIN = 60_000_000;

/** [id, price, qty, time, isBuyerMaker]; quoteQty = price * qty / 100 (2-decimal base). */
function tape(rows: [number, number, number, number, boolean][]): TradeBatch {
  return {
    length: rows.length,
    id: Float64Array.from(rows, (r) => r[0]),
    price: Float64Array.from(rows, (r) => r[1]),
    qty: Float64Array.from(rows, (r) => r[2]),
    quoteQty: Float64Array.from(rows, (r) => (r[1] * r[2]) / 100),
    time: Float64Array.from(rows, (r) => r[3]),
    flags: Uint8Array.from(rows, (r) => (r[4] ? BUYER_MAKER : 0) | BEST_MATCH),
  };
}

const TAPE = tape([
  [1, 100, 10, T0 + 5, false],
  [2, 105, 20, T0 + 5, false],
  [3, 95, 30, T0 + MIN - 1, true],
  [4, 98, 40, T0 + 3 * MIN + 7, true],
]);

describe('klinesFromTrades', () => {
  it('builds OHLC, volumes and taker-buy volumes per bar, and fills quiet bars with the last close', () => {
    const klines = klinesFromTrades([TAPE], { interval: '1m', startTime: T0, endTime: T0 + 5 * MIN });
    expect(klines.map((k) => k.openTime - T0)).toEqual([0, MIN, 2 * MIN, 3 * MIN, 4 * MIN]);
    expect(klines[0]).toEqual({
      openTime: T0,
      open: 100,
      high: 105,
      low: 95,
      close: 95,
      volume: 60,
      closeTime: T0 + MIN - 1,
      quoteVolume: 10 + 21 + 28.5,
      trades: 3,
      takerBuyBaseVolume: 30,
      takerBuyQuoteVolume: 31,
    });
    expect(klines[1]).toMatchObject({ open: 95, high: 95, low: 95, close: 95, volume: 0, trades: 0 });
    expect(klines[3]).toMatchObject({ open: 98, close: 98, volume: 40, trades: 1, takerBuyBaseVolume: 0 });
    expect(klines[4]).toMatchObject({ open: 98, close: 98, volume: 0, closeTime: T0 + 5 * MIN - 1 });
  });

  it('starts with the previous close when given one, and leaves quiet leading bars out otherwise', () => {
    const late = tape([[9, 50, 1, T0 + 2 * MIN, false]]);
    expect(klinesFromTrades([late], { interval: '1m', startTime: T0, endTime: T0 + 3 * MIN }).map((k) => k.openTime - T0)).toEqual([2 * MIN]);
    const filled = klinesFromTrades([late], { interval: '1m', startTime: T0, endTime: T0 + 3 * MIN, previousClose: 49 });
    expect(filled.map((k) => [k.openTime - T0, k.close])).toEqual([
      [0, 49],
      [MIN, 49],
      [2 * MIN, 50],
    ]);
  });

  it('uses the exchange calendar for weeks and months (2024-01-01 is a Monday)', () => {
    const [week] = klinesFromTrades([TAPE], { interval: '1w', startTime: T0, endTime: T0 + 10 * MIN });
    expect(week).toMatchObject({ openTime: T0, closeTime: T0 + 7 * 1440 * MIN - 1, open: 100, close: 98, trades: 4 });
    const [month] = klinesFromTrades([TAPE], { interval: '1M', startTime: T0, endTime: T0 + MIN });
    expect(month).toMatchObject({ openTime: T0, closeTime: Date.UTC(2024, 1, 1) * 1000 - 1 });
  });
});

describe('aggTradesFromTrades', () => {
  it('merges consecutive trades of one time, price and side', () => {
    const batch = tape([
      [1, 100, 1, T0, false],
      [2, 100, 2, T0, false],
      [3, 101, 1, T0, false],
      [4, 101, 1, T0, true],
      [5, 101, 1, T0 + 1, true],
    ]);
    expect([...aggTradesFromTrades([batch], 0)]).toEqual([
      { a: 0, p: 100, q: 3, f: 1, l: 2, T: T0, m: false, M: true },
      { a: 1, p: 101, q: 1, f: 3, l: 3, T: T0, m: false, M: true },
      { a: 2, p: 101, q: 1, f: 4, l: 4, T: T0, m: true, M: true },
      { a: 3, p: 101, q: 1, f: 5, l: 5, T: T0 + 1, m: true, M: true },
    ]);
  });
});
