/**
 * The /fapi market data of a perpetual the engine trades (`um:<SYMBOL>`, docs/usdm-futures.md):
 * answered from the margin symbol's own book and history, never derived from the spot tape. A
 * bot reads the book it trades against: depth on the contract's grid (BTCUSDT 0.10 / 0.001), the
 * prints the futures book made, and the mark the engine margins and liquidates at. Contracts the
 * engine does not trade (quarterlies, COIN-M, perpetuals without `--futures`) keep the derived
 * answers of their rows.
 *
 * Formats are the /fapi trading rows' (serialize/contract-grid.ts): prices at the tick's decimals, or the
 * margin asset's precision off the tick (a weighted average); quantities at the step's decimals;
 * quote amounts and mark / index prices at the margin asset's precision (8, "50000.50000000", as
 * Binance writes marks). Depth's lastUpdateId is the engine's command sequence, the `u` of the
 * futures diff-depth streams, so the documented local-book recipe works on /fstream.
 */
import { formatAmount, changePercentMilli, type HistoryKline, type TapeTrade } from '../../../data/index.ts';
import { futuresEngineSymbol, type SymbolSpec } from '../../../engine/index.ts';
import type { FuturesContract } from '../../../futures/index.ts';
import { apiTime, gridPrice as fprice, gridQty as fqty } from '../../serialize/index.ts';
import type { HandlerCall } from '../endpoint-row.ts';

/** The margin symbol's spec when the engine trades `c` (a USDⓈ-M perpetual), else undefined. */
export function tradedPerpetual(call: HandlerCall, c: FuturesContract): SymbolSpec | undefined {
  if (c.pair.venue !== 'USD_M' || c.deliveryTime !== null) return undefined;
  const engine = call.ctx.backend.engine;
  const name = futuresEngineSymbol(c.symbol);
  return engine.isMarginSymbol(name) ? engine.symbolSpec(name) : undefined;
}

/** Quote amounts (notional, volumes) of a margin symbol: its margin asset's precision. */
function quote(spec: SymbolSpec, units: number | bigint): string {
  return formatAmount(units, spec.quotePrecision);
}

function volume(spec: SymbolSpec, units: bigint): string {
  return units <= BigInt(Number.MAX_SAFE_INTEGER) ? fqty(spec, Number(units)) : formatAmount(units, spec.basePrecision);
}

export function engineDepthJson(call: HandlerCall, spec: SymbolSpec, limit: number): Record<string, unknown> {
  const engine = call.ctx.backend.engine;
  // The futures diff-depth streams must have seen every book this snapshot shows (market-feed.ts).
  call.ctx.marketFeed.observe(spec.symbol);
  const view = engine.depth(spec.symbol, limit);
  const level = ([p, q]: readonly [number, number]) => [fprice(spec, p), fqty(spec, q)];
  return { lastUpdateId: engine.sequence, E: apiTime(call.nowUs, call.unit), T: apiTime(engine.time, call.unit), bids: view.bids.map(level), asks: view.asks.map(level) };
}

export function engineBookTickerJson(call: HandlerCall, spec: SymbolSpec, fapiSymbol: string): Record<string, unknown> {
  const engine = call.ctx.backend.engine;
  const b = engine.bookTicker(spec.symbol) ?? { bidPrice: 0, bidQty: 0, askPrice: 0, askQty: 0 };
  return {
    lastUpdateId: engine.sequence,
    symbol: fapiSymbol,
    bidPrice: fprice(spec, b.bidPrice),
    bidQty: fqty(spec, b.bidQty),
    askPrice: fprice(spec, b.askPrice),
    askQty: fqty(spec, b.askQty),
    time: apiTime(call.nowUs, call.unit),
  };
}

export function engineTradeJson(call: HandlerCall, spec: SymbolSpec, t: TapeTrade): Record<string, unknown> {
  return { id: t.id, price: fprice(spec, t.price), qty: fqty(spec, t.qty), quoteQty: quote(spec, t.quoteQty), time: apiTime(t.time, call.unit), isBuyerMaker: t.isBuyerMaker, isRPITrade: false };
}

export function engineAggTradeJson(call: HandlerCall, spec: SymbolSpec, a: { a: number; p: number; q: number; f: number; l: number; T: number; m: boolean }): Record<string, unknown> {
  const q = fqty(spec, a.q);
  return { a: a.a, p: fprice(spec, a.p), q, nq: q, f: a.f, l: a.l, T: apiTime(a.T, call.unit), m: a.m };
}

/** GET /fapi/v1/ticker/24hr's row from the margin symbol's history ((now − 24 h, now]). */
export function engineTicker24hJson(call: HandlerCall, spec: SymbolSpec, fapiSymbol: string): Record<string, unknown> {
  const t = call.ctx.backend.history(spec.symbol).ticker24hr(call.nowUs, { type: 'FULL' });
  return {
    symbol: fapiSymbol,
    priceChange: fprice(spec, t.priceChange),
    priceChangePercent: formatAmount(changePercentMilli(t.openPrice, t.lastPrice), 3),
    weightedAvgPrice: fprice(spec, t.weightedAvgPrice),
    lastPrice: fprice(spec, t.lastPrice),
    lastQty: fqty(spec, t.lastQty),
    openPrice: fprice(spec, t.openPrice),
    highPrice: fprice(spec, t.highPrice),
    lowPrice: fprice(spec, t.lowPrice),
    volume: volume(spec, t.volume),
    quoteVolume: quote(spec, t.quoteVolume),
    openTime: apiTime(t.openTime, call.unit),
    closeTime: apiTime(t.closeTime, call.unit),
    firstId: t.firstId,
    lastId: t.lastId,
    count: t.count,
  };
}

/** Last price of the margin symbol's prints (0 before any). */
export function engineLastPrice(call: HandlerCall, spec: SymbolSpec): string {
  return fprice(spec, call.ctx.backend.history(spec.symbol).priceTicker(call.nowUs)?.price ?? 0);
}

/** A /fapi kline row of the margin symbol's own bar: [open time, o, h, l, c, volume, close time, quote volume, trades, taker buy base, taker buy quote, "0"]. */
export function engineKlineRow(call: HandlerCall, spec: SymbolSpec, k: HistoryKline): unknown[] {
  return [
    apiTime(k.openTime, call.unit),
    fprice(spec, k.open),
    fprice(spec, k.high),
    fprice(spec, k.low),
    fprice(spec, k.close),
    volume(spec, k.exact.volume),
    apiTime(k.closeTime, call.unit),
    quote(spec, k.exact.quoteVolume),
    k.trades,
    volume(spec, k.exact.takerBuyBaseVolume),
    quote(spec, k.exact.takerBuyQuoteVolume),
    '0',
  ];
}

/**
 * The mark and index the engine holds (SetMarkPrice from the futures clock), at the margin asset's
 * precision; null before the first mark (the row then shows the model's, which the clock will send).
 */
export function engineMark(call: HandlerCall, spec: SymbolSpec): { markPrice: string; indexPrice: string } | null {
  const view = call.ctx.backend.engine.futuresMarkPrice(spec.symbol);
  if (view === undefined || view.markPrice === 0) return null;
  return { markPrice: quote(spec, view.markPrice), indexPrice: quote(spec, view.indexPrice) };
}
