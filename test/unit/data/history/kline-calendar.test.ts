import { describe, expect, it } from 'vitest';
import { civilFromDays, KlineGrid, parseTimeZone } from '../../../../src/data/history/kline-calendar.ts';
import type { KlineInterval } from '../../../../src/data/tape.ts';
import { KLINE_INTERVALS } from '../../../../src/data/tape.ts';
import { utc } from './helpers.ts';

// Thursday 2024-02-29 (a leap day) 13:47:31.123456 UTC.
const t = utc(2024, 2, 29, 13, 47, 31) + 123_456;

describe('kline period boundaries in UTC', () => {
  // Worked out by hand: the open time of the period holding t, and of the next period.
  const expected: Record<KlineInterval, [number, number]> = {
    '1s': [utc(2024, 2, 29, 13, 47, 31), utc(2024, 2, 29, 13, 47, 32)],
    '1m': [utc(2024, 2, 29, 13, 47), utc(2024, 2, 29, 13, 48)],
    '3m': [utc(2024, 2, 29, 13, 45), utc(2024, 2, 29, 13, 48)],
    '5m': [utc(2024, 2, 29, 13, 45), utc(2024, 2, 29, 13, 50)],
    '15m': [utc(2024, 2, 29, 13, 45), utc(2024, 2, 29, 14, 0)],
    '30m': [utc(2024, 2, 29, 13, 30), utc(2024, 2, 29, 14, 0)],
    '1h': [utc(2024, 2, 29, 13), utc(2024, 2, 29, 14)],
    '2h': [utc(2024, 2, 29, 12), utc(2024, 2, 29, 14)],
    '4h': [utc(2024, 2, 29, 12), utc(2024, 2, 29, 16)],
    '6h': [utc(2024, 2, 29, 12), utc(2024, 2, 29, 18)],
    '8h': [utc(2024, 2, 29, 8), utc(2024, 2, 29, 16)],
    '12h': [utc(2024, 2, 29, 12), utc(2024, 3, 1, 0)],
    '1d': [utc(2024, 2, 29), utc(2024, 3, 1)],
    // Day 19782 (Feb 29) is 0 mod 3; 3d periods open on days = 1 mod 3: day 19780 = Feb 27.
    '3d': [utc(2024, 2, 27), utc(2024, 3, 1)],
    '1w': [utc(2024, 2, 26), utc(2024, 3, 4)], // Monday to Monday
    '1M': [utc(2024, 2, 1), utc(2024, 3, 1)], // 29 days
  };

  it.each(KLINE_INTERVALS.map((i) => [i]))('%s', (interval) => {
    const grid = new KlineGrid(interval);
    const [open, next] = expected[interval];
    expect(grid.startOf(t)).toBe(open);
    expect(grid.next(open)).toBe(next);
    expect(grid.startOf(open)).toBe(open);
    expect(grid.startOf(open - 1)).toBe(grid.previous(open));
    expect(grid.next(grid.previous(open))).toBe(open);
  });

  it('3d periods run from the 2017-08-17 BTCUSDT listing day in steps of three days', () => {
    const grid = new KlineGrid('3d');
    expect(grid.startOf(utc(2017, 8, 17, 12))).toBe(utc(2017, 8, 17));
    expect(grid.startOf(utc(2018, 6, 28, 0, 16))).toBe(utc(2018, 6, 28));
  });

  it('1M follows calendar month lengths, including December into January', () => {
    const grid = new KlineGrid('1M');
    expect(grid.next(utc(2023, 2, 1)) - utc(2023, 2, 1)).toBe(28 * 86_400_000_000);
    expect(grid.next(utc(2024, 2, 1)) - utc(2024, 2, 1)).toBe(29 * 86_400_000_000);
    expect(grid.next(utc(2024, 4, 1)) - utc(2024, 4, 1)).toBe(30 * 86_400_000_000);
    expect(grid.next(utc(2023, 12, 1))).toBe(utc(2024, 1, 1));
    expect(grid.startOf(utc(2024, 1, 1) - 1)).toBe(utc(2023, 12, 1));
  });
});

describe('kline period boundaries in a time zone', () => {
  it('+08:00 days start at 16:00 UTC the day before', () => {
    expect(new KlineGrid('1d', 8 * 60).startOf(t)).toBe(utc(2024, 2, 28, 16));
  });

  it('-1:00 days start at 01:00 UTC', () => {
    expect(new KlineGrid('1d', -60).startOf(t)).toBe(utc(2024, 2, 29, 1));
  });

  it('05:45 hours start at a quarter past the UTC hour; minutes are unchanged', () => {
    expect(new KlineGrid('1h', 345).startOf(t)).toBe(utc(2024, 2, 29, 13, 15));
    expect(new KlineGrid('1m', 345).startOf(t)).toBe(utc(2024, 2, 29, 13, 47));
  });

  it('+14:00 months: local March began at 10:00 UTC on Feb 29', () => {
    const grid = new KlineGrid('1M', 14 * 60);
    expect(grid.startOf(t)).toBe(utc(2024, 2, 29, 10));
    expect(grid.next(utc(2024, 2, 29, 10))).toBe(utc(2024, 3, 31, 10));
  });

  it('-12:00 weeks: local Monday 00:00 is 12:00 UTC', () => {
    expect(new KlineGrid('1w', -12 * 60).startOf(t)).toBe(utc(2024, 2, 26, 12));
  });
});

describe('parseTimeZone', () => {
  it.each([
    ['0', 0],
    ['8', 480],
    ['+8', 480],
    ['-1:00', -60],
    ['05:45', 345],
    ['+14:00', 840],
    ['-12:00', -720],
    ['-0:30', -30],
    ['-0', 0],
  ])('reads %s as %i minutes', (text, minutes) => {
    expect(parseTimeZone(text)).toBe(minutes);
  });

  it.each(['14:01', '-12:30', '15', '1:60', '1:5', 'abc', '', '+', '1.5', '08:00:00'])('rejects "%s"', (text) => {
    expect(parseTimeZone(text)).toBeNull();
  });
});

describe('civilFromDays', () => {
  it('agrees with Date.UTC over four centuries of month starts', () => {
    for (let year = 1900; year <= 2300; year += 7) {
      for (let month = 1; month <= 12; month++) {
        const days = Date.UTC(year, month - 1, 1) / 86_400_000;
        expect(civilFromDays(days)).toEqual([year, month, 1]);
        expect(civilFromDays(days - 1).slice(0, 2)).toEqual(month === 1 ? [year - 1, 12] : [year, month - 1]);
      }
    }
  });
});
