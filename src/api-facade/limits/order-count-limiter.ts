/**
 * The unfilled order count (rateLimitType ORDERS) per ACCOUNT on simulated time, in fixed
 * UTC-aligned windows (rate-limit-config): by default 100 per 10 SECOND and 200000 per 1 DAY.
 * Pure and deterministic: time is passed in as simulated µs.
 *
 * Rules (documented facts, binance-facts §4.2, §5.11, §5.15)
 * - Per (sub)account, shared across IPs, API keys and APIs.
 * - A new order adds n: 1 per order, 2 for OCO/OTO/OPO, 3 for OTOCO/OPOCO, 1 for cancelReplace
 *   even when its new order is NOT_ATTEMPTED, 0 for amend keepPriority. The caller passes n.
 * - Over the limit: HTTP 429, -1015 "Too many new orders; current limit is 100 orders per 10
 *   SECOND." (`<limit> orders per <intervalNum> <INTERVAL>`), and no `Retry-After`.
 * - An order's first fill (partial or full) lowers every ORDERS interval by 1 (more for maker /
 *   large fills, so `by` may exceed 1), in the CURRENT window whenever the order was placed;
 *   never below 0 (no credit). Cancels and expiries change nothing.
 * - If the DAY count is exceeded, the SECOND count is no longer incremented (since 2025-04-07).
 * - Successful order responses carry `X-MBX-ORDER-COUNT-10S` / `-1D` with these counts.
 *
 * Choices where the docs are silent
 * - Limit test: an order of n passes while count + n <= limit in every interval (an OCO at 99 of
 *   100 is refused: 101 would exceed). n = 0 (amend) is never refused.
 * - A refused (-1015) order still COUNTS (`rejectedOrdersCount`, default true): the 2025-04-07
 *   change only means something if refused orders used to raise the SECOND count, a NOT_ATTEMPTED
 *   cancelReplace counts, and the docs speak of the count being "already exceeded". So counts can
 *   stand above the limit (visible in rateLimit/order) and a client that keeps sending stays
 *   refused until the window resets. Set false to count successful orders only.
 * - "DAY exceeded" means this order would take a DAY count past its limit. Such an order is
 *   refused naming the DAY limit, and adds nothing to the SECOND intervals; other intervals
 *   (MINUTE, HOUR: not in Binance's config) are counted normally. Otherwise the message names the
 *   first exceeded limit in configured order.
 * - A first fill takes the fill's time: the decrement lands in the windows current at the fill.
 */
import { type ApiError, apiError } from '../core/index.ts';
import { assertMicros } from '../../clock/index.ts';
import { FixedWindowCounters, type CountersSnapshot } from './fixed-window-counters.ts';
import { BINANCE_RATE_LIMITS, describePeriod, validateRateLimits, type RateLimit, type WindowUsage } from './rate-limit-config.ts';

export interface OrderCountLimiterOptions {
  /** All exchange limits (exchangeInfo order); only ORDERS is used here. */
  readonly rateLimits?: readonly RateLimit[];
  /** Whether an order refused with -1015 still adds to the counts (default true; see header). */
  readonly rejectedOrdersCount?: boolean;
}

/** The outcome of `charge`: counts for `X-MBX-ORDER-COUNT-*`, and on refusal the -1015 error. */
export type OrderCountCharge =
  | { readonly ok: true; readonly counts: readonly WindowUsage[] }
  | { readonly ok: false; readonly error: ApiError; readonly counts: readonly WindowUsage[] };

/** One row of GET /api/v3/rateLimit/order. */
export interface OrderRateLimitRow {
  readonly rateLimitType: 'ORDERS';
  readonly interval: RateLimit['interval'];
  readonly intervalNum: number;
  readonly limit: number;
  readonly count: number;
}

export class OrderCountLimiter {
  /** The ORDERS limits, in configured order. */
  readonly limits: readonly RateLimit[];
  readonly #rejectedOrdersCount: boolean;
  readonly #accounts = new Map<string, FixedWindowCounters>();
  /** Keys whose counters may have changed since `takeChanged` (a journal's delta). */
  readonly #changed = new Set<string>();

  /** Every key's counters as plain data, in insertion order (a journal snapshot). */
  snapshot(): [string, CountersSnapshot][] {
    return [...this.#accounts].map(([key, counters]) => [key, counters.snapshot()]);
  }

  /** The counters of the keys changed since the last call, as `snapshot` rows (a journal's delta). */
  takeChanged(): [string, CountersSnapshot][] {
    const rows: [string, CountersSnapshot][] = [];
    for (const key of this.#changed) {
      const counters = this.#accounts.get(key);
      if (counters !== undefined) rows.push([key, counters.snapshot()]);
    }
    this.#changed.clear();
    return rows;
  }

  /** Replaces the counters with what `snapshot` took. */
  restore(rows: readonly (readonly [string, CountersSnapshot])[]): void {
    this.#accounts.clear();
    for (const [key, snapshot] of rows) {
      const counters = new FixedWindowCounters(this.limits);
      counters.restore(snapshot);
      this.#accounts.set(key, counters);
    }
  }

  constructor(options: OrderCountLimiterOptions = {}) {
    this.limits = validateRateLimits(options.rateLimits ?? BINANCE_RATE_LIMITS).filter((l) => l.rateLimitType === 'ORDERS');
    this.#rejectedOrdersCount = options.rejectedOrdersCount ?? true;
  }

  /** Counts a new order of weight `n` for `account` at `nowUs`, or refuses it with -1015. */
  charge(account: string, n: number, nowUs: number): OrderCountCharge {
    const verdict = this.#judge(account, n, nowUs);
    const counters = this.#counters(account);
    if (verdict === undefined || this.#rejectedOrdersCount) {
      const dayExceeded = verdict?.dayExceeded ?? false;
      for (let i = 0; i < this.limits.length; i++) {
        if (!(dayExceeded && this.limits[i]!.interval === 'SECOND')) counters.add(i, n, nowUs);
      }
    }
    const counts = this.counts(account, nowUs);
    return verdict === undefined ? { ok: true, counts } : { ok: false, error: verdict.error, counts };
  }

  /**
   * The -1015 error an order of `n` would get now, or undefined if it would pass; counts nothing
   * (cancelReplace with orderRateLimitExceededMode DO_NOTHING / CANCEL_ONLY decides with it).
   */
  wouldExceed(account: string, n: number, nowUs: number): ApiError | undefined {
    return this.#judge(account, n, nowUs)?.error;
  }

  /** An order of `account` had its first fill at `fillAtUs`: every interval drops by `by` (default 1), never below 0. */
  onFirstFill(account: string, fillAtUs: number, by = 1): void {
    if (!Number.isSafeInteger(by) || by < 0) throw new RangeError(`decrement must be a non-negative integer, got ${by}`);
    assertMicros(fillAtUs, 'fillAtUs');
    const counters = this.#accounts.get(account);
    // No counters means nothing counted yet: 0 stays 0.
    if (counters === undefined) return;
    this.#changed.add(account);
    for (let i = 0; i < this.limits.length; i++) counters.add(i, -by, fillAtUs);
  }

  /** Current counts of `account` per ORDERS interval (configured order). */
  counts(account: string, nowUs: number): readonly WindowUsage[] {
    assertMicros(nowUs, 'nowUs');
    const counters = this.#accounts.get(account);
    const counts: WindowUsage[] = [];
    for (let i = 0; i < this.limits.length; i++) counts.push({ limit: this.limits[i]!, used: counters === undefined ? 0 : counters.get(i, nowUs) });
    return counts;
  }

  /** The body of GET /api/v3/rateLimit/order for `account` at `nowUs`. */
  rateLimitOrder(account: string, nowUs: number): OrderRateLimitRow[] {
    return this.counts(account, nowUs).map(({ limit, used }) => ({
      rateLimitType: 'ORDERS',
      interval: limit.interval,
      intervalNum: limit.intervalNum,
      limit: limit.limit,
      count: used,
    }));
  }

  /** Number of accounts with counters held (for memory checks). */
  get trackedAccounts(): number {
    return this.#accounts.size;
  }

  /** Drops accounts with nothing counted in a live window at `nowUs`; answers are unchanged. */
  forgetIdle(nowUs: number): void {
    for (const [account, counters] of this.#accounts) {
      if (!counters.anyLive(nowUs)) this.#accounts.delete(account);
    }
  }

  /** The -1015 refusal of an order of `n` now (undefined: it passes), and whether a DAY limit is what it exceeds. */
  #judge(account: string, n: number, nowUs: number): { error: ApiError; dayExceeded: boolean } | undefined {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`order count must be a non-negative integer, got ${n}`);
    assertMicros(nowUs, 'nowUs');
    if (n === 0) return undefined;
    const counters = this.#accounts.get(account);
    // The limit named: the first exceeded DAY limit, else the first exceeded one, in configured order.
    let first: RateLimit | undefined;
    let day: RateLimit | undefined;
    for (let i = 0; i < this.limits.length; i++) {
      const limit = this.limits[i]!;
      const used = counters === undefined ? 0 : counters.get(i, nowUs);
      if (used + n <= limit.limit) continue;
      first ??= limit;
      if (limit.interval === 'DAY') day ??= limit;
    }
    const named = day ?? first;
    if (named === undefined) return undefined;
    return {
      error: apiError('TOO_MANY_ORDERS', named.limit, describePeriod(named)),
      dayExceeded: day !== undefined,
    };
  }

  #counters(account: string): FixedWindowCounters {
    this.#changed.add(account);
    let counters = this.#accounts.get(account);
    if (counters === undefined) {
      counters = new FixedWindowCounters(this.limits);
      this.#accounts.set(account, counters);
    }
    return counters;
  }
}
