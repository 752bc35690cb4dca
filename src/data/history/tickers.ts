/**
 * Ticker statistics over a window of the tape, in units (prices in price units, volumes as exact
 * BigInt units since a day's quote volume passes 2^53) and times in µs. Objects are built in the
 * API's field order so the facade only adds `symbol` first and formats the values.
 *
 * Relations (binance-facts §7): priceChange = lastPrice - openPrice; priceChangePercent =
 * priceChange / openPrice * 100 (held in thousandths, rounded half away from zero);
 * weightedAvgPrice = quoteVolume / volume (rounded at the quote precision); quoteVolume = the sum
 * of the trades' quoteQty; count = trades in the window (= lastId - firstId + 1 when trade ids
 * are consecutive, as on Binance); prevClosePrice = the last trade before the window.
 *
 * A window without trades (undocumented): open, high, low and last price are the last trade
 * price before the window (0 if the symbol never traded), lastQty that trade's quantity,
 * priceChange, priceChangePercent, weightedAvgPrice and volumes 0, firstId and lastId -1,
 * count 0 — the shape Binance returns for a symbol with no trades in the period.
 */
import {
  CLOSE,
  COUNT,
  FIRST_ID,
  HIGH,
  LAST_ID,
  LAST_QTY,
  LOW,
  OPEN,
  QUOTE_VOLUME,
  VOLUME,
  wideValue,
} from './bar-row.ts';
import { changePercentMilli, weightedAverage } from './exact-amount.ts';
import { DAY, HOUR, MINUTE } from './kline-calendar.ts';

export type TickerType = 'FULL' | 'MINI';

/** MINI ticker (every ticker endpoint with type=MINI). */
export interface MiniTicker {
  openPrice: number;
  highPrice: number;
  lowPrice: number;
  lastPrice: number;
  volume: bigint;
  quoteVolume: bigint;
  openTime: number;
  closeTime: number;
  firstId: number;
  lastId: number;
  count: number;
}

/** FULL ticker of ticker/tradingDay and the rolling-window ticker. */
export interface WindowTicker extends MiniTicker {
  priceChange: number;
  /** Thousandths of a percent: format with 3 decimals. */
  priceChangePercent: number;
  weightedAvgPrice: number;
}

/** FULL ticker of ticker/24hr. */
export interface DayTicker extends WindowTicker {
  prevClosePrice: number;
  lastQty: number;
  bidPrice: number;
  bidQty: number;
  askPrice: number;
  askQty: number;
}

/** One side of the book's top: price in price units, quantity in base units. */
export interface BookLevel {
  price: number;
  qty: number;
}

export interface BookTicker {
  bidPrice: number;
  bidQty: number;
  askPrice: number;
  askQty: number;
}

/** The book ticker from the best levels (the book is the market model's): an empty side is 0/0. */
export function bookTicker(bid: BookLevel | null, ask: BookLevel | null): BookTicker {
  return { bidPrice: bid?.price ?? 0, bidQty: bid?.qty ?? 0, askPrice: ask?.price ?? 0, askQty: ask?.qty ?? 0 };
}

/** The window's raw numbers, before any endpoint picks its fields. */
export interface WindowStats {
  openPrice: number;
  highPrice: number;
  lowPrice: number;
  lastPrice: number;
  lastQty: number;
  volume: bigint;
  quoteVolume: bigint;
  firstId: number;
  lastId: number;
  count: number;
  priceChange: number;
  priceChangePercent: number;
  weightedAvgPrice: number;
}

/**
 * Stats of the trades in `acc`; `before` is the last trade before the window (the fallback for
 * an empty window), as returned by BarPyramid.lastBefore.
 */
export function windowStats(acc: Float64Array, before: Float64Array | null, basePrecision: number): WindowStats {
  if (acc[COUNT] === 0) {
    const price = before?.[CLOSE] ?? 0;
    return {
      openPrice: price,
      highPrice: price,
      lowPrice: price,
      lastPrice: price,
      lastQty: before?.[LAST_QTY] ?? 0,
      volume: 0n,
      quoteVolume: 0n,
      firstId: -1,
      lastId: -1,
      count: 0,
      priceChange: 0,
      priceChangePercent: 0,
      weightedAvgPrice: 0,
    };
  }
  const volume = wideValue(acc, VOLUME);
  const quoteVolume = wideValue(acc, QUOTE_VOLUME);
  const open = acc[OPEN]!;
  const last = acc[CLOSE]!;
  return {
    openPrice: open,
    highPrice: acc[HIGH]!,
    lowPrice: acc[LOW]!,
    lastPrice: last,
    lastQty: acc[LAST_QTY]!,
    volume,
    quoteVolume,
    firstId: acc[FIRST_ID]!,
    lastId: acc[LAST_ID]!,
    count: acc[COUNT]!,
    priceChange: last - open,
    priceChangePercent: changePercentMilli(open, last),
    weightedAvgPrice: weightedAverage(quoteVolume, volume, basePrecision),
  };
}

export function miniTicker(s: WindowStats, openTime: number, closeTime: number): MiniTicker {
  return {
    openPrice: s.openPrice,
    highPrice: s.highPrice,
    lowPrice: s.lowPrice,
    lastPrice: s.lastPrice,
    volume: s.volume,
    quoteVolume: s.quoteVolume,
    openTime,
    closeTime,
    firstId: s.firstId,
    lastId: s.lastId,
    count: s.count,
  };
}

export function windowTicker(s: WindowStats, openTime: number, closeTime: number): WindowTicker {
  return {
    priceChange: s.priceChange,
    priceChangePercent: s.priceChangePercent,
    weightedAvgPrice: s.weightedAvgPrice,
    ...miniTicker(s, openTime, closeTime),
  };
}

export function dayTicker(s: WindowStats, prevClosePrice: number, book: BookTicker, openTime: number, closeTime: number): DayTicker {
  return {
    priceChange: s.priceChange,
    priceChangePercent: s.priceChangePercent,
    weightedAvgPrice: s.weightedAvgPrice,
    prevClosePrice,
    lastPrice: s.lastPrice,
    lastQty: s.lastQty,
    bidPrice: book.bidPrice,
    bidQty: book.bidQty,
    askPrice: book.askPrice,
    askQty: book.askQty,
    openPrice: s.openPrice,
    highPrice: s.highPrice,
    lowPrice: s.lowPrice,
    volume: s.volume,
    quoteVolume: s.quoteVolume,
    openTime,
    closeTime,
    firstId: s.firstId,
    lastId: s.lastId,
    count: s.count,
  };
}

/**
 * Parses a rolling-window `windowSize` ("1m".."59m", "1h".."23h", "1d".."7d"; no combined
 * units) into µs; null when invalid.
 */
export function parseWindowSize(text: string): number | null {
  const match = /^([1-9]\d?)([mhd])$/.exec(text);
  if (match === null) return null;
  const n = Number(match[1]);
  switch (match[2]) {
    case 'm':
      return n <= 59 ? n * MINUTE : null;
    case 'h':
      return n <= 23 ? n * HOUR : null;
    default:
      return n <= 7 ? n * DAY : null;
  }
}
