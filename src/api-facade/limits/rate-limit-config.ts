/**
 * The exchange's rate limits as exchangeInfo shows them (`rateLimits`), plus the window arithmetic
 * and header names every limiter and the header builder share.
 *
 * Rules
 * - Defaults are the live binance.com values of binance-facts §4.1, in the order a captured live
 *   exchangeInfo lists them: REQUEST_WEIGHT 1 MINUTE 6000, ORDERS 10 SECOND 100, ORDERS 1 DAY
 *   200000, RAW_REQUESTS 5 MINUTE 300000 (the RAW_REQUESTS value since 2026-04-02). The docs only
 *   show illustrative ORDERS values; 100/10 s and 200000/day come from a live capture.
 * - Any list of limits may replace them (validated: known types and intervals, positive integer
 *   intervalNum and limit, no two limits with the same type and window).
 * - Windows are FIXED and aligned to the interval start in UTC, the way Binance counts them
 *   ("12:34:00 to 12:34:10, then 12:34:10 to 12:34:20", faqs/order_count_decrement): a window of
 *   intervalNum × interval starts at a multiple of its length since the Unix epoch, so MINUTE
 *   windows start on the clock minute and DAY windows at 00:00 UTC. Not a sliding window.
 * - Header names: `X-MBX-USED-WEIGHT-(intervalNum)(letter)` for REQUEST_WEIGHT and
 *   `X-MBX-ORDER-COUNT-(intervalNum)(letter)` for ORDERS, letters SECOND=S, MINUTE=M, HOUR=H,
 *   DAY=D. RAW_REQUESTS has no header: real responses carry only the weight headers.
 */
import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE, MICROS_PER_SECOND, assertMicros } from '../../clock/index.ts';

export type RateLimitType = 'REQUEST_WEIGHT' | 'ORDERS' | 'RAW_REQUESTS';
export type RateLimitInterval = 'SECOND' | 'MINUTE' | 'HOUR' | 'DAY';

/** One element of exchangeInfo's `rateLimits`, field for field. */
export interface RateLimit {
  readonly rateLimitType: RateLimitType;
  readonly interval: RateLimitInterval;
  readonly intervalNum: number;
  readonly limit: number;
}

/** The live binance.com limits (binance-facts §4.1), in exchangeInfo order. */
export const BINANCE_RATE_LIMITS: readonly RateLimit[] = Object.freeze([
  Object.freeze({ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000 }),
  Object.freeze({ rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 100 }),
  Object.freeze({ rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: 200000 }),
  Object.freeze({ rateLimitType: 'RAW_REQUESTS', interval: 'MINUTE', intervalNum: 5, limit: 300000 }),
] satisfies RateLimit[]);

/**
 * The USDⓈ-M futures API's own limits (futures facts §1, the exchangeInfo example of /fapi, in its
 * order): REQUEST_WEIGHT 2400 per minute per IP, ORDERS 1200 per minute and 300 per 10 seconds
 * per account. Counted apart from spot's: a /fapi request never uses spot's budget, nor the reverse.
 */
export const USDM_FUTURES_RATE_LIMITS: readonly RateLimit[] = Object.freeze([
  Object.freeze({ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 2400 }),
  Object.freeze({ rateLimitType: 'ORDERS', interval: 'MINUTE', intervalNum: 1, limit: 1200 }),
  Object.freeze({ rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 300 }),
] satisfies RateLimit[]);

const UNIT_MICROS: Record<RateLimitInterval, number> = {
  SECOND: MICROS_PER_SECOND,
  MINUTE: MICROS_PER_MINUTE,
  HOUR: MICROS_PER_HOUR,
  DAY: MICROS_PER_DAY,
};

const LETTER: Record<RateLimitInterval, string> = { SECOND: 'S', MINUTE: 'M', HOUR: 'H', DAY: 'D' };

const TYPES: ReadonlySet<string> = new Set<RateLimitType>(['REQUEST_WEIGHT', 'ORDERS', 'RAW_REQUESTS']);

/** Length of one window of `limit`, µs. */
export function windowLengthUs(limit: RateLimit): number {
  return limit.intervalNum * UNIT_MICROS[limit.interval];
}

/** Start (µs) of the fixed window of `limit` that contains `nowUs`: a multiple of its length since the epoch. */
export function windowStartUs(limit: RateLimit, nowUs: number): number {
  const len = windowLengthUs(limit);
  return Math.floor(nowUs / len) * len;
}

/** End (µs, exclusive) of the window containing `nowUs`: when its count resets. */
export function windowEndUs(limit: RateLimit, nowUs: number): number {
  return windowStartUs(limit, nowUs) + windowLengthUs(limit);
}

/** "1 MINUTE", "10 SECOND": the period as the -1003 / -1015 messages spell it. */
export function describePeriod(limit: RateLimit): string {
  return `${limit.intervalNum} ${limit.interval}`;
}

/**
 * The response header that reports this limit's usage, or undefined for RAW_REQUESTS (which has
 * none on the wire).
 */
export function limitHeaderName(limit: RateLimit): string | undefined {
  // Every response names its limits: remembered per limit object, for the frozen ones the
  // limiters hold (validateRateLimits), which cannot change under the cache.
  const cached = HEADER_NAMES.get(limit);
  if (cached !== undefined) return cached ?? undefined;
  const name = headerNameOf(limit);
  if (Object.isFrozen(limit)) HEADER_NAMES.set(limit, name ?? null);
  return name;
}

const HEADER_NAMES = new WeakMap<RateLimit, string | null>();

function headerNameOf(limit: RateLimit): string | undefined {
  const suffix = `${limit.intervalNum}${LETTER[limit.interval]}`;
  switch (limit.rateLimitType) {
    case 'REQUEST_WEIGHT':
      return `X-MBX-USED-WEIGHT-${suffix}`;
    case 'ORDERS':
      return `X-MBX-ORDER-COUNT-${suffix}`;
    case 'RAW_REQUESTS':
      return undefined;
  }
}

/**
 * Checks a configured list and returns a frozen copy (the limiters keep it, so later changes to
 * the caller's array cannot alter a running simulation). Throws a RangeError naming the bad entry.
 */
export function validateRateLimits(limits: readonly RateLimit[]): readonly RateLimit[] {
  const seen = new Set<string>();
  const out: RateLimit[] = [];
  limits.forEach((l, i) => {
    const where = `rateLimits[${i}]`;
    if (!TYPES.has(l.rateLimitType)) throw new RangeError(`${where}: unknown rateLimitType ${String(l.rateLimitType)}`);
    if (!Object.hasOwn(UNIT_MICROS, l.interval)) throw new RangeError(`${where}: unknown interval ${String(l.interval)}`);
    if (!Number.isSafeInteger(l.intervalNum) || l.intervalNum < 1) throw new RangeError(`${where}: intervalNum must be a positive integer`);
    if (!Number.isSafeInteger(l.limit) || l.limit < 1) throw new RangeError(`${where}: limit must be a positive integer`);
    // Window lengths in µs must stay exact integers for the window arithmetic.
    assertMicros(windowLengthUs(l), `${where} window length`);
    const key = `${l.rateLimitType} ${l.intervalNum} ${l.interval}`;
    if (seen.has(key)) throw new RangeError(`${where}: duplicate limit ${key}`);
    seen.add(key);
    out.push(Object.freeze({ rateLimitType: l.rateLimitType, interval: l.interval, intervalNum: l.intervalNum, limit: l.limit }));
  });
  return Object.freeze(out);
}

/** exchangeInfo's `rateLimits` array: plain objects in configured order. */
export function exchangeInfoRateLimits(limits: readonly RateLimit[] = BINANCE_RATE_LIMITS): RateLimit[] {
  return limits.map((l) => ({ rateLimitType: l.rateLimitType, interval: l.interval, intervalNum: l.intervalNum, limit: l.limit }));
}

/** How much of one limit's current window is used: weight, raw requests or unfilled orders. */
export interface WindowUsage {
  readonly limit: RateLimit;
  readonly used: number;
}
