/**
 * Read-only snapshots the engine hands out to queries. Built on demand from internal state; a
 * view never aliases engine state, so holding one is safe. Amounts use command units.
 */
import type {
  ContingencyType,
  ExpiryReason,
  ListOrderStatus,
  ListStatusType,
  OrderListKind,
  PegPriceType,
  OrderStatus,
  OrderType,
  SelfTradePreventionMode,
  Side,
  TimeInForce,
} from './types.ts';

export interface OrderView {
  symbol: string;
  orderId: number;
  orderListId: number;
  clientOrderId: string;
  accountId: number;
  price: number;
  origQty: number;
  executedQty: number;
  cummulativeQuoteQty: number;
  status: OrderStatus;
  timeInForce: TimeInForce;
  type: OrderType;
  side: Side;
  /** Creation time, µs. */
  time: number;
  /** Time of the last change, µs. */
  updateTime: number;
  /** Time the order started working on the book, µs (-1 while not working). */
  workingTime: number;
  isWorking: boolean;
  origQuoteOrderQty: number;
  selfTradePreventionMode: SelfTradePreventionMode;
  expiryReason: ExpiryReason;
  /** Quantity removed by self-trade prevention (0 if none). */
  preventedQuantity: number;
  /** Last prevented match of this order, or -1. */
  preventedMatchId: number;
  strategyId: number | null;
  strategyType: number | null;
  /** Funds still reserved for the order (quote units for BUY, base units for SELL). */
  lockedAmount: number;
  /** Conditional fields, each 0 / -1 / null when it does not apply. */
  stopPrice: number;
  trailingDelta: number;
  /** When trailing started tracking, µs; -1 before (or for non-trailing orders). */
  trailingTime: number;
  icebergQty: number;
  pegPriceType: PegPriceType | null;
  pegOffsetValue: number | null;
  /** The price a pegged order took from the book (0 until known). */
  peggedPrice: number;
  /** Placed through smart order routing. */
  usedSor: boolean;
  /** Times amended (keepPriority). */
  amendCount: number;
}

export interface OrderListView {
  symbol: string;
  orderListId: number;
  accountId: number;
  kind: OrderListKind;
  contingencyType: ContingencyType;
  listStatusType: ListStatusType;
  listOrderStatus: ListOrderStatus;
  listClientOrderId: string;
  /** When the list was placed (or last changed status), µs. */
  transactionTime: number;
  orders: readonly { orderId: number; clientOrderId: string }[];
}

export interface AmendmentView {
  symbol: string;
  orderId: number;
  executionId: number;
  origClientOrderId: string;
  newClientOrderId: string;
  origQty: number;
  newQty: number;
  time: number;
}

export interface BalanceView {
  asset: string;
  free: number;
  locked: number;
}

export interface AccountView {
  accountId: number;
  canTrade: boolean;
  permissions: readonly string[];
  tradeGroupId: number;
  standardCommission: { maker: number; taker: number; buyer: number; seller: number };
  taxCommission: { maker: number; taker: number; buyer: number; seller: number };
  specialCommission: { maker: number; taker: number; buyer: number; seller: number };
  discount: { enabled: boolean; asset: string; rate: number };
  /** Time of the last balance change, µs (0 before any). */
  updateTime: number;
  balances: readonly BalanceView[];
}

export interface AccountTradeView {
  symbol: string;
  id: number;
  orderId: number;
  orderListId: number;
  price: number;
  qty: number;
  quoteQty: number;
  commission: number;
  commissionAsset: string;
  time: number;
  isBuyer: boolean;
  isMaker: boolean;
  isBestMatch: boolean;
}

export interface AllocationView {
  symbol: string;
  allocationId: number;
  allocationType: 'SOR';
  orderId: number;
  orderListId: number;
  price: number;
  qty: number;
  quoteQty: number;
  commission: number;
  commissionAsset: string;
  time: number;
  isBuyer: boolean;
  isMaker: boolean;
  isAllocator: boolean;
}

export interface PreventedMatchView {
  symbol: string;
  preventedMatchId: number;
  takerOrderId: number;
  makerSymbol: string;
  makerOrderId: number;
  tradeGroupId: number;
  selfTradePreventionMode: SelfTradePreventionMode;
  price: number;
  takerPreventedQuantity: number;
  makerPreventedQuantity: number;
  transactTime: number;
}

export interface MarketTradeView {
  id: number;
  price: number;
  qty: number;
  quoteQty: number;
  time: number;
  isBuyerMaker: boolean;
  isBestMatch: boolean;
}

export interface DepthView {
  /** Best first; each entry [price, total quantity at that price]. */
  bids: [number, number][];
  asks: [number, number][];
}

export interface BookTickerView {
  bidPrice: number;
  bidQty: number;
  askPrice: number;
  askQty: number;
}
