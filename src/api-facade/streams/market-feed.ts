/**
 * Market streams on simulated time, independent of any transport: subscribers (a WebSocket
 * connection, a backtest's `ctx.stream`) name a Binance stream and get its messages as objects.
 * Nothing runs on a timer of its own: the owner calls `advanceTo(now)` as simulated time moves
 * (after each replayed print, at `nextDue()`), and every message due in (last, now] is delivered
 * in time order: trades and aggregate trades at their trade time, bookTicker when the best
 * levels change, the periodic streams at their cadence on the simulated clock (klines every 2 s,
 * 1 s for 1s klines, with `x` true once when a bar closes; tickers and avgPrice every 1 s; depth
 * every 1 s or 100 ms). A manual clock that does not move streams nothing.
 *
 * Diff depth (`@depth[@100ms]`): ids are the engine's command sequence, the same number REST
 * depth answers as `lastUpdateId`, and each event lists every price level touched since the
 * previous one with its quantity now (0: gone). "Touched" is judged between observed states:
 * the feed observes the book at each event and whenever REST depth answers (`observe`), so any
 * state a client can have seen is an observed one, and the documented recipe (buffer, snapshot,
 * drop u <= lastUpdateId, apply in order, U = previous u + 1) rebuilds exactly the book REST
 * shows.
 *
 * USDⓈ-M streams (futures-stream-name.ts) are subscribed with venue 'futures': mark price
 * updates at their 3 s / 1 s boundaries, liquidations (`forceOrder`: the latest per symbol since
 * the last push, at each 1 s boundary) from the PositionLiquidated events the backend reports
 * (`onMarketEvents`), and the traded perpetual's aggTrade / bookTicker / depth / kline from its
 * margin symbol, and its `@ticker` / `@miniTicker`, with the same machinery as spot's and futures
 * payloads (futures-stream-payloads.ts).
 *
 * Deterministic: subscriptions are kept in subscription order, ties at one time go in that order.
 */
import type { DayTicker, MarketHistory, WindowTicker } from '../../data/index.ts';
import { fapiSymbolOf, futuresEngineSymbol, type EngineEvent, type EngineQueries, type PositionLiquidated, type SymbolSpec } from '../../engine/index.ts';
import type { FuturesContract, FuturesMarket } from '../../futures/index.ts';
import type { TimeUnit } from '../serialize/index.ts';
import { isFuturesName } from './futures-names.ts';
import { futuresPeriodOf, parseFuturesStreamName } from './futures-stream-name.ts';
import { forceOrderPayload, futuresAggTradePayload, futuresBookTickerPayload, futuresDepthPayload, futuresKlinePayload, futuresMiniTickerPayload, futuresTickerPayload, futuresTradePayload, markPricePayload } from './futures-stream-payloads.ts';
import { parseStreamName, periodOf, type StreamSpec } from './stream-name.ts';
import { aggTradePayload, avgPricePayload, bookTickerPayload, dayTickerPayload, depthUpdatePayload, klinePayload as spotKlinePayload, miniTickerPayload, partialDepthPayload, tradePayload, windowTickerPayload } from './stream-payloads.ts';

/** What the feed reads: the engine's queries, the histories, and simulated now (µs). */
export interface FeedBackend {
  readonly engine: EngineQueries;
  readonly now: number;
  history(symbol: string): MarketHistory;
  /** Commands the market applies on its own (the futures clock's marks: liquidations come from there). */
  onMarketEvents?(listener: (events: readonly EngineEvent[]) => void): void;
}

/** Which market a stream name refers to: spot's (/ws, /stream) or USDⓈ-M's (/fstream/...). */
export type StreamVenue = 'spot' | 'futures';

export type StreamSink = (message: unknown) => void;

/** More boundaries than this passed in one advance (a jump of the clock): only the last ones are sent. */
const MAX_BOUNDARIES = 50;

interface Stream {
  readonly name: string;
  /** The unit its payloads state times in (a subscriber's `timeUnit`). */
  readonly unit: TimeUnit;
  readonly spec: StreamSpec;
  /** A USDⓈ-M stream: futures payloads (a margin symbol's spec for the book and trade kinds). */
  readonly futures: boolean;
  readonly sinks: StreamSink[];
  /** µs between pushes; 0 for real-time streams. */
  readonly period: number;
  /** Next boundary (µs) of a periodic stream. */
  next: number;
  /** trade: last trade id sent; aggTrade: last aggregate id sent; forceOrder: last liquidation number seen. */
  lastId: number;
  /** kline: open time of the bar last sent (-1: none). */
  /** kline: open time of the last bar sent as closed (-1: none); when the subscription opened (µs). */
  closedOpen: number;
  readonly openedAt: number;
  /** bookTicker: the last message's key. */
  lastKey: string;
  /** diffDepth: last u sent, and the prices touched since (bids, asks). */
  lastU: number;
  readonly touchedBids: Set<number>;
  readonly touchedAsks: Set<number>;
}

/**
 * The last observed book of a symbol with a diff-depth subscriber: each side as the engine's view
 * gives it, [price, quantity] best first. Kept sorted rather than as maps, so two observations are
 * compared by one merge walk (a recorded book has thousands of levels, observed ten times a
 * simulated second: hashing every level into a map and probing the other was most of a streaming
 * backtest's time) and a price is looked up by binary search.
 */
interface Observed {
  sequence: number;
  bids: [number, number][];
  asks: [number, number][];
}

interface Due {
  readonly time: number;
  readonly order: number;
  readonly stream: Stream;
  readonly message: unknown;
}

export class MarketFeed {
  readonly #backend: FeedBackend;
  readonly #unit: TimeUnit;
  readonly #symbols: ReadonlySet<string>;
  readonly #streams = new Map<string, Stream>();
  readonly #observed = new Map<string, Observed>();
  readonly #futuresModel: (() => FuturesMarket) | undefined;
  /** The latest liquidation of each margin symbol, numbered in arrival order. */
  readonly #liquidations = new Map<string, { readonly n: number; readonly event: PositionLiquidated }>();
  #liquidationCount = 0;
  #last: number;

  /** `futures`: the futures model (marks of untraded perpetuals, settle price, funding estimate); without it no USDⓈ-M stream is served. */
  constructor(backend: FeedBackend, options: { unit?: TimeUnit; futures?: () => FuturesMarket } = {}) {
    this.#backend = backend;
    this.#unit = options.unit ?? 'MILLISECOND';
    this.#futuresModel = options.futures;
    // Spot streams: margin symbols (`um:…`) are not spot markets.
    this.#symbols = new Set(backend.engine.symbolNames().filter((n) => !isFuturesName(n)));
    this.#last = backend.now;
    backend.onMarketEvents?.((events) => {
      for (const e of events) if (e.type === 'PositionLiquidated') this.#liquidations.set(e.symbol, { n: ++this.#liquidationCount, event: e });
    });
  }

  /** True when `name` is a stream this market serves. */
  isStream(name: string, venue: StreamVenue = 'spot'): boolean {
    return this.#parse(name, venue) !== null;
  }

  #parse(name: string, venue: StreamVenue): StreamSpec | null {
    if (venue === 'spot') return parseStreamName(name, this.#symbols);
    const model = this.#futuresModel?.();
    if (model === undefined) return null;
    const engine = this.#backend.engine;
    const perpetuals = new Set(model.contracts('USD_M', this.#backend.now).flatMap((c) => (c.deliveryTime === null ? [c.symbol] : [])));
    const traded = new Set(engine.symbolNames().flatMap((n) => (isFuturesName(n) && engine.isMarginSymbol(n) ? [fapiSymbolOf(n)!] : [])));
    return parseFuturesStreamName(name, { perpetuals, traded });
  }

  /**
   * Calls `sink` with each message of stream `name` from now on, its times in `unit` (default:
   * the feed's); returns the unsubscribe, or null for an unknown stream.
   */
  subscribe(name: string, sink: StreamSink, unit: TimeUnit = this.#unit, venue: StreamVenue = 'spot'): (() => void) | null {
    const key = `${venue === 'futures' ? 'f ' : ''}${unit === 'MICROSECOND' ? `${name} us` : name}`;
    let stream = this.#streams.get(key);
    if (stream === undefined) {
      const spec = this.#parse(name, venue);
      if (spec === null) return null;
      stream = this.#open(name, spec, unit, venue === 'futures');
      this.#streams.set(key, stream);
    }
    stream.sinks.push(sink);
    const owner = stream;
    return () => {
      const at = owner.sinks.indexOf(sink);
      if (at < 0) return;
      owner.sinks.splice(at, 1);
      if (owner.sinks.length === 0) this.#streams.delete(key);
    };
  }

  /** True while any stream has a subscriber. */
  get active(): boolean {
    return this.#streams.size > 0;
  }

  /** Stream names with at least one subscriber, in subscription order. */
  get streams(): readonly string[] {
    return [...new Set([...this.#streams.values()].map((s) => s.name))];
  }

  /** The next time (µs) a periodic stream pushes, or null with none subscribed. */
  nextDue(): number | null {
    let next = Infinity;
    for (const stream of this.#streams.values()) if (stream.period > 0 && stream.next < next) next = stream.next;
    return next === Infinity ? null : next;
  }

  /** REST depth is about to answer for `symbol`: the state it shows becomes an observed one. */
  observe(symbol: string): void {
    const observed = this.#observed.get(symbol);
    if (observed === undefined) return;
    const engine = this.#backend.engine;
    if (engine.sequence === observed.sequence) return;
    const { bids, asks } = engine.depth(symbol, 5000);
    const touchedBids = changedPrices(observed.bids, bids, true);
    const touchedAsks = changedPrices(observed.asks, asks, false);
    observed.sequence = engine.sequence;
    observed.bids = bids;
    observed.asks = asks;
    if (touchedBids.length === 0 && touchedAsks.length === 0) return;
    for (const stream of this.#streams.values()) {
      if (stream.spec.kind !== 'diffDepth' || stream.spec.symbol !== symbol) continue;
      for (const p of touchedBids) stream.touchedBids.add(p);
      for (const p of touchedAsks) stream.touchedAsks.add(p);
    }
  }

  /** Delivers every message due in (last advance, now], in time order. */
  advanceTo(now: number): void {
    if (now < this.#last) return;
    const due: Due[] = [];
    let order = 0;
    for (const stream of [...this.#streams.values()]) {
      if (stream.period === 0) {
        for (const [time, message] of this.#realTime(stream, now)) due.push({ time, order: order++, stream, message });
        continue;
      }
      if (stream.next > now) continue;
      let boundary = stream.next;
      const passed = Math.floor((now - boundary) / stream.period) + 1;
      if (passed > MAX_BOUNDARIES) boundary += (passed - MAX_BOUNDARIES) * stream.period;
      for (; boundary <= now; boundary += stream.period) {
        for (const message of this.#periodic(stream, boundary)) due.push({ time: boundary, order: order++, stream, message });
      }
      stream.next = boundary;
    }
    this.#last = now;
    due.sort((a, b) => a.time - b.time || a.order - b.order);
    for (const d of due) for (const sink of [...d.stream.sinks]) sink(d.message);
  }

  #open(name: string, spec: StreamSpec, unit: TimeUnit, futures: boolean): Stream {
    const now = this.#backend.now;
    const period = (futures ? futuresPeriodOf(spec) : periodOf(spec)) * 1000;
    const stream: Stream = {
      name,
      unit,
      spec,
      futures,
      sinks: [],
      period,
      // Pushes fall on whole multiples of the period (on the simulated clock), after now.
      next: period === 0 ? 0 : (Math.floor(now / period) + 1) * period,
      lastId: 0,
      closedOpen: -1,
      openedAt: now,
      lastKey: '',
      lastU: this.#backend.engine.sequence,
      touchedBids: new Set(),
      touchedAsks: new Set(),
    };
    if (spec.kind === 'trade') stream.lastId = this.#backend.history(spec.symbol).lastTrade(now)?.id ?? 0;
    if (spec.kind === 'aggTrade') {
      const last = this.#backend.history(spec.symbol).aggTrades(now, { limit: 1 })[0];
      stream.lastId = last?.a ?? -1;
    }
    if (spec.kind === 'bookTicker') stream.lastKey = this.#bookKey(spec.symbol);
    // Liquidations before the subscription are not news.
    if (spec.kind === 'forceOrder' || spec.kind === 'allForceOrder') stream.lastId = this.#liquidationCount;
    if (spec.kind === 'diffDepth' && !this.#observed.has(spec.symbol)) {
      const view = this.#backend.engine.depth(spec.symbol, 5000);
      this.#observed.set(spec.symbol, { sequence: this.#backend.engine.sequence, bids: view.bids, asks: view.asks });
    }
    return stream;
  }

  #spec(symbol: string): SymbolSpec {
    return this.#backend.engine.symbolSpec(symbol)!;
  }

  #bookKey(symbol: string): string {
    const b = this.#backend.engine.bookTicker(symbol);
    return b === undefined ? '' : `${b.bidPrice}/${b.bidQty}/${b.askPrice}/${b.askQty}`;
  }

  /** Messages of a real-time stream up to `now`, each with its time. */
  #realTime(stream: Stream, now: number): [number, unknown][] {
    const spec = stream.spec;
    const out: [number, unknown][] = [];
    if (spec.kind === 'trade') {
      const history = this.#backend.history(spec.symbol);
      const symbol = this.#spec(spec.symbol);
      for (;;) {
        const rows = history.historicalTrades(now, { fromId: stream.lastId + 1, limit: 1000 });
        const fresh = rows.filter((t) => t.id > stream.lastId);
        for (const t of fresh) out.push([t.time, stream.futures ? futuresTradePayload(t, symbol, stream.unit) : tradePayload(t, symbol, stream.unit)]);
        if (fresh.length === 0) break;
        stream.lastId = fresh[fresh.length - 1]!.id;
        if (rows.length < 1000) break;
      }
    } else if (spec.kind === 'aggTrade') {
      // An aggregate is final once time has moved past its µs (a later print of the same taker
      // order at that µs would still join it).
      const history = this.#backend.history(spec.symbol);
      const symbol = this.#spec(spec.symbol);
      for (;;) {
        const rows = history.aggTrades(now - 1, { fromId: stream.lastId + 1, limit: 1000 }).filter((a) => a.a > stream.lastId);
        for (const a of rows) out.push([a.T, stream.futures ? futuresAggTradePayload(a, symbol, stream.unit) : aggTradePayload(a, symbol, stream.unit)]);
        if (rows.length === 0) break;
        stream.lastId = rows[rows.length - 1]!.a;
        if (rows.length < 1000) break;
      }
    } else if (spec.kind === 'bookTicker') {
      const key = this.#bookKey(spec.symbol);
      if (key !== stream.lastKey) {
        stream.lastKey = key;
        const symbol = this.#spec(spec.symbol);
        out.push([now, stream.futures ? futuresBookTickerPayload(this.#backend.engine, symbol, now, stream.unit) : bookTickerPayload(this.#backend.engine, this.#backend.engine.sequence, symbol)]);
      }
    }
    return out;
  }

  /** Messages of a periodic stream at `boundary` (µs). */
  #periodic(stream: Stream, boundary: number): unknown[] {
    const spec = stream.spec;
    const unit = stream.unit;
    const engine = this.#backend.engine;
    switch (spec.kind) {
      case 'kline': {
        const history = this.#backend.history(spec.symbol);
        const symbol = this.#spec(spec.symbol);
        const query = { interval: spec.interval, ...(spec.timeZone === null ? {} : { timeZone: spec.timeZone }) };
        const bar = history.klines(boundary, { ...query, limit: 1 })[0];
        const out: unknown[] = [];
        const klinePayload = stream.futures ? futuresKlinePayload : spotKlinePayload;
        // A bar that ended at this boundary and was in progress while subscribed: its final state, once.
        const before = history.klines(boundary - 1, { ...query, limit: 1 })[0];
        if (before !== undefined && before.openTime !== bar?.openTime && before.openTime !== stream.closedOpen && boundary - 1 >= stream.openedAt) {
          stream.closedOpen = before.openTime;
          out.push(klinePayload(before, spec.interval, true, boundary, symbol, unit));
        }
        if (bar === undefined) return out;
        out.push(klinePayload(bar, spec.interval, false, boundary, symbol, unit));
        return out;
      }
      case 'miniTicker': {
        const mini = this.#backend.history(spec.symbol).ticker24hr(boundary, { type: 'MINI' });
        return [stream.futures ? futuresMiniTickerPayload(mini, boundary, this.#spec(spec.symbol), unit) : miniTickerPayload(mini, boundary, this.#spec(spec.symbol), unit)];
      }
      case 'ticker':
        if (stream.futures) return [futuresTickerPayload(this.#backend.history(spec.symbol).ticker24hr(boundary, { type: 'FULL' }), boundary, this.#spec(spec.symbol), unit)];
        return [this.#dayTicker(spec.symbol, boundary, unit)];
      case 'windowTicker':
        return [this.#windowTicker(spec.symbol, spec.window, boundary, unit)];
      case 'allMiniTickers':
        return [this.#traded(boundary).map((s) => miniTickerPayload(this.#backend.history(s).ticker24hr(boundary, { type: 'MINI' }), boundary, this.#spec(s), unit))];
      case 'allWindowTickers':
        return [this.#traded(boundary).map((s) => this.#windowTicker(s, spec.window, boundary, unit))];
      case 'avgPrice':
        return [avgPricePayload(this.#backend.history(spec.symbol), boundary, this.#spec(spec.symbol), unit)];
      case 'partialDepth': {
        if (!stream.futures) return [partialDepthPayload(engine, spec.levels, this.#spec(spec.symbol))];
        const view = engine.depth(spec.symbol, spec.levels);
        const ids = { U: Math.min(stream.lastU + 1, engine.sequence), u: engine.sequence, pu: stream.lastU };
        stream.lastU = engine.sequence;
        return [futuresDepthPayload(engine, this.#spec(spec.symbol), boundary, ids, view.bids, view.asks, unit)];
      }
      case 'markPrice': {
        const model = this.#futuresModel!();
        const c = model.findContract('USD_M', spec.symbol, boundary);
        const message = c === undefined ? null : markPricePayload(model, c, this.#engineMark(c), boundary, unit);
        return message === null ? [] : [message];
      }
      case 'allMarkPrice': {
        const model = this.#futuresModel!();
        const rows = model.contracts('USD_M', boundary).flatMap((c) => (c.deliveryTime === null ? [markPricePayload(model, c, this.#engineMark(c), boundary, unit)] : []));
        const marks = rows.filter((r) => r !== null);
        return marks.length === 0 ? [] : [marks];
      }
      case 'forceOrder':
      case 'allForceOrder': {
        const out: unknown[] = [];
        let latest = stream.lastId;
        for (const [symbol, { n, event }] of this.#liquidations) {
          if (n <= stream.lastId || (spec.kind === 'forceOrder' && symbol !== futuresEngineSymbol(spec.symbol))) continue;
          out.push(forceOrderPayload(event, this.#spec(symbol), boundary, unit));
          latest = Math.max(latest, n);
        }
        stream.lastId = latest;
        return out;
      }
      case 'diffDepth': {
        this.observe(spec.symbol);
        if (engine.sequence === stream.lastU || (stream.touchedBids.size === 0 && stream.touchedAsks.size === 0)) return [];
        const observed = this.#observed.get(spec.symbol)!;
        const levels = (touched: Set<number>, side: readonly [number, number][], isBid: boolean): [number, number][] =>
          [...touched].sort((a, b) => (isBid ? b - a : a - b)).map((p) => [p, quantityAt(side, p, isBid)]);
        const bids = levels(stream.touchedBids, observed.bids, true);
        const asks = levels(stream.touchedAsks, observed.asks, false);
        const message = stream.futures
          ? futuresDepthPayload(engine, this.#spec(spec.symbol), boundary, { U: stream.lastU + 1, u: engine.sequence, pu: stream.lastU }, bids, asks, unit)
          : depthUpdatePayload(boundary, stream.lastU + 1, engine.sequence, bids, asks, this.#spec(spec.symbol), unit);
        stream.lastU = engine.sequence;
        stream.touchedBids.clear();
        stream.touchedAsks.clear();
        return [message];
      }
      default:
        return [];
    }
  }

  /** The engine's mark of a perpetual it trades (once set), else null: the model's is shown. */
  #engineMark(c: FuturesContract): { markPrice: number; indexPrice: number; precision: number } | null {
    const engine = this.#backend.engine;
    const symbol = futuresEngineSymbol(c.symbol);
    if (!engine.isMarginSymbol(symbol)) return null;
    const view = engine.futuresMarkPrice(symbol);
    if (view === undefined || view.markPrice === 0) return null;
    return { markPrice: view.markPrice, indexPrice: view.indexPrice, precision: this.#spec(symbol).quotePrecision };
  }

  #dayTicker(symbol: string, boundary: number, unit: TimeUnit): unknown {
    const book = this.#backend.engine.bookTicker(symbol) ?? { bidPrice: 0, bidQty: 0, askPrice: 0, askQty: 0 };
    return dayTickerPayload(this.#backend.history(symbol).ticker24hr(boundary, { type: 'FULL', book }) as DayTicker, boundary, this.#spec(symbol), unit);
  }

  #windowTicker(symbol: string, window: string, boundary: number, unit: TimeUnit): unknown {
    return windowTickerPayload(this.#backend.history(symbol).rollingTicker(boundary, { windowSize: window, type: 'FULL' }) as WindowTicker, window, boundary, this.#spec(symbol), unit);
  }

  /** Symbols that have traded by `time` (the all-market arrays list those, in market order). */
  #traded(time: number): string[] {
    return [...this.#symbols].filter((s) => this.#backend.history(s).lastTrade(time) !== null);
  }
}

/**
 * Prices whose quantity differs between two observations of one side (added, removed or
 * changed), both best first (bids descending, asks ascending): one merge walk.
 */
function changedPrices(before: readonly [number, number][], after: readonly [number, number][], isBid: boolean): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length && j < after.length) {
    const [p, q] = before[i]!;
    const [r, s] = after[j]!;
    if (p === r) {
      if (q !== s) out.push(p);
      i++;
      j++;
    } else if (isBid ? p > r : p < r) {
      out.push(p); // gone (or out of the observed window)
      i++;
    } else {
      out.push(r); // new
      j++;
    }
  }
  for (; i < before.length; i++) out.push(before[i]![0]);
  for (; j < after.length; j++) out.push(after[j]![0]);
  return out;
}

/** The quantity at `price` in a side kept best first, 0 when the level is not there. */
function quantityAt(side: readonly [number, number][], price: number, isBid: boolean): number {
  let lo = 0;
  let hi = side.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const p = side[mid]![0];
    if (p === price) return side[mid]![1];
    if (isBid ? p > price : p < price) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}
