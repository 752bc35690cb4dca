import { describe, expect, it } from 'vitest';
import { historyOf, M, S, T0, u } from './helpers.ts';

const tape = historyOf([
  { t: T0, p: '100', q: '1' },
  { t: T0 + M, p: '120', q: '3' },
  { t: T0 + 6 * M, p: '200', q: '1' },
]);

describe('avgPrice', () => {
  it('is the volume-weighted average of the trades in the last mins minutes, closeTime the last trade', () => {
    // (100 * 1 + 120 * 3) / 4 = 115
    expect(tape.avgPrice(T0 + 2 * M)).toEqual({ mins: 5, price: u('115'), closeTime: T0 + M });
  });

  it('counts trades in (asOf - mins, asOf]: the start is exclusive, asOf inclusive', () => {
    expect(tape.avgPrice(T0 + 5 * M - 1)!.price).toBe(u('115'));
    expect(tape.avgPrice(T0 + 5 * M)!.price).toBe(u('120'));
    expect(tape.avgPrice(T0 + 6 * M)).toEqual({ mins: 5, price: u('200'), closeTime: T0 + 6 * M });
    expect(tape.avgPrice(T0 + 6 * M - 1)).toEqual({ mins: 5, price: u('120'), closeTime: T0 + M });
  });

  it('with no trade in the window takes the last trade before it', () => {
    expect(tape.avgPrice(T0 + 20 * M)).toEqual({ mins: 5, price: u('200'), closeTime: T0 + 6 * M });
  });

  it('is null for a symbol that has not traded yet', () => {
    expect(tape.avgPrice(T0 - 1)).toBeNull();
    expect(historyOf([]).avgPrice(T0)).toBeNull();
  });

  it('honours another window length, and 0 minutes means the last price', () => {
    // 10 minutes at T0 + 6m: (100 * 1 + 120 * 3 + 200 * 1) / 5 = 132
    expect(tape.avgPrice(T0 + 6 * M, 10)).toEqual({ mins: 10, price: u('132'), closeTime: T0 + 6 * M });
    expect(tape.avgPrice(T0 + 2 * M, 0)).toEqual({ mins: 0, price: u('120'), closeTime: T0 + M });
  });

  it('rounds the average half up at the quote precision', () => {
    // (1 * 1 + 2 * 2) / 3 = 1.666666666... -> 1.66666667
    const third = historyOf([
      { t: T0, p: '1', q: '1' },
      { t: T0, p: '2', q: '2' },
    ]);
    expect(third.avgPrice(T0)!.price).toBe(u('1.66666667'));
    // (0.00000001 + 0.00000002) / 2 = 0.000000015 -> 0.00000002
    const half = historyOf([
      { t: T0, p: '0.00000001', q: '1' },
      { t: T0 + S, p: '0.00000002', q: '1' },
    ]);
    expect(half.avgPrice(T0 + S)!.price).toBe(2);
  });

  it('refuses a negative or fractional window', () => {
    expect(() => tape.avgPrice(T0, -1)).toThrow(RangeError);
    expect(() => tape.avgPrice(T0, 1.5)).toThrow(RangeError);
  });
});
