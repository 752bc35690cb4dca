/**
 * The engine's mutable order record. One class so every order has the same hidden class in V8;
 * fields are integers on the book grid (ticks, steps) and in asset units (quote amounts, locks).
 *
 * Quantity bookkeeping: remaining = origSteps - executedSteps - preventedSteps. An order leaves
 * the book when remaining reaches 0 (FILLED or EXPIRED_IN_MATCH) or when it is canceled/expired.
 */
import type { Account } from './accounts/account.ts';
import type { PriceLevel } from './book/price-level.ts';
import type { OrderList } from './order-lists/order-list.ts';
import type {
  ExpiryReason,
  PegPriceType,
  OrderStatus,
  OrderType,
  SelfTradePreventionMode,
  TimeInForce,
} from './types.ts';

/**
 * The fields only conditional orders have (stops, trailing, icebergs, pegs, list legs, SOR,
 * amendments). Plain LIMIT and MARKET orders have none, so they carry one null pointer instead
 * of a dozen fields, and the hot path never looks further.
 */
export class OrderExtras {
  /** Stop price in price units (on the tick grid), 0 if none. */
  stopPrice = 0;
  /** Trailing distance in basis points, 0 if none. */
  trailingDelta = 0;
  /** When tracking started, µs; -1 before. */
  trailingTime = -1;
  /** Best price since tracking started (highest for SELL, lowest for BUY), price units. */
  trailExtreme = 0;
  /** A stop still waiting for its trigger (open, off the book). */
  untriggered = false;
  /** Iceberg: visible slice in steps (0: not an iceberg). */
  icebergSteps = 0;
  /** Iceberg on the book: steps of the current slice still visible. */
  visibleSteps = 0;
  pegPriceType: PegPriceType | null = null;
  pegOffsetValue = 0;
  /** Price a pegged order took from the book, in ticks (0 until known). */
  peggedTicks = 0;
  /** The order's list, or null. */
  list: OrderList | null = null;
  /** OPO pending legs: the quantity is what the working order receives. */
  quantityFromWorking = false;
  /**
   * One leg of an OCO pair holds the pair's funds; the other (this flag) holds none while its
   * partner is open, and reserves its own when it starts working (contingency.ts).
   */
  sharesLock = false;
  usedSor = false;
  amendCount = 0;
}

export class Order {
  /** Book linkage: neighbours in the FIFO of `level` (null when not resting). */
  prev: Order | null = null;
  next: Order | null = null;
  level: PriceLevel | null = null;

  executedSteps = 0;
  preventedSteps = 0;
  /** Sum of the quote amounts of this order's fills (cummulativeQuoteQty), quote units. */
  cumQuote = 0;
  status: OrderStatus = 'NEW';
  expiryReason: ExpiryReason = 'NONE';
  updateTime: number;
  workingTime: number;
  preventedMatchId = -1;
  /** Funds reserved for this order: quote units for BUY, base units for SELL. */
  locked = 0;
  /** The client sent clientOrderId (else the engine generated it). */
  clientIdChosen = false;
  /** Conditional fields; null for plain orders. */
  ext: OrderExtras | null = null;

  constructor(
    readonly symbolIndex: number,
    readonly orderId: number,
    public clientOrderId: string,
    readonly account: Account,
    readonly isBuy: boolean,
    readonly type: OrderType,
    readonly timeInForce: TimeInForce,
    /** Limit price in ticks; 0 for MARKET (and for pegged orders until the book sets it). */
    public priceTicks: number,
    public origSteps: number,
    /** MARKET by quoteOrderQty: the requested quote amount; otherwise 0. */
    readonly quoteOrderQty: number,
    readonly stpMode: SelfTradePreventionMode,
    readonly time: number,
    readonly strategyId: number | null,
    readonly strategyType: number | null,
  ) {
    this.updateTime = time;
    this.workingTime = time;
  }

  /**
   * Makes this closed order a new one, exactly as the constructor would have built it with these
   * arguments (every field written, in the constructor's order, so the object keeps its shape).
   * Only for a plain order recycled by order-lifecycle.ts after it was archived and nothing refers
   * to it any more; `readonly` holds for everyone else.
   */
  reuse(
    symbolIndex: number,
    orderId: number,
    clientOrderId: string,
    account: Account,
    isBuy: boolean,
    type: OrderType,
    timeInForce: TimeInForce,
    priceTicks: number,
    origSteps: number,
    quoteOrderQty: number,
    stpMode: SelfTradePreventionMode,
    time: number,
    strategyId: number | null,
    strategyType: number | null,
  ): void {
    const self = this as { -readonly [K in keyof Order]: Order[K] };
    self.prev = null;
    self.next = null;
    self.level = null;
    self.executedSteps = 0;
    self.preventedSteps = 0;
    self.cumQuote = 0;
    self.status = 'NEW';
    self.expiryReason = 'NONE';
    self.preventedMatchId = -1;
    self.locked = 0;
    self.clientIdChosen = false;
    self.ext = null;
    self.symbolIndex = symbolIndex;
    self.orderId = orderId;
    self.clientOrderId = clientOrderId;
    self.account = account;
    self.isBuy = isBuy;
    self.type = type;
    self.timeInForce = timeInForce;
    self.priceTicks = priceTicks;
    self.origSteps = origSteps;
    self.quoteOrderQty = quoteOrderQty;
    self.stpMode = stpMode;
    self.time = time;
    self.strategyId = strategyId;
    self.strategyType = strategyType;
    self.updateTime = time;
    self.workingTime = time;
  }

  get remainingSteps(): number {
    return this.origSteps - this.executedSteps - this.preventedSteps;
  }

  /** What the order shows on the book: the visible slice of an iceberg, else all that remains. */
  get bookSteps(): number {
    const ext = this.ext;
    return ext === null || ext.icebergSteps === 0 ? this.remainingSteps : ext.visibleSteps;
  }

  get isIceberg(): boolean {
    return this.ext !== null && this.ext.icebergSteps !== 0;
  }

  get isOpen(): boolean {
    return this.status === 'NEW' || this.status === 'PARTIALLY_FILLED' || this.status === 'PENDING_NEW';
  }

  /** On the book or matching: not a stop waiting for its trigger, not a pending list leg. */
  get isWorking(): boolean {
    const ext = this.ext;
    return ext === null || (!ext.untriggered && this.status !== 'PENDING_NEW');
  }

  get orderListId(): number {
    return this.ext?.list?.orderListId ?? -1;
  }

  extras(): OrderExtras {
    return (this.ext ??= new OrderExtras());
  }
}
