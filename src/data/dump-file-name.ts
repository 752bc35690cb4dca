/**
 * Binance's dump file names (binance-facts §10): `BTCUSDT-trades-2024-01-01.zip`,
 * `BTCUSDT-aggTrades-2024-01.zip`, `BTCUSDT-1m-2024-01-01.zip`, the futures
 * `BTCUSDT-bookTicker-2024-01-01.zip`; monthly klines are `1mo` (instead of `1M`, which a
 * case-insensitive file system confuses with `1m`).
 */
import type { KlineInterval } from './tape.ts';
import { isKlineInterval } from './history/kline-calendar.ts';
import type { DumpKind } from './dump-schema.ts';
import { civilFromDays, parseUtcPeriod } from './utc-date.ts';

export interface DumpFileName {
  readonly symbol: string;
  readonly kind: DumpKind;
  /** Klines only. */
  readonly interval?: KlineInterval;
  /** A daily file (YYYY-MM-DD) or a monthly one (YYYY-MM). */
  readonly period: 'daily' | 'monthly';
  /** "2024-01-01" or "2024-01". */
  readonly date: string;
  /** Epoch ms of the period's start. */
  readonly start: number;
  /** Epoch ms of the next period's start. */
  readonly end: number;
  readonly extension: 'csv' | 'zip';
}

const NAME = /^([A-Z0-9]+)-(trades|aggTrades|bookTicker|[0-9]+[smhdwM]|1mo)-(\d{4}-\d{2}(?:-\d{2})?)\.(csv|zip)$/;

/** The parts of a dump file's base name, or null when it does not follow the scheme. */
export function parseDumpFileName(baseName: string): DumpFileName | null {
  const match = NAME.exec(baseName);
  if (match === null) return null;
  const [, symbol, what, date, extension] = match as unknown as [string, string, string, string, 'csv' | 'zip'];
  const start = parseUtcPeriod(date);
  if (start === null) return null;
  const period = date.length === 10 ? 'daily' : 'monthly';
  const end = period === 'daily' ? start + 86_400_000 : nextMonth(start);
  if (what === 'trades' || what === 'aggTrades' || what === 'bookTicker') return { symbol, kind: what, period, date, start, end, extension };
  const interval = what === '1mo' ? '1M' : what;
  if (!isKlineInterval(interval)) return null;
  return { symbol, kind: 'klines', interval, period, date, start, end, extension };
}

/** The dump name for a symbol, kind (and interval) and date: the inverse of parseDumpFileName. */
export function formatDumpFileName(symbol: string, kind: DumpKind, date: string, extension: 'csv' | 'zip', interval?: KlineInterval): string {
  let what: string = kind;
  if (kind === 'klines') {
    if (interval === undefined) throw new Error('a klines file name needs an interval');
    what = interval === '1M' ? '1mo' : interval;
  }
  return `${symbol}-${what}-${date}.${extension}`;
}

function nextMonth(ms: number): number {
  const [year, month] = civilFromDays(Math.floor(ms / 86_400_000));
  // `month` is 1-based, so as a Date.UTC month index it is already the next month.
  return Date.UTC(year, month, 1);
}
