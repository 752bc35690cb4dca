/**
 * The engine's mutable order record. One class so every order has the same hidden class in V8;
 * fields are integers on the book grid (ticks, steps) and in asset units (quote amounts, locks).
 *
 * Quantity bookkeeping: remaining = origSteps - executedSteps - preventedSteps. An order leaves
 * the book when remaining reaches 0 (FILLED or EXPIRED_IN_MATCH) or when it is canceled/expired.
 */
import type { Account } from './accounts/account.ts';
import type { PriceLevel } from './book/price-level.ts';
import type {
  ExpiryReason,
  OrderStatus,
  OrderType,
  SelfTradePreventionMode,
  TimeInForce,
} from './types.ts';

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

  constructor(
    readonly symbolIndex: number,
    readonly orderId: number,
    public clientOrderId: string,
    readonly account: Account,
    readonly isBuy: boolean,
    readonly type: OrderType,
    readonly timeInForce: TimeInForce,
    /** Limit price in ticks; 0 for MARKET. */
    readonly priceTicks: number,
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

  get remainingSteps(): number {
    return this.origSteps - this.executedSteps - this.preventedSteps;
  }

  get isOpen(): boolean {
    return this.status === 'NEW' || this.status === 'PARTIALLY_FILLED';
  }
}
