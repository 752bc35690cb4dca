import { describe, expect, it } from 'vitest';
import { historyOf, M, S, T0, u } from './helpers.ts';

// One trade a minute, at :00 of minutes 0..9, at prices 1..10.
const tape = historyOf(Array.from({ length: 10 }, (_, i) => ({ t: T0 + i * M, p: String(i + 1), q: '1' })));
const asOf = T0 + 9 * M + 30 * S;
const opens = (rows: readonly { openTime: number }[]) => rows.map((r) => (r.openTime - T0) / M);

describe('klines selection by startTime, endTime and limit', () => {
  it('with neither bound returns the newest klines, the open one last', () => {
    expect(opens(tape.klines(asOf, { interval: '1m', limit: 3 }))).toEqual([7, 8, 9]);
  });

  it('startTime keeps klines opening at or after it, oldest first', () => {
    expect(opens(tape.klines(asOf, { interval: '1m', startTime: T0 + 2 * M, limit: 2 }))).toEqual([2, 3]);
    expect(opens(tape.klines(asOf, { interval: '1m', startTime: T0 + 2 * M + 1, limit: 2 }))).toEqual([3, 4]);
  });

  it('endTime keeps klines opening at or before it, newest first', () => {
    expect(opens(tape.klines(asOf, { interval: '1m', endTime: T0 + 4 * M, limit: 2 }))).toEqual([3, 4]);
    expect(opens(tape.klines(asOf, { interval: '1m', endTime: T0 + 4 * M - 1, limit: 2 }))).toEqual([2, 3]);
  });

  it('both bounds behave like startTime without passing endTime', () => {
    expect(opens(tape.klines(asOf, { interval: '1m', startTime: T0 + 2 * M, endTime: T0 + 4 * M }))).toEqual([2, 3, 4]);
    expect(opens(tape.klines(asOf, { interval: '1m', startTime: T0 + 2 * M, endTime: T0 + 4 * M, limit: 2 }))).toEqual([2, 3]);
  });

  it('startTime after endTime selects nothing', () => {
    expect(tape.klines(asOf, { interval: '1m', startTime: T0 + 5 * M, endTime: T0 + 4 * M })).toEqual([]);
  });

  it('klines begin at the first trade, however early startTime is', () => {
    expect(opens(tape.klines(asOf, { interval: '1m', startTime: 0, limit: 2 }))).toEqual([0, 1]);
    expect(tape.klines(asOf, { interval: '1m', endTime: T0 - 1 })).toEqual([]);
  });

  it('nothing opening after asOf is returned, whatever endTime or startTime say', () => {
    expect(opens(tape.klines(T0 + 3 * M, { interval: '1m', endTime: T0 + 100 * M }))).toEqual([0, 1, 2, 3]);
    expect(tape.klines(T0 + 3 * M, { interval: '1m', startTime: T0 + 4 * M })).toEqual([]);
    expect(tape.klines(T0 - 1, { interval: '1m' })).toEqual([]);
  });

  it('the limit defaults to 500 and is capped at 1000', () => {
    const h = historyOf([
      { t: T0, p: '1', q: '1' },
      { t: T0 + 2000 * S, p: '2', q: '1' },
    ]);
    const newest = h.klines(T0 + 2000 * S, { interval: '1s' });
    expect(newest).toHaveLength(500);
    expect(newest[499]!.close).toBe(u('2'));
    expect(newest[0]!.close).toBe(u('1')); // a flat second carrying the first trade's price
    expect(h.klines(T0 + 2000 * S, { interval: '1s', limit: 5000 })).toHaveLength(1000);
    expect(opens(h.klines(T0 + 2000 * S, { interval: '1s', startTime: T0, limit: 5000 }).slice(-1))).toEqual([999 / 60]);
  });

  it('uiKlines returns the same rows as klines', () => {
    const query = { interval: '1m', startTime: T0 + M, timeZone: '05:45', limit: 4 } as const;
    expect(tape.uiKlines(asOf, query)).toEqual(tape.klines(asOf, query));
  });

  it('an empty history has no klines', () => {
    expect(historyOf([]).klines(asOf, { interval: '1m' })).toEqual([]);
  });
});
