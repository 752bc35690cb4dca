/**
 * Where kline periods begin, for all 16 intervals, in µs since the epoch, with an optional
 * fixed `timeZone` offset that moves the boundaries and nothing else (startTime, endTime and
 * every returned time stay UTC). Pure integer arithmetic and Date.UTC: no clock, no Date objects.
 *
 * Boundaries, in the zone's local time:
 * - 1s .. 1d: multiples of the width since the epoch (so 1h, 2h, ... start on whole hours);
 * - 3d: every third day counted from 1970-01-02. Binance's 3d klines open on days n with
 *   n mod 3 = 1 (BTCUSDT's first 3d kline opens 2017-08-17, day 17395; a 2018 client report
 *   shows a 3d kline opening together with the 1d one on 2018-06-28, day 17710);
 * - 1w: Mondays 00:00 (1970-01-05 was a Monday);
 * - 1M: the first day of each calendar month.
 */
import { civilFromDays } from '../utc-date.ts';
import type { KlineInterval } from '../tape.ts';
import { KLINE_INTERVALS } from '../tape.ts';

export const SECOND = 1_000_000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const WEEK = 7 * DAY;

/** Width and anchor (where period 0 starts) of every interval but 1M. */
const FIXED: Readonly<Record<Exclude<KlineInterval, '1M'>, { width: number; anchor: number }>> = {
  '1s': { width: SECOND, anchor: 0 },
  '1m': { width: MINUTE, anchor: 0 },
  '3m': { width: 3 * MINUTE, anchor: 0 },
  '5m': { width: 5 * MINUTE, anchor: 0 },
  '15m': { width: 15 * MINUTE, anchor: 0 },
  '30m': { width: 30 * MINUTE, anchor: 0 },
  '1h': { width: HOUR, anchor: 0 },
  '2h': { width: 2 * HOUR, anchor: 0 },
  '4h': { width: 4 * HOUR, anchor: 0 },
  '6h': { width: 6 * HOUR, anchor: 0 },
  '8h': { width: 8 * HOUR, anchor: 0 },
  '12h': { width: 12 * HOUR, anchor: 0 },
  '1d': { width: DAY, anchor: 0 },
  '3d': { width: 3 * DAY, anchor: DAY },
  '1w': { width: WEEK, anchor: 4 * DAY },
};

export function isKlineInterval(text: string): text is KlineInterval {
  return (KLINE_INTERVALS as readonly string[]).includes(text);
}

/**
 * Parses a `timeZone` parameter into an offset in minutes: "hh:mm" or "hh" with an optional
 * sign ("-1:00", "05:45", "+14:00", "8", "0"), within -12:00 .. +14:00 inclusive.
 * Returns null for anything else.
 */
export function parseTimeZone(text: string): number | null {
  const match = /^([+-]?)(\d{1,2})(?::(\d{2}))?$/.exec(text);
  if (match === null) return null;
  const hours = Number(match[2]);
  const minutes = match[3] === undefined ? 0 : Number(match[3]);
  if (minutes > 59) return null;
  const total = (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
  if (total < -12 * 60 || total > 14 * 60) return null;
  return total === 0 ? 0 : total; // no -0
}

/** A kline grid: an interval seen from one time zone. */
export class KlineGrid {
  readonly #fixed: { width: number; anchor: number } | null;
  /** Zone offset in µs (local = utc + offset). */
  readonly offset: number;

  constructor(
    readonly interval: KlineInterval,
    offsetMinutes = 0,
  ) {
    this.#fixed = interval === '1M' ? null : FIXED[interval];
    this.offset = offsetMinutes * MINUTE;
  }

  /** Open time (UTC µs) of the period containing `time`. */
  startOf(time: number): number {
    const local = time + this.offset;
    const f = this.#fixed;
    if (f !== null) return Math.floor((local - f.anchor) / f.width) * f.width + f.anchor - this.offset;
    const [year, month] = civilFromDays(Math.floor(local / DAY));
    return Date.UTC(year, month - 1, 1) * 1000 - this.offset;
  }

  /** Open time of the period after the one opening at `start` (a value from startOf). */
  next(start: number): number {
    const f = this.#fixed;
    if (f !== null) return start + f.width;
    const [year, month] = civilFromDays(Math.floor((start + this.offset) / DAY));
    return Date.UTC(year, month, 1) * 1000 - this.offset; // Date.UTC rolls month 12 into January
  }

  /** Open time of the period before the one opening at `start`. */
  previous(start: number): number {
    return this.startOf(start - 1);
  }

  /**
   * Every boundary of this grid is a multiple of the returned µs: the coarsest stored bar width
   * that can tile its periods exactly (a divisor of the width, the anchor and the zone offset).
   */
  boundaryUnit(widths: readonly number[]): number {
    const f = this.#fixed;
    const width = f === null ? DAY : f.width;
    const anchor = f === null ? 0 : f.anchor;
    let best = widths[0]!;
    for (const w of widths) {
      if (width % w === 0 && anchor % w === 0 && this.offset % w === 0) best = Math.max(best, w);
    }
    return best;
  }
}

// Civil-date arithmetic lives in src/data/utc-date.ts (one copy for the whole data layer).
export { civilFromDays } from '../utc-date.ts';
