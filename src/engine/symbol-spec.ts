/**
 * A symbol's rules compiled to integers. Prices are held on the book in ticks and quantities in
 * steps (LOT_SIZE stepSize), so matching is small-integer arithmetic; `notionalNum/notionalDen`
 * turns ticks * steps into quote-asset units exactly (flooring only when the tick and step
 * grids are finer than the quote precision, the same amount for payer and payee).
 */
import type { AssetConfig, ContractConfig, ReferencePriceCalculation, SymbolConfig, SymbolFilter } from './symbol-config.ts';
import { ALL_ORDER_TYPES } from './symbol-config.ts';
import type { OrderType, SelfTradePreventionMode, SymbolStatus } from './types.ts';
import { parseUnitsOrThrow, pow10 } from './units.ts';

/** Multipliers and rates are held as integers in units of 1e-8. */
export const RATE_SCALE = 100_000_000;
const RATE_PRECISION = 8;

export interface RangeRule {
  min: number;
  max: number;
  step: number;
}

export interface PercentPriceRule {
  up: number;
  down: number;
  avgPriceMins: number;
}

export interface PercentPriceBySideRule {
  bidUp: number;
  bidDown: number;
  askUp: number;
  askDown: number;
  avgPriceMins: number;
}

export interface NotionalRule {
  min: number;
  applyMinToMarket: boolean;
  /** 0 when absent (MIN_NOTIONAL has no maximum). */
  max: number;
  applyMaxToMarket: boolean;
  avgPriceMins: number;
}

export interface SymbolSpec {
  symbol: string;
  index: number;
  baseAsset: string;
  quoteAsset: string;
  basePrecision: number;
  quotePrecision: number;
  /** Price units (quote units per whole base) in one tick. */
  tickUnits: number;
  /** Base units in one quantity step. */
  stepUnits: number;
  notionalNum: number;
  notionalDen: number;
  initialStatus: SymbolStatus;
  orderTypes: ReadonlySet<OrderType>;
  icebergAllowed: boolean;
  ocoAllowed: boolean;
  otoAllowed: boolean;
  opoAllowed: boolean;
  quoteOrderQtyMarketAllowed: boolean;
  allowTrailingStop: boolean;
  cancelReplaceAllowed: boolean;
  amendAllowed: boolean;
  pegInstructionsAllowed: boolean;
  isSpotTradingAllowed: boolean;
  isMarginTradingAllowed: boolean;
  permissionSets: readonly (readonly string[])[];
  defaultStpMode: SelfTradePreventionMode;
  allowedStpModes: ReadonlySet<SelfTradePreventionMode>;
  discountEnabled: boolean;
  priceFilter: RangeRule | null;
  lotSize: RangeRule | null;
  marketLotSize: RangeRule | null;
  percentPrice: PercentPriceRule | null;
  percentPriceBySide: PercentPriceBySideRule | null;
  /** MIN_NOTIONAL and NOTIONAL are separate filters with separate failure reasons. */
  minNotional: NotionalRule | null;
  notional: NotionalRule | null;
  icebergParts: number | null;
  maxNumOrders: number | null;
  maxNumAlgoOrders: number | null;
  maxNumIcebergOrders: number | null;
  maxPosition: number | null;
  maxNumOrderAmends: number | null;
  /** PRICE_RANGE execution rule, multipliers in 1e-8 units; null without one. */
  priceRange: { bidUp: number; bidDown: number; askUp: number; askDown: number } | null;
  referencePriceCalculation: ReferencePriceCalculation | null;
  /** TRAILING_DELTA in basis points; "above" is for STOP_LOSS BUY and TAKE_PROFIT SELL. */
  trailingDelta: { minAbove: number; maxAbove: number; minBelow: number; maxBelow: number } | null;
  maxNumOrderLists: number | null;
  /** Longest avgPriceMins of any filter (at least 5, the /avgPrice default). */
  avgPriceWindowMins: number;
  /** The configured filters, verbatim, for exchangeInfo. */
  filters: readonly SymbolFilter[];
}

function gridFiltersOf(contract: ContractConfig): SymbolFilter[] {
  const out: SymbolFilter[] = [];
  for (const f of contract.filters) {
    if (f.filterType === 'PRICE_FILTER' || f.filterType === 'LOT_SIZE' || f.filterType === 'MARKET_LOT_SIZE') out.push(f);
  }
  return out;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

export function compileSymbol(config: SymbolConfig, index: number, assets: ReadonlyMap<string, AssetConfig>): SymbolSpec {
  const where = `symbol ${config.symbol}`;
  const basePrecision = assets.get(config.baseAsset)?.precision ?? 8;
  const quotePrecision = assets.get(config.quoteAsset)?.precision ?? 8;
  const price = (text: string, what: string) => parseUnitsOrThrow(text, quotePrecision, `${where} ${what}`);
  const qty = (text: string, what: string) => parseUnitsOrThrow(text, basePrecision, `${where} ${what}`);
  const rate = (text: string, what: string) => parseUnitsOrThrow(text, RATE_PRECISION, `${where} ${what}`);

  // A margin symbol's grid (tick, step) comes from its futures filters, whose PRICE_FILTER and
  // LOT_SIZE share spot's shape; its other rules are checked by engine/futures, not here.
  // Spot features default on for spot symbols and off for margin symbols (fapi has none of them).
  const spot = config.contract === undefined;
  const filters = config.filters ?? (config.contract === undefined ? [] : gridFiltersOf(config.contract));
  const seen = new Set<string>();
  const spec: SymbolSpec = {
    symbol: config.symbol,
    index,
    baseAsset: config.baseAsset,
    quoteAsset: config.quoteAsset,
    basePrecision,
    quotePrecision,
    tickUnits: 1,
    stepUnits: 1,
    notionalNum: 1,
    notionalDen: 1,
    initialStatus: config.status ?? 'TRADING',
    orderTypes: new Set(config.orderTypes ?? (spot ? ALL_ORDER_TYPES : ['LIMIT', 'MARKET'])),
    icebergAllowed: config.icebergAllowed ?? spot,
    ocoAllowed: config.ocoAllowed ?? spot,
    otoAllowed: config.otoAllowed ?? spot,
    opoAllowed: config.opoAllowed ?? spot,
    quoteOrderQtyMarketAllowed: config.quoteOrderQtyMarketAllowed ?? spot,
    allowTrailingStop: config.allowTrailingStop ?? spot,
    cancelReplaceAllowed: config.cancelReplaceAllowed ?? spot,
    amendAllowed: config.amendAllowed ?? spot,
    pegInstructionsAllowed: config.pegInstructionsAllowed ?? spot,
    isSpotTradingAllowed: config.isSpotTradingAllowed ?? true,
    isMarginTradingAllowed: config.isMarginTradingAllowed ?? false,
    permissionSets: config.permissionSets ?? [['SPOT']],
    defaultStpMode: config.defaultSelfTradePreventionMode ?? 'NONE',
    allowedStpModes: new Set(config.allowedSelfTradePreventionModes ?? ['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'DECREMENT']),
    discountEnabled: config.discountEnabled ?? false,
    priceFilter: null,
    lotSize: null,
    marketLotSize: null,
    percentPrice: null,
    percentPriceBySide: null,
    minNotional: null,
    notional: null,
    icebergParts: null,
    maxNumOrders: null,
    maxNumAlgoOrders: null,
    maxNumIcebergOrders: null,
    maxPosition: null,
    maxNumOrderAmends: null,
    trailingDelta: null,
    priceRange: null,
    referencePriceCalculation: config.referencePriceCalculation ?? null,
    maxNumOrderLists: null,
    avgPriceWindowMins: 5,
    filters,
  };

  for (const filter of filters) {
    if (seen.has(filter.filterType)) throw new Error(`${where}: filter ${filter.filterType} given twice`);
    seen.add(filter.filterType);
    switch (filter.filterType) {
      case 'PRICE_FILTER':
        spec.priceFilter = {
          min: price(filter.minPrice, 'minPrice'),
          max: price(filter.maxPrice, 'maxPrice'),
          step: price(filter.tickSize, 'tickSize'),
        };
        break;
      case 'LOT_SIZE':
        spec.lotSize = { min: qty(filter.minQty, 'minQty'), max: qty(filter.maxQty, 'maxQty'), step: qty(filter.stepSize, 'stepSize') };
        break;
      case 'MARKET_LOT_SIZE':
        spec.marketLotSize = { min: qty(filter.minQty, 'minQty'), max: qty(filter.maxQty, 'maxQty'), step: qty(filter.stepSize, 'stepSize') };
        break;
      case 'PERCENT_PRICE':
        spec.percentPrice = {
          up: rate(filter.multiplierUp, 'multiplierUp'),
          down: rate(filter.multiplierDown, 'multiplierDown'),
          avgPriceMins: filter.avgPriceMins,
        };
        break;
      case 'PERCENT_PRICE_BY_SIDE':
        spec.percentPriceBySide = {
          bidUp: rate(filter.bidMultiplierUp, 'bidMultiplierUp'),
          bidDown: rate(filter.bidMultiplierDown, 'bidMultiplierDown'),
          askUp: rate(filter.askMultiplierUp, 'askMultiplierUp'),
          askDown: rate(filter.askMultiplierDown, 'askMultiplierDown'),
          avgPriceMins: filter.avgPriceMins,
        };
        break;
      case 'MIN_NOTIONAL':
        spec.minNotional = {
          min: price(filter.minNotional, 'minNotional'),
          applyMinToMarket: filter.applyToMarket,
          max: 0,
          applyMaxToMarket: false,
          avgPriceMins: filter.avgPriceMins,
        };
        break;
      case 'NOTIONAL':
        spec.notional = {
          min: price(filter.minNotional, 'minNotional'),
          applyMinToMarket: filter.applyMinToMarket,
          max: price(filter.maxNotional, 'maxNotional'),
          applyMaxToMarket: filter.applyMaxToMarket,
          avgPriceMins: filter.avgPriceMins,
        };
        break;
      case 'ICEBERG_PARTS':
        spec.icebergParts = filter.limit;
        break;
      case 'MAX_NUM_ORDERS':
        spec.maxNumOrders = filter.maxNumOrders;
        break;
      case 'MAX_NUM_ALGO_ORDERS':
        spec.maxNumAlgoOrders = filter.maxNumAlgoOrders;
        break;
      case 'MAX_NUM_ICEBERG_ORDERS':
        spec.maxNumIcebergOrders = filter.maxNumIcebergOrders;
        break;
      case 'MAX_POSITION':
        spec.maxPosition = qty(filter.maxPosition, 'maxPosition');
        break;
      case 'TRAILING_DELTA':
        spec.trailingDelta = {
          minAbove: filter.minTrailingAboveDelta,
          maxAbove: filter.maxTrailingAboveDelta,
          minBelow: filter.minTrailingBelowDelta,
          maxBelow: filter.maxTrailingBelowDelta,
        };
        break;
      case 'MAX_NUM_ORDER_AMENDS':
        spec.maxNumOrderAmends = filter.maxNumOrderAmends;
        break;
      case 'MAX_NUM_ORDER_LISTS':
        spec.maxNumOrderLists = filter.maxNumOrderLists;
        break;
      default: {
        const unknown: never = filter;
        throw new Error(`${where}: unknown filter ${JSON.stringify(unknown)}`);
      }
    }
  }

  for (const rule of config.executionRules ?? []) {
    if (rule.ruleType !== 'PRICE_RANGE') throw new Error(`${where}: unknown execution rule ${JSON.stringify(rule)}`);
    spec.priceRange = {
      bidUp: rate(rule.bidLimitMultUp, 'bidLimitMultUp'),
      bidDown: rate(rule.bidLimitMultDown, 'bidLimitMultDown'),
      askUp: rate(rule.askLimitMultUp, 'askLimitMultUp'),
      askDown: rate(rule.askLimitMultDown, 'askLimitMultDown'),
    };
  }
  const calc = spec.referencePriceCalculation;
  if (calc?.calculationType === 'ARITHMETIC_MEAN' && !(Number.isSafeInteger(calc.bucketCount) && calc.bucketCount > 0 && Number.isSafeInteger(calc.bucketWidthMs) && calc.bucketWidthMs > 0)) {
    throw new Error(`${where}: ARITHMETIC_MEAN needs a positive integer bucketCount and bucketWidthMs`);
  }

  // The book grid: one tick is PRICE_FILTER.tickSize, one step is LOT_SIZE.stepSize; a zero
  // (disabled) size means the asset's smallest unit.
  spec.tickUnits = spec.priceFilter && spec.priceFilter.step > 0 ? spec.priceFilter.step : 1;
  spec.stepUnits = spec.lotSize && spec.lotSize.step > 0 ? spec.lotSize.step : 1;
  if (spec.marketLotSize && spec.marketLotSize.step > 0 && spec.marketLotSize.step % spec.stepUnits !== 0) {
    throw new Error(`${where}: MARKET_LOT_SIZE stepSize must be a multiple of LOT_SIZE stepSize`);
  }
  const num = spec.tickUnits * spec.stepUnits;
  const den = pow10(basePrecision);
  const g = gcd(num, den);
  spec.notionalNum = num / g;
  spec.notionalDen = den / g;
  if (!Number.isSafeInteger(num)) throw new Error(`${where}: tick and step grid too fine`);
  spec.avgPriceWindowMins = Math.max(
    5,
    spec.percentPrice?.avgPriceMins ?? 0,
    spec.percentPriceBySide?.avgPriceMins ?? 0,
    spec.minNotional?.avgPriceMins ?? 0,
    spec.notional?.avgPriceMins ?? 0,
  );
  return spec;
}
