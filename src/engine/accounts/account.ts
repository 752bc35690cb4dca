/**
 * An account: free and locked balance per asset (indexed by the engine's asset index), its
 * commission schedule, permissions and open orders. Balances move only through `reserve`,
 * `release`, `credit` and `debitLocked`, which keep free and locked non-negative.
 */
import type { CommissionDiscount, CommissionRates } from '../commands.ts';

export interface AccountTradeRecord {
  symbolIndex: number;
  tradeId: number;
  orderId: number;
  priceTicks: number;
  steps: number;
  quote: number;
  commission: number;
  commissionAsset: number;
  time: number;
  isBuyer: boolean;
  isMaker: boolean;
}

/** A fill the account received as an allocation (`tradeId` is the book trade behind it). */
export interface AllocationRecord extends AccountTradeRecord {
  allocationId: number;
}

export const ZERO_RATES: CommissionRates = Object.freeze({ maker: 0, taker: 0, buyer: 0, seller: 0 });

export class Account {
  readonly free: number[] = [];
  readonly locked: number[] = [];
  /** Latest order per client-chosen order id per symbol index (open or closed); generated ids are decoded instead (find-order.ts). */
  readonly byClientId: (Map<string, number> | undefined)[] = [];
  /** Trades per symbol index, oldest first. */
  readonly trades: (AccountTradeRecord[] | undefined)[] = [];
  /**
   * SOR allocations per symbol index, oldest first: the taker-phase fills of orders placed
   * through smart order routing, which reach the account as allocations, not trades.
   */
  readonly allocations: (AllocationRecord[] | undefined)[] = [];
  /** Prevented match ids per symbol index in which this account took part. */
  readonly preventedMatchIds: (number[] | undefined)[] = [];
  /** Open orders across the exchange (EXCHANGE_MAX_NUM_ORDERS). */
  openCount = 0;
  /** Open stop / take-profit orders across the exchange (EXCHANGE_MAX_NUM_ALGO_ORDERS). */
  algoCount = 0;
  /** Open iceberg orders across the exchange (EXCHANGE_MAX_NUM_ICEBERG_ORDERS). */
  icebergCount = 0;
  /** Open order lists across the exchange (EXCHANGE_MAX_NUM_ORDER_LISTS). */
  openListCount = 0;
  updateTime = 0;

  constructor(
    /** Dense index in creation order: per-account data on a symbol is an array by slot. */
    readonly slot: number,
    readonly accountId: number,
    readonly standardCommission: CommissionRates,
    readonly taxCommission: CommissionRates,
    readonly specialCommission: CommissionRates,
    readonly discount: CommissionDiscount,
    readonly permissions: readonly string[],
    public canTrade: boolean,
    readonly tradeGroupId: number,
  ) {}

  freeOf(asset: number): number {
    return this.free[asset] ?? 0;
  }

  lockedOf(asset: number): number {
    return this.locked[asset] ?? 0;
  }

  credit(asset: number, amount: number): void {
    this.free[asset] = (this.free[asset] ?? 0) + amount;
  }

  /** Takes `amount` from free; the caller has checked it is there. */
  debitFree(asset: number, amount: number): void {
    const free = (this.free[asset] ?? 0) - amount;
    if (free < 0) throw new Error(`account ${this.accountId}: free balance of asset ${asset} would go negative`);
    this.free[asset] = free;
  }

  /** Moves `amount` from free to locked; returns false (and changes nothing) if free is short. */
  reserve(asset: number, amount: number): boolean {
    const free = this.free[asset] ?? 0;
    if (free < amount) return false;
    this.free[asset] = free - amount;
    this.locked[asset] = (this.locked[asset] ?? 0) + amount;
    return true;
  }

  /** Moves `amount` from locked back to free. */
  release(asset: number, amount: number): void {
    this.debitLocked(asset, amount);
    this.free[asset] = (this.free[asset] ?? 0) + amount;
  }

  /** Removes `amount` from locked (it leaves the account, e.g. paid to a counterparty). */
  debitLocked(asset: number, amount: number): void {
    const locked = (this.locked[asset] ?? 0) - amount;
    if (locked < 0) throw new Error(`account ${this.accountId}: locked balance of asset ${asset} would go negative`);
    this.locked[asset] = locked;
  }

  /** Same party for self-trade prevention: same account, or same trade group (not -1). */
  isSameParty(other: Account): boolean {
    return this === other || (this.tradeGroupId !== -1 && this.tradeGroupId === other.tradeGroupId);
  }

  clientIdsOn(symbolIndex: number): Map<string, number> {
    let map = this.byClientId[symbolIndex];
    if (!map) {
      map = new Map();
      this.byClientId[symbolIndex] = map;
    }
    return map;
  }

  allocationsOn(symbolIndex: number): AllocationRecord[] {
    let list = this.allocations[symbolIndex];
    if (list === undefined) {
      list = [];
      this.allocations[symbolIndex] = list;
    }
    return list;
  }

  tradesOn(symbolIndex: number): AccountTradeRecord[] {
    let list = this.trades[symbolIndex];
    if (!list) {
      list = [];
      this.trades[symbolIndex] = list;
    }
    return list;
  }
}
