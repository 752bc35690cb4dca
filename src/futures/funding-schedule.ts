/**
 * A perpetual's funding times and rates (issue 28: "funding at each funding time of the symbol's
 * interval"). Two inputs decide them:
 * - the contract's interval setting, `fundingIntervalHours` 1, 4 or 8 (8 when not set: Binance's
 *   default, futures facts §Interval; 4 and 1 are the intervals Binance gives symbols through
 *   GET /fapi/v1/fundingInfo), on the UTC grid: 8 h at 00/08/16, 4 h at 00/04/.../20;
 * - recorded fundings (data.binance.vision's `futures/um/monthly/fundingRate` rows: calc_time,
 *   funding_interval_hours, last_funding_rate), which are what happened.
 * The funding times are: the setting's grid before the first recorded one, the recorded times
 * (exactly as recorded), and after the last recorded one the grid of its recorded interval. The
 * rate at a recorded time is the recorded rate; elsewhere the model's (funding.ts) over the
 * interval ending there. The estimate between fundings (premiumIndex `lastFundingRate`, markPrice
 * `r`): where the last funding at or before now was recorded, its rate (chosen: the recorded rate
 * of the running interval would be look-ahead); elsewhere the model's running estimate.
 */
import { MICROS_PER_HOUR } from '../clock/index.ts';
import { estimatedFundingRate, fundingRateAt, fundingTimeAtOrBefore, interestRateFor, nextFundingTime } from './funding.ts';
import { FUNDING_INTERVAL_HOURS } from './model-parameters.ts';
import type { PremiumModel } from './premium.ts';

/** The intervals a contract may have, hours. */
export const FUNDING_INTERVALS: readonly number[] = [1, 4, 8];

/** One recorded funding: its instant (µs), the interval it closed (hours) and its rate (RATE_SCALE units). */
export interface RecordedFunding {
  readonly time: number;
  readonly intervalHours: number;
  readonly rate: number;
}

/** How a perpetual's funding is set up: its interval (default 8) and recorded fundings (default none). */
export interface FundingSetup {
  readonly intervalHours?: number;
  readonly recorded?: readonly RecordedFunding[];
}

export class FundingSchedule {
  /** The interval setting (hours): the grid before any recorded funding. */
  readonly intervalHours: number;
  readonly #recorded: readonly RecordedFunding[];
  readonly #byTime: ReadonlyMap<number, RecordedFunding>;

  constructor(setup: FundingSetup = {}) {
    this.intervalHours = setup.intervalHours ?? FUNDING_INTERVAL_HOURS;
    if (!FUNDING_INTERVALS.includes(this.intervalHours)) throw new Error(`funding interval ${this.intervalHours} h: Binance uses ${FUNDING_INTERVALS.join(', ')} h`);
    // Sorted by time, one row per instant (a repeated row is the same funding).
    const byTime = new Map<number, RecordedFunding>();
    for (const row of setup.recorded ?? []) byTime.set(row.time, row);
    this.#recorded = [...byTime.values()].sort((a, b) => a.time - b.time);
    this.#byTime = byTime;
  }

  get recordedCount(): number {
    return this.#recorded.length;
  }

  /** The recorded funding at exactly `time`, if any. */
  recordedAt(time: number): RecordedFunding | undefined {
    return this.#byTime.get(time);
  }

  /** The grid's interval after the last recorded funding: the last one's recorded interval (the setting when none is recorded). */
  #gridAfterLast(): number {
    return this.#recorded.at(-1)?.intervalHours ?? this.intervalHours;
  }

  /** The first funding time strictly after t. */
  next(t: number): number {
    const rec = this.#recorded;
    if (rec.length === 0) return nextFundingTime(t, this.intervalHours);
    const first = rec[0]!.time;
    const last = rec.at(-1)!.time;
    if (t < first) return Math.min(nextFundingTime(t, this.intervalHours), first);
    if (t >= last) return nextFundingTime(t, this.#gridAfterLast());
    // The first recorded time > t (binary search: first <= t < last).
    let lo = 0;
    let hi = rec.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (rec[mid]!.time > t) hi = mid;
      else lo = mid + 1;
    }
    return rec[lo]!.time;
  }

  /** The last funding time at or before t. */
  atOrBefore(t: number): number {
    const rec = this.#recorded;
    if (rec.length === 0) return fundingTimeAtOrBefore(t, this.intervalHours);
    const first = rec[0]!.time;
    const last = rec.at(-1)!.time;
    if (t < first) return fundingTimeAtOrBefore(t, this.intervalHours);
    if (t >= last) return Math.max(fundingTimeAtOrBefore(t, this.#gridAfterLast()), last);
    let lo = 0;
    let hi = rec.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (rec[mid]!.time <= t) lo = mid;
      else hi = mid - 1;
    }
    return rec[lo]!.time;
  }

  /** Funding times T with from <= T <= to, oldest first. */
  between(from: number, to: number): number[] {
    const out: number[] = [];
    for (let t = this.next(from - 1); t <= to; t = this.next(t)) out.push(t);
    return out;
  }

  /** Hours of the interval that ends at the funding time T (recorded: as recorded; else the grid's there). */
  intervalEndingAt(fundingTime: number): number {
    const recorded = this.#byTime.get(fundingTime);
    if (recorded !== undefined) return recorded.intervalHours;
    const first = this.#recorded[0]?.time;
    return first !== undefined && fundingTime > first ? this.#gridAfterLast() : this.intervalHours;
  }

  /** Hours of the interval running at t (the one that ends at next(t)). */
  intervalAt(t: number): number {
    return this.intervalEndingAt(this.next(t));
  }

  /** The rate settled at the funding time T: recorded, else the model's over the interval ending at T. */
  rateAt(model: PremiumModel, fundingTime: number): number {
    return this.#byTime.get(fundingTime)?.rate ?? fundingRateAt(model, fundingTime, this.intervalEndingAt(fundingTime));
  }

  /** The rate shown between fundings at `now` (see the header). */
  estimateAt(model: PremiumModel, now: number): number {
    const last = this.atOrBefore(now);
    const recorded = this.#byTime.get(last);
    if (recorded !== undefined) return recorded.rate;
    const hours = this.intervalAt(now);
    // The running interval began at the last funding (or, on a grid, hours before the next one).
    return estimatedFundingRate(model, now, hours, Math.max(last, this.next(now) - hours * MICROS_PER_HOUR));
  }

  /** premiumIndex `interestRate` of the running interval. */
  interestAt(t: number): number {
    return interestRateFor(this.intervalAt(t));
  }
}
