/**
 * The market-data history of one symbol: the tape (replayed trades and the simulation's own,
 * as one sequence), aggregate trades and a pyramid of bars, answering every market-data query
 * "as of" a simulated time.
 *
 * No look-ahead: every query takes `asOf` (µs) and sees exactly the trades stamped at or before
 * it, whatever has been recorded since — a query at asOf equals the same query on the tape cut
 * at asOf. Trades at exactly asOf are visible.
 *
 * Units: prices in price units (decimal * 10^quotePrecision), quantities in base units, quote
 * amounts in quote units, volumes as BigInt units where sums can pass 2^53; times in µs. The API
 * facade formats (formatAmount / formatKline) and converts times (apiTime).
 *
 * Ingest is cheap (a few typed-array stores and the open 1s bar; no object kept per trade) and
 * memory is bounded by time (see history-options.ts).
 */
import type { AggTrade, TapeTrade, TradeBatch } from '../tape.ts';
import { BUYER_MAKER, BEST_MATCH } from '../tape.ts';
import { AggTradeStore } from './agg-trade-store.ts';
import { BarPyramid } from './bar-pyramid.ts';
import type { LastTrade } from './bar-row.ts';
import { CLOSE, COUNT, LAST_TIME, lastTradeOf, MAX_TRADE_UNITS, QUOTE_VOLUME, VOLUME, wideValue } from './bar-row.ts';
import { divRound, weightedAverage } from './exact-amount.ts';
import type { MarketHistoryOptions, ResolvedHistoryOptions } from './history-options.ts';
import { resolveHistoryOptions } from './history-options.ts';
import { DAY, KlineGrid, MINUTE } from './kline-calendar.ts';
import type { HistoryKline, KlineQuery } from './klines.ts';
import { queryKlines, timeZoneMinutes } from './klines.ts';
import { pickRange, resolveLimit } from './query-limits.ts';
import type { BookTicker, DayTicker, MiniTicker, TickerType, WindowTicker } from './tickers.ts';
import { dayTicker, miniTicker, parseWindowSize, windowStats, windowTicker } from './tickers.ts';
import { TradeStore } from './trade-store.ts';

export interface HistoricalTradesQuery {
  /** Trade id to start from (inclusive); omitted: the most recent trades. */
  fromId?: number;
  limit?: number;
}

export interface AggTradesQuery {
  /** Aggregate id to start from (inclusive). */
  fromId?: number;
  /** µs, inclusive. */
  startTime?: number;
  /** µs, inclusive. */
  endTime?: number;
  limit?: number;
}

/** GET /api/v3/avgPrice: price in price units, closeTime = time of the last trade used (µs). */
export interface AvgPrice {
  mins: number;
  price: number;
  closeTime: number;
}

export interface ReferencePriceSample {
  /** Price units. */
  price: number;
  /** µs: the last instant the newest bucket covers. */
  time: number;
}

// Bound locally for the per-trade path (module runners turn imported bindings into getters).
const MAX_UNITS = MAX_TRADE_UNITS;
const MAKER_BIT = BUYER_MAKER;
const BEST_BIT = BEST_MATCH;

const EMPTY_BOOK: BookTicker = { bidPrice: 0, bidQty: 0, askPrice: 0, askQty: 0 };

export class MarketHistory {
  readonly options: ResolvedHistoryOptions;
  #trades: TradeStore;
  #aggs: AggTradeStore;
  #bars: BarPyramid;
  #firstTime: number | null = null;
  #lastTime = 0;
  #lastId = -Infinity;

  constructor(options: MarketHistoryOptions) {
    this.options = resolveHistoryOptions(options);
    this.#trades = new TradeStore(this.options.tradeRetention);
    this.#aggs = new AggTradeStore(this.options.tradeRetention);
    this.#bars = new BarPyramid(this.#trades, {
      seconds: this.options.secondBarRetention,
      minutes: this.options.minuteBarRetention,
    });
  }

  /**
   * Snapshot support (`exsim serve --journal` snapshots): everything it holds, as plain data and
   * typed arrays (v8.serialize keeps it whole); `importFields` puts it back in place.
   */
  exportFields(): unknown[] {
    return [this.#trades.exportFields(), this.#aggs.exportFields(), this.#bars.exportFields(), this.#firstTime, this.#lastTime, this.#lastId];
  }

  /** Replaces what this history holds with an `exportFields` of a history of the same options. */
  importFields(fields: unknown[]): void {
    this.#trades = TradeStore.importFields(fields[0] as unknown[]);
    this.#aggs = AggTradeStore.importFields(fields[1] as unknown[]);
    this.#bars = BarPyramid.importFields(fields[2] as unknown[], this.#trades);
    this.#firstTime = fields[3] as number | null;
    this.#lastTime = fields[4] as number;
    this.#lastId = fields[5] as number;
  }

  /** Time of the first trade ever recorded, or null. */
  get firstTradeTime(): number | null {
    return this.#firstTime;
  }

  /** Time of the newest trade recorded, or null. */
  get newestTradeTime(): number | null {
    return this.#firstTime === null ? null : this.#lastTime;
  }

  // ---- ingest ----

  /** Records one trade; times must not decrease and ids must increase. */
  record(trade: TapeTrade): void {
    const flags = (trade.isBuyerMaker ? MAKER_BIT : 0) | (trade.isBestMatch ? BEST_BIT : 0);
    this.#ingest(trade.id, trade.price, trade.qty, trade.quoteQty, trade.time, flags);
  }

  /** Records a columnar batch (the loaders' format) without creating an object per trade. */
  recordBatch(batch: TradeBatch): void {
    const { id, price, qty, quoteQty, time, flags } = batch;
    for (let i = 0; i < batch.length; i++) this.#ingest(id[i]!, price[i]!, qty[i]!, quoteQty[i]!, time[i]!, flags[i]!);
  }

  #ingest(id: number, price: number, qty: number, quote: number, time: number, flags: number): void {
    // One combined test on the hot path; the negated forms also reject NaN.
    if (!(time >= this.#lastTime && id > this.#lastId && qty >= 0 && qty <= MAX_UNITS && quote >= 0 && quote <= MAX_UNITS)) {
      this.#reject(id, qty, quote, time);
    }
    if (this.#firstTime === null) this.#firstTime = time;
    this.#lastTime = time;
    this.#lastId = id;
    this.#trades.append(id, price, qty, quote, time, flags);
    this.#aggs.add(id, price, qty, time, flags);
    this.#bars.record(price, qty, quote, time, id, (flags & MAKER_BIT) === 0);
  }

  #reject(id: number, qty: number, quote: number, time: number): never {
    if (!(time >= this.#lastTime)) throw new RangeError(`trade ${id}: time ${time} is before the previous trade (${this.#lastTime})`);
    if (!(id > this.#lastId)) throw new RangeError(`trade ${id}: id does not increase (previous ${this.#lastId})`);
    throw new RangeError(`trade ${id}: qty ${qty} / quoteQty ${quote} must be in 0..${MAX_TRADE_UNITS} units`);
  }

  // ---- trades ----

  /** GET /api/v3/trades: the newest `limit` trades at or before asOf, oldest first. */
  recentTrades(asOf: number, limit?: number): TapeTrade[] {
    const hi = this.#trades.upperBoundTime(asOf);
    const [a, b] = pickRange(0, hi, false, resolveLimit(limit));
    return this.#tradeRows(a, b);
  }

  /**
   * GET /api/v3/historicalTrades: from trade `fromId` (inclusive; an id older than retention
   * starts at the oldest retained trade) up to `limit`, never past asOf; without fromId, like
   * recentTrades.
   */
  historicalTrades(asOf: number, query: HistoricalTradesQuery = {}): TapeTrade[] {
    const limit = resolveLimit(query.limit);
    if (query.fromId === undefined) return this.recentTrades(asOf, limit);
    const lo = this.#trades.lowerBoundId(query.fromId);
    const [a, b] = pickRange(lo, this.#trades.upperBoundTime(asOf), true, limit);
    return this.#tradeRows(a, b);
  }

  #tradeRows(a: number, b: number): TapeTrade[] {
    const rows: TapeTrade[] = [];
    for (let i = a; i < b; i++) rows.push(this.#trades.at(i));
    return rows;
  }

  /**
   * GET /api/v3/aggTrades. Every given bound applies (fromId and startTime inclusive lower
   * bounds, endTime an inclusive upper bound, asOf always): with fromId or startTime the oldest
   * `limit` from the bound, else the newest up to endTime/asOf. No 1-hour cap (removed 2022-12).
   * A fromId older than retention starts at the oldest aggregate kept. Whether fromId may be
   * combined with a time bound is the facade's call.
   */
  aggTrades(asOf: number, query: AggTradesQuery = {}): AggTrade[] {
    const limit = resolveLimit(query.limit);
    const aggs = this.#aggs;
    const hi = aggs.upperBoundTime(Math.min(asOf, query.endTime ?? Infinity));
    let lo = 0;
    if (query.fromId !== undefined) lo = Math.max(lo, aggs.positionOf(query.fromId));
    if (query.startTime !== undefined) lo = Math.max(lo, aggs.lowerBoundTime(query.startTime));
    const fromLowerBound = query.fromId !== undefined || query.startTime !== undefined;
    const [a, b] = pickRange(lo, hi, fromLowerBound, limit);
    const rows: AggTrade[] = [];
    for (let i = a; i < b; i++) rows.push(aggs.at(i));
    return rows;
  }

  // ---- klines ----

  /** GET /api/v3/klines (see klines.ts for the period and selection rules). */
  klines(asOf: number, query: KlineQuery): HistoryKline[] {
    return queryKlines(this.#bars, this.#firstTime, asOf, query);
  }

  /** GET /api/v3/uiKlines: the same rows as klines (the modification is undocumented). */
  uiKlines(asOf: number, query: KlineQuery): HistoryKline[] {
    return this.klines(asOf, query);
  }

  // ---- prices ----

  /** The last trade at or before asOf, or null before the first trade. */
  lastTrade(asOf: number): LastTrade | null {
    const last = this.#bars.lastBefore(asOf + 1);
    return last === null ? null : lastTradeOf(last, 0);
  }

  /** GET /api/v3/ticker/price: the last price at or before asOf; null if never traded. */
  priceTicker(asOf: number): { price: number } | null {
    const last = this.#bars.lastBefore(asOf + 1);
    return last === null ? null : { price: last[CLOSE]! };
  }

  /**
   * GET /api/v3/avgPrice: the volume-weighted average of the trades in (asOf - mins, asOf]
   * (the engine's reference-price window), rounded half up at the quote precision; with no
   * trade in the window, the last trade before it; null if the symbol never traded.
   * closeTime is the time of the last trade counted. mins 0 means the last price.
   */
  avgPrice(asOf: number, mins = 5): AvgPrice | null {
    if (!Number.isInteger(mins) || mins < 0) throw new RangeError(`mins must be a non-negative integer (got ${mins})`);
    if (mins > 0) {
      const acc = this.#bars.aggregate(asOf - mins * MINUTE + 1, asOf + 1);
      if (acc[COUNT]! > 0) {
        const price = weightedAverage(wideValue(acc, QUOTE_VOLUME), wideValue(acc, VOLUME), this.options.basePrecision);
        return { mins, price, closeTime: acc[LAST_TIME]! };
      }
    }
    const last = this.#bars.lastBefore(asOf + 1);
    return last === null ? null : { mins, price: last[CLOSE]!, closeTime: last[LAST_TIME]! };
  }

  /**
   * An ARITHMETIC_MEAN reference price (GET /api/v3/referencePrice/calculation names only
   * bucketCount and bucketWidthMs; the formula is ours): the mean of the last trade price at the
   * end of each of the `bucketCount` newest whole buckets (epoch-aligned, `bucketWidth` µs)
   * ending by asOf, a bucket without trades carrying the price before it; buckets before the
   * first trade are left out. Rounded half up; null when no bucket has a price.
   */
  arithmeticMeanPrice(asOf: number, bucketCount: number, bucketWidth: number): ReferencePriceSample | null {
    if (!Number.isInteger(bucketCount) || bucketCount < 1 || !Number.isInteger(bucketWidth) || bucketWidth < 1) {
      throw new RangeError('bucketCount and bucketWidth must be positive integers');
    }
    const end = Math.floor((asOf + 1) / bucketWidth) * bucketWidth;
    let sum = 0n;
    let n = 0n;
    for (let k = 0; k < bucketCount; k++) {
      const last = this.#bars.lastBefore(end - k * bucketWidth);
      if (last === null) break; // older buckets have no price either
      sum += BigInt(last[CLOSE]!);
      n += 1n;
    }
    return n === 0n ? null : { price: Number(divRound(sum, n)), time: end - 1 };
  }

  // ---- tickers ----

  /** GET /api/v3/ticker/24hr: the trades in [asOf - 24 h, asOf]; the book top comes from outside. */
  ticker24hr(asOf: number, options?: { type?: 'FULL'; book?: BookTicker }): DayTicker;
  ticker24hr(asOf: number, options: { type: 'MINI' }): MiniTicker;
  ticker24hr(asOf: number, options?: { type?: TickerType; book?: BookTicker }): DayTicker | MiniTicker;
  ticker24hr(asOf: number, options: { type?: TickerType; book?: BookTicker } = {}): DayTicker | MiniTicker {
    const openTime = asOf - DAY;
    const before = this.#bars.lastBefore(openTime);
    const stats = windowStats(this.#bars.aggregate(openTime, asOf + 1), before, this.options.basePrecision);
    if (options.type === 'MINI') return miniTicker(stats, openTime, asOf);
    return dayTicker(stats, before?.[CLOSE] ?? 0, options.book ?? EMPTY_BOOK, openTime, asOf);
  }

  /**
   * GET /api/v3/ticker/tradingDay: the trades of the current day in `timeZone` up to asOf;
   * openTime is the day's start and closeTime its last µs (as Binance shows, though later).
   */
  tradingDayTicker(asOf: number, options?: { timeZone?: string; type?: 'FULL' }): WindowTicker;
  tradingDayTicker(asOf: number, options: { timeZone?: string; type: 'MINI' }): MiniTicker;
  tradingDayTicker(asOf: number, options?: { timeZone?: string; type?: TickerType }): WindowTicker | MiniTicker;
  tradingDayTicker(asOf: number, options: { timeZone?: string; type?: TickerType } = {}): WindowTicker | MiniTicker {
    const grid = new KlineGrid('1d', timeZoneMinutes(options.timeZone));
    const openTime = grid.startOf(asOf);
    const closeTime = grid.next(openTime) - 1;
    return this.#windowTicker(openTime, asOf, closeTime, options.type);
  }

  /**
   * GET /api/v3/ticker (rolling window): openTime = the start of the minute holding
   * asOf - windowSize, closeTime = asOf, so the window is up to a minute wider than windowSize.
   */
  rollingTicker(asOf: number, options?: { windowSize?: string; type?: 'FULL' }): WindowTicker;
  rollingTicker(asOf: number, options: { windowSize?: string; type: 'MINI' }): MiniTicker;
  rollingTicker(asOf: number, options?: { windowSize?: string; type?: TickerType }): WindowTicker | MiniTicker;
  rollingTicker(asOf: number, options: { windowSize?: string; type?: TickerType } = {}): WindowTicker | MiniTicker {
    const text = options.windowSize ?? '1d';
    const size = parseWindowSize(text);
    if (size === null) throw new RangeError(`invalid windowSize "${text}" (1m-59m, 1h-23h or 1d-7d)`);
    const openTime = Math.floor((asOf - size) / MINUTE) * MINUTE;
    return this.#windowTicker(openTime, asOf, asOf, options.type);
  }

  #windowTicker(openTime: number, asOf: number, closeTime: number, type: TickerType | undefined): WindowTicker | MiniTicker {
    const before = this.#bars.lastBefore(openTime);
    const stats = windowStats(this.#bars.aggregate(openTime, asOf + 1), before, this.options.basePrecision);
    return type === 'MINI' ? miniTicker(stats, openTime, closeTime) : windowTicker(stats, openTime, closeTime);
  }
}
