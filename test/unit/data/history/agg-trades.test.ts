import { describe, expect, it } from 'vitest';
import type { AggTrade } from '../../../../src/data/tape.ts';
import { historyOf, S, T0, u } from './helpers.ts';

// One aggregate per comment: each starts where time, price or taker side changes.
const tape = historyOf([
  { t: T0, p: '10', q: '1' }, // agg 0: trades 1-3
  { t: T0, p: '10', q: '2', bestMatch: false },
  { t: T0, p: '10', q: '0.5' },
  { t: T0, p: '10', q: '1', buyerMaker: true }, // agg 1: other taker side
  { t: T0, p: '11', q: '1', buyerMaker: true }, // agg 2: other price
  { t: T0 + 1, p: '11', q: '1', buyerMaker: true }, // agg 3: other time, trades 6-7
  { t: T0 + 1, p: '11', q: '3', buyerMaker: true },
  { t: T0 + 1, p: '12', q: '1', buyerMaker: true }, // agg 4
  { t: T0 + 1, p: '11', q: '1', buyerMaker: true }, // agg 5: 3's key again, but not consecutive
  { t: T0 + 2 * S, p: '11', q: '1' }, // agg 6
]);
const agg = (a: number, p: string, q: string, f: number, l: number, T: number, m: boolean, M = true): AggTrade => ({
  a,
  p: u(p),
  q: u(q),
  f,
  l,
  T,
  m,
  M,
});
const aIds = (rows: readonly AggTrade[]) => rows.map((r) => r.a);

describe('aggTrades aggregation', () => {
  it('merges consecutive trades with the same time, price and taker side, ids from 0', () => {
    expect(tape.aggTrades(T0 + 9 * S)).toEqual([
      agg(0, '10', '3.5', 1, 3, T0, false),
      agg(1, '10', '1', 4, 4, T0, true),
      agg(2, '11', '1', 5, 5, T0, true),
      agg(3, '11', '4', 6, 7, T0 + 1, true),
      agg(4, '12', '1', 8, 8, T0 + 1, true),
      agg(5, '11', '1', 9, 9, T0 + 1, true),
      agg(6, '11', '1', 10, 10, T0 + 2 * S, false),
    ]);
  });

  it('takes M (best match) from the first trade of the aggregate', () => {
    const h = historyOf([
      { t: T0, p: '1', q: '1', bestMatch: false },
      { t: T0, p: '1', q: '1', bestMatch: true },
    ]);
    expect(h.aggTrades(T0)).toEqual([agg(0, '1', '2', 1, 2, T0, false, false)]);
  });

  it('shows an aggregate complete at its own time, and nothing stamped after asOf', () => {
    expect(aIds(tape.aggTrades(T0))).toEqual([0, 1, 2]);
    expect(aIds(tape.aggTrades(T0 + 1))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(tape.aggTrades(T0 - 1)).toEqual([]);
  });
});

describe('aggTrades selection', () => {
  const asOf = T0 + 9 * S;

  it('with no bounds returns the most recent, up to the limit', () => {
    expect(aIds(tape.aggTrades(asOf, { limit: 2 }))).toEqual([5, 6]);
  });

  it('fromId is inclusive and returns the oldest from it', () => {
    expect(aIds(tape.aggTrades(asOf, { fromId: 3, limit: 2 }))).toEqual([3, 4]);
    expect(aIds(tape.aggTrades(asOf, { fromId: 6 }))).toEqual([6]);
    expect(tape.aggTrades(asOf, { fromId: 7 })).toEqual([]);
  });

  it('startTime is inclusive and returns the oldest from it', () => {
    expect(aIds(tape.aggTrades(asOf, { startTime: T0 + 1, limit: 2 }))).toEqual([3, 4]);
    expect(aIds(tape.aggTrades(asOf, { startTime: T0 + 2 }))).toEqual([6]);
  });

  it('endTime alone is inclusive and returns the newest up to it', () => {
    expect(aIds(tape.aggTrades(asOf, { endTime: T0 + 1, limit: 2 }))).toEqual([4, 5]);
    expect(aIds(tape.aggTrades(asOf, { endTime: T0 }))).toEqual([0, 1, 2]);
  });

  it('startTime and endTime together behave like startTime, capped at endTime', () => {
    expect(aIds(tape.aggTrades(asOf, { startTime: T0, endTime: T0 + 1, limit: 4 }))).toEqual([0, 1, 2, 3]);
    expect(aIds(tape.aggTrades(asOf, { startTime: T0 + 1, endTime: T0 + 1 }))).toEqual([3, 4, 5]);
    expect(tape.aggTrades(asOf, { startTime: T0 + 2, endTime: T0 + 1 })).toEqual([]);
  });

  it('fromId with endTime starts at fromId and stops at endTime', () => {
    expect(aIds(tape.aggTrades(asOf, { fromId: 2, endTime: T0 + 1 }))).toEqual([2, 3, 4, 5]);
  });

  it('an endTime past asOf is cut at asOf', () => {
    expect(aIds(tape.aggTrades(T0 + 1, { endTime: T0 + 9 * S }))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(aIds(tape.aggTrades(T0 + 1, { startTime: T0 + 1, endTime: T0 + 9 * S }))).toEqual([3, 4, 5]);
  });
});
