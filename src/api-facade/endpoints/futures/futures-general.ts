/**
 * Futures general endpoints of both venues: ping, server time and exchange information
 * (weight 1 each, security NONE). exchangeInfo lists the contracts listed at simulated now
 * (src/futures/contracts.ts: perpetual and the two quarterlies per pair, rolling on the calendar)
 * with filters derived from the spot symbol's grid.
 *
 * Choices where the docs are silent: perpetuals show deliveryDate 4133404800000 (2100-12-25
 * 08:00 UTC), as the exchange does; margin percentages, triggerProtect, liquidationFee and
 * marketTakeBound are the exchange's usual BTC values; MIN_NOTIONAL is 5 (USDⓈ-M) and COIN-M lot
 * sizes are whole contracts (1 .. 1,000,000).
 */
import { type ContractConfig, formatUnits, futuresEngineSymbol } from '../../../engine/index.ts';
import type { FuturesContract } from '../../../futures/index.ts';
import { defineSchema } from '../../params/index.ts';
import { apiTime } from '../../serialize/index.ts';
import { defineEndpoint, type Endpoint, type HandlerCall } from '../endpoint-row.ts';
import { formatPrice, type VenueApi } from './futures-common.ts';

/** The futures venues' limits as their docs' exchangeInfo examples show them (not the spot ones). */
const FUTURES_RATE_LIMITS = [
  { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 2400 },
  { rateLimitType: 'ORDERS', interval: 'MINUTE', intervalNum: 1, limit: 1200 },
];
const USD_MARGINED_RATE_LIMITS = [...FUTURES_RATE_LIMITS, { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 300 }];

const PERPETUAL_DELIVERY_MS = 4_133_404_800_000;
const ORDER_TYPES = ['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'];
const TIME_IN_FORCE = ['GTC', 'IOC', 'FOK', 'GTX', 'GTD'];

export function ping(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/ping`,
    security: 'NONE',
    weight: 1,
    schema: defineSchema([]),
    summary: `${venue.label} futures: test connectivity`,
    handler: () => ({}),
  });
}

export function time(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/time`,
    security: 'NONE',
    weight: 1,
    schema: defineSchema([]),
    summary: `${venue.label} futures: simulated server time`,
    handler: (_p, call) => ({ serverTime: apiTime(call.nowUs, call.unit) }),
  });
}

function filtersOf(c: FuturesContract): Record<string, unknown>[] {
  const pair = c.pair;
  const spot = pair.spot;
  const pf = spot.priceFilter;
  const lot = spot.lotSize;
  const price = (units: number) => formatPrice(pair, units);
  const baseQty = (units: number) => formatUnits(units, spot.basePrecision);
  const qty = pair.venue === 'COIN_M' ? { minQty: '1', maxQty: '1000000', stepSize: '1' } : { minQty: baseQty(lot?.min ?? spot.stepUnits), maxQty: baseQty(lot?.max ?? 0), stepSize: baseQty(spot.stepUnits) };
  const marketLot = spot.marketLotSize;
  const marketQty = pair.venue === 'COIN_M' || marketLot === null || marketLot.max === 0 ? qty : { ...qty, maxQty: baseQty(marketLot.max) };
  const filters: Record<string, unknown>[] = [
    { filterType: 'PRICE_FILTER', minPrice: price(pf?.min ?? spot.tickUnits), maxPrice: price(pf?.max ?? 0), tickSize: price(spot.tickUnits) },
    { filterType: 'LOT_SIZE', ...qty },
    { filterType: 'MARKET_LOT_SIZE', ...marketQty },
    { filterType: 'MAX_NUM_ORDERS', limit: 200 },
  ];
  if (pair.venue === 'USD_M') filters.push({ filterType: 'MIN_NOTIONAL', notional: '5' });
  filters.push({ filterType: 'PERCENT_PRICE', multiplierUp: '1.0500', multiplierDown: '0.9500', multiplierDecimal: '4' });
  return filters;
}

/**
 * The contract block of the engine's margin symbol for a USDⓈ-M perpetual, when the exchange
 * trades it (docs/usdm-futures.md): its filters and terms are what orders are checked against, so
 * exchangeInfo shows them instead of the ones derived from the spot grid.
 */
function tradedContract(c: FuturesContract, call: HandlerCall): ContractConfig | undefined {
  if (c.pair.venue !== 'USD_M' || c.deliveryTime !== null) return undefined;
  const name = futuresEngineSymbol(c.symbol);
  return call.ctx.backend.engine.config.symbols.find((s) => s.symbol === name)?.contract;
}

/** Decimal places of a decimal string's step ("0.10" → 1, "0.001" → 3, "1" → 0). */
function stepDecimals(text: string): number {
  const dot = text.indexOf('.');
  if (dot < 0) return 0;
  const frac = text.slice(dot + 1).replace(/0+$/, '');
  return frac.length;
}

function symbolJson(c: FuturesContract, call: HandlerCall): Record<string, unknown> {
  const traded = tradedContract(c, call);
  if (traded !== undefined) return tradedSymbolJson(c, traded, call);
  const pair = c.pair;
  const deliveryDate = c.deliveryTime === null ? PERPETUAL_DELIVERY_MS * (call.unit === 'MICROSECOND' ? 1000 : 1) : apiTime(c.deliveryTime, call.unit);
  const common = {
    symbol: c.symbol,
    pair: pair.pair,
    contractType: c.contractType,
    deliveryDate,
    onboardDate: apiTime(c.onboardTime, call.unit),
  };
  const terms = {
    maintMarginPercent: '2.5000',
    requiredMarginPercent: '5.0000',
    baseAsset: pair.baseAsset,
    quoteAsset: pair.quoteAsset,
    marginAsset: pair.marginAsset,
    pricePrecision: pair.pricePrecision,
    quantityPrecision: pair.quantityPrecision,
    baseAssetPrecision: 8,
    quotePrecision: 8,
  };
  const rules = {
    underlyingType: 'COIN',
    underlyingSubType: [],
    triggerProtect: '0.0500',
    liquidationFee: '0.012500',
    marketTakeBound: '0.05',
    filters: filtersOf(c),
    orderTypes: ORDER_TYPES,
    timeInForce: TIME_IN_FORCE,
  };
  if (pair.venue === 'COIN_M') {
    return { ...common, contractStatus: 'TRADING', contractSize: pair.contractSize, ...terms, equalQtyPrecision: 4, ...rules };
  }
  return { ...common, status: 'TRADING', ...terms, settlePlan: 0, ...rules };
}

/** A traded perpetual: the margin symbol's filters and terms (futures facts §5), spot-derived fields otherwise. */
function tradedSymbolJson(c: FuturesContract, contract: ContractConfig, call: HandlerCall): Record<string, unknown> {
  const pair = c.pair;
  const filter = (type: string) => contract.filters.find((f) => f.filterType === type);
  const tick = filter('PRICE_FILTER');
  const lot = filter('LOT_SIZE');
  return {
    symbol: c.symbol,
    pair: pair.pair,
    contractType: c.contractType,
    deliveryDate: PERPETUAL_DELIVERY_MS * (call.unit === 'MICROSECOND' ? 1000 : 1),
    onboardDate: apiTime(c.onboardTime, call.unit),
    status: 'TRADING',
    maintMarginPercent: '2.5000',
    requiredMarginPercent: '5.0000',
    baseAsset: pair.baseAsset,
    quoteAsset: pair.quoteAsset,
    marginAsset: pair.marginAsset,
    pricePrecision: tick !== undefined && tick.filterType === 'PRICE_FILTER' ? stepDecimals(tick.tickSize) : pair.pricePrecision,
    quantityPrecision: lot !== undefined && lot.filterType === 'LOT_SIZE' ? stepDecimals(lot.stepSize) : pair.quantityPrecision,
    baseAssetPrecision: 8,
    quotePrecision: 8,
    underlyingType: 'COIN',
    underlyingSubType: [],
    settlePlan: 0,
    triggerProtect: contract.triggerProtect,
    liquidationFee: contract.liquidationFeeRate,
    marketTakeBound: contract.marketTakeBound,
    // multiplierDecimal is a string on the wire ("4"), a number in the config.
    filters: contract.filters.map((f) => (f.filterType === 'PERCENT_PRICE' ? { ...f, multiplierDecimal: String(f.multiplierDecimal) } : { ...f })),
    orderTypes: ORDER_TYPES,
    timeInForce: TIME_IN_FORCE,
  };
}

export function exchangeInfo(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/exchangeInfo`,
    security: 'NONE',
    weight: 1,
    schema: defineSchema([]),
    summary: `${venue.label} futures exchange information: the contracts listed at simulated now`,
    handler: (_p, call) => {
      const contracts = call.ctx.futures.contracts(venue.venue, call.nowUs);
      const head = { timezone: 'UTC', serverTime: apiTime(call.nowUs, call.unit) };
      const rateLimits = (venue.venue === 'USD_M' ? USD_MARGINED_RATE_LIMITS : FUTURES_RATE_LIMITS).map((l) => ({ ...l }));
      const symbols = contracts.map((c) => symbolJson(c, call));
      if (venue.venue === 'COIN_M') return { ...head, rateLimits, exchangeFilters: [], symbols };
      const marginAssets = [...new Set(contracts.map((c) => c.pair.marginAsset))];
      const assets = marginAssets.map((asset) => ({ asset, marginAvailable: true, autoAssetExchange: '-10000' }));
      return { ...head, futuresType: 'U_MARGINED', rateLimits, exchangeFilters: [], assets, symbols };
    },
  });
}
