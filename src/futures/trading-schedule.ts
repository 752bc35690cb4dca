/**
 * Session calendars of the TradFi markets behind TradFi perpetuals (GET /fapi/v1/tradingSchedule),
 * as pure calendar arithmetic on µs timestamps:
 *
 * - EQUITY (US, New York time): OVERNIGHT 20:00-04:00 (Sunday to Thursday nights), PRE_MARKET
 *   04:00-09:30, REGULAR 09:30-16:00, AFTER_MARKET 16:00-20:00 on weekdays; NO_TRADING from
 *   Friday 20:00 to Sunday 20:00.
 * - COMMODITY (CME-style, New York time): REGULAR Sunday 18:00 to Friday 17:00 with a NO_TRADING
 *   hour 17:00-18:00 each weekday; NO_TRADING Friday 17:00 to Sunday 18:00.
 * New York time is UTC-5, UTC-4 from the second Sunday of March to the first Sunday of November.
 * Exchange holidays are not modelled. The other markets the exchange lists (Korean, Hong Kong and
 * China equity, FX) are left out: the simulation has no such underlyings.
 */
import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE } from '../clock/index.ts';

export type SessionType = 'PRE_MARKET' | 'REGULAR' | 'AFTER_MARKET' | 'OVERNIGHT' | 'NO_TRADING';
export interface Session {
  readonly startTime: number;
  readonly endTime: number;
  readonly type: SessionType;
}

/** Boundaries of a local day by weekday (0 Sunday): [minute of day, session starting then]. */
type DayPlan = readonly (readonly [number, SessionType])[];
const h = (hours: number, minutes = 0) => hours * 60 + minutes;
const EQUITY_WEEKDAY: DayPlan = [[h(4), 'PRE_MARKET'], [h(9, 30), 'REGULAR'], [h(16), 'AFTER_MARKET'], [h(20), 'OVERNIGHT']];
const EQUITY: readonly DayPlan[] = [
  [[h(20), 'OVERNIGHT']],
  EQUITY_WEEKDAY,
  EQUITY_WEEKDAY,
  EQUITY_WEEKDAY,
  EQUITY_WEEKDAY,
  [[h(4), 'PRE_MARKET'], [h(9, 30), 'REGULAR'], [h(16), 'AFTER_MARKET'], [h(20), 'NO_TRADING']],
  [],
];
const COMMODITY_WEEKDAY: DayPlan = [[h(17), 'NO_TRADING'], [h(18), 'REGULAR']];
const COMMODITY: readonly DayPlan[] = [[[h(18), 'REGULAR']], COMMODITY_WEEKDAY, COMMODITY_WEEKDAY, COMMODITY_WEEKDAY, COMMODITY_WEEKDAY, [[h(17), 'NO_TRADING']], []];

export const MARKETS = { EQUITY, COMMODITY } as const;
export type ScheduledMarket = keyof typeof MARKETS;

/** nth (1-based) Sunday of a month, as a UTC day number (days since the epoch). */
function nthSunday(year: number, month: number, n: number): number {
  const firstMs = Date.UTC(year, month, 1);
  const weekday = new Date(firstMs).getUTCDay();
  return Math.floor(firstMs / 86_400_000) + ((7 - weekday) % 7) + 7 * (n - 1);
}

/** New York's offset from UTC (hours) on a local calendar day. */
function newYorkOffsetHours(localDay: number): number {
  const year = new Date(localDay * 86_400_000).getUTCFullYear();
  return localDay >= nthSunday(year, 2, 2) && localDay < nthSunday(year, 10, 1) ? -4 : -5;
}

/** The sessions of `market` overlapping [from, to), clipped to it, in order. */
export function sessionsBetween(market: ScheduledMarket, from: number, to: number): Session[] {
  const plan = MARKETS[market];
  const boundaries: [number, SessionType][] = [];
  const firstDay = Math.floor(from / MICROS_PER_DAY) - 2;
  const lastDay = Math.floor(to / MICROS_PER_DAY) + 1;
  for (let day = firstDay; day <= lastDay; day++) {
    const weekday = new Date(day * 86_400_000).getUTCDay();
    const offsetUs = newYorkOffsetHours(day) * MICROS_PER_HOUR;
    for (const [minute, type] of plan[weekday]!) boundaries.push([day * MICROS_PER_DAY + minute * MICROS_PER_MINUTE - offsetUs, type]);
  }
  const sessions: Session[] = [];
  for (let i = 0; i + 1 < boundaries.length; i++) {
    const [start, type] = boundaries[i]!;
    const end = boundaries[i + 1]![0];
    if (end <= from || start >= to) continue;
    sessions.push({ startTime: Math.max(start, from), endTime: Math.min(end, to), type });
  }
  return sessions;
}

/** The schedule window of a query at `now`: a week either side of the day before it (00:00 UTC). */
export function scheduleWindow(now: number): { from: number; to: number } {
  const dayBefore = (Math.floor(now / MICROS_PER_DAY) - 1) * MICROS_PER_DAY;
  return { from: dayBefore - 7 * MICROS_PER_DAY, to: dayBefore + 7 * MICROS_PER_DAY };
}
