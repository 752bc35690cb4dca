/**
 * Commands: the only input of the engine. Each is imperative, immutable, and carries its
 * simulated time `time` in microseconds since the Unix epoch; the engine reads no other clock.
 *
 * Amounts are integers in the smallest unit of their asset: a price is quote-asset units per
 * one whole base unit (price * 10^quotePrecision), a quantity is base-asset units
 * (qty * 10^basePrecision), a quote quantity is quote-asset units. The API facade parses decimal
 * strings into these integers and formats them back; the engine never sees a decimal string
 * except in configuration.
 */
import type { LadderProfile } from './liquidity/synthetic-ladder.ts';
import type { FlowProfile } from './liquidity/order-flow.ts';
import type {
  AccountPermission,
  CancelReplaceMode,
  CancelRestriction,
  OrderListKind,
  OrderType,
  PegPriceType,
  SelfTradePreventionMode,
  Side,
  SymbolStatus,
  TimeInForce,
} from './types.ts';

/** Commission rates as integers in units of 1e-8 (the API shows them as "0.00100000"). */
export interface CommissionRates {
  maker: number;
  taker: number;
  buyer: number;
  seller: number;
}

export interface CommissionDiscount {
  enabled: boolean;
  /** Asset the discounted commission is paid in, e.g. BNB. */
  asset: string;
  /** Multiplier on the standard commission when paid in the discount asset, 1e-8 units (0.75 = 75000000). */
  rate: number;
}

export interface CreateAccount {
  type: 'CreateAccount';
  time: number;
  accountId: number;
  /** Initial free balances in asset units. */
  balances?: Readonly<Record<string, number>>;
  standardCommission?: CommissionRates;
  taxCommission?: CommissionRates;
  specialCommission?: CommissionRates;
  discount?: CommissionDiscount;
  permissions?: readonly AccountPermission[];
  canTrade?: boolean;
  /** Accounts sharing a trade group id (not -1) are one party for self-trade prevention. */
  tradeGroupId?: number;
}

/** Deposit (positive) or withdraw (negative) free balance: the only way value enters or leaves. */
export interface AdjustBalance {
  type: 'AdjustBalance';
  time: number;
  accountId: number;
  asset: string;
  delta: number;
}

/** What an order asks for, alone or as a leg of an order list. */
export interface OrderRequest {
  side: Side;
  orderType: OrderType;
  timeInForce?: TimeInForce;
  price?: number;
  quantity?: number;
  quoteOrderQty?: number;
  clientOrderId?: string;
  selfTradePreventionMode?: SelfTradePreventionMode;
  strategyId?: number;
  strategyType?: number;
  /** Stop and take-profit types: the trigger price (price units). */
  stopPrice?: number;
  /** Stop and take-profit types: trailing distance in basis points (1 = 0.01%). */
  trailingDelta?: number;
  /** The visible slice of an iceberg (base units); the order must be GTC. */
  icebergQty?: number;
  /** Take the limit price from the book (pegOffsetType is always PRICE_LEVEL). */
  pegPriceType?: PegPriceType;
  /** Price level to peg to, 0 (the best) .. 100. */
  pegOffsetValue?: number;
  /** Margin symbols only: the position the order trades (BOTH in one-way mode; LONG/SHORT in hedge mode). Default BOTH. */
  positionSide?: PositionSide;
  /** Margin symbols only, one-way mode: the order may only reduce the position (-2022 otherwise). */
  reduceOnly?: boolean;
  /** Margin symbols only: post-only (fapi timeInForce GTX, sent with timeInForce GTC): refused if it would take (-5022). */
  postOnly?: boolean;
  /**
   * Margin symbols only: fapi timeInForce GTD, sent as a LIMIT GTC with the time it expires
   * (engine µs, > the command's time; the API truncates Binance's goodTillDate to the second).
   * The order rests like GTC and expires on the first command at or after this time.
   */
  goodTillTime?: number;
}

export interface PlaceOrder extends OrderRequest {
  type: 'PlaceOrder';
  time: number;
  accountId: number;
  symbol: string;
  /** Placed through smart order routing (POST /api/v3/sor/order): the order reports usedSor. */
  viaSor?: boolean;
}

/**
 * Places an order list: every leg is checked before any is accepted; all are accepted, or the
 * list is refused as a whole.
 *
 * Legs by kind: OCO [above, below]; OTO and OPO [working, pending]; OTOCO and OPOCO [working,
 * pendingAbove, pendingBelow]. OPO pending legs carry no quantity (they sell what the working
 * order bought, less commission).
 */
export interface PlaceOrderList {
  type: 'PlaceOrderList';
  time: number;
  accountId: number;
  symbol: string;
  kind: OrderListKind;
  listClientOrderId?: string;
  legs: readonly OrderRequest[];
}

/** Cancels every open order of a list (by orderListId or listClientOrderId). */
export interface CancelOrderList {
  type: 'CancelOrderList';
  time: number;
  accountId: number;
  symbol: string;
  orderListId?: number;
  listClientOrderId?: string;
  /** Id of the cancel itself (reported as the canceled orders' clientOrderId). */
  newClientOrderId?: string;
}

/**
 * Cancels an order and places a new one on the same symbol, atomically in one command. The new
 * order is checked (everything but funds) before the cancel runs. With STOP_ON_FAILURE a failed
 * cancel leaves the new order NOT_ATTEMPTED; ALLOW_FAILURE places it anyway.
 */
export interface CancelReplaceOrder {
  type: 'CancelReplaceOrder';
  time: number;
  accountId: number;
  symbol: string;
  mode: CancelReplaceMode;
  cancelOrderId?: number;
  cancelOrigClientOrderId?: string;
  cancelNewClientOrderId?: string;
  cancelRestrictions?: CancelRestriction;
  newOrder: OrderRequest;
  /**
   * The API found the unfilled order count exceeded and orderRateLimitExceededMode is
   * CANCEL_ONLY: only the cancel runs and the new order is NOT_ATTEMPTED.
   */
  cancelOnly?: boolean;
}

/** Reduces an open order's quantity in place, keeping its priority (amend keepPriority). */
export interface AmendOrder {
  type: 'AmendOrder';
  time: number;
  accountId: number;
  symbol: string;
  orderId?: number;
  origClientOrderId?: string;
  /** The order's new client id; absent keeps the current one. */
  newClientOrderId?: string;
  /** New original quantity, base units: above what executed, below the current quantity. */
  newQuantity: number;
}

export interface CancelOrder {
  type: 'CancelOrder';
  time: number;
  accountId: number;
  symbol: string;
  orderId?: number;
  origClientOrderId?: string;
  /** Id of the cancel itself; the canceled order reports it as its clientOrderId. */
  newClientOrderId?: string;
  cancelRestrictions?: CancelRestriction;
}

export interface CancelAllOrders {
  type: 'CancelAllOrders';
  time: number;
  accountId: number;
  symbol: string;
}

export interface SetSymbolStatus {
  type: 'SetSymbolStatus';
  time: number;
  symbol: string;
  status: SymbolStatus;
}

/** Sets (or with `price` null clears) the symbol's reference price used by price and notional filters. */
export interface SetReferencePrice {
  type: 'SetReferencePrice';
  time: number;
  symbol: string;
  price: number | null;
}

/**
 * A trade that happened in the market outside this engine's book (a replayed historical trade,
 * or another venue's print): it joins the symbol's tape with the next trade id, sets the last
 * price and feeds the average-price window the filters use. It fills no order by itself; the
 * replay's market model decides what it means for resting orders.
 */
export interface RecordMarketTrade {
  type: 'RecordMarketTrade';
  time: number;
  symbol: string;
  /** Price units (need not sit on the symbol's tick grid: history may predate today's rules). */
  price: number;
  /** Base units. */
  quantity: number;
  isBuyerMaker: boolean;
  /**
   * The venue's own trade id, kept when it is above every id the symbol used so far (the tape's
   * ids stay the ids exsim serves until a user's trade takes one; from then on each later print
   * is shifted by the users' trades in between). Absent: the next id.
   */
  tradeId?: number;
}

/**
 * The market (outside the book) fills a resting order at the order's own price: the replay's
 * market model decided that a historical trade reached it. The fill joins the symbol's tape as a
 * trade of its own. `reason` says which rule filled it, for the journal (e.g. "TRADE_THROUGH").
 */
export interface FillFromMarket {
  type: 'FillFromMarket';
  time: number;
  symbol: string;
  orderId: number;
  /** Base units; at most the order's remaining quantity, on the LOT_SIZE step. */
  quantity: number;
  reason: string;
  /**
   * The liquidity that reached the order is the depth book's own, crossing the order's price (a
   * recorded ask at or below a resting bid): the fill takes it from those levels, best first, so
   * no two orders take the same liquidity. Absent/false: a historical print reached the order.
   */
  fromBook?: boolean;
}

/**
 * Shows (or with `profile` null removes) the symbol's synthetic book, the market's liquidity
 * model (liquidity/synthetic-ladder.ts), drawn from `seed`. It anchors on the next print, or on
 * `SetSyntheticAnchor`.
 */
export interface SetSyntheticBook {
  type: 'SetSyntheticBook';
  time: number;
  symbol: string;
  profile: LadderProfile | null;
  seed: string;
}

/**
 * Anchors the symbol's synthetic book on a mid price (price units), with no taker side. While the
 * symbol has no trade yet, the price is also the last price the average-price rules fall back to.
 */
export interface SetSyntheticAnchor {
  type: 'SetSyntheticAnchor';
  time: number;
  symbol: string;
  price: number;
}

/**
 * Gives the symbol a depth book (liquidity/depth-book.ts) in place of any other liquidity:
 * `recorded` for replayed depth data, `flow` for the seeded order-flow book; null removes it.
 * The book starts empty; `ApplyDepth` messages fill it.
 */
export interface SetDepthBook {
  type: 'SetDepthBook';
  time: number;
  symbol: string;
  mode: 'recorded' | 'flow' | null;
}

/**
 * Gives the symbol a synthetic book that lives between prints (liquidity/order-flow.ts): a depth
 * book moved by a seeded order-flow process drawn from `seed`, consumed by prints. It is drawn
 * around the next print, or `SetSyntheticAnchor`'s mid. `profile` null removes it.
 */
export interface SetOrderFlowBook {
  type: 'SetOrderFlowBook';
  time: number;
  symbol: string;
  profile: FlowProfile | null;
  seed: string;
}

/**
 * One depth message for the symbol's depth book: level updates, each a price (price units, on
 * the tick grid) and the level's new total size (base units, floored to the step grid; 0 removes
 * the level). `clear`: the message replaces the whole book (a snapshot). Levels a message leaves
 * crossing the other side are dropped from that (stale) side.
 */
export interface ApplyDepth {
  type: 'ApplyDepth';
  time: number;
  symbol: string;
  clear: boolean;
  /** [price, qty, price, qty, ...] (a plain array, or a Float64Array as the replay sends them). */
  bids: ArrayLike<number>;
  asks: ArrayLike<number>;
}

// ---- USDⓈ-M futures (docs/usdm-futures.md; engine/futures/) ----

export type PositionSide = 'BOTH' | 'LONG' | 'SHORT';
export type MarginType = 'CROSSED' | 'ISOLATED';
export type PositionMode = 'ONE_WAY' | 'HEDGE';

/**
 * Moves `amount` between an account's spot asset and its futures wallet asset (`USDT` ↔
 * `um:USDT`), e.g. MAIN_UMFUTURE / UMFUTURE_MAIN. `asset` is the spot name (USDT, USDC, BNB);
 * `amount` in that asset's units. To spot only what the futures wallet can release (max withdraw).
 */
export interface TransferFuturesWallet {
  type: 'TransferFuturesWallet';
  time: number;
  accountId: number;
  asset: string;
  amount: number;
  direction: 'TO_FUTURES' | 'TO_SPOT';
}

/** Sets the account's leverage on a margin symbol (1 .. bracket 1's initialLeverage). */
export interface SetLeverage {
  type: 'SetLeverage';
  time: number;
  accountId: number;
  symbol: string;
  leverage: number;
}

/** Sets the account's margin type on a margin symbol (refused with open orders or a position). */
export interface SetMarginType {
  type: 'SetMarginType';
  time: number;
  accountId: number;
  symbol: string;
  marginType: MarginType;
}

/** Sets the account's position mode on every margin symbol (refused with open orders or positions). */
export interface SetPositionMode {
  type: 'SetPositionMode';
  time: number;
  accountId: number;
  mode: PositionMode;
}

/** Adds margin to (or removes it from) an isolated position's wallet (POST /fapi/v1/positionMargin). */
export interface AdjustPositionMargin {
  type: 'AdjustPositionMargin';
  time: number;
  accountId: number;
  symbol: string;
  positionSide: PositionSide;
  /** Margin asset units, > 0. */
  amount: number;
  direction: 'ADD' | 'REDUCE';
}

/**
 * The mark (and index) price of a margin symbol, price units (margin-asset units per whole base;
 * need not sit on the tick grid). Margin maths use it from now on; accounts it leaves below
 * maintenance are liquidated before the command returns.
 */
export interface SetMarkPrice {
  type: 'SetMarkPrice';
  time: number;
  symbol: string;
  markPrice: number;
  indexPrice?: number;
}

/**
 * Funding of a margin symbol: every open position pays notional at `markPrice` × `rate`
 * (rate in 1e-8 units, signed; > 0: longs pay shorts). The counterparty is outside the engine.
 * `markPrice` absent: the symbol's current mark.
 */
export interface SettleFunding {
  type: 'SettleFunding';
  time: number;
  symbol: string;
  rate: number;
  markPrice?: number;
}

/**
 * Sets an account's futures commission rates (1e-8 units, on every margin symbol), or with -1
 * goes back to each contract's rate. Emits no event (the exchange sends none).
 */
export interface SetFuturesCommissionRates {
  type: 'SetFuturesCommissionRates';
  time: number;
  accountId: number;
  makerRate: number;
  takerRate: number;
}

/**
 * Modifies an open LIMIT order of a margin symbol (PUT /fapi/v1/order): new price and quantity
 * (the whole order's, executed part included). The order keeps its id and goes to the back of
 * its (new) level, and trades at once if it now crosses. Canceled instead when the new quantity
 * is not above what executed, or a post-only order would take (binance-futures-facts §2).
 */
export interface ModifyMarginOrder {
  type: 'ModifyMarginOrder';
  time: number;
  accountId: number;
  symbol: string;
  orderId?: number;
  origClientOrderId?: string;
  price: number;
  quantity: number;
}

export type EngineCommand =
  | CreateAccount
  | AdjustBalance
  | PlaceOrder
  | PlaceOrderList
  | CancelOrder
  | CancelOrderList
  | CancelReplaceOrder
  | AmendOrder
  | CancelAllOrders
  | SetSymbolStatus
  | SetReferencePrice
  | SetSyntheticBook
  | SetSyntheticAnchor
  | SetDepthBook
  | SetOrderFlowBook
  | ApplyDepth
  | RecordMarketTrade
  | FillFromMarket
  | TransferFuturesWallet
  | SetLeverage
  | SetMarginType
  | SetPositionMode
  | AdjustPositionMargin
  | SetMarkPrice
  | SettleFunding
  | SetFuturesCommissionRates
  | ModifyMarginOrder;
