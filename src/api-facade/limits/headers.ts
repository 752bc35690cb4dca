/**
 * The rate-limit response headers, built from limiter state (binance-facts §4.2, spec Limits).
 *
 * Rules
 * - Every response: `X-MBX-USED-WEIGHT-(intervalNum)(letter)` per REQUEST_WEIGHT window (e.g.
 *   `X-MBX-USED-WEIGHT-1M`), plus the legacy `X-MBX-USED-WEIGHT` with the 1-minute value (still
 *   sent since 2019). RAW_REQUESTS has no header.
 * - `X-MBX-ORDER-COUNT-(intervalNum)(letter)` only when the caller passes order counts: on
 *   successful order endpoints (rejected orders are not guaranteed to carry them, so none do).
 * - `Retry-After` (whole seconds) only when given: 429 / 418 from the weight limiter. A -1015
 *   refusal carries none (spec Limits 3).
 *
 * Choices: names use the documented capitalisation (HTTP header names are case-insensitive; Node
 * lowercases them on read). If no 1-MINUTE REQUEST_WEIGHT window is configured, the legacy header
 * carries the first REQUEST_WEIGHT window. Insertion order is fixed (weight, legacy, orders,
 * Retry-After) so serialised responses are byte-identical across runs.
 */
import { limitHeaderName, type WindowUsage } from './rate-limit-config.ts';

export interface LimitHeaderInput {
  /** Weight usage of the requesting IP (RequestWeightLimiter `charge` / `usage`). */
  readonly weight: readonly WindowUsage[];
  /** Unfilled order counts of the account, only for a successful order response. */
  readonly orderCounts?: readonly WindowUsage[] | undefined;
  /** Seconds for `Retry-After`, only for a 429 / 418 from the weight limiter. */
  readonly retryAfterSeconds?: number | undefined;
}

export const LEGACY_USED_WEIGHT_HEADER = 'X-MBX-USED-WEIGHT';
export const RETRY_AFTER_HEADER = 'Retry-After';

/** The rate-limit headers of one response, name → value. */
export function buildLimitHeaders(input: LimitHeaderInput): Record<string, string> {
  return writeLimitHeaders({}, input);
}

/** Adds the rate-limit headers to `headers` (in the order above) and returns it. */
export function writeLimitHeaders(headers: Record<string, string>, input: LimitHeaderInput): Record<string, string> {
  let legacy: WindowUsage | undefined;
  let firstWeight: WindowUsage | undefined;
  for (const w of input.weight) {
    if (w.limit.rateLimitType !== 'REQUEST_WEIGHT') continue;
    firstWeight ??= w;
    if (legacy === undefined && w.limit.interval === 'MINUTE' && w.limit.intervalNum === 1) legacy = w;
    const name = limitHeaderName(w.limit);
    if (name !== undefined) headers[name] = String(w.used);
  }
  legacy ??= firstWeight;
  if (legacy !== undefined) headers[LEGACY_USED_WEIGHT_HEADER] = String(legacy.used);

  if (input.orderCounts !== undefined) {
    for (const c of input.orderCounts) {
      if (c.limit.rateLimitType !== 'ORDERS') continue;
      const name = limitHeaderName(c.limit);
      if (name !== undefined) headers[name] = String(c.used);
    }
  }

  if (input.retryAfterSeconds !== undefined) headers[RETRY_AFTER_HEADER] = String(input.retryAfterSeconds);
  return headers;
}
