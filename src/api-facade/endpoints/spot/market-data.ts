/**
 * Market-data endpoints (security NONE), served at simulated now from the engine's book and the
 * symbol's MarketHistory (no look-ahead: the history answers as of `call.nowUs`).
 *
 * Choices where the docs are silent:
 * - depth: lastUpdateId is the engine's command sequence, as the diff-depth stream's U/u: it only grows, which is all a
 *   REST client can rely on without a diff stream.
 * - `limit` 0 on list endpoints reads as the default (500; depth 100); above the maximum it is
 *   capped (depth 5000, others 1000), as depth is documented to do.
 * - A symbol that never traded: avgPrice and ticker/price show price 0 at the quote precision
 *   and closeTime 0.
 * - startTime / endTime: ms below 10^15, µs from 10^15 on (the TIMESTAMP rule of param-types).
 * - ticker and ticker/tradingDay: more than 100 symbols, a windowSize outside 1m-59m / 1h-23h /
 *   1d-7d, or a timeZone the history cannot read is -1130 for that parameter (codes not shown).
 */
import { type SymbolSpec, formatUnits } from '../../../engine/index.ts';
import { formatAmount, formatKline, timeZoneMinutes, type DayTicker, type MiniTicker, type WindowTicker, parseWindowSize, KLINE_INTERVALS } from '../../../data/index.ts';
import { ENUM_ERRORS, paramErrors, eitherRequired, exclusive, defineSchema } from '../../params/index.ts';
import { apiTime, decimalPairsJson, JsonText } from '../../serialize/index.ts';
import { OPTIONAL_SYMBOL, SYMBOL, SYMBOL_STATUS, SYMBOLS, selectSymbols, symbolSpec, timeUs } from '../common.ts';
import { defineEndpoint, type HandlerCall } from '../endpoint-row.ts';

const LIMIT = { name: 'limit', kind: 'INT' } as const;
const START_TIME = { name: 'startTime', kind: 'LONG' } as const;
const END_TIME = { name: 'endTime', kind: 'LONG' } as const;
const FROM_ID = { name: 'fromId', kind: 'LONG' } as const;
const TICKER_TYPE = { name: 'type', kind: 'ENUM', values: ['FULL', 'MINI'], invalid: ENUM_ERRORS.tickerType } as const;

function listLimit(limit: number | undefined, max: number): number | undefined {
  if (limit === undefined || limit === 0) return undefined;
  return Math.min(limit, max);
}

export function depthWeight(limit: number | undefined): number {
  const n = limit === undefined || limit === 0 ? 100 : limit;
  if (n <= 100) return 5;
  if (n <= 500) return 25;
  if (n <= 1000) return 50;
  return 250;
}

const price = (units: number, spec: SymbolSpec) => formatUnits(units, spec.quotePrecision);
const qty = (units: number, spec: SymbolSpec) => formatUnits(units, spec.basePrecision);

export const depth = defineEndpoint({
  method: 'GET',
  path: '/api/v3/depth',
  security: 'NONE',
  weight: (p) => depthWeight(p.limit),
  schema: defineSchema([SYMBOL, LIMIT, SYMBOL_STATUS]),
  summary: 'Order book: limit default 100, max 5000',
  handler: (p, call) => {
    const { specs } = selectSymbols(call, p);
    const spec = specs[0]!;
    const engine = call.ctx.backend.engine;
    // The diff-depth streams must have seen every book a snapshot shows (streams/market-feed.ts).
    call.ctx.marketFeed.observe(spec.symbol);
    const view = engine.depth(spec.symbol, listLimit(p.limit, 5000) ?? 100);
    // {lastUpdateId, bids: [[price, qty]...], asks}, serialized here (json-text.ts).
    const bids = decimalPairsJson(view.bids, spec.quotePrecision, spec.basePrecision);
    const asks = decimalPairsJson(view.asks, spec.quotePrecision, spec.basePrecision);
    return new JsonText(`{"lastUpdateId":${JSON.stringify(engine.sequence)},"bids":${bids},"asks":${asks}}`);
  },
});

function tradeJson(t: { id: number; price: number; qty: number; quoteQty: number; time: number; isBuyerMaker: boolean; isBestMatch: boolean }, spec: SymbolSpec, call: HandlerCall) {
  return {
    id: t.id,
    price: price(t.price, spec),
    qty: qty(t.qty, spec),
    quoteQty: price(t.quoteQty, spec),
    time: apiTime(t.time, call.unit),
    isBuyerMaker: t.isBuyerMaker,
    isBestMatch: t.isBestMatch,
  };
}

export const trades = defineEndpoint({
  method: 'GET',
  path: '/api/v3/trades',
  security: 'NONE',
  weight: 25,
  schema: defineSchema([SYMBOL, LIMIT]),
  summary: 'Recent trades: limit default 500, max 1000',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    return call.ctx.backend.history(spec.symbol).recentTrades(call.nowUs, listLimit(p.limit, 1000)).map((t) => tradeJson(t, spec, call));
  },
});

export const historicalTrades = defineEndpoint({
  method: 'GET',
  path: '/api/v3/historicalTrades',
  security: 'NONE',
  weight: 25,
  schema: defineSchema([SYMBOL, LIMIT, FROM_ID]),
  summary: 'Older trades from fromId',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const limit = listLimit(p.limit, 1000);
    const query = { ...(p.fromId === undefined ? {} : { fromId: p.fromId }), ...(limit === undefined ? {} : { limit }) };
    return call.ctx.backend.history(spec.symbol).historicalTrades(call.nowUs, query).map((t) => tradeJson(t, spec, call));
  },
});

export const aggTrades = defineEndpoint({
  method: 'GET',
  path: '/api/v3/aggTrades',
  security: 'NONE',
  weight: 4,
  schema: defineSchema([SYMBOL, FROM_ID, START_TIME, END_TIME, LIMIT]),
  summary: 'Aggregate trades',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const limit = listLimit(p.limit, 1000);
    const rows = call.ctx.backend.history(spec.symbol).aggTrades(call.nowUs, {
      ...(p.fromId === undefined ? {} : { fromId: p.fromId }),
      ...(p.startTime === undefined ? {} : { startTime: timeUs(p.startTime) }),
      ...(p.endTime === undefined ? {} : { endTime: timeUs(p.endTime) }),
      ...(limit === undefined ? {} : { limit }),
    });
    return rows.map((a) => ({ a: a.a, p: price(a.p, spec), q: qty(a.q, spec), f: a.f, l: a.l, T: apiTime(a.T, call.unit), m: a.m, M: a.M }));
  },
});

const KLINE_SCHEMA = defineSchema([
  SYMBOL,
  { name: 'interval', kind: 'ENUM', required: true, values: KLINE_INTERVALS, invalid: ENUM_ERRORS.interval },
  START_TIME,
  END_TIME,
  { name: 'timeZone', kind: 'STRING' },
  LIMIT,
]);

function klinesHandler(ui: boolean) {
  return (p: { symbol: string; interval: (typeof KLINE_INTERVALS)[number]; startTime?: number; endTime?: number; timeZone?: string; limit?: number }, call: HandlerCall) => {
    const spec = symbolSpec(call, p.symbol);
    try {
      timeZoneMinutes(p.timeZone);
    } catch {
      throw paramErrors.invalidData('timeZone');
    }
    const limit = listLimit(p.limit, 1000);
    const query = {
      interval: p.interval,
      ...(p.startTime === undefined ? {} : { startTime: timeUs(p.startTime) }),
      ...(p.endTime === undefined ? {} : { endTime: timeUs(p.endTime) }),
      ...(p.timeZone === undefined ? {} : { timeZone: p.timeZone }),
      ...(limit === undefined ? {} : { limit }),
    };
    const history = call.ctx.backend.history(spec.symbol);
    const rows = ui ? history.uiKlines(call.nowUs, query) : history.klines(call.nowUs, query);
    return rows.map((k) => formatKline(k, spec, call.unit));
  };
}

export const klines = defineEndpoint({
  method: 'GET',
  path: '/api/v3/klines',
  security: 'NONE',
  weight: 2,
  schema: KLINE_SCHEMA,
  summary: 'Klines: 12-element arrays',
  handler: klinesHandler(false),
});

export const uiKlines = defineEndpoint({
  method: 'GET',
  path: '/api/v3/uiKlines',
  security: 'NONE',
  weight: 2,
  schema: KLINE_SCHEMA,
  summary: 'Klines for charts (same rows as klines)',
  handler: klinesHandler(true),
});

export const avgPrice = defineEndpoint({
  method: 'GET',
  path: '/api/v3/avgPrice',
  security: 'NONE',
  weight: 2,
  schema: defineSchema([SYMBOL]),
  summary: 'Average price over the symbol’s avgPriceMins (5)',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const mins = 5;
    const avg = call.ctx.backend.history(spec.symbol).avgPrice(call.nowUs, mins);
    return { mins, price: price(avg?.price ?? 0, spec), closeTime: apiTime(avg?.closeTime ?? 0, call.unit) };
  },
});

export const referencePrice = defineEndpoint({
  method: 'GET',
  path: '/api/v3/referencePrice',
  security: 'NONE',
  weight: 2,
  schema: defineSchema([SYMBOL]),
  summary: "The symbol's reference price at simulated now (null when it has none)",
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    // Set from outside (SetReferencePrice), else the engine's ARITHMETIC_MEAN when configured;
    // the price filters fall back to the average price when there is none, the API shows null.
    const units = call.ctx.backend.engine.referencePrice(spec.symbol, call.nowUs);
    return { symbol: spec.symbol, referencePrice: units === null ? null : price(units, spec), timestamp: apiTime(call.nowUs, call.unit) };
  },
});

function miniJson(t: MiniTicker, spec: SymbolSpec, call: HandlerCall): Record<string, unknown> {
  return {
    symbol: spec.symbol,
    openPrice: price(t.openPrice, spec),
    highPrice: price(t.highPrice, spec),
    lowPrice: price(t.lowPrice, spec),
    lastPrice: price(t.lastPrice, spec),
    volume: formatAmount(t.volume, spec.basePrecision),
    quoteVolume: formatAmount(t.quoteVolume, spec.quotePrecision),
    openTime: apiTime(t.openTime, call.unit),
    closeTime: apiTime(t.closeTime, call.unit),
    firstId: t.firstId,
    lastId: t.lastId,
    count: t.count,
  };
}

function dayJson(t: DayTicker, spec: SymbolSpec, call: HandlerCall): Record<string, unknown> {
  return {
    symbol: spec.symbol,
    priceChange: price(t.priceChange, spec),
    priceChangePercent: formatAmount(t.priceChangePercent, 3),
    weightedAvgPrice: price(t.weightedAvgPrice, spec),
    prevClosePrice: price(t.prevClosePrice, spec),
    lastPrice: price(t.lastPrice, spec),
    lastQty: qty(t.lastQty, spec),
    bidPrice: price(t.bidPrice, spec),
    bidQty: qty(t.bidQty, spec),
    askPrice: price(t.askPrice, spec),
    askQty: qty(t.askQty, spec),
    openPrice: price(t.openPrice, spec),
    highPrice: price(t.highPrice, spec),
    lowPrice: price(t.lowPrice, spec),
    volume: formatAmount(t.volume, spec.basePrecision),
    quoteVolume: formatAmount(t.quoteVolume, spec.quotePrecision),
    openTime: apiTime(t.openTime, call.unit),
    closeTime: apiTime(t.closeTime, call.unit),
    firstId: t.firstId,
    lastId: t.lastId,
    count: t.count,
  };
}

export function ticker24hrWeight(p: { symbol?: string; symbols?: readonly string[] }): number {
  if (p.symbol !== undefined) return 2;
  if (p.symbols === undefined) return 80;
  const n = p.symbols.length;
  return n <= 20 ? 2 : n <= 100 ? 40 : 80;
}

export const ticker24hr = defineEndpoint({
  method: 'GET',
  path: '/api/v3/ticker/24hr',
  security: 'NONE',
  weight: ticker24hrWeight,
  schema: defineSchema([OPTIONAL_SYMBOL, SYMBOLS, TICKER_TYPE, SYMBOL_STATUS], [exclusive('symbol', 'symbols')]),
  summary: '24 h rolling statistics, FULL or MINI',
  handler: (p, call) => {
    const { specs, single } = selectSymbols(call, p);
    const rows = specs.map((spec) => {
      const history = call.ctx.backend.history(spec.symbol);
      if (p.type === 'MINI') return miniJson(history.ticker24hr(call.nowUs, { type: 'MINI' }), spec, call);
      const book = call.ctx.backend.engine.bookTicker(spec.symbol) ?? { bidPrice: 0, bidQty: 0, askPrice: 0, askQty: 0 };
      return dayJson(history.ticker24hr(call.nowUs, { type: 'FULL', book }), spec, call);
    });
    return single ? rows[0] : rows;
  },
});

const priceWeight = (p: { symbol?: string }) => (p.symbol === undefined ? 4 : 2);

export const tickerPrice = defineEndpoint({
  method: 'GET',
  path: '/api/v3/ticker/price',
  security: 'NONE',
  weight: priceWeight,
  schema: defineSchema([OPTIONAL_SYMBOL, SYMBOLS, SYMBOL_STATUS], [exclusive('symbol', 'symbols')]),
  summary: 'Last price',
  handler: (p, call) => {
    const { specs, single } = selectSymbols(call, p);
    const rows = specs.map((spec) => ({ symbol: spec.symbol, price: price(call.ctx.backend.history(spec.symbol).priceTicker(call.nowUs)?.price ?? 0, spec) }));
    return single ? rows[0] : rows;
  },
});

export const tickerBookTicker = defineEndpoint({
  method: 'GET',
  path: '/api/v3/ticker/bookTicker',
  security: 'NONE',
  weight: priceWeight,
  schema: defineSchema([OPTIONAL_SYMBOL, SYMBOLS, SYMBOL_STATUS], [exclusive('symbol', 'symbols')]),
  summary: 'Best bid and ask',
  handler: (p, call) => {
    const { specs, single } = selectSymbols(call, p);
    const rows = specs.map((spec) => {
      const b = call.ctx.backend.engine.bookTicker(spec.symbol) ?? { bidPrice: 0, bidQty: 0, askPrice: 0, askQty: 0 };
      return { symbol: spec.symbol, bidPrice: price(b.bidPrice, spec), bidQty: qty(b.bidQty, spec), askPrice: price(b.askPrice, spec), askQty: qty(b.askQty, spec) };
    });
    return single ? rows[0] : rows;
  },
});

function windowJson(t: WindowTicker | MiniTicker, spec: SymbolSpec, call: HandlerCall): Record<string, unknown> {
  const { symbol, ...mini } = miniJson(t, spec, call);
  if (!('priceChange' in t)) return { symbol, ...mini };
  // FULL is MINI with the three change fields after the symbol (Binance's key order).
  return {
    symbol,
    priceChange: price(t.priceChange, spec),
    priceChangePercent: formatAmount(t.priceChangePercent, 3),
    weightedAvgPrice: price(t.weightedAvgPrice, spec),
    ...mini,
  };
}

const MAX_TICKER_SYMBOLS = 100;

/** ticker and ticker/tradingDay: 4 per symbol, capped at 200 above 50 symbols. */
export function windowTickerWeight(p: { symbol?: string; symbols?: readonly string[] }): number {
  const n = p.symbol !== undefined ? 1 : (p.symbols?.length ?? 1);
  return n > 50 ? 200 : 4 * n;
}

const WINDOW_SYMBOL_RULES = [exclusive('symbol', 'symbols'), eitherRequired('symbol', 'symbols')];

export const tickerTradingDay = defineEndpoint({
  method: 'GET',
  path: '/api/v3/ticker/tradingDay',
  security: 'NONE',
  weight: windowTickerWeight,
  schema: defineSchema([OPTIONAL_SYMBOL, SYMBOLS, { name: 'timeZone', kind: 'STRING' }, TICKER_TYPE, SYMBOL_STATUS], WINDOW_SYMBOL_RULES),
  summary: 'Statistics of the current trading day in timeZone, FULL or MINI',
  handler: (p, call) => {
    if ((p.symbols?.length ?? 0) > MAX_TICKER_SYMBOLS) throw paramErrors.invalidData('symbols');
    try {
      timeZoneMinutes(p.timeZone);
    } catch {
      throw paramErrors.invalidData('timeZone');
    }
    const { specs, single } = selectSymbols(call, p);
    const options = { ...(p.timeZone === undefined ? {} : { timeZone: p.timeZone }), type: p.type ?? 'FULL' };
    const rows = specs.map((spec) => windowJson(call.ctx.backend.history(spec.symbol).tradingDayTicker(call.nowUs, options), spec, call));
    return single ? rows[0] : rows;
  },
});

export const tickerRolling = defineEndpoint({
  method: 'GET',
  path: '/api/v3/ticker',
  security: 'NONE',
  weight: windowTickerWeight,
  schema: defineSchema([OPTIONAL_SYMBOL, SYMBOLS, { name: 'windowSize', kind: 'STRING' }, TICKER_TYPE, SYMBOL_STATUS], WINDOW_SYMBOL_RULES),
  summary: 'Rolling-window statistics (windowSize 1m-7d, default 1d), FULL or MINI',
  handler: (p, call) => {
    if ((p.symbols?.length ?? 0) > MAX_TICKER_SYMBOLS) throw paramErrors.invalidData('symbols');
    if (p.windowSize !== undefined && parseWindowSize(p.windowSize) === null) throw paramErrors.invalidData('windowSize');
    const { specs, single } = selectSymbols(call, p);
    const options = { ...(p.windowSize === undefined ? {} : { windowSize: p.windowSize }), type: p.type ?? 'FULL' };
    const rows = specs.map((spec) => windowJson(call.ctx.backend.history(spec.symbol).rollingTicker(call.nowUs, options), spec, call));
    return single ? rows[0] : rows;
  },
});
