/**
 * FundingSchedule: a perpetual's funding times on its interval's UTC grid (8 h: 00/08/16, 4 h:
 * 00/04/.../20, 1 h: each hour) and, where fundings were recorded, at the recorded times with the
 * recorded rates; the setting's grid before them and the last recorded interval's after them.
 */
import { describe, expect, test } from 'vitest';
import { FundingSchedule } from '../../../src/futures/funding-schedule.ts';
import { fundingFromPremium, interestRateFor } from '../../../src/futures/funding.ts';

const H = 3_600_000_000;
const T0 = Date.UTC(2024, 0, 1) * 1000;

describe('the interval grid', () => {
  test('8 h by default: 00, 08, 16 UTC', () => {
    const s = new FundingSchedule();
    expect(s.between(T0, T0 + 24 * H).map((t) => (t - T0) / H)).toEqual([0, 8, 16, 24]);
    expect((s.next(T0 + 1) - T0) / H).toBe(8);
    expect(s.atOrBefore(T0 + 8 * H - 1)).toBe(T0);
  });

  test('4 h: 00, 04, 08, 12, 16, 20 UTC; the next after a funding time is 4 h on', () => {
    const s = new FundingSchedule({ intervalHours: 4 });
    expect(s.between(T0 + 1, T0 + 24 * H - 1).map((t) => (t - T0) / H)).toEqual([4, 8, 12, 16, 20]);
    expect((s.next(T0 + 4 * H) - T0) / H).toBe(8);
    expect(s.intervalAt(T0 + 5 * H)).toBe(4);
  });

  test('1 h: every hour; anything but 1, 4 or 8 is refused', () => {
    expect(new FundingSchedule({ intervalHours: 1 }).between(T0, T0 + 3 * H).map((t) => (t - T0) / H)).toEqual([0, 1, 2, 3]);
    expect(() => new FundingSchedule({ intervalHours: 2 })).toThrow('funding interval 2 h: Binance uses 1, 4, 8 h');
  });
});

describe('the interest part scales with the interval (0.03 % a day / (24 / h))', () => {
  test('0.01 % per 8 h, 0.005 % per 4 h, 0.00125 % per hour (1e-8 units)', () => {
    expect([interestRateFor(8), interestRateFor(4), interestRateFor(1)]).toEqual([10_000, 5_000, 1_250]);
  });

  test('a premium inside the clamp settles at the interval interest; far outside, premium ∓ 0.05 %', () => {
    expect(fundingFromPremium(3_000, 4)).toBe(5_000);
    expect(fundingFromPremium(3_000, 8)).toBe(10_000);
    expect(fundingFromPremium(200_000, 4)).toBe(150_000);
  });
});

describe('recorded fundings', () => {
  // 08:00 and 16:00 of day 1 recorded, the second closing a 4 h interval (the symbol changed).
  const s = new FundingSchedule({
    recorded: [
      { time: T0 + 8 * H, intervalHours: 8, rate: 37_409 },
      { time: T0 + 16 * H + 5_000, intervalHours: 4, rate: -12_000 },
    ],
  });

  test('the grid before them, their own times (as recorded, 5 ms late), then the last interval\'s grid', () => {
    expect(s.between(T0, T0 + 26 * H).map((t) => (t - T0) / 1000)).toEqual([0, 8 * 3_600_000, 16 * 3_600_000 + 5, 20 * 3_600_000, 24 * 3_600_000]);
    expect(s.next(T0 + 8 * H)).toBe(T0 + 16 * H + 5_000);
    expect(s.atOrBefore(T0 + 17 * H)).toBe(T0 + 16 * H + 5_000);
  });

  test('the recorded rate at a recorded time; intervals as recorded, else the grid\'s', () => {
    expect(s.recordedAt(T0 + 8 * H)?.rate).toBe(37_409);
    expect(s.intervalEndingAt(T0 + 16 * H + 5_000)).toBe(4);
    expect(s.intervalEndingAt(T0)).toBe(8);
    expect(s.intervalEndingAt(T0 + 20 * H)).toBe(4);
    expect(s.interestAt(T0 + 18 * H)).toBe(5_000);
  });
});
