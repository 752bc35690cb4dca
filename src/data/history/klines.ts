/**
 * Klines from the bar pyramid, by the spec's selection rules, and their API row format.
 *
 * Which periods exist: every period of the grid from the one holding the symbol's first trade
 * (or, once 1s/1m bars were dropped, the first whole period still tiled by retained bars) to the
 * one holding asOf, the still-open period included with its trades up to asOf. A period without
 * trades is a flat kline at the previous close with zero volume and zero trades, as Binance
 * shows quiet markets (gaps appear there only when the exchange itself was down).
 *
 * Selection (klines are identified by open time): startTime keeps periods opening at or after it
 * and returns the oldest `limit`; endTime keeps periods opening at or before it; with endTime
 * alone, or neither, the newest `limit`. Nothing opens after asOf; startTime > endTime selects
 * nothing (the facade may reject it first).
 *
 * uiKlines: Binance documents only "modified kline data, optimized for presentation of
 * candlestick charts", with no algorithm. We return the kline rows unchanged: a plain kline is
 * a valid candle, and any invented modification would be a guess a client could not rely on.
 */
import type { Kline, KlineInterval, UnitScale } from '../tape.ts';
import {
  CLOSE,
  COUNT,
  FIRST_ID,
  HIGH,
  LAST_ID,
  LOW,
  OPEN,
  QUOTE_VOLUME,
  TAKER_BUY_QUOTE_VOLUME,
  TAKER_BUY_VOLUME,
  VOLUME,
  wideValue,
} from './bar-row.ts';
import type { BarPyramid } from './bar-pyramid.ts';
import { LEVEL_WIDTHS } from './bar-pyramid.ts';
import { formatAmount } from './exact-amount.ts';
import { KlineGrid, parseTimeZone } from './kline-calendar.ts';
import { resolveLimit } from './query-limits.ts';

export interface KlineQuery {
  interval: KlineInterval;
  /** µs, inclusive: periods opening at or after. */
  startTime?: number;
  /** µs, inclusive: periods opening at or before. */
  endTime?: number;
  /** "-1:00", "05:45", "+14:00", "8"; default "0" (UTC). */
  timeZone?: string;
  /** Default 500, max 1000. */
  limit?: number;
}

/** The exact volumes of a kline; the Kline number fields round them past 2^53. */
export interface KlineVolumes {
  volume: bigint;
  quoteVolume: bigint;
  takerBuyBaseVolume: bigint;
  takerBuyQuoteVolume: bigint;
}

/** A kline (the shared tape type) with its volumes also as exact integers, plus trade ids. */
export interface HistoryKline extends Kline {
  exact: KlineVolumes;
  /** Ids of the period's first and last trade; -1 for a period without trades. */
  firstTradeId: number;
  lastTradeId: number;
}

/** Range the facade can hand to the history: parsed offset in minutes, or a thrown RangeError. */
export function timeZoneMinutes(timeZone: string | undefined): number {
  if (timeZone === undefined) return 0;
  const minutes = parseTimeZone(timeZone);
  if (minutes === null) throw new RangeError(`invalid timeZone "${timeZone}" (hh:mm or hh within -12:00..+14:00)`);
  return minutes;
}

export function queryKlines(pyramid: BarPyramid, firstTradeTime: number | null, asOf: number, query: KlineQuery): HistoryKline[] {
  const grid = new KlineGrid(query.interval, timeZoneMinutes(query.timeZone));
  const limit = resolveLimit(query.limit);
  if (firstTradeTime === null || asOf < firstTradeTime) return [];

  // The oldest period we can answer whole: from the first trade, or from the horizon of the
  // finest bars that tile this grid (coarser levels are never dropped).
  const unit = grid.boundaryUnit(LEVEL_WIDTHS.slice(1));
  const horizon = pyramid.horizon(LEVEL_WIDTHS.indexOf(unit));
  let lo = grid.startOf(firstTradeTime);
  if (horizon > lo) {
    lo = grid.startOf(horizon);
    if (lo < horizon) lo = grid.next(lo);
  }
  const hi = grid.startOf(Math.min(asOf, query.endTime ?? Infinity));

  const opens: number[] = [];
  if (query.startTime !== undefined) {
    let t = grid.startOf(query.startTime);
    if (t < query.startTime) t = grid.next(t);
    if (t < lo) t = lo;
    for (; t <= hi && opens.length < limit; t = grid.next(t)) opens.push(t);
  } else {
    for (let t = hi; t >= lo && opens.length < limit; t = grid.previous(t)) opens.push(t);
    opens.reverse();
  }
  if (opens.length === 0) return [];

  const rows: HistoryKline[] = [];
  let previousClose = pyramid.lastBefore(opens[0]!)?.[CLOSE] ?? null;
  for (const open of opens) {
    const next = grid.next(open);
    const acc = pyramid.aggregate(open, Math.min(next, asOf + 1));
    if (acc[COUNT] === 0) {
      if (previousClose === null) continue; // cannot happen after the first trade; kept for safety
      rows.push(flatKline(open, next - 1, previousClose));
      continue;
    }
    const exact: KlineVolumes = {
      volume: wideValue(acc, VOLUME),
      quoteVolume: wideValue(acc, QUOTE_VOLUME),
      takerBuyBaseVolume: wideValue(acc, TAKER_BUY_VOLUME),
      takerBuyQuoteVolume: wideValue(acc, TAKER_BUY_QUOTE_VOLUME),
    };
    rows.push({
      openTime: open,
      open: acc[OPEN]!,
      high: acc[HIGH]!,
      low: acc[LOW]!,
      close: acc[CLOSE]!,
      volume: Number(exact.volume),
      closeTime: next - 1,
      quoteVolume: Number(exact.quoteVolume),
      trades: acc[COUNT]!,
      takerBuyBaseVolume: Number(exact.takerBuyBaseVolume),
      takerBuyQuoteVolume: Number(exact.takerBuyQuoteVolume),
      exact,
      firstTradeId: acc[FIRST_ID]!,
      lastTradeId: acc[LAST_ID]!,
    });
    previousClose = acc[CLOSE]!;
  }
  return rows;
}

function flatKline(openTime: number, closeTime: number, price: number): HistoryKline {
  return {
    openTime,
    open: price,
    high: price,
    low: price,
    close: price,
    volume: 0,
    closeTime,
    quoteVolume: 0,
    trades: 0,
    takerBuyBaseVolume: 0,
    takerBuyQuoteVolume: 0,
    exact: { volume: 0n, quoteVolume: 0n, takerBuyBaseVolume: 0n, takerBuyQuoteVolume: 0n },
    firstTradeId: -1,
    lastTradeId: -1,
  };
}

export type TimeUnit = 'MILLISECOND' | 'MICROSECOND';

/** µs to the API's time unit: milliseconds unless X-MBX-TIME-UNIT asked for microseconds. */
export function apiTime(micros: number, unit: TimeUnit): number {
  return unit === 'MICROSECOND' ? micros : Math.floor(micros / 1000);
}

export type KlineApiRow = [number, string, string, string, string, string, number, string, number, string, string, string];

/**
 * The 12-element array of GET /api/v3/klines: prices at the quote precision, base volumes at the
 * base precision, quote volumes at the quote precision, times in `unit`, and the unused "0".
 * Exact volumes are used when the kline carries them.
 */
export function formatKline(k: Kline | HistoryKline, scale: UnitScale, unit: TimeUnit = 'MILLISECOND'): KlineApiRow {
  const q = scale.quotePrecision;
  const b = scale.basePrecision;
  const exact = 'exact' in k ? k.exact : null;
  return [
    apiTime(k.openTime, unit),
    formatAmount(k.open, q),
    formatAmount(k.high, q),
    formatAmount(k.low, q),
    formatAmount(k.close, q),
    formatAmount(exact?.volume ?? k.volume, b),
    apiTime(k.closeTime, unit),
    formatAmount(exact?.quoteVolume ?? k.quoteVolume, q),
    k.trades,
    formatAmount(exact?.takerBuyBaseVolume ?? k.takerBuyBaseVolume, b),
    formatAmount(exact?.takerBuyQuoteVolume ?? k.takerBuyQuoteVolume, q),
    '0',
  ];
}
