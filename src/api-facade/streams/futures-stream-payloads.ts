/**
 * The JSON of each USDⓈ-M market stream's message, as fstream.binance.com sends it (futures facts
 * §7 and the derivatives docs' stream pages), field order included:
 * - markPriceUpdate `e, E, s, p, i, P, r, T, st`: mark and index at 8 decimals (the engine's for a
 *   traded perpetual: the mark it margins and liquidates at), P the estimated settle price, r the
 *   funding rate shown between fundings, T the next funding time of the symbol's interval (both as
 *   GET /fapi/v1/premiumIndex),
 *   st the settlement type (1 USDⓈ-M, 2 COIN-M: added with the CM-UM integration, facts §7; the
 *   official SDK's MarkPriceStreamResponse has it; its `ap` is unverified and not sent);
 * - forceOrder `e, E, o{s, S, o, f, q, p, ap, X, l, z, T}`: a liquidation as Binance shows it, a
 *   LIMIT IOC order FILLED at once; p its limit (the bankruptcy price on the tick grid, as the
 *   archived order and ORDER_TRADE_UPDATE show it), ap the exact bankruptcy price it closed at;
 * - aggTrade `e, E, s, a, p, q, f, l, T, m` (no `M`, unlike spot); bookTicker `e, u, E, T, s, b, B,
 *   a, A`; depthUpdate `e, E, T, s, U, u, pu, b, a` for diff and partial books alike (`pu`: the
 *   previous event's `u`); kline as spot's; 24hrTicker `e, E, s, p, P, w, c, Q, o, h, l, v, q, O, C,
 *   F, L, n` (spot's without prevClose and the book) and 24hrMiniTicker as spot's.
 * Prices of a margin symbol at the contract's tick decimals, quantities at the step's, quote
 * amounts at the margin asset's precision (serialize/contract-grid.ts, the /fapi rows' rule).
 */
import { formatAmount, type AggTrade, type DayTicker, type HistoryKline, type MiniTicker, type TapeTrade } from '../../data/index.ts';
import { fapiSymbolOf, formatUnits, type EngineQueries, type PositionLiquidated, type SymbolSpec } from '../../engine/index.ts';
import type { FuturesContract, FuturesMarket } from '../../futures/index.ts';
import { apiTime, gridPrice as fprice, gridQty as fqty, type TimeUnit } from '../serialize/index.ts';

/** markPriceUpdate `st`: every perpetual served here is USDⓈ-M. */
const USDM_SETTLEMENT_TYPE = 1;

const fapi = (spec: SymbolSpec): string => fapiSymbolOf(spec.symbol) ?? spec.symbol;
const level = (spec: SymbolSpec) => ([p, q]: readonly [number, number]) => [fprice(spec, p), fqty(spec, q)];

/**
 * The mark price update of a perpetual at `time`, or null before it has a mark (no spot print yet).
 * `engine`: the engine's mark and index when it trades the perpetual (and has set one).
 */
export function markPricePayload(market: FuturesMarket, c: FuturesContract, engine: { markPrice: number; indexPrice: number; precision: number } | null, time: number, unit: TimeUnit): Record<string, unknown> | null {
  const spot = c.pair.spot.quotePrecision;
  const mark = engine ?? { markPrice: market.markPrice(c, time), indexPrice: market.indexPrice(c.pair, time), precision: spot };
  if (mark.markPrice === null || mark.indexPrice === null) return null;
  return {
    e: 'markPriceUpdate',
    E: apiTime(time, unit),
    s: c.symbol,
    p: formatUnits(mark.markPrice, mark.precision),
    i: formatUnits(mark.indexPrice, mark.precision),
    P: formatUnits(market.settlementPrice(c.pair, time) ?? 0, spot),
    r: formatUnits(market.fundingEstimate(c, time), 8),
    T: apiTime(market.nextFundingTime(c, time), unit),
    st: USDM_SETTLEMENT_TYPE,
  };
}

export function forceOrderPayload(l: PositionLiquidated, spec: SymbolSpec, eventTime: number, unit: TimeUnit): Record<string, unknown> {
  const q = fqty(spec, l.quantity);
  return { e: 'forceOrder', E: apiTime(eventTime, unit), o: { s: fapi(spec), S: l.side, o: 'LIMIT', f: 'IOC', q, p: fprice(spec, l.orderPrice), ap: fprice(spec, l.price), X: 'FILLED', l: q, z: q, T: apiTime(l.time, unit) } };
}

export function futuresAggTradePayload(a: AggTrade, spec: SymbolSpec, unit: TimeUnit): Record<string, unknown> {
  const time = apiTime(a.T, unit);
  return { e: 'aggTrade', E: time, s: fapi(spec), a: a.a, p: fprice(spec, a.p), q: fqty(spec, a.q), f: a.f, l: a.l, T: time, m: a.m };
}

/**
 * `<symbol>@trade`: served by fstream but not in Binance's docs; the shape live clients record
 * (barter-data's raw example: `e, E, T, s, t, p, q, X, m`, X the order type, "MARKET" for market
 * trades). ccxt's watchTrades subscribes it by default.
 */
export function futuresTradePayload(t: TapeTrade, spec: SymbolSpec, unit: TimeUnit): Record<string, unknown> {
  const time = apiTime(t.time, unit);
  return { e: 'trade', E: time, T: time, s: fapi(spec), t: t.id, p: fprice(spec, t.price), q: fqty(spec, t.qty), X: 'MARKET', m: t.isBuyerMaker };
}

export function futuresBookTickerPayload(engine: EngineQueries, spec: SymbolSpec, eventTime: number, unit: TimeUnit): Record<string, unknown> {
  const b = engine.bookTicker(spec.symbol) ?? { bidPrice: 0, bidQty: 0, askPrice: 0, askQty: 0 };
  return {
    e: 'bookTicker',
    u: engine.sequence,
    E: apiTime(eventTime, unit),
    T: apiTime(engine.time, unit),
    s: fapi(spec),
    b: fprice(spec, b.bidPrice),
    B: fqty(spec, b.bidQty),
    a: fprice(spec, b.askPrice),
    A: fqty(spec, b.askQty),
  };
}

/** A futures depth event (diff or partial): levels [price, qty] in units, `pu` the previous event's `u`. */
export function futuresDepthPayload(
  engine: EngineQueries,
  spec: SymbolSpec,
  eventTime: number,
  ids: { readonly U: number; readonly u: number; readonly pu: number },
  bids: readonly (readonly [number, number])[],
  asks: readonly (readonly [number, number])[],
  unit: TimeUnit,
): Record<string, unknown> {
  return {
    e: 'depthUpdate',
    E: apiTime(eventTime, unit),
    T: apiTime(engine.time, unit),
    s: fapi(spec),
    U: ids.U,
    u: ids.u,
    pu: ids.pu,
    b: bids.map(level(spec)),
    a: asks.map(level(spec)),
  };
}

export function futuresKlinePayload(k: HistoryKline, interval: string, closed: boolean, eventTime: number, spec: SymbolSpec, unit: TimeUnit): Record<string, unknown> {
  const s = fapi(spec);
  const base = (units: bigint) => volume(spec, units);
  const quote = (units: bigint) => formatAmount(units, spec.quotePrecision);
  return {
    e: 'kline',
    E: apiTime(eventTime, unit),
    s,
    k: {
      t: apiTime(k.openTime, unit),
      T: apiTime(k.closeTime, unit),
      s,
      i: interval,
      f: k.firstTradeId,
      L: k.lastTradeId,
      o: fprice(spec, k.open),
      c: fprice(spec, k.close),
      h: fprice(spec, k.high),
      l: fprice(spec, k.low),
      v: base(k.exact.volume),
      n: k.trades,
      x: closed,
      q: quote(k.exact.quoteVolume),
      V: base(k.exact.takerBuyBaseVolume),
      Q: quote(k.exact.takerBuyQuoteVolume),
      B: '0',
    },
  };
}

const volume = (spec: SymbolSpec, units: bigint): string => (units <= BigInt(Number.MAX_SAFE_INTEGER) ? fqty(spec, Number(units)) : formatAmount(units, spec.basePrecision));

export function futuresMiniTickerPayload(t: MiniTicker, eventTime: number, spec: SymbolSpec, unit: TimeUnit): Record<string, unknown> {
  return {
    e: '24hrMiniTicker',
    E: apiTime(eventTime, unit),
    s: fapi(spec),
    c: fprice(spec, t.lastPrice),
    o: fprice(spec, t.openPrice),
    h: fprice(spec, t.highPrice),
    l: fprice(spec, t.lowPrice),
    v: volume(spec, t.volume),
    q: formatAmount(t.quoteVolume, spec.quotePrecision),
  };
}

export function futuresTickerPayload(t: DayTicker, eventTime: number, spec: SymbolSpec, unit: TimeUnit): Record<string, unknown> {
  return {
    e: '24hrTicker',
    E: apiTime(eventTime, unit),
    s: fapi(spec),
    p: fprice(spec, t.priceChange),
    P: formatAmount(t.priceChangePercent, 3),
    w: fprice(spec, t.weightedAvgPrice),
    c: fprice(spec, t.lastPrice),
    Q: fqty(spec, t.lastQty),
    o: fprice(spec, t.openPrice),
    h: fprice(spec, t.highPrice),
    l: fprice(spec, t.lowPrice),
    v: volume(spec, t.volume),
    q: formatAmount(t.quoteVolume, spec.quotePrecision),
    O: apiTime(t.openTime, unit),
    C: apiTime(t.closeTime, unit),
    F: t.firstId,
    L: t.lastId,
    n: t.count,
  };
}
