import { describe, expect, it } from 'vitest';
import { formatKline } from '../../../../src/data/history/index.ts';
import type { HistoryKline } from '../../../../src/data/history/index.ts';
import { D, historyOf, M, S, T0, u, utc } from './helpers.ts';

/** A kline with the values worked out by hand, as decimals; volumes exact. */
function k(
  openTime: number,
  closeTime: number,
  [open, high, low, close]: [string, string, string, string],
  [volume, quoteVolume, takerBase, takerQuote]: [string, string, string, string],
  trades: number,
  [firstTradeId, lastTradeId]: [number, number] = [-1, -1],
): HistoryKline {
  const exact = {
    volume: BigInt(u(volume)),
    quoteVolume: BigInt(u(quoteVolume)),
    takerBuyBaseVolume: BigInt(u(takerBase)),
    takerBuyQuoteVolume: BigInt(u(takerQuote)),
  };
  return {
    openTime,
    open: u(open),
    high: u(high),
    low: u(low),
    close: u(close),
    volume: u(volume),
    closeTime,
    quoteVolume: u(quoteVolume),
    trades,
    takerBuyBaseVolume: u(takerBase),
    takerBuyQuoteVolume: u(takerQuote),
    exact,
    firstTradeId,
    lastTradeId,
  };
}
const flat = (openTime: number, closeTime: number, price: string) =>
  k(openTime, closeTime, [price, price, price, price], ['0', '0', '0', '0'], 0);

// Two trades in minute 0 (the second 1 µs before the boundary), two in minute 1.
const tape = historyOf([
  { t: T0 + 10 * S, p: '100', q: '1' },
  { t: T0 + M - 1, p: '105', q: '2', buyerMaker: true },
  { t: T0 + M, p: '95', q: '1' },
  { t: T0 + 90 * S, p: '98', q: '3' },
]);

describe('klines OHLCV', () => {
  it('1m: a trade 1 µs before the boundary closes the old minute, one at the boundary opens the next', () => {
    expect(tape.klines(T0 + 100 * S, { interval: '1m' })).toEqual([
      k(T0, T0 + M - 1, ['100', '105', '100', '105'], ['3', '310', '1', '100'], 2, [1, 2]),
      k(T0 + M, T0 + 2 * M - 1, ['95', '98', '95', '98'], ['4', '389', '4', '389'], 2, [3, 4]),
    ]);
  });

  it('the open kline holds only the trades up to asOf, with its full-period closeTime', () => {
    expect(tape.klines(T0 + M, { interval: '1m' })[1]).toEqual(
      k(T0 + M, T0 + 2 * M - 1, ['95', '95', '95', '95'], ['1', '95', '1', '95'], 1, [3, 3]),
    );
    expect(tape.klines(T0 + M - 1, { interval: '1m' })).toHaveLength(1);
  });

  it('periods without trades are flat at the previous close, up to the period holding asOf', () => {
    const rows = tape.klines(T0 + 3 * M + 5 * S, { interval: '1m' });
    expect(rows.slice(2)).toEqual([flat(T0 + 2 * M, T0 + 3 * M - 1, '98'), flat(T0 + 3 * M, T0 + 4 * M - 1, '98')]);
  });

  it('1s klines cut at whole seconds', () => {
    expect(tape.klines(T0 + 61 * S, { interval: '1s', limit: 3 })).toEqual([
      k(T0 + 59 * S, T0 + 60 * S - 1, ['105', '105', '105', '105'], ['2', '210', '0', '0'], 1, [2, 2]),
      k(T0 + 60 * S, T0 + 61 * S - 1, ['95', '95', '95', '95'], ['1', '95', '1', '95'], 1, [3, 3]),
      flat(T0 + 61 * S, T0 + 62 * S - 1, '95'),
    ]);
  });

  it('1h and 1d gather everything so far into one open kline', () => {
    const [hour] = tape.klines(T0 + 100 * S, { interval: '1h' });
    const [day] = tape.klines(T0 + 100 * S, { interval: '1d' });
    const expected = k(T0, T0 + 60 * M - 1, ['100', '105', '95', '98'], ['7', '699', '5', '489'], 4, [1, 4]);
    expect(hour).toEqual(expected);
    expect(day).toEqual({ ...expected, closeTime: T0 + D - 1 });
  });

  it('1w: Sunday 23:59:59.999999 ends the week, Monday 00:00 starts the next', () => {
    const h = historyOf([
      { t: utc(2024, 1, 7, 23, 59, 59) + 999_999, p: '10', q: '1' },
      { t: utc(2024, 1, 8), p: '20', q: '1' },
    ]);
    expect(h.klines(utc(2024, 1, 8, 1), { interval: '1w' })).toEqual([
      k(utc(2024, 1, 1), utc(2024, 1, 8) - 1, ['10', '10', '10', '10'], ['1', '10', '1', '10'], 1, [1, 1]),
      k(utc(2024, 1, 8), utc(2024, 1, 15) - 1, ['20', '20', '20', '20'], ['1', '20', '1', '20'], 1, [2, 2]),
    ]);
  });

  it('1M: calendar months of 31, 29 and 31 days', () => {
    const h = historyOf([
      { t: utc(2024, 1, 15), p: '1', q: '1' },
      { t: utc(2024, 2, 10), p: '2', q: '1' },
      { t: utc(2024, 3, 1) - 1, p: '3', q: '1' },
      { t: utc(2024, 3, 1), p: '4', q: '1' },
    ]);
    expect(h.klines(utc(2024, 3, 2), { interval: '1M' })).toEqual([
      k(utc(2024, 1, 1), utc(2024, 2, 1) - 1, ['1', '1', '1', '1'], ['1', '1', '1', '1'], 1, [1, 1]),
      k(utc(2024, 2, 1), utc(2024, 3, 1) - 1, ['2', '3', '2', '3'], ['2', '5', '2', '5'], 2, [2, 3]),
      k(utc(2024, 3, 1), utc(2024, 4, 1) - 1, ['4', '4', '4', '4'], ['1', '4', '1', '4'], 1, [4, 4]),
    ]);
  });

  it('1M in +14:00: the last µs of Feb 29 UTC is already March locally', () => {
    const h = historyOf([
      { t: utc(2024, 2, 29, 9, 59, 59), p: '1', q: '1' },
      { t: utc(2024, 3, 1) - 1, p: '3', q: '1' },
    ]);
    const rows = h.klines(utc(2024, 3, 2), { interval: '1M', timeZone: '+14:00' });
    expect(rows.map((r) => [r.openTime, r.closeTime, r.close])).toEqual([
      [utc(2024, 1, 31, 10), utc(2024, 2, 29, 10) - 1, u('1')],
      [utc(2024, 2, 29, 10), utc(2024, 3, 31, 10) - 1, u('3')],
    ]);
  });

  it('3d periods open on days 1 mod 3 since the epoch', () => {
    const h = historyOf([
      { t: utc(2024, 2, 26, 23), p: '1', q: '1' },
      { t: utc(2024, 2, 27), p: '2', q: '1' },
    ]);
    expect(h.klines(utc(2024, 2, 27, 1), { interval: '3d' }).map((r) => [r.openTime, r.closeTime, r.open])).toEqual([
      [utc(2024, 2, 24), utc(2024, 2, 27) - 1, u('1')],
      [utc(2024, 2, 27), utc(2024, 3, 1) - 1, u('2')],
    ]);
  });

  it('timeZone +08:00 moves the 1d boundary to 16:00 UTC; times stay UTC', () => {
    const h = historyOf([
      { t: utc(2024, 1, 1, 15, 59, 59), p: '1', q: '1' },
      { t: utc(2024, 1, 1, 16), p: '2', q: '1' },
    ]);
    const asOf = utc(2024, 1, 1, 17);
    expect(h.klines(asOf, { interval: '1d' })).toHaveLength(1);
    expect(h.klines(asOf, { interval: '1d', timeZone: '+08:00' }).map((r) => [r.openTime, r.closeTime, r.close])).toEqual([
      [utc(2023, 12, 31, 16), utc(2024, 1, 1, 16) - 1, u('1')],
      [utc(2024, 1, 1, 16), utc(2024, 1, 2, 16) - 1, u('2')],
    ]);
  });

  it('timeZone 05:45 moves 1h boundaries to a quarter past; -1:00 moves 4h ones by an hour', () => {
    const h = historyOf([
      { t: utc(2024, 1, 1, 10, 14), p: '1', q: '1' },
      { t: utc(2024, 1, 1, 10, 15), p: '2', q: '1' },
    ]);
    const asOf = utc(2024, 1, 1, 10, 20);
    expect(h.klines(asOf, { interval: '1h', timeZone: '05:45' }).map((r) => [r.openTime, r.close])).toEqual([
      [utc(2024, 1, 1, 9, 15), u('1')],
      [utc(2024, 1, 1, 10, 15), u('2')],
    ]);
    expect(h.klines(asOf, { interval: '4h', timeZone: '-1:00' }).map((r) => [r.openTime, r.closeTime])).toEqual([
      [utc(2024, 1, 1, 9), utc(2024, 1, 1, 13) - 1],
    ]);
  });

  it('an invalid timeZone is refused', () => {
    expect(() => tape.klines(T0, { interval: '1h', timeZone: '+15:00' })).toThrow(RangeError);
  });
});

describe('formatKline', () => {
  it('gives the 12-element API row: ms times, decimal strings, trade count, "0"', () => {
    const [row] = tape.klines(T0 + 100 * S, { interval: '1m' });
    expect(formatKline(row!, { quotePrecision: 8, basePrecision: 8 })).toEqual([
      T0 / 1000,
      '100.00000000',
      '105.00000000',
      '100.00000000',
      '105.00000000',
      '3.00000000',
      T0 / 1000 + 59_999,
      '310.00000000',
      2,
      '1.00000000',
      '100.00000000',
      '0',
    ]);
  });

  it('gives µs times when X-MBX-TIME-UNIT asks for them', () => {
    const [row] = tape.klines(T0 + 100 * S, { interval: '1m' });
    const formatted = formatKline(row!, { quotePrecision: 8, basePrecision: 8 }, 'MICROSECOND');
    expect([formatted[0], formatted[6]]).toEqual([T0, T0 + M - 1]);
  });

  it('formats a plain Kline (no exact volumes) from its number fields', () => {
    const plain = { openTime: T0, open: 1, high: 2, low: 1, close: 2, volume: 5, closeTime: T0 + S - 1, quoteVolume: 7, trades: 3, takerBuyBaseVolume: 1, takerBuyQuoteVolume: 2 };
    expect(formatKline(plain, { quotePrecision: 2, basePrecision: 0 })).toEqual([
      T0 / 1000, '0.01', '0.02', '0.01', '0.02', '5', T0 / 1000 + 999, '0.07', 3, '1', '0.02', '0',
    ]);
  });
});
