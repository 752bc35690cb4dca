/**
 * Configuration shapes for symbols and exchange-wide filters, written the way the real
 * exchange publishes them in `GET /api/v3/exchangeInfo` (decimal strings, Binance field names),
 * so a captured exchangeInfo entry can be pasted in. `compileSymbol` turns them into the integer
 * form the engine works with.
 */
import type { AccountPermission, OrderType, SelfTradePreventionMode, SymbolStatus } from './types.ts';

export type SymbolFilter =
  | { filterType: 'PRICE_FILTER'; minPrice: string; maxPrice: string; tickSize: string }
  | { filterType: 'PERCENT_PRICE'; multiplierUp: string; multiplierDown: string; avgPriceMins: number }
  | {
      filterType: 'PERCENT_PRICE_BY_SIDE';
      bidMultiplierUp: string;
      bidMultiplierDown: string;
      askMultiplierUp: string;
      askMultiplierDown: string;
      avgPriceMins: number;
    }
  | { filterType: 'LOT_SIZE'; minQty: string; maxQty: string; stepSize: string }
  | { filterType: 'MARKET_LOT_SIZE'; minQty: string; maxQty: string; stepSize: string }
  | { filterType: 'MIN_NOTIONAL'; minNotional: string; applyToMarket: boolean; avgPriceMins: number }
  | {
      filterType: 'NOTIONAL';
      minNotional: string;
      applyMinToMarket: boolean;
      maxNotional: string;
      applyMaxToMarket: boolean;
      avgPriceMins: number;
    }
  | { filterType: 'ICEBERG_PARTS'; limit: number }
  | { filterType: 'MAX_NUM_ORDERS'; maxNumOrders: number }
  | { filterType: 'MAX_NUM_ALGO_ORDERS'; maxNumAlgoOrders: number }
  | { filterType: 'MAX_NUM_ICEBERG_ORDERS'; maxNumIcebergOrders: number }
  | { filterType: 'MAX_POSITION'; maxPosition: string }
  | {
      filterType: 'TRAILING_DELTA';
      minTrailingAboveDelta: number;
      maxTrailingAboveDelta: number;
      minTrailingBelowDelta: number;
      maxTrailingBelowDelta: number;
    }
  | { filterType: 'MAX_NUM_ORDER_AMENDS'; maxNumOrderAmends: number }
  | { filterType: 'MAX_NUM_ORDER_LISTS'; maxNumOrderLists: number };

export type SymbolFilterType = SymbolFilter['filterType'];

export type ExchangeFilter =
  | { filterType: 'EXCHANGE_MAX_NUM_ORDERS'; maxNumOrders: number }
  | { filterType: 'EXCHANGE_MAX_NUM_ALGO_ORDERS'; maxNumAlgoOrders: number }
  | { filterType: 'EXCHANGE_MAX_NUM_ICEBERG_ORDERS'; maxNumIcebergOrders: number }
  | { filterType: 'EXCHANGE_MAX_NUM_ORDER_LISTS'; maxNumOrderLists: number };

export type ExchangeFilterType = ExchangeFilter['filterType'];

/** MAX_ASSET: caps a single order's quantity (base asset) or notional (quote asset). */
export interface AssetFilter {
  filterType: 'MAX_ASSET';
  asset: string;
  limit: string;
}

/**
 * Execution rules (GET /api/v3/executionRules): PRICE_RANGE limits every trade of a taker to
 * [reference * down, reference * up] of its side (bid multipliers for BUY takers, ask for SELL).
 */
export interface PriceRangeRule {
  ruleType: 'PRICE_RANGE';
  bidLimitMultUp: string;
  bidLimitMultDown: string;
  askLimitMultUp: string;
  askLimitMultDown: string;
}

/**
 * How the symbol's reference price is computed: by the matching engine as an arithmetic mean of
 * trade prices in time buckets, or outside it (EXTERNAL; set with SetReferencePrice).
 */
export type ReferencePriceCalculation =
  | { calculationType: 'ARITHMETIC_MEAN'; bucketCount: number; bucketWidthMs: number }
  | { calculationType: 'EXTERNAL'; externalCalculationId: number };

/**
 * The futures filters (fapi exchangeInfo, binance-futures-facts §5): the same names as spot's,
 * other shapes and each rule with its own reject reason (src/futures/trading/futures-reject-codes.ts).
 */
export type FuturesFilter =
  | { filterType: 'PRICE_FILTER'; minPrice: string; maxPrice: string; tickSize: string }
  | { filterType: 'LOT_SIZE'; minQty: string; maxQty: string; stepSize: string }
  | { filterType: 'MARKET_LOT_SIZE'; minQty: string; maxQty: string; stepSize: string }
  | { filterType: 'MAX_NUM_ORDERS'; limit: number }
  | { filterType: 'MIN_NOTIONAL'; notional: string }
  | { filterType: 'PERCENT_PRICE'; multiplierUp: string; multiplierDown: string; multiplierDecimal: number };

/** One leverage bracket (GET /fapi/v1/leverageBracket), decimal strings as Binance shows them. */
export interface LeverageBracketConfig {
  bracket: number;
  /** The highest leverage allowed while the position's notional is in this bracket. */
  initialLeverage: number;
  /** Notional range [floor, cap) in the margin asset. */
  notionalFloor: string;
  notionalCap: string;
  maintMarginRatio: string;
  /** Maintenance amount: cum_n = cum_{n-1} + floor_n × (mmr_n − mmr_{n−1}). */
  cum: string;
}

/**
 * What makes a symbol a margin (futures) symbol. Its quote asset must be the margin asset (the
 * futures wallet asset, e.g. `um:USDT`), so every notional the engine computes is already in
 * margin units; its base asset only gives the quantity precision (nothing is ever delivered).
 */
export interface ContractConfig {
  kind: 'PERPETUAL';
  /** The futures wallet asset margining the contract, e.g. `um:USDT` (= the symbol's quoteAsset). */
  marginAsset: string;
  /** Leverage brackets, bracket 1 first, contiguous notional ranges. */
  brackets: readonly LeverageBracketConfig[];
  /** Liquidation clearance fee rate ("0.0125" = 1.25%), paid to the insurance fund. */
  liquidationFeeRate: string;
  makerCommissionRate: string;
  takerCommissionRate: string;
  fundingIntervalHours: number;
  triggerProtect: string;
  marketTakeBound: string;
  /** The futures filters (§5); the symbol's price and quantity grid comes from these. */
  filters: readonly FuturesFilter[];
}

export interface SymbolConfig {
  symbol: string;
  /** Present: a margin (futures) symbol settled as positions (engine/futures); absent: spot. */
  contract?: ContractConfig;
  status?: SymbolStatus;
  baseAsset: string;
  quoteAsset: string;
  orderTypes?: readonly OrderType[];
  icebergAllowed?: boolean;
  ocoAllowed?: boolean;
  otoAllowed?: boolean;
  opoAllowed?: boolean;
  quoteOrderQtyMarketAllowed?: boolean;
  allowTrailingStop?: boolean;
  cancelReplaceAllowed?: boolean;
  amendAllowed?: boolean;
  pegInstructionsAllowed?: boolean;
  isSpotTradingAllowed?: boolean;
  isMarginTradingAllowed?: boolean;
  filters?: readonly SymbolFilter[];
  /** Outer array AND, inner arrays OR: [["SPOT","MARGIN"]] means SPOT or MARGIN. */
  permissionSets?: readonly (readonly AccountPermission[])[];
  defaultSelfTradePreventionMode?: SelfTradePreventionMode;
  allowedSelfTradePreventionModes?: readonly SelfTradePreventionMode[];
  /** Whether paying commission in the discount asset (BNB) is enabled for this symbol. */
  discountEnabled?: boolean;
  executionRules?: readonly PriceRangeRule[];
  referencePriceCalculation?: ReferencePriceCalculation;
}

export interface AssetConfig {
  asset: string;
  /** Decimal places of every amount of this asset (baseAssetPrecision / quoteAssetPrecision). */
  precision: number;
}

export interface EngineConfig {
  /** Assets and their precision; an asset named by a symbol but absent here has precision 8. */
  assets?: readonly AssetConfig[];
  symbols: readonly SymbolConfig[];
  exchangeFilters?: readonly ExchangeFilter[];
  assetFilters?: readonly AssetFilter[];
}

export const ALL_ORDER_TYPES: readonly OrderType[] = [
  'LIMIT',
  'LIMIT_MAKER',
  'MARKET',
  'STOP_LOSS',
  'STOP_LOSS_LIMIT',
  'TAKE_PROFIT',
  'TAKE_PROFIT_LIMIT',
];
