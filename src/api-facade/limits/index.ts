/**
 * Rate limits on simulated time: exchangeInfo's `rateLimits`, the per-IP request-weight limiter
 * with 429/418 bans, the per-account unfilled order count, and the response headers they feed.
 * Everything here is pure: time comes in as simulated µs; no wall clock, timers or randomness.
 * Imports only core/.
 */
export {
  BINANCE_RATE_LIMITS,
  USDM_FUTURES_RATE_LIMITS,
  describePeriod,
  exchangeInfoRateLimits,
  limitHeaderName,
  validateRateLimits,
  windowEndUs,
  windowLengthUs,
  windowStartUs,
  type RateLimit,
  type RateLimitInterval,
  type RateLimitType,
  type WindowUsage,
} from './rate-limit-config.ts';
export {
  DEFAULT_BAN_LADDER_US,
  RequestWeightLimiter,
  type IpSnapshot,
  type RequestWeightLimiterOptions,
  type WeightCharge,
} from './request-weight-limiter.ts';
export {
  OrderCountLimiter,
  type OrderCountCharge,
  type OrderCountLimiterOptions,
  type OrderRateLimitRow,
} from './order-count-limiter.ts';
export { LEGACY_USED_WEIGHT_HEADER, RETRY_AFTER_HEADER, buildLimitHeaders, writeLimitHeaders, type LimitHeaderInput } from './headers.ts';
export { defaultKeyedLimiters, type KeyedLimitName, type KeyedWeightLimiter } from './keyed-weight-limiter.ts';
export type { CountersSnapshot } from './fixed-window-counters.ts';
