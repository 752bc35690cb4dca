import { describe, expect, it } from 'vitest';
import { MarketHistory } from '../../../../src/data/history/index.ts';
import { BEST_MATCH, BUYER_MAKER } from '../../../../src/data/tape.ts';
import type { TapeTrade, TradeBatch } from '../../../../src/data/tape.ts';
import { historyOf, S, T0, trade, u } from './helpers.ts';

const tape = historyOf([
  { t: T0, p: '100', q: '1' },
  { t: T0 + S, p: '101', q: '2', buyerMaker: true },
  { t: T0 + S, p: '102', q: '0.5' },
  { t: T0 + 2 * S, p: '103', q: '1' },
]);
const ids = (rows: readonly TapeTrade[]) => rows.map((r) => r.id);

describe('recentTrades', () => {
  it('returns the newest trades at or before asOf, oldest first, with every field in units', () => {
    const rows = tape.recentTrades(T0 + S, 2);
    expect(rows).toEqual([
      { id: 2, price: u('101'), qty: u('2'), quoteQty: u('202'), time: T0 + S, isBuyerMaker: true, isBestMatch: true },
      { id: 3, price: u('102'), qty: u('0.5'), quoteQty: u('51'), time: T0 + S, isBuyerMaker: false, isBestMatch: true },
    ]);
  });

  it('sees a trade stamped exactly at asOf and nothing one microsecond later', () => {
    expect(ids(tape.recentTrades(T0 + 2 * S))).toEqual([1, 2, 3, 4]);
    expect(ids(tape.recentTrades(T0 + 2 * S - 1))).toEqual([1, 2, 3]);
    expect(tape.recentTrades(T0 - 1)).toEqual([]);
  });

  it('defaults to 500 trades and returns at most 1000', () => {
    const specs = Array.from({ length: 1200 }, (_, i) => ({ t: T0 + i, p: '1', q: '1' }));
    const big = historyOf(specs);
    expect(big.recentTrades(T0 + 2000)).toHaveLength(500);
    const capped = big.recentTrades(T0 + 2000, 5000);
    expect(capped).toHaveLength(1000);
    expect(capped[0]!.id).toBe(201);
    expect(capped[999]!.id).toBe(1200);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => tape.recentTrades(T0, 0)).toThrow(RangeError);
    expect(() => tape.recentTrades(T0, 1.5)).toThrow(RangeError);
  });
});

describe('historicalTrades', () => {
  it('starts at fromId inclusive and stops at the limit', () => {
    expect(ids(tape.historicalTrades(T0 + 9 * S, { fromId: 2, limit: 2 }))).toEqual([2, 3]);
  });

  it('never goes past asOf even when the limit allows more', () => {
    expect(ids(tape.historicalTrades(T0 + S, { fromId: 2, limit: 10 }))).toEqual([2, 3]);
    expect(tape.historicalTrades(T0 + S, { fromId: 4 })).toEqual([]);
  });

  it('without fromId returns the most recent trades', () => {
    expect(ids(tape.historicalTrades(T0 + S, { limit: 2 }))).toEqual([2, 3]);
  });

  it('treats a fromId between ids as the next id, and one before the tape as its start', () => {
    const gappy = historyOf([
      { t: T0, p: '1', q: '1', id: 10 },
      { t: T0, p: '1', q: '1', id: 20 },
    ]);
    expect(ids(gappy.historicalTrades(T0, { fromId: 11 }))).toEqual([20]);
    expect(ids(gappy.historicalTrades(T0, { fromId: 0 }))).toEqual([10, 20]);
  });
});

describe('recording', () => {
  it('rejects a trade earlier than the previous one', () => {
    const h = historyOf([{ t: T0 + S, p: '1', q: '1' }]);
    expect(() => h.record(trade({ t: T0, p: '1', q: '1' }, 2))).toThrow(/before the previous trade/);
  });

  it('rejects an id that does not increase', () => {
    const h = historyOf([{ t: T0, p: '1', q: '1' }]);
    expect(() => h.record(trade({ t: T0, p: '1', q: '1' }, 1))).toThrow(/does not increase/);
  });

  it('rejects a quantity past the exact range', () => {
    const h = historyOf([]);
    const bad = { ...trade({ t: T0, p: '1', q: '1' }, 1), quoteQty: Number.MAX_SAFE_INTEGER };
    expect(() => h.record(bad)).toThrow(/must be in/);
  });

  it('records a columnar batch exactly like trade-by-trade recording', () => {
    const rows = [trade({ t: T0, p: '100', q: '1' }, 1), trade({ t: T0 + 5, p: '99', q: '2', buyerMaker: true }, 2)];
    const batch: TradeBatch = {
      length: 2,
      id: Float64Array.from(rows, (r) => r.id),
      price: Float64Array.from(rows, (r) => r.price),
      qty: Float64Array.from(rows, (r) => r.qty),
      quoteQty: Float64Array.from(rows, (r) => r.quoteQty),
      time: Float64Array.from(rows, (r) => r.time),
      flags: Uint8Array.from(rows, (r) => (r.isBuyerMaker ? BUYER_MAKER : 0) | (r.isBestMatch ? BEST_MATCH : 0)),
    };
    const fromBatch = new MarketHistory({ basePrecision: 8 });
    fromBatch.recordBatch(batch);
    expect(fromBatch.recentTrades(T0 + 10)).toEqual(rows);
    expect(fromBatch.newestTradeTime).toBe(T0 + 5);
    expect(fromBatch.firstTradeTime).toBe(T0);
  });
});
