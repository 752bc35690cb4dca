/**
 * What the futures queries answer (EngineQueries.futures*), in engine integers: money in the
 * margin asset's units, prices in price units (margin units per whole base), quantities in base
 * units (signed for positions: short < 0). The /fapi rows format them (formatUnits).
 */
import type { MarginType, PositionMode, PositionSide } from '../commands.ts';

/** One margin asset of an account (GET /fapi/v3/account `assets[]`, /fapi/v3/balance). */
export interface FuturesAccountView {
  /** Futures wallet asset, e.g. `um:USDT` (the API shows `USDT`). */
  asset: string;
  /** Cross wallet + isolated wallets. */
  walletBalance: number;
  crossWalletBalance: number;
  /** Unrealized PnL of every position at mark. */
  unrealizedProfit: number;
  /** Unrealized PnL of the cross positions (`crossUnPnl`). */
  crossUnPnl: number;
  /** walletBalance + unrealizedProfit. */
  marginBalance: number;
  /** positionInitialMargin + openOrderInitialMargin. */
  initialMargin: number;
  /** Σ |notional at mark| / leverage over the positions. */
  positionInitialMargin: number;
  /** What open orders reserve (locked). */
  openOrderInitialMargin: number;
  /** Σ maintenance margin over the positions. */
  maintMargin: number;
  /** crossWallet + crossUnPnl − cross position IM − open order IM (never below 0). */
  availableBalance: number;
  /** What a transfer to spot may take: min(available, crossWallet − cross position IM − open order IM), unrealized profit excluded; ≥ 0. */
  maxWithdrawAmount: number;
}

/** One position (GET /fapi/v3/positionRisk + v2's leverage fields). */
export interface FuturesPositionView {
  symbol: string;
  positionSide: PositionSide;
  /** Signed base units. */
  positionAmt: number;
  /** Price units, rounded half up (0 when flat). */
  entryPrice: number;
  /** Entry price moved by the commissions paid for the position (taker rate both ways, chosen). */
  breakEvenPrice: number;
  markPrice: number;
  unrealizedProfit: number;
  /** Price units; 0 when the position cannot be liquidated (or is flat). */
  liquidationPrice: number;
  /** Signed notional at mark. */
  notional: number;
  initialMargin: number;
  maintMargin: number;
  /** Isolated wallet + unrealized PnL (isolated); 0 for cross. */
  isolatedMargin: number;
  isolatedWallet: number;
  /** Margin open orders of this symbol reserve. */
  openOrderInitialMargin: number;
  leverage: number;
  marginType: MarginType;
  /** The most notional the leverage allows (leverage brackets). */
  maxNotionalValue: number;
  marginAsset: string;
  updateTime: number;
}

export interface FuturesBracketView {
  bracket: number;
  initialLeverage: number;
  /** Margin units. */
  notionalCap: number;
  notionalFloor: number;
  /** 1e-8 units. */
  maintMarginRatio: number;
  /** Margin units. */
  cum: number;
}

export type IncomeType = 'TRANSFER' | 'REALIZED_PNL' | 'COMMISSION' | 'FUNDING_FEE' | 'INSURANCE_CLEAR';

/** One income row (GET /fapi/v1/income). */
export interface FuturesIncomeView {
  /** '' for transfers. */
  symbol: string;
  incomeType: IncomeType;
  /** Margin units, signed. */
  income: number;
  asset: string;
  info: string;
  time: number;
  tranId: number;
  /** The fill's trade id, else -1. */
  tradeId: number;
}

/** An account's settings on one margin symbol (GET /fapi/v1/symbolConfig). */
export interface FuturesSymbolSettingsView {
  symbol: string;
  leverage: number;
  marginType: MarginType;
  maxNotionalValue: number;
}

export interface FuturesOrderInfoView {
  positionSide: PositionSide;
  reduceOnly: boolean;
  postOnly: boolean;
  /** GTD: when the order expires (µs); 0 for any other order. */
  goodTillTime: number;
  /** A liquidation's system close (`autoclose-…`, futures-mark.ts). */
  liquidation: boolean;
}

export interface MarkPriceView {
  markPrice: number;
  indexPrice: number;
  /** Last funding rate settled (1e-8), 0 before any. */
  lastFundingRate: number;
  time: number;
}

export type { PositionMode };
