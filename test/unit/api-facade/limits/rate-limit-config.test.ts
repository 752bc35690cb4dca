import { describe, expect, it } from 'vitest';
import {
  BINANCE_RATE_LIMITS,
  describePeriod,
  exchangeInfoRateLimits,
  limitHeaderName,
  validateRateLimits,
  windowEndUs,
  windowStartUs,
  type RateLimit,
} from '../../../../src/api-facade/limits/rate-limit-config.ts';

const MS = 1_000;
const S = 1_000_000;
/** 2024-01-15 12:00:00 UTC in µs: on a minute, 10-second and 5-minute boundary. */
const T0 = Date.UTC(2024, 0, 15, 12, 0, 0) * MS;
const DAY0 = Date.UTC(2024, 0, 15) * MS;

const at = (i: number): RateLimit => {
  const l = BINANCE_RATE_LIMITS[i];
  if (l === undefined) throw new Error(`no limit ${i}`);
  return l;
};

describe('exchangeInfo rateLimits', () => {
  it('lists the live values in exchangeInfo order', () => {
    expect(exchangeInfoRateLimits()).toEqual([
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000 },
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 100 },
      { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: 200000 },
      { rateLimitType: 'RAW_REQUESTS', interval: 'MINUTE', intervalNum: 5, limit: 300000 },
    ]);
  });

  it('shows a configured list as given', () => {
    const custom: RateLimit[] = [{ rateLimitType: 'REQUEST_WEIGHT', interval: 'HOUR', intervalNum: 2, limit: 10 }];
    expect(exchangeInfoRateLimits(validateRateLimits(custom))).toEqual(custom);
  });

  it('names each window header with intervalNum and the interval letter; RAW_REQUESTS has none', () => {
    expect(BINANCE_RATE_LIMITS.map(limitHeaderName)).toEqual([
      'X-MBX-USED-WEIGHT-1M',
      'X-MBX-ORDER-COUNT-10S',
      'X-MBX-ORDER-COUNT-1D',
      undefined,
    ]);
    expect(limitHeaderName({ rateLimitType: 'REQUEST_WEIGHT', interval: 'HOUR', intervalNum: 1, limit: 1 })).toBe('X-MBX-USED-WEIGHT-1H');
    expect(describePeriod(at(1))).toBe('10 SECOND');
  });

  it('rejects unknown types, non-positive numbers and duplicate windows', () => {
    const ok: RateLimit = { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 5 };
    expect(() => validateRateLimits([{ ...ok, intervalNum: 0 }])).toThrow(RangeError);
    expect(() => validateRateLimits([{ ...ok, limit: 1.5 }])).toThrow(RangeError);
    expect(() => validateRateLimits([{ ...ok, interval: 'WEEK' as RateLimit['interval'] }])).toThrow(RangeError);
    expect(() => validateRateLimits([{ ...ok, rateLimitType: 'CONNECTIONS' as RateLimit['rateLimitType'] }])).toThrow(RangeError);
    expect(() => validateRateLimits([ok, { ...ok, limit: 7 }])).toThrow(/duplicate/);
  });
});

describe('fixed windows aligned to UTC', () => {
  it('a minute window starts on the clock minute, not at the first request', () => {
    const minute = at(0);
    expect(windowStartUs(minute, T0 + 59_999 * MS)).toBe(T0);
    expect(windowStartUs(minute, T0 + 60 * S)).toBe(T0 + 60 * S);
    expect(windowEndUs(minute, T0 + 30 * S)).toBe(T0 + 60 * S);
  });

  it('10-second windows start on multiples of 10 s, 5-minute windows on multiples of 5 min', () => {
    expect(windowStartUs(at(1), T0 + 19_999_999)).toBe(T0 + 10 * S);
    expect(windowStartUs(at(3), T0 + 7 * 60 * S)).toBe(T0 + 5 * 60 * S);
  });

  it('a DAY window starts at 00:00 UTC', () => {
    expect(windowStartUs(at(2), T0)).toBe(DAY0);
    expect(windowEndUs(at(2), T0)).toBe(DAY0 + 86_400 * S);
  });
});
