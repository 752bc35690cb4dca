/**
 * Events: the only output of the engine, past tense and immutable. Amounts use the same integer
 * units as commands. `time` is the simulated microsecond of the command that caused the event.
 * Every status an order passes through is visible in the events, each exactly once:
 * OrderAccepted starts it at NEW; each TradeExecuted / MatchPrevented carries both orders'
 * status after it (FILLED and EXPIRED_IN_MATCH are reported there); OrderCanceled and
 * OrderExpired (EXPIRED with its reason) report the other endings. No event mentions an order
 * after the one that reported its terminal status.
 */
import type { RejectReason } from './reject-reason.ts';
import type {
  CancelReplaceResult,
  ContingencyType,
  ExpiryReason,
  ListOrderStatus,
  ListStatusType,
  OrderListKind,
  OrderStatus,
  OrderType,
  SelfTradePreventionMode,
  Side,
  SymbolStatus,
  TimeInForce,
} from './types.ts';

export interface AccountCreated {
  type: 'AccountCreated';
  time: number;
  accountId: number;
}

export interface BalanceAdjusted {
  type: 'BalanceAdjusted';
  time: number;
  accountId: number;
  asset: string;
  delta: number;
}

export interface OrderAccepted {
  type: 'OrderAccepted';
  time: number;
  symbol: string;
  orderId: number;
  clientOrderId: string;
  accountId: number;
  side: Side;
  orderType: OrderType;
  timeInForce: TimeInForce;
  /** 0 for MARKET orders, as the API reports it. */
  price: number;
  /** Base quantity; for MARKET by quoteOrderQty, the quantity the engine chose. */
  quantity: number;
  quoteOrderQty: number;
  selfTradePreventionMode: SelfTradePreventionMode;
  /** NEW, or PENDING_NEW for the pending legs of an OTO / OPO list. */
  status: 'NEW' | 'PENDING_NEW';
  /** -1 unless the order belongs to a list. */
  orderListId: number;
  /** False for untriggered stops and pending legs: they are open but not on the book. */
  isWorking: boolean;
}

export interface OrderRejected {
  type: 'OrderRejected';
  time: number;
  /** The command that was refused (PlaceOrder, CancelOrder, ...). */
  command: string;
  accountId: number | null;
  symbol: string | null;
  reason: RejectReason;
}

export interface TradeExecuted {
  type: 'TradeExecuted';
  time: number;
  symbol: string;
  tradeId: number;
  price: number;
  quantity: number;
  quoteQuantity: number;
  isBuyerMaker: boolean;
  takerOrderId: number;
  makerOrderId: number;
  takerAccountId: number;
  makerAccountId: number;
  takerCommission: number;
  takerCommissionAsset: string;
  makerCommission: number;
  makerCommissionAsset: string;
  takerStatus: OrderStatus;
  makerStatus: OrderStatus;
}

export interface MatchPrevented {
  type: 'MatchPrevented';
  time: number;
  symbol: string;
  preventedMatchId: number;
  takerOrderId: number;
  makerOrderId: number;
  takerAccountId: number;
  makerAccountId: number;
  price: number;
  mode: SelfTradePreventionMode;
  takerPreventedQuantity: number;
  makerPreventedQuantity: number;
  takerStatus: OrderStatus;
  makerStatus: OrderStatus;
}

export interface OrderCanceled {
  type: 'OrderCanceled';
  time: number;
  symbol: string;
  orderId: number;
  accountId: number;
  /** The cancel request's own client id (reported as clientOrderId in the cancel response). */
  cancelClientOrderId: string;
}

export interface OrderExpired {
  type: 'OrderExpired';
  time: number;
  symbol: string;
  orderId: number;
  accountId: number;
  status: 'EXPIRED' | 'EXPIRED_IN_MATCH';
  expiryReason: ExpiryReason;
}

export interface SymbolStatusChanged {
  type: 'SymbolStatusChanged';
  time: number;
  symbol: string;
  status: SymbolStatus;
}

export interface ReferencePriceChanged {
  type: 'ReferencePriceChanged';
  time: number;
  symbol: string;
  price: number | null;
}

/** The symbol's synthetic book was set up, removed (`active` false) or anchored on a mid (`anchorPrice`). */
export interface SyntheticBookChanged {
  type: 'SyntheticBookChanged';
  time: number;
  symbol: string;
  active: boolean;
  anchorPrice: number | null;
}

/** SetDepthBook / SetOrderFlowBook: the symbol's liquidity is now a depth book in this mode (null: none). */
export interface DepthBookSet {
  type: 'DepthBookSet';
  time: number;
  symbol: string;
  mode: 'recorded' | 'flow' | null;
}

export interface MarketTradeRecorded {
  type: 'MarketTradeRecorded';
  time: number;
  symbol: string;
  tradeId: number;
  price: number;
  quantity: number;
  quoteQuantity: number;
  isBuyerMaker: boolean;
}

/** A resting order filled by the market outside the book (see FillFromMarket). */
export interface OrderFilledByMarket {
  type: 'OrderFilledByMarket';
  time: number;
  symbol: string;
  tradeId: number;
  orderId: number;
  accountId: number;
  price: number;
  quantity: number;
  quoteQuantity: number;
  commission: number;
  commissionAsset: string;
  /** The order's status after the fill. */
  status: OrderStatus;
  reason: string;
}

/**
 * A stop or take-profit order's condition was met by a trade at `triggerPrice`: it starts
 * working, as a MARKET order (STOP_LOSS, TAKE_PROFIT) or at its limit (the *_LIMIT types).
 */
export interface OrderTriggered {
  type: 'OrderTriggered';
  time: number;
  symbol: string;
  orderId: number;
  accountId: number;
  triggerPrice: number;
}

/** A trailing stop started tracking the best price (its trailingTime). */
export interface TrailingStarted {
  type: 'TrailingStarted';
  time: number;
  symbol: string;
  orderId: number;
  accountId: number;
  /** The price tracking starts from (the trade that activated it, or the last price). */
  price: number;
}

/** A pending leg of an OTO / OPO list was placed once its working order filled: PENDING_NEW -> NEW. */
export interface OrderActivated {
  type: 'OrderActivated';
  time: number;
  symbol: string;
  orderId: number;
  accountId: number;
  /** Base quantity (for OPO legs, what the working order received). */
  quantity: number;
}

/** An order list was placed, changed, or finished (the listStatus push). */
export interface OrderListUpdated {
  type: 'OrderListUpdated';
  time: number;
  symbol: string;
  orderListId: number;
  accountId: number;
  kind: OrderListKind;
  contingencyType: ContingencyType;
  listStatusType: ListStatusType;
  listOrderStatus: ListOrderStatus;
  listClientOrderId: string;
  orders: readonly { orderId: number; clientOrderId: string }[];
}

/** Amend keepPriority reduced an order's quantity in place. */
export interface OrderAmended {
  type: 'OrderAmended';
  time: number;
  symbol: string;
  orderId: number;
  accountId: number;
  executionId: number;
  origClientOrderId: string;
  newClientOrderId: string;
  origQuantity: number;
  newQuantity: number;
}

/**
 * How a CancelReplaceOrder ended. The cancel and the placement report their own events between
 * the command's start and this one; a failed part has its reason here (and changed nothing).
 */
export interface CancelReplaceCompleted {
  type: 'CancelReplaceCompleted';
  time: number;
  symbol: string;
  accountId: number;
  cancelResult: CancelReplaceResult;
  newOrderResult: CancelReplaceResult;
  cancelReason: RejectReason | null;
  newOrderReason: RejectReason | null;
  /** The order the cancel targeted (when it was found), else -1. */
  canceledOrderId: number;
  /** The new order's id when placed, else -1. */
  newOrderId: number;
}

/**
 * A fill of an order placed through smart order routing, reaching its account as an allocation
 * (GET /api/v3/myAllocations) rather than a trade: it follows the TradeExecuted of the book trade
 * (`tradeId`) that SOR made on the order's behalf. The API shows it with tradeId -1 and allocId.
 */
export interface AllocationRecorded {
  type: 'AllocationRecorded';
  time: number;
  symbol: string;
  allocationId: number;
  tradeId: number;
  orderId: number;
  accountId: number;
  price: number;
  quantity: number;
  quoteQuantity: number;
  commission: number;
  commissionAsset: string;
  isBuyer: boolean;
}

// ---- USDⓈ-M futures (docs/usdm-futures.md; engine/futures/) ----

/** Why a futures wallet or position moved (ACCOUNT_UPDATE `m`). */
export type FuturesUpdateReason =
  | 'ORDER'
  | 'FUNDING_FEE'
  | 'DEPOSIT'
  | 'WITHDRAW'
  | 'MARGIN_TYPE_CHANGE'
  | 'MARGIN_TRANSFER'
  | 'INSURANCE_CLEAR';

/**
 * A position changed (ACCOUNT_UPDATE `P`): after a fill (`tradeId`, `orderId` set, `realizedPnl`
 * of this fill before fees), funding on an isolated position, a margin transfer or a liquidation.
 */
export interface FuturesPositionChanged {
  type: 'FuturesPositionChanged';
  time: number;
  accountId: number;
  symbol: string;
  positionSide: 'BOTH' | 'LONG' | 'SHORT';
  /** Signed base units (short < 0). */
  positionAmt: number;
  /** Entry price, price units, rounded half up; 0 when flat. */
  entryPrice: number;
  /** Realized PnL of this change (margin units, before commission); 0 if none. */
  realizedPnl: number;
  /** Accumulated realized PnL of the position (ACCOUNT_UPDATE `cr`). */
  accumulatedRealized: number;
  marginType: 'CROSSED' | 'ISOLATED';
  /** Isolated wallet (margin units); 0 for cross. */
  isolatedWallet: number;
  reason: FuturesUpdateReason;
  /** The fill behind the change, else -1. */
  tradeId: number;
  orderId: number;
}

/** A futures wallet balance changed (ACCOUNT_UPDATE `B`). */
export interface FuturesWalletChanged {
  type: 'FuturesWalletChanged';
  time: number;
  accountId: number;
  /** The futures wallet asset, e.g. `um:USDT`. */
  asset: string;
  /** Wallet balance: cross wallet + isolated wallets (margin units). */
  walletBalance: number;
  crossWalletBalance: number;
  /** Change except PnL and commission (ACCOUNT_UPDATE `bc`). */
  balanceChange: number;
  reason: FuturesUpdateReason;
}

export interface MarkPriceChanged {
  type: 'MarkPriceChanged';
  time: number;
  symbol: string;
  markPrice: number;
  indexPrice: number;
}

export interface FundingSettled {
  type: 'FundingSettled';
  time: number;
  symbol: string;
  /** 1e-8 units, signed. */
  rate: number;
  markPrice: number;
  /** Positions that paid or received. */
  positions: number;
}

export interface MarginCallPosition {
  symbol: string;
  positionSide: 'BOTH' | 'LONG' | 'SHORT';
  positionAmt: number;
  marginType: 'CROSSED' | 'ISOLATED';
  isolatedWallet: number;
  markPrice: number;
  unrealizedPnl: number;
  maintMargin: number;
}

/** An account's margin ratio passed the margin-call level (MARGIN_CALL), before any liquidation. */
export interface MarginCalled {
  type: 'MarginCalled';
  time: number;
  accountId: number;
  asset: string;
  crossWalletBalance: number;
  positions: MarginCallPosition[];
}

/**
 * A position closed by the system (`autoclose-<time>`, type LIQUIDATION, execution CALCULATED)
 * against the insurance fund at `price` (the bankruptcy price). Not a trade on the symbol's tape,
 * but a real order of the account: `orderId` from the symbol's order ids, archived FILLED (a
 * LIMIT IOC at `orderPrice`), with its trade `tradeId` in the account's trades.
 */
export interface PositionLiquidated {
  type: 'PositionLiquidated';
  time: number;
  accountId: number;
  symbol: string;
  positionSide: 'BOTH' | 'LONG' | 'SHORT';
  orderId: number;
  tradeId: number;
  clientOrderId: string;
  /** The order's limit price: the bankruptcy price on the tick grid (SELL down, BUY up). */
  orderPrice: number;
  side: Side;
  /** Base units closed. */
  quantity: number;
  /** Bankruptcy price, price units. */
  price: number;
  markPrice: number;
  /** Realized PnL of the close at the bankruptcy price. */
  realizedPnl: number;
  liquidationFee: number;
  /** What the insurance fund of the margin asset gained (negative: paid). */
  insuranceFundChange: number;
}

/** Leverage, margin type or position mode changed (ACCOUNT_CONFIG_UPDATE). */
export interface FuturesConfigChanged {
  type: 'FuturesConfigChanged';
  time: number;
  accountId: number;
  /** null for the position mode (all symbols). */
  symbol: string | null;
  leverage?: number;
  marginType?: 'CROSSED' | 'ISOLATED';
  positionMode?: 'ONE_WAY' | 'HEDGE';
}

/** A margin order was modified (ORDER_TRADE_UPDATE execution type AMENDMENT); trades may follow. */
export interface OrderModified {
  type: 'OrderModified';
  time: number;
  symbol: string;
  orderId: number;
  accountId: number;
  /** New limit price and original quantity (base units). */
  price: number;
  quantity: number;
  origPrice: number;
  origQuantity: number;
}

export type EngineEvent =
  | AccountCreated
  | BalanceAdjusted
  | OrderAccepted
  | OrderRejected
  | TradeExecuted
  | MatchPrevented
  | OrderCanceled
  | OrderExpired
  | SymbolStatusChanged
  | ReferencePriceChanged
  | SyntheticBookChanged
  | DepthBookSet
  | MarketTradeRecorded
  | OrderFilledByMarket
  | OrderTriggered
  | TrailingStarted
  | OrderActivated
  | OrderListUpdated
  | OrderAmended
  | CancelReplaceCompleted
  | AllocationRecorded
  | FuturesPositionChanged
  | FuturesWalletChanged
  | MarkPriceChanged
  | FundingSettled
  | MarginCalled
  | PositionLiquidated
  | FuturesConfigChanged
  | OrderModified;
