/**
 * The JSON of each market stream's message, as Binance sends it (binance-facts.md §6.4), built
 * from the market history and the engine's book as of a simulated time. Prices and quantities
 * are strings at the symbol's precisions; times in ms (µs with timeUnit=MICROSECOND).
 */
import { formatAmount, formatKline, type AggTrade, type DayTicker, type HistoryKline, type MarketHistory, type MiniTicker, type TapeTrade, type WindowTicker } from '../../data/index.ts';
import type { EngineQueries, SymbolSpec } from '../../engine/index.ts';
import { apiTime, type TimeUnit } from '../serialize/index.ts';

const price = (units: number | bigint, spec: SymbolSpec) => formatAmount(units, spec.quotePrecision);
const qty = (units: number | bigint, spec: SymbolSpec) => formatAmount(units, spec.basePrecision);

export function tradePayload(t: TapeTrade, spec: SymbolSpec, unit: TimeUnit): Record<string, unknown> {
  const time = apiTime(t.time, unit);
  return { e: 'trade', E: time, s: spec.symbol, t: t.id, p: price(t.price, spec), q: qty(t.qty, spec), T: time, m: t.isBuyerMaker, M: true };
}

export function aggTradePayload(a: AggTrade, spec: SymbolSpec, unit: TimeUnit): Record<string, unknown> {
  const time = apiTime(a.T, unit);
  return { e: 'aggTrade', E: time, s: spec.symbol, a: a.a, p: price(a.p, spec), q: qty(a.q, spec), f: a.f, l: a.l, T: time, m: a.m, M: true };
}

export function klinePayload(k: HistoryKline, interval: string, closed: boolean, eventTime: number, spec: SymbolSpec, unit: TimeUnit): Record<string, unknown> {
  const [t, o, h, l, c, v, T, q, n, V, Q] = formatKline(k, spec, unit);
  return {
    e: 'kline',
    E: apiTime(eventTime, unit),
    s: spec.symbol,
    k: { t, T, s: spec.symbol, i: interval, f: k.firstTradeId, L: k.lastTradeId, o, c, h, l, v, n, x: closed, q, V, Q, B: '0' },
  };
}

export function miniTickerPayload(t: MiniTicker, eventTime: number, spec: SymbolSpec, unit: TimeUnit): Record<string, unknown> {
  return {
    e: '24hrMiniTicker',
    E: apiTime(eventTime, unit),
    s: spec.symbol,
    c: price(t.lastPrice, spec),
    o: price(t.openPrice, spec),
    h: price(t.highPrice, spec),
    l: price(t.lowPrice, spec),
    v: qty(t.volume, spec),
    q: price(t.quoteVolume, spec),
  };
}

export function dayTickerPayload(t: DayTicker, eventTime: number, spec: SymbolSpec, unit: TimeUnit): Record<string, unknown> {
  return {
    e: '24hrTicker',
    E: apiTime(eventTime, unit),
    s: spec.symbol,
    p: price(t.priceChange, spec),
    P: formatAmount(t.priceChangePercent, 3),
    w: price(t.weightedAvgPrice, spec),
    x: price(t.prevClosePrice, spec),
    c: price(t.lastPrice, spec),
    Q: qty(t.lastQty, spec),
    b: price(t.bidPrice, spec),
    B: qty(t.bidQty, spec),
    a: price(t.askPrice, spec),
    A: qty(t.askQty, spec),
    o: price(t.openPrice, spec),
    h: price(t.highPrice, spec),
    l: price(t.lowPrice, spec),
    v: qty(t.volume, spec),
    q: price(t.quoteVolume, spec),
    O: apiTime(t.openTime, unit),
    C: apiTime(t.closeTime, unit),
    F: t.firstId,
    L: t.lastId,
    n: t.count,
  };
}

export function windowTickerPayload(t: WindowTicker, window: string, eventTime: number, spec: SymbolSpec, unit: TimeUnit): Record<string, unknown> {
  return {
    e: `${window}Ticker`,
    E: apiTime(eventTime, unit),
    s: spec.symbol,
    p: price(t.priceChange, spec),
    P: formatAmount(t.priceChangePercent, 3),
    o: price(t.openPrice, spec),
    h: price(t.highPrice, spec),
    l: price(t.lowPrice, spec),
    c: price(t.lastPrice, spec),
    w: price(t.weightedAvgPrice, spec),
    v: qty(t.volume, spec),
    q: price(t.quoteVolume, spec),
    O: apiTime(t.openTime, unit),
    C: apiTime(t.closeTime, unit),
    F: t.firstId,
    L: t.lastId,
    n: t.count,
  };
}

export function avgPricePayload(history: MarketHistory, eventTime: number, spec: SymbolSpec, unit: TimeUnit): Record<string, unknown> {
  const avg = history.avgPrice(eventTime, 5);
  return { e: 'avgPrice', E: apiTime(eventTime, unit), s: spec.symbol, i: '5m', w: price(avg?.price ?? 0, spec), T: apiTime(avg?.closeTime ?? 0, unit) };
}

/** `u` is the book's update id (the engine's command sequence, as REST depth's lastUpdateId). */
export function bookTickerPayload(engine: EngineQueries, updateId: number, spec: SymbolSpec): Record<string, unknown> {
  const b = engine.bookTicker(spec.symbol) ?? { bidPrice: 0, bidQty: 0, askPrice: 0, askQty: 0 };
  return { u: updateId, s: spec.symbol, b: price(b.bidPrice, spec), B: qty(b.bidQty, spec), a: price(b.askPrice, spec), A: qty(b.askQty, spec) };
}

export function partialDepthPayload(engine: EngineQueries, levels: number, spec: SymbolSpec): Record<string, unknown> {
  const view = engine.depth(spec.symbol, levels);
  return {
    lastUpdateId: engine.sequence,
    bids: view.bids.map(([p, q]) => [price(p, spec), qty(q, spec)]),
    asks: view.asks.map(([p, q]) => [price(p, spec), qty(q, spec)]),
  };
}

/** Price levels [price, qty] (units) formatted as a diff-depth event's b / a. */
export function depthUpdatePayload(
  eventTime: number,
  firstId: number,
  lastId: number,
  bids: readonly (readonly [number, number])[],
  asks: readonly (readonly [number, number])[],
  spec: SymbolSpec,
  unit: TimeUnit,
): Record<string, unknown> {
  return {
    e: 'depthUpdate',
    E: apiTime(eventTime, unit),
    s: spec.symbol,
    U: firstId,
    u: lastId,
    b: bids.map(([p, q]) => [price(p, spec), qty(q, spec)]),
    a: asks.map(([p, q]) => [price(p, spec), qty(q, spec)]),
  };
}
