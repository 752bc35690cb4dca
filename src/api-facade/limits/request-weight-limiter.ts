/**
 * Per-IP request limits on simulated time: REQUEST_WEIGHT (the endpoint's weight per request) and
 * RAW_REQUESTS (1 per request), in fixed UTC-aligned windows (rate-limit-config), plus the 429 →
 * 418 auto-ban of binance-facts §4.2. Pure and deterministic: time is passed in as simulated µs;
 * no wall clock, timers or randomness, so the same calls give the same answers.
 *
 * Rules (documented facts)
 * - Counted per IP, never per API key (spec Limits 1).
 * - A request whose weight takes a window past its limit gets HTTP 429, -1003 "Too much request
 *   weight used; current limit is 6000 request weight per 1 MINUTE. Please use WebSocket Streams
 *   for live updates to avoid polling the API." and `Retry-After` = whole seconds until the
 *   exceeded window resets (the wait that avoids a ban), rounded up.
 * - An IP that keeps sending after 429s is banned: HTTP 418, -1003 "Way too much request weight
 *   used; IP banned until <epoch ms>. Please use WebSocket Streams for live updates to avoid
 *   bans." and `Retry-After` = whole seconds until the ban ends, rounded up. Bans grow for
 *   repeat offenders from 2 minutes to 3 days.
 *
 * Choices where the docs are silent
 * - Limit test: a request passes while every window's total, this request included, stays <= the
 *   limit; 6000 of 6000 is allowed, 6001 is not.
 * - A 429'd request's weight (and its raw request) COUNTS. §4.2: failed requests pay their listed
 *   weight and requests rejected at receipt count against IP limits; real clients also see
 *   `X-MBX-USED-WEIGHT-1M` above the limit after 429s. Consequence: once over, every request is
 *   429 until the window resets, which is exactly what `Retry-After` tells the client.
 * - A 418'd request (during a ban, or the one that triggers it) is turned away before it is
 *   weighed and counts nothing: the ban already stops the IP, and the ban end does not move.
 * - "Keeps sending": an over-limit episode runs from the first 429 until the latest reset of the
 *   windows it exceeded. The first `rejectionsBeforeBan` over-limit requests of an episode get 429
 *   (default 3: room for requests a client had in flight before it saw the first 429); the next
 *   one is banned. An IP that waits out `Retry-After` starts a fresh episode.
 * - Escalation ladder (`banLadderUs`, default): 2 min, 10 min, 1 h, 6 h, 1 day, 3 days; the n-th
 *   recent ban lasts ladder[n-1], capped at the last step.
 * - Decay: the offence record (strikes) drops by one per `strikeDecayUs` (default 1 day) of
 *   simulated time since the last ban ended; after 6 clean days a 3-day offender is back at 2 min.
 * - RAW_REQUESTS over its limit is refused the same way (429 then 418; real docs group both
 *   under -1003). Its text is not documented; this uses "Too many requests; current limit is
 *   300000 requests per 5 MINUTE. Please use WebSocket Streams for live updates to avoid polling
 *   the API.", shaped like the weight message. When several windows are exceeded, the message
 *   names the first in configured order and `Retry-After` waits for the last of them to reset.
 * - The ban message's epoch ms is the ban end rounded up to a whole millisecond.
 */
import { type ApiError, apiError } from '../core/index.ts';
import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MILLI, MICROS_PER_MINUTE, MICROS_PER_SECOND, assertMicros } from '../../clock/index.ts';
import { FixedWindowCounters, type CountersSnapshot } from './fixed-window-counters.ts';
import { BINANCE_RATE_LIMITS, describePeriod, validateRateLimits, windowEndUs, type RateLimit, type WindowUsage } from './rate-limit-config.ts';

/** Ban lengths for the 1st, 2nd, ... recent ban: 2 minutes growing to 3 days (binance-facts §4.2). */
export const DEFAULT_BAN_LADDER_US: readonly number[] = Object.freeze([
  2 * MICROS_PER_MINUTE,
  10 * MICROS_PER_MINUTE,
  MICROS_PER_HOUR,
  6 * MICROS_PER_HOUR,
  MICROS_PER_DAY,
  3 * MICROS_PER_DAY,
]);

export interface RequestWeightLimiterOptions {
  /** All exchange limits (exchangeInfo order); only REQUEST_WEIGHT and RAW_REQUESTS are used here. */
  readonly rateLimits?: readonly RateLimit[];
  /** Over-limit requests in one episode answered 429 before the next is banned (default 3). */
  readonly rejectionsBeforeBan?: number;
  /** Ban length per recent-ban count, µs (default DEFAULT_BAN_LADDER_US). */
  readonly banLadderUs?: readonly number[];
  /** Clean simulated time after a ban's end that forgives one strike, µs (default 1 day). */
  readonly strikeDecayUs?: number;
}

/** The outcome of `charge`: the usage for the headers, and on refusal the error and `Retry-After`. */
export type WeightCharge =
  | { readonly ok: true; readonly usage: readonly WindowUsage[] }
  | { readonly ok: false; readonly error: ApiError; readonly retryAfterSeconds: number; readonly usage: readonly WindowUsage[] };

/** One IP in `RequestWeightLimiter.snapshot`: ip, counters, episode end, rejections, ban end, strikes, last ban end. */
export type IpSnapshot = readonly [string, CountersSnapshot, number, number, number, number, number];

interface IpState {
  readonly counters: FixedWindowCounters;
  /** End (µs) of the current over-limit episode; an episode is live while now < this. */
  episodeUntilUs: number;
  /** Over-limit requests answered so far in the current episode. */
  rejections: number;
  /** Ban end (µs); banned while now < this. */
  bannedUntilUs: number;
  /** Recent bans, before decay. */
  strikes: number;
  /** End (µs) of the last ban: decay counts from here. */
  lastBanEndUs: number;
}

export class RequestWeightLimiter {
  /** The REQUEST_WEIGHT and RAW_REQUESTS limits, in configured order. */
  readonly limits: readonly RateLimit[];
  readonly #rejectionsBeforeBan: number;
  readonly #ladder: readonly number[];
  readonly #decayUs: number;
  readonly #ips = new Map<string, IpState>();
  /** IPs whose state may have changed since `takeChanged` (a journal's delta). */
  readonly #changed = new Set<string>();

  constructor(options: RequestWeightLimiterOptions = {}) {
    this.limits = validateRateLimits(options.rateLimits ?? BINANCE_RATE_LIMITS).filter((l) => l.rateLimitType !== 'ORDERS');
    this.#rejectionsBeforeBan = options.rejectionsBeforeBan ?? 3;
    if (!Number.isSafeInteger(this.#rejectionsBeforeBan) || this.#rejectionsBeforeBan < 0) {
      throw new RangeError('rejectionsBeforeBan must be a non-negative integer');
    }
    this.#ladder = Object.freeze([...(options.banLadderUs ?? DEFAULT_BAN_LADDER_US)]);
    if (this.#ladder.length === 0 || this.#ladder.some((d) => !Number.isSafeInteger(d) || d <= 0)) {
      throw new RangeError('banLadderUs must be a non-empty list of positive integer µs');
    }
    this.#decayUs = options.strikeDecayUs ?? MICROS_PER_DAY;
    if (!Number.isSafeInteger(this.#decayUs) || this.#decayUs <= 0) throw new RangeError('strikeDecayUs must be a positive integer µs');
  }

  /**
   * Admits one request of `weight` from `ip` at simulated `nowUs`, counting it, or refuses it
   * (429, or 418 when banned). Call once per request, before handling it.
   */
  charge(ip: string, weight: number, nowUs: number): WeightCharge {
    assertWeight(weight);
    assertMicros(nowUs, 'nowUs');
    const st = this.#state(ip);

    if (nowUs < st.bannedUntilUs) return this.#banned(st, nowUs);

    const limits = this.limits;
    let exceeded: RateLimit[] | undefined;
    for (let i = 0; i < limits.length; i++) {
      const limit = limits[i]!;
      if (st.counters.get(i, nowUs) + amountFor(limit, weight) > limit.limit) (exceeded ??= []).push(limit);
    }

    if (exceeded !== undefined) {
      const continuing = nowUs < st.episodeUntilUs;
      st.rejections = continuing ? st.rejections + 1 : 1;
      if (st.rejections > this.#rejectionsBeforeBan) return this.#ban(st, nowUs);
      const resetUs = Math.max(...exceeded.map((l) => windowEndUs(l, nowUs)));
      st.episodeUntilUs = continuing ? Math.max(st.episodeUntilUs, resetUs) : resetUs;
    }

    for (let i = 0; i < limits.length; i++) st.counters.add(i, amountFor(limits[i]!, weight), nowUs);
    const usage = this.#usage(st, nowUs);
    const first = exceeded?.[0];
    if (first === undefined) return { ok: true, usage };
    return {
      ok: false,
      error: tooMuchWeight(first),
      retryAfterSeconds: secondsUntil(st.episodeUntilUs, nowUs),
      usage,
    };
  }

  /**
   * Adds weight learned only after handling, e.g. a failed order pays its listed weight while a
   * successful one pays 0 (binance-facts §4.2, since 2026-04-02). Never refuses and adds no raw
   * request (the request was admitted by `charge`); the next request is judged with it.
   */
  addWeight(ip: string, weight: number, nowUs: number): readonly WindowUsage[] {
    assertWeight(weight);
    const st = this.#state(ip);
    for (let i = 0; i < this.limits.length; i++) if (this.limits[i]!.rateLimitType === 'REQUEST_WEIGHT') st.counters.add(i, weight, nowUs);
    return this.#usage(st, nowUs);
  }

  /** Current usage of `ip` per window (configured order), without counting anything. */
  usage(ip: string, nowUs: number): readonly WindowUsage[] {
    const st = this.#ips.get(ip);
    return st === undefined ? this.limits.map((limit) => ({ limit, used: 0 })) : this.#usage(st, nowUs);
  }

  /** The ban end (µs) if `ip` is banned at `nowUs`. */
  bannedUntil(ip: string, nowUs: number): number | undefined {
    const st = this.#ips.get(ip);
    return st !== undefined && nowUs < st.bannedUntilUs ? st.bannedUntilUs : undefined;
  }

  /** Number of IPs with state held (for memory checks). */
  get trackedIps(): number {
    return this.#ips.size;
  }

  /** Every IP's counters, episode and ban state as plain data, in insertion order (a journal snapshot). */
  snapshot(): IpSnapshot[] {
    const rows: IpSnapshot[] = [];
    for (const [ip, st] of this.#ips) rows.push([ip, st.counters.snapshot(), st.episodeUntilUs, st.rejections, st.bannedUntilUs, st.strikes, st.lastBanEndUs]);
    return rows;
  }

  /** The IPs changed since the last call, as `snapshot` rows (a journal's delta). */
  takeChanged(): IpSnapshot[] {
    const rows: IpSnapshot[] = [];
    for (const ip of this.#changed) {
      const st = this.#ips.get(ip);
      if (st !== undefined) rows.push([ip, st.counters.snapshot(), st.episodeUntilUs, st.rejections, st.bannedUntilUs, st.strikes, st.lastBanEndUs]);
    }
    this.#changed.clear();
    return rows;
  }

  /** Replaces the state with what `snapshot` took. */
  restore(rows: readonly IpSnapshot[]): void {
    this.#ips.clear();
    for (const [ip, counters, episodeUntilUs, rejections, bannedUntilUs, strikes, lastBanEndUs] of rows) {
      const st = this.#state(ip);
      st.counters.restore(counters);
      Object.assign(st, { episodeUntilUs, rejections, bannedUntilUs, strikes, lastBanEndUs });
    }
  }

  /**
   * Drops IPs whose state no longer matters at `nowUs`: nothing counted in a live window, no live
   * episode or ban, every strike decayed. Answers are the same before and after.
   */
  forgetIdle(nowUs: number): void {
    for (const [ip, st] of this.#ips) {
      const idle =
        !st.counters.anyLive(nowUs) && nowUs >= st.episodeUntilUs && nowUs >= st.bannedUntilUs && this.#decayedStrikes(st, nowUs) === 0;
      if (idle) this.#ips.delete(ip);
    }
  }

  #state(ip: string): IpState {
    this.#changed.add(ip);
    let st = this.#ips.get(ip);
    if (st === undefined) {
      st = {
        counters: new FixedWindowCounters(this.limits),
        episodeUntilUs: 0,
        rejections: 0,
        bannedUntilUs: 0,
        strikes: 0,
        lastBanEndUs: 0,
      };
      this.#ips.set(ip, st);
    }
    return st;
  }

  #usage(st: IpState, nowUs: number): WindowUsage[] {
    const usage: WindowUsage[] = [];
    for (let i = 0; i < this.limits.length; i++) usage.push({ limit: this.limits[i]!, used: st.counters.get(i, nowUs) });
    return usage;
  }

  #decayedStrikes(st: IpState, nowUs: number): number {
    if (st.strikes === 0 || nowUs < st.lastBanEndUs) return st.strikes;
    return Math.max(0, st.strikes - Math.floor((nowUs - st.lastBanEndUs) / this.#decayUs));
  }

  #ban(st: IpState, nowUs: number): WeightCharge {
    st.strikes = this.#decayedStrikes(st, nowUs) + 1;
    const duration = this.#ladder[Math.min(st.strikes, this.#ladder.length) - 1] ?? 0;
    st.bannedUntilUs = nowUs + duration;
    st.lastBanEndUs = st.bannedUntilUs;
    // The ban replaces the episode: after it, the IP starts with a clean 429 allowance.
    st.episodeUntilUs = 0;
    st.rejections = 0;
    return this.#banned(st, nowUs);
  }

  #banned(st: IpState, nowUs: number): WeightCharge {
    const untilMs = Math.ceil(st.bannedUntilUs / MICROS_PER_MILLI);
    return {
      ok: false,
      error: apiError('IP_BANNED', untilMs),
      retryAfterSeconds: secondsUntil(st.bannedUntilUs, nowUs),
      usage: this.#usage(st, nowUs),
    };
  }
}

/** What one request adds to a window: its weight, or 1 for RAW_REQUESTS. */
function amountFor(limit: RateLimit, weight: number): number {
  return limit.rateLimitType === 'RAW_REQUESTS' ? 1 : weight;
}

function tooMuchWeight(limit: RateLimit): ApiError {
  const period = describePeriod(limit);
  return limit.rateLimitType === 'RAW_REQUESTS' ? apiError('TOO_MANY_REQUESTS', limit.limit, period) : apiError('TOO_MUCH_REQUEST_WEIGHT', limit.limit, period);
}

/** Whole seconds from `nowUs` to `untilUs`, rounded up so a client waiting that long is past it. */
function secondsUntil(untilUs: number, nowUs: number): number {
  return Math.max(0, Math.ceil((untilUs - nowUs) / MICROS_PER_SECOND));
}

function assertWeight(weight: number): void {
  if (!Number.isSafeInteger(weight) || weight < 0) throw new RangeError(`weight must be a non-negative integer, got ${weight}`);
}
