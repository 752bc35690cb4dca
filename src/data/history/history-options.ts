/**
 * How much a MarketHistory keeps. Memory is bounded by time, not by tape length:
 * - trades and aggregate trades: `tradeRetention` (default 25 h; ~41 bytes a trade, so a busy
 *   BTCUSDT day of 2-3 M trades is ~100 MB, plus about as much again for aggregates);
 * - 1s bars `secondBarRetention` (default 25 h, 144 bytes a bar: ~13 MB), 1m bars
 *   `minuteBarRetention` (default 8 days: ~1.7 MB);
 * - 15m, 1h and 1d bars for ever (~5 MB a year).
 *
 * The minimums keep every query exact for asOf within an hour of the newest recorded trade
 * (the replay always asks at "now"): the 24hr ticker reads trades and 1s bars right at
 * asOf - 24 h, and a 7d rolling window reads 1m bars from its minute-aligned start.
 * Infinity keeps everything (tests, short replays). Older data than retained is simply absent:
 * trade/aggTrade queries start at the oldest retained row, klines at the oldest period whose
 * bars are all retained.
 */
import { DAY, HOUR } from './kline-calendar.ts';

export interface MarketHistoryOptions {
  /** Decimals of the base asset: turns quote/base volume ratios into price units. */
  basePrecision: number;
  /** µs of trades and aggregate trades kept behind the newest trade. */
  tradeRetention?: number;
  /** µs of 1s bars kept (1s klines reach back this far). */
  secondBarRetention?: number;
  /** µs of 1m bars kept (1m klines, and klines in zones that are not whole quarter-hours). */
  minuteBarRetention?: number;
}

export interface ResolvedHistoryOptions {
  basePrecision: number;
  tradeRetention: number;
  secondBarRetention: number;
  minuteBarRetention: number;
}

export const MIN_TRADE_RETENTION = DAY + HOUR;
export const MIN_SECOND_BAR_RETENTION = DAY + HOUR;
export const MIN_MINUTE_BAR_RETENTION = 7 * DAY + 2 * HOUR;

function atLeast(value: number | undefined, fallback: number, minimum: number, name: string): number {
  const v = value ?? fallback;
  if (!(v >= minimum)) throw new RangeError(`MarketHistory: ${name} must be at least ${minimum} µs (got ${v})`);
  return v;
}

export function resolveHistoryOptions(options: MarketHistoryOptions): ResolvedHistoryOptions {
  const { basePrecision } = options;
  if (!Number.isInteger(basePrecision) || basePrecision < 0 || basePrecision > 18) {
    throw new RangeError(`MarketHistory: basePrecision must be an integer in 0..18 (got ${basePrecision})`);
  }
  return {
    basePrecision,
    tradeRetention: atLeast(options.tradeRetention, DAY + HOUR, MIN_TRADE_RETENTION, 'tradeRetention'),
    secondBarRetention: atLeast(options.secondBarRetention, DAY + HOUR, MIN_SECOND_BAR_RETENTION, 'secondBarRetention'),
    minuteBarRetention: atLeast(options.minuteBarRetention, 8 * DAY, MIN_MINUTE_BAR_RETENTION, 'minuteBarRetention'),
  };
}
