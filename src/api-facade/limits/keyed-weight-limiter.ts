/**
 * A request-weight limit counted per key other than the IP's general budget, on the same fixed,
 * UTC-aligned windows (FixedWindowCounters): the per-UID weight of /sapi endpoints that the docs
 * give "per user id" (fiat deposit 45000, pay history 3000; binance.com's UID limit is 180000 per
 * minute), and per-IP limits an endpoint group shares (funding rate history and funding info:
 * 500 requests per 5 minutes).
 *
 * Rules: a request passes while every window's total, itself included, stays within the limit;
 * a refused request counts nothing (unlike the IP limiter: no ban ladder sits behind these, so a
 * client that waits `Retry-After` is served again). Refusal: HTTP 429 -1003 with the message the
 * limiter was built with and `Retry-After` in whole seconds to the window's end. No clock: time
 * is passed in as simulated µs.
 */
import { type ApiError, apiError } from '../core/index.ts';
import { MICROS_PER_SECOND } from '../../clock/index.ts';
import { FixedWindowCounters, type CountersSnapshot } from './fixed-window-counters.ts';
import { limitHeaderName, validateRateLimits, windowEndUs, type RateLimit, type WindowUsage } from './rate-limit-config.ts';

export type KeyedCharge =
  | { readonly ok: true; readonly usage: readonly WindowUsage[] }
  | { readonly ok: false; readonly error: ApiError; readonly retryAfterSeconds: number; readonly usage: readonly WindowUsage[] };

export interface KeyedWeightLimiterOptions {
  readonly limits: readonly RateLimit[];
  /** The 429 -1003 error for an exceeded limit (a row of exchange-errors.ts). */
  readonly error: (limit: RateLimit) => ApiError;
  /** Header prefix for the usage (e.g. X-SAPI-USED-UID-WEIGHT-); none when absent. */
  readonly headerPrefix?: string;
}

export class KeyedWeightLimiter {
  readonly limits: readonly RateLimit[];
  readonly #error: (limit: RateLimit) => ApiError;
  readonly #headerPrefix: string | undefined;
  readonly #keys = new Map<string, FixedWindowCounters>();
  /** Keys whose counters may have changed since `takeChanged` (a journal's delta). */
  readonly #changed = new Set<string>();

  /** Every key's counters as plain data, in insertion order (a journal snapshot). */
  snapshot(): [string, CountersSnapshot][] {
    return [...this.#keys].map(([key, counters]) => [key, counters.snapshot()]);
  }

  /** The counters of the keys changed since the last call, as `snapshot` rows (a journal's delta). */
  takeChanged(): [string, CountersSnapshot][] {
    const rows: [string, CountersSnapshot][] = [];
    for (const key of this.#changed) {
      const counters = this.#keys.get(key);
      if (counters !== undefined) rows.push([key, counters.snapshot()]);
    }
    this.#changed.clear();
    return rows;
  }

  /** Replaces the counters with what `snapshot` took. */
  restore(rows: readonly (readonly [string, CountersSnapshot])[]): void {
    this.#keys.clear();
    for (const [key, snapshot] of rows) {
      const counters = new FixedWindowCounters(this.limits);
      counters.restore(snapshot);
      this.#keys.set(key, counters);
    }
  }

  constructor(options: KeyedWeightLimiterOptions) {
    this.limits = validateRateLimits(options.limits);
    this.#error = options.error;
    this.#headerPrefix = options.headerPrefix;
  }

  charge(key: string, weight: number, nowUs: number): KeyedCharge {
    if (!Number.isSafeInteger(weight) || weight < 0) throw new RangeError(`weight must be a non-negative integer, got ${weight}`);
    const counters = this.#counters(key);
    const over = this.limits.filter((limit, i) => counters.get(i, nowUs) + weight > limit.limit);
    if (over.length > 0) {
      const reset = Math.max(...over.map((l) => windowEndUs(l, nowUs)));
      return {
        ok: false,
        error: this.#error(over[0]!),
        retryAfterSeconds: Math.ceil((reset - nowUs) / MICROS_PER_SECOND),
        usage: this.usage(key, nowUs),
      };
    }
    this.limits.forEach((_, i) => counters.add(i, weight, nowUs));
    return { ok: true, usage: this.usage(key, nowUs) };
  }

  usage(key: string, nowUs: number): readonly WindowUsage[] {
    const counters = this.#keys.get(key);
    return this.limits.map((limit, i) => ({ limit, used: counters === undefined ? 0 : counters.get(i, nowUs) }));
  }

  /** Usage headers (`<prefix><intervalNum><letter>`), empty without a prefix. */
  headers(usage: readonly WindowUsage[]): Record<string, string> {
    const out: Record<string, string> = {};
    if (this.#headerPrefix === undefined) return out;
    for (const u of usage) {
      const name = limitHeaderName(u.limit);
      if (name !== undefined) out[this.#headerPrefix + name.slice(name.lastIndexOf('-') + 1)] = String(u.used);
    }
    return out;
  }

  #counters(key: string): FixedWindowCounters {
    this.#changed.add(key);
    let counters = this.#keys.get(key);
    if (counters === undefined) {
      counters = new FixedWindowCounters(this.limits);
      this.#keys.set(key, counters);
    }
    return counters;
  }
}

/** The limiters the endpoint table can name in `keyedLimit`. */
export type KeyedLimitName = 'fundingRate' | 'uidWeight';

/** binance.com's per-UID request weight of /sapi: 180000 per minute. */
export const UID_WEIGHT_LIMITS: readonly RateLimit[] = [{ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 180_000 }];
/** Funding rate history and funding info share 500 requests per 5 minutes per IP (spec). */
export const FUNDING_RATE_LIMITS: readonly RateLimit[] = [{ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 5, limit: 500 }];

export function defaultKeyedLimiters(): Record<KeyedLimitName, KeyedWeightLimiter> {
  return {
    uidWeight: new KeyedWeightLimiter({
      limits: UID_WEIGHT_LIMITS,
      error: (l) => apiError('TOO_MUCH_UID_WEIGHT', l.limit, l.intervalNum, l.interval),
      headerPrefix: 'X-SAPI-USED-UID-WEIGHT-',
    }),
    fundingRate: new KeyedWeightLimiter({
      limits: FUNDING_RATE_LIMITS,
      error: (l) => apiError('TOO_MANY_FUNDING_RATE_REQUESTS', l.limit, l.intervalNum, l.interval),
    }),
  };
}
