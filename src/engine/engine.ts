/**
 * The exchange state machine: `apply(command) -> events`.
 *
 * Contract
 * - Pure in its inputs: the events and state after a command are a function of the config and
 *   the commands applied so far. No clock (time comes on the command), no I/O, no randomness.
 * - A refused command emits one OrderRejected and changes nothing.
 * - Time never runs backwards: a command older than the previous one is a caller bug (throws).
 * - Invariants (checked by `checkInvariants`, asserted by the property tests after every step):
 *   books never crossed (nor with the synthetic book's levels merged in); level totals and FIFO links consistent; each open order reserves exactly
 *   what it needs and an account's locked balance is the sum over its open orders; every asset
 *   is conserved: sum of balances + collected fees = net deposits.
 */
import { Account, ZERO_RATES } from './accounts/account.ts';
import { lockedAsset, requiredLock } from './accounts/settle.ts';
import { amendOrder } from './amend-order.ts';
import { cancelAllOrders, cancelOrder, cancelOrderList } from './cancel-order.ts';
import { cancelReplaceOrder } from './cancel-replace.ts';
import { runContingencies } from './conditional/contingency.ts';
import { placeOrderList } from './order-lists/place-order-list.ts';
import type { AdjustBalance, CreateAccount, EngineCommand, PlaceOrder } from './commands.ts';
import { EngineState, type MarketTradeRecord, type SymbolState } from './engine-state.ts';
import type { EngineEvent } from './events.ts';
import { findOrderIdByClientId } from './find-order.ts';
import { recordOf, type OrderRecord } from './order-archive.ts';
import type { Order } from './order.ts';
import { placementRefusal, placeOrder } from './place-order.ts';
import type { RejectReason } from './reject-reason.ts';
import { recordMarketTrade } from './record-market-trade.ts';
import { fillFromMarket } from './fill-from-market.ts';
import type { EngineConfig, PriceRangeRule, ReferencePriceCalculation } from './symbol-config.ts';
import type { SymbolSpec } from './symbol-spec.ts';
import { computeStateHash } from './state-hash.ts';
import { assertNever, CONDITIONAL_TYPES, type SymbolStatus } from './types.ts';
import type { OrderList } from './order-lists/order-list.ts';
import { bestTicks, forEachMergedLevel } from './liquidity/merged-levels.ts';
import { setSyntheticAnchor, setSyntheticBook } from './liquidity/synthetic-book-commands.ts';
import type {
  AllocationView,
  AmendmentView,
  OrderListView,
  AccountTradeView,
  AccountView,
  BookTickerView,
  DepthView,
  MarketTradeView,
  OrderView,
  PreventedMatchView,
} from './views.ts';

const NO_EVENTS: readonly EngineEvent[] = [];

function listView(list: OrderList): OrderListView {
  return { ...list.snapshot(), transactionTime: list.transactionTime };
}

/**
 * The safety proof for number arithmetic on balances: value is conserved, so no balance, lock or
 * fee total can exceed the asset's net deposits. Keeping those below 2^53 units keeps every
 * balance exact (at 8 decimals: about 90 million whole units of an asset in the whole engine).
 */
/** One side of `depth`: aggregated live levels, best first, at most `limit` (<= 5000). */
function depthSide(s: SymbolState, isBid: boolean, limit: number): [number, number][] {
  const { tickUnits, stepUnits } = s.spec;
  const out: [number, number][] = [];
  forEachMergedLevel(s, isBid, Math.min(limit, 5000), (ticks, steps) => {
    out.push([ticks * tickUnits, steps * stepUnits]);
  });
  return out;
}

function withinSupplyBound(state: EngineState, asset: string, delta: number): boolean {
  const index = state.findAsset(asset);
  const current = index === undefined ? 0 : (state.deposited[index] as number);
  return Number.isSafeInteger(current + delta);
}

export class Engine {
  readonly #state: EngineState;

  constructor(config: EngineConfig) {
    this.#state = new EngineState(config);
  }

  /** Applies one command; returns the events it caused (an OrderRejected on refusal). */
  apply(command: EngineCommand): readonly EngineEvent[] {
    const state = this.#state;
    if (!(command.time >= state.lastTime)) {
      throw new Error(`time ran backwards: command at ${command.time} after ${state.lastTime}`);
    }
    state.lastTime = command.time;
    state.events = null;
    switch (command.type) {
      case 'PlaceOrder':
        placeOrder(state, command);
        break;
      case 'CancelOrder':
        cancelOrder(state, command);
        break;
      case 'CancelAllOrders':
        cancelAllOrders(state, command);
        break;
      case 'PlaceOrderList':
        placeOrderList(state, command);
        break;
      case 'CancelOrderList':
        cancelOrderList(state, command);
        break;
      case 'CancelReplaceOrder':
        cancelReplaceOrder(state, command);
        break;
      case 'AmendOrder':
        amendOrder(state, command);
        break;
      case 'CreateAccount':
        this.#createAccount(command);
        break;
      case 'AdjustBalance':
        this.#adjustBalance(command);
        break;
      case 'SetSymbolStatus': {
        const symbol = state.symbols.get(command.symbol);
        if (!symbol) {
          state.reject(command, 'UNKNOWN_SYMBOL');
          break;
        }
        symbol.status = command.status;
        state.emit({ type: 'SymbolStatusChanged', time: command.time, symbol: command.symbol, status: command.status });
        break;
      }
      case 'RecordMarketTrade':
        recordMarketTrade(state, command);
        break;
      case 'FillFromMarket':
        fillFromMarket(state, command);
        break;
      case 'SetSyntheticBook':
        setSyntheticBook(state, command);
        break;
      case 'SetSyntheticAnchor':
        setSyntheticAnchor(state, command);
        break;
      case 'SetReferencePrice': {
        const symbol = state.symbols.get(command.symbol);
        if (!symbol) {
          state.reject(command, 'UNKNOWN_SYMBOL');
          break;
        }
        if (command.price !== null && !(Number.isSafeInteger(command.price) && command.price > 0)) {
          state.reject(command, 'INVALID_AMOUNT');
          break;
        }
        symbol.referencePrice = command.price;
        state.emit({ type: 'ReferencePriceChanged', time: command.time, symbol: command.symbol, price: command.price });
        break;
      }
      default:
        assertNever(command, 'command');
    }
    // Stops reached and list legs touched by this command react before it returns.
    if (state.dirty.length !== 0) runContingencies(state, command.time);
    const events = state.events as EngineEvent[] | null;
    state.events = null;
    return events ?? NO_EVENTS;
  }

  #createAccount(command: CreateAccount): void {
    const state = this.#state;
    const refuse = (reason: 'ACCOUNT_EXISTS' | 'INVALID_AMOUNT') => state.reject(command, reason);
    if (state.accounts.has(command.accountId)) return refuse('ACCOUNT_EXISTS');
    // 0 names the synthetic book as a maker (SYNTHETIC_MAKER): accounts are numbered from 1.
    if (!(Number.isSafeInteger(command.accountId) && command.accountId >= 1)) return refuse('INVALID_AMOUNT');
    const balances = Object.entries(command.balances ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [name, amount] of balances) {
      if (!Number.isSafeInteger(amount) || amount < 0) return refuse('INVALID_AMOUNT');
      if (!withinSupplyBound(state, name, amount)) return refuse('INVALID_AMOUNT');
    }
    for (const rates of [command.standardCommission, command.taxCommission, command.specialCommission]) {
      if (rates && Object.values(rates).some((r) => !Number.isSafeInteger(r) || r < 0)) return refuse('INVALID_AMOUNT');
    }
    const account = new Account(
      state.accounts.size,
      command.accountId,
      command.standardCommission ?? ZERO_RATES,
      command.taxCommission ?? ZERO_RATES,
      command.specialCommission ?? ZERO_RATES,
      command.discount ?? { enabled: false, asset: 'BNB', rate: 75_000_000 },
      command.permissions ?? ['SPOT'],
      command.canTrade ?? true,
      command.tradeGroupId ?? -1,
    );
    for (const [name, amount] of balances) {
      const asset = state.assetIndex(name);
      account.credit(asset, amount);
      state.deposited[asset] = (state.deposited[asset] as number) + amount;
    }
    account.updateTime = command.time;
    state.accounts.set(command.accountId, account);
    state.emit({ type: 'AccountCreated', time: command.time, accountId: command.accountId });
  }

  #adjustBalance(command: AdjustBalance): void {
    const state = this.#state;
    const refuse = (reason: 'UNKNOWN_ACCOUNT' | 'INVALID_AMOUNT' | 'INSUFFICIENT_BALANCE') => state.reject(command, reason);
    const account = state.accounts.get(command.accountId);
    if (!account) return refuse('UNKNOWN_ACCOUNT');
    if (!Number.isSafeInteger(command.delta) || command.delta === 0) return refuse('INVALID_AMOUNT');
    if (!withinSupplyBound(state, command.asset, command.delta)) return refuse('INVALID_AMOUNT');
    const asset = state.assetIndex(command.asset);
    if (account.freeOf(asset) + command.delta < 0) return refuse('INSUFFICIENT_BALANCE');
    account.credit(asset, command.delta);
    state.deposited[asset] = (state.deposited[asset] as number) + command.delta;
    account.updateTime = command.time;
    state.emit({ type: 'BalanceAdjusted', time: command.time, accountId: command.accountId, asset: command.asset, delta: command.delta });
  }

  // ---- queries -------------------------------------------------------------------------------

  get config(): EngineConfig {
    return this.#state.config;
  }

  /** Time of the last applied command (µs). */
  get time(): number {
    return this.#state.lastTime;
  }

  symbolNames(): readonly string[] {
    return this.#state.symbolList.map((s) => s.spec.symbol);
  }

  symbolSpec(symbol: string): SymbolSpec | undefined {
    return this.#state.symbols.get(symbol)?.spec;
  }

  symbolStatus(symbol: string): SymbolStatus | undefined {
    return this.#state.symbols.get(symbol)?.status;
  }

  /**
   * Why `command` would be refused if applied now, or null; funds are not checked. Changes
   * nothing and emits nothing (POST /api/v3/order/test).
   */
  placementRefusal(command: PlaceOrder): RejectReason | null {
    return placementRefusal(this.#state, command);
  }

  /**
   * The symbol's reference price at `now` (default: the last command's time): one set from
   * outside, else the engine's arithmetic mean when configured, else null.
   */
  referencePrice(symbol: string, now: number = this.#state.lastTime): number | null {
    return this.#state.symbols.get(symbol)?.referencePriceAt(now) ?? null;
  }

  /**
   * How the symbol's reference price is calculated (GET /api/v3/referencePrice/calculation):
   * EXTERNAL (method 0, set by an operator) while one is set from outside, else the configured
   * calculation; null when the symbol has none.
   */
  referencePriceCalculation(symbol: string): ReferencePriceCalculation | null {
    const s = this.#state.symbols.get(symbol);
    if (!s) return null;
    if (s.referencePrice !== null) return { calculationType: 'EXTERNAL', externalCalculationId: 0 };
    return s.spec.referencePriceCalculation;
  }

  /** The symbol's execution rules as configured (GET /api/v3/executionRules). */
  executionRules(symbol: string): readonly PriceRangeRule[] {
    const s = this.#state.symbols.get(symbol);
    return s ? (this.#state.config.symbols[s.spec.index]?.executionRules ?? []) : [];
  }

  accountIds(): readonly number[] {
    return [...this.#state.accounts.keys()];
  }

  account(accountId: number): AccountView | undefined {
    const state = this.#state;
    const account = state.accounts.get(accountId);
    if (!account) return undefined;
    const balances = state.assetNames.map((asset, i) => ({ asset, free: account.freeOf(i), locked: account.lockedOf(i) }));
    return {
      accountId,
      canTrade: account.canTrade,
      permissions: [...account.permissions],
      tradeGroupId: account.tradeGroupId,
      standardCommission: { ...account.standardCommission },
      taxCommission: { ...account.taxCommission },
      specialCommission: { ...account.specialCommission },
      discount: { ...account.discount },
      updateTime: account.updateTime,
      balances,
    };
  }

  /** By orderId, or by clientOrderId (the latest order with that id); open or closed. */
  getOrder(accountId: number, symbol: string, ref: { orderId?: number; clientOrderId?: string }): OrderView | undefined {
    const s = this.#state.symbols.get(symbol);
    const account = this.#state.accounts.get(accountId);
    if (!s || !account) return undefined;
    let record: OrderRecord | undefined;
    if (ref.orderId !== undefined) {
      record = Number.isSafeInteger(ref.orderId) ? s.record(ref.orderId) : undefined;
      if (record && ref.clientOrderId !== undefined && record.clientOrderId !== ref.clientOrderId) return undefined;
    } else if (ref.clientOrderId !== undefined) {
      const orderId = findOrderIdByClientId(s, account, ref.clientOrderId);
      record = orderId === undefined ? undefined : s.record(orderId);
    }
    if (!record || record.accountId !== accountId) return undefined;
    return this.#view(s, record);
  }

  /** Open orders of an account, one symbol or all, by symbol then orderId. */
  openOrders(accountId: number, symbol?: string): OrderView[] {
    const account = this.#state.accounts.get(accountId);
    if (!account) return [];
    const symbols = symbol === undefined ? this.#state.symbolList : [this.#state.symbols.get(symbol)].filter((s) => s !== undefined);
    const out: OrderView[] = [];
    for (const s of symbols) {
      for (const order of s.openOrdersOf(account)) out.push(this.#view(s, recordOf(order)));
    }
    return out;
  }

  /** Every order (open and closed) of an account on a symbol, by orderId. */
  allOrders(accountId: number, symbol: string): OrderView[] {
    const s = this.#state.symbols.get(symbol);
    const account = this.#state.accounts.get(accountId);
    if (!s || !account) return [];
    const out: OrderView[] = [];
    for (let orderId = 1; orderId < s.nextOrderId; orderId++) {
      if (s.accountIdOf(orderId) === accountId) out.push(this.#view(s, s.record(orderId)!));
    }
    return out;
  }

  accountTrades(accountId: number, symbol: string): AccountTradeView[] {
    const s = this.#state.symbols.get(symbol);
    const account = this.#state.accounts.get(accountId);
    if (!s || !account) return [];
    const spec = s.spec;
    return (account.trades[spec.index] ?? []).map((t) => ({
      symbol: spec.symbol,
      id: t.tradeId,
      orderId: t.orderId,
      orderListId: s.record(t.orderId)?.orderListId ?? -1,
      price: t.priceTicks * spec.tickUnits,
      qty: t.steps * spec.stepUnits,
      quoteQty: t.quote,
      commission: t.commission,
      commissionAsset: this.#state.assetNames[t.commissionAsset] as string,
      time: t.time,
      isBuyer: t.isBuyer,
      isMaker: t.isMaker,
      isBestMatch: true,
    }));
  }

  /** SOR allocations of an account on a symbol, oldest first. */
  allocations(accountId: number, symbol: string): AllocationView[] {
    const s = this.#state.symbols.get(symbol);
    const account = this.#state.accounts.get(accountId);
    if (!s || !account) return [];
    const spec = s.spec;
    return (account.allocations[spec.index] ?? []).map((a) => ({
      symbol: spec.symbol,
      allocationId: a.allocationId,
      allocationType: 'SOR' as const,
      orderId: a.orderId,
      orderListId: s.record(a.orderId)?.orderListId ?? -1,
      price: a.priceTicks * spec.tickUnits,
      qty: a.steps * spec.stepUnits,
      quoteQty: a.quote,
      commission: a.commission,
      commissionAsset: this.#state.assetNames[a.commissionAsset] as string,
      time: a.time,
      isBuyer: a.isBuyer,
      isMaker: false,
      isAllocator: false,
    }));
  }

  preventedMatches(accountId: number, symbol: string): PreventedMatchView[] {
    const s = this.#state.symbols.get(symbol);
    if (!s) return [];
    const spec = s.spec;
    return s.preventedMatches
      .filter((p) => p.takerAccountId === accountId || p.makerAccountId === accountId)
      .map((p) => ({
        symbol: spec.symbol,
        preventedMatchId: p.preventedMatchId,
        takerOrderId: p.takerOrderId,
        makerSymbol: spec.symbol,
        makerOrderId: p.makerOrderId,
        tradeGroupId: p.tradeGroupId,
        selfTradePreventionMode: p.mode,
        price: p.priceTicks * spec.tickUnits,
        takerPreventedQuantity: p.takerPreventedSteps * spec.stepUnits,
        makerPreventedQuantity: p.makerPreventedSteps * spec.stepUnits,
        transactTime: p.time,
      }));
  }

  /** An order list of the account, by orderListId or by listClientOrderId (the latest with it). */
  getOrderList(accountId: number, ref: { orderListId?: number; listClientOrderId?: string }): OrderListView | undefined {
    const state = this.#state;
    let list: OrderList | undefined;
    if (ref.orderListId !== undefined) {
      list = state.orderLists.get(ref.orderListId);
      if (list && ref.listClientOrderId !== undefined && list.listClientOrderId !== ref.listClientOrderId) return undefined;
    } else if (ref.listClientOrderId !== undefined) {
      for (const l of state.orderLists.values()) {
        if (l.accountId === accountId && l.listClientOrderId === ref.listClientOrderId) list = l;
      }
    }
    return list && list.accountId === accountId ? listView(list) : undefined;
  }

  /** Every order list of the account, by orderListId. */
  allOrderLists(accountId: number): OrderListView[] {
    const out: OrderListView[] = [];
    for (const l of this.#state.orderLists.values()) if (l.accountId === accountId) out.push(listView(l));
    return out;
  }

  /** The account's lists still executing, by orderListId. */
  openOrderLists(accountId: number): OrderListView[] {
    const out: OrderListView[] = [];
    for (const l of this.#state.orderLists.values()) if (l.accountId === accountId && l.isOpen) out.push(listView(l));
    return out;
  }

  /** Amend keepPriority history of one order of the account, oldest first. */
  orderAmendments(accountId: number, symbol: string, orderId: number): AmendmentView[] {
    const s = this.#state.symbols.get(symbol);
    if (!s) return [];
    const spec = s.spec;
    return s.amendments
      .filter((a) => a.orderId === orderId && a.accountId === accountId)
      .map((a) => ({
        symbol: spec.symbol,
        orderId: a.orderId,
        executionId: a.executionId,
        origClientOrderId: a.origClientOrderId,
        newClientOrderId: a.newClientOrderId,
        origQty: a.origSteps * spec.stepUnits,
        newQty: a.newSteps * spec.stepUnits,
        time: a.time,
      }));
  }

  /** Resting orders of one side of a book in priority order (best price first, FIFO within a price). */
  bookOrders(symbol: string, side: 'BUY' | 'SELL'): OrderView[] {
    const s = this.#state.symbols.get(symbol);
    if (!s) return [];
    const levels = s.book.side(side === 'BUY').levels;
    const out: OrderView[] = [];
    for (let i = levels.length - 1; i >= 0; i--) {
      for (let o = levels[i]!.head; o !== null; o = o.next) out.push(this.#view(s, recordOf(o)));  // dormant levels have no head
    }
    return out;
  }

  /** Aggregated levels, best first, at most `limit` (<= 5000) a side. */
  depth(symbol: string, limit: number): DepthView {
    const s = this.#state.symbols.get(symbol);
    if (!s) return { bids: [], asks: [] };
    return { bids: depthSide(s, true, limit), asks: depthSide(s, false, limit) };
  }

  bookTicker(symbol: string): BookTickerView | undefined {
    const s = this.#state.symbols.get(symbol);
    if (!s) return undefined;
    const [bid] = depthSide(s, true, 1);
    const [ask] = depthSide(s, false, 1);
    return {
      bidPrice: bid ? bid[0] : 0,
      bidQty: bid ? bid[1] : 0,
      askPrice: ask ? ask[0] : 0,
      askQty: ask ? ask[1] : 0,
    };
  }

  lastTrade(symbol: string): MarketTradeView | undefined {
    const s = this.#state.symbols.get(symbol);
    if (!s?.lastTrade) return undefined;
    return this.#tradeView(s.lastTrade);
  }

  /** The most recent trades (up to 1000), oldest first. */
  recentTrades(symbol: string, limit: number): MarketTradeView[] {
    const s = this.#state.symbols.get(symbol);
    if (!s) return [];
    const ring = s.recentTrades;
    const ordered = ring.length < 1000 ? ring : [...ring.slice(s.recentHead), ...ring.slice(0, s.recentHead)];
    return ordered.slice(Math.max(0, ordered.length - limit)).map((t) => this.#tradeView(t));
  }

  /** Commissions collected by the exchange per asset, in asset units. */
  feesCollected(): Readonly<Record<string, number>> {
    const state = this.#state;
    return Object.fromEntries(state.assetNames.map((name, i) => [name, state.fees[i] as number]));
  }

  /** Net value brought in per asset by CreateAccount and AdjustBalance (conservation baseline). */
  totalDeposited(): Readonly<Record<string, number>> {
    const state = this.#state;
    return Object.fromEntries(state.assetNames.map((name, i) => [name, state.deposited[i] as number]));
  }

  /** SHA-256 hex of a canonical serialization of the whole state. */
  stateHash(): string {
    return computeStateHash(this.#state);
  }

  /** Throws if an internal invariant is broken (crossed book, level totals, locked funds, ...). */
  checkInvariants(): void {
    const state = this.#state;
    const lockedByAccount = new Map<Account, number[]>();
    const openEverywhere = new Map<Account, number>();
    // Lists: ALL_DONE exactly when every leg ended; an OCO pair never has both legs traded.
    for (const list of state.orderLists.values()) {
      const s = state.symbols.get(list.symbol)!;
      const anyOpen = list.orderIds.some((id) => s.live.get(id) !== undefined);
      if (anyOpen !== list.isOpen) throw new Error(`list ${list.orderListId} is ${list.listOrderStatus} with ${anyOpen ? 'open' : 'no open'} legs`);
      const pair = list.kind === 'OCO' ? [0, 1] : list.kind === 'OTOCO' || list.kind === 'OPOCO' ? [1, 2] : null;
      if (pair) {
        const traded = pair.filter((role) => (s.record(list.orderIds[role]!)?.executedSteps ?? 0) > 0);
        if (traded.length === 2) throw new Error(`OCO legs of list ${list.orderListId} both traded`);
      }
    }
    for (const s of state.symbolList) {
      for (const stop of s.stops) if (!stop.isOpen || !stop.ext?.untriggered) throw new Error(`stop list of ${s.spec.symbol} holds ${stop.orderId} (${stop.status})`);
      const bid = s.book.bids.best();
      const ask = s.book.asks.best();
      if (bid && ask && bid.ticks >= ask.ticks) throw new Error(`${s.spec.symbol}: book crossed (${bid.ticks} >= ${ask.ticks})`);
      if (s.ladder !== null) {
        // As takers and market data see it, with the synthetic book merged in: never crossed either.
        const shownBid = bestTicks(s, true);
        const shownAsk = bestTicks(s, false);
        if (shownBid !== undefined && shownAsk !== undefined && shownBid >= shownAsk) throw new Error(`${s.spec.symbol}: book with the synthetic levels crossed (${shownBid} >= ${shownAsk})`);
      }
      for (const side of [s.book.bids, s.book.asks]) {
        let count = 0;
        for (let i = 0; i < side.levels.length; i++) {
          const level = side.levels[i]!;
          if (i > 0 && !side.better(level.ticks, side.levels[i - 1]!.ticks)) throw new Error(`${s.spec.symbol}: levels out of order`);
          let total = 0;
          let n = 0;
          let prevId = 0;
          for (let o: Order | null = level.head; o !== null; o = o.next) {
            if (o.level !== level || o.priceTicks !== level.ticks) throw new Error(`order ${o.orderId} linked to the wrong level`);
            if (!o.isOpen || o.remainingSteps <= 0) throw new Error(`order ${o.orderId} rests while ${o.status}`);
            // FIFO by arrival: plain orders arrive in id order. Triggered stops, activated list
            // legs and refilled iceberg slices arrive later than their ids say, so only plain
            // orders are compared.
            if (o.ext === null) {
              if (o.orderId <= prevId) throw new Error(`${s.spec.symbol}: FIFO broken at ${level.ticks}`);
              prevId = o.orderId;
            }
            if (o.isIceberg && (o.bookSteps <= 0 || o.bookSteps > o.ext!.icebergSteps || o.bookSteps > o.remainingSteps)) {
              throw new Error(`iceberg ${o.orderId} shows ${o.bookSteps} of ${o.remainingSteps}`);
            }
            total += o.bookSteps;
            n += 1;
          }
          if (total !== level.totalSteps || n !== level.count) throw new Error(`${s.spec.symbol}: level ${level.ticks} totals wrong`);
          if (n === 0 && i === side.levels.length - 1) throw new Error(`${s.spec.symbol}: the best level is empty`);
          count += n;
        }
        if (count !== side.orderCount) throw new Error(`${s.spec.symbol}: side order count wrong`);
      }
      for (const order of s.live.values()) {
        openEverywhere.set(order.account, (openEverywhere.get(order.account) ?? 0) + 1);
        if (order.executedSteps + order.preventedSteps > order.origSteps) throw new Error(`order ${order.orderId} over-executed`);
        if (order.isOpen) {
          if (order.locked !== requiredLock(s, order)) throw new Error(`order ${order.orderId} reserves ${order.locked}, needs ${requiredLock(s, order)}`);
          const waiting = !order.isWorking;
          if (!waiting && !order.level) throw new Error(`open order ${order.orderId} is not on the book`);
          if (waiting && order.level) throw new Error(`order ${order.orderId} rests on the book before it works`);
          if ((order.ext?.untriggered ?? false) !== s.stops.includes(order)) throw new Error(`stop ${order.orderId} and the stop list disagree`);
          const list = order.ext?.list ?? null;
          if (list !== null && !list.isOpen) throw new Error(`order ${order.orderId} is open in finished list ${list.orderListId}`);
          let locks = lockedByAccount.get(order.account);
          if (!locks) lockedByAccount.set(order.account, (locks = []));
          const asset = lockedAsset(s, order);
          locks[asset] = (locks[asset] ?? 0) + order.locked;
        } else {
          throw new Error(`order ${order.orderId} is ${order.status} but still live`);
        }
      }
    }
    for (const s of state.symbolList) {
      for (const account of state.accounts.values()) {
        const counted = s.openOrdersOf(account).length;
        if ((s.openByAccount[account.slot] ?? 0) !== counted) throw new Error(`${s.spec.symbol}: open count of account ${account.accountId} is off`);
      }
    }
    for (const account of state.accounts.values()) {
      if (account.openCount !== (openEverywhere.get(account) ?? 0)) throw new Error(`account ${account.accountId}: exchange-wide open count is off`);
    }
    // The counts behind MAX_NUM_ALGO_ORDERS, MAX_NUM_ICEBERG_ORDERS, MAX_NUM_ORDER_LISTS.
    for (const account of state.accounts.values()) {
      let algo = 0;
      let iceberg = 0;
      let lists = 0;
      for (const s of state.symbolList) {
        let algoHere = 0;
        let icebergHere = 0;
        for (const o of s.openOrdersOf(account)) {
          if (CONDITIONAL_TYPES.has(o.type)) algoHere += 1;
          if (o.isIceberg) icebergHere += 1;
        }
        let listsHere = 0;
        for (const l of state.orderLists.values()) if (l.isOpen && l.accountId === account.accountId && l.symbol === s.spec.symbol) listsHere += 1;
        if ((s.algoByAccount[account.slot] ?? 0) !== algoHere || (s.icebergByAccount[account.slot] ?? 0) !== icebergHere || (s.listsByAccount[account.slot] ?? 0) !== listsHere) {
          throw new Error(`account ${account.accountId} on ${s.spec.symbol}: algo/iceberg/list counts are off`);
        }
        algo += algoHere;
        iceberg += icebergHere;
        lists += listsHere;
      }
      if (account.algoCount !== algo || account.icebergCount !== iceberg || account.openListCount !== lists) {
        throw new Error(`account ${account.accountId}: exchange-wide algo/iceberg/list counts are off`);
      }
    }
    const totals = state.fees.slice();
    for (const account of state.accounts.values()) {
      const locks = lockedByAccount.get(account) ?? [];
      for (let asset = 0; asset < state.assetNames.length; asset++) {
        const free = account.freeOf(asset);
        const locked = account.lockedOf(asset);
        if (free < 0 || locked < 0) throw new Error(`account ${account.accountId}: negative balance of ${state.assetNames[asset]}`);
        if (locked !== (locks[asset] ?? 0)) {
          throw new Error(`account ${account.accountId}: locked ${state.assetNames[asset]} ${locked} != open orders' ${locks[asset] ?? 0}`);
        }
        totals[asset] = (totals[asset] as number) + free + locked;
      }
    }
    for (let asset = 0; asset < state.assetNames.length; asset++) {
      if (totals[asset] !== state.deposited[asset]) {
        throw new Error(`asset ${state.assetNames[asset]} not conserved: ${totals[asset]} held vs ${state.deposited[asset]} deposited`);
      }
    }
  }

  #view(s: SymbolState, o: OrderRecord): OrderView {
    const spec = s.spec;
    const x = o.extras;
    return {
      symbol: spec.symbol,
      orderId: o.orderId,
      orderListId: o.orderListId,
      clientOrderId: o.clientOrderId,
      accountId: o.accountId,
      price: o.priceTicks * spec.tickUnits,
      origQty: o.origSteps * spec.stepUnits,
      executedQty: o.executedSteps * spec.stepUnits,
      cummulativeQuoteQty: o.cumQuote,
      status: o.status,
      timeInForce: o.timeInForce,
      type: o.type,
      side: o.isBuy ? 'BUY' : 'SELL',
      time: o.time,
      updateTime: o.updateTime,
      workingTime: o.workingTime,
      isWorking: o.isWorking,
      origQuoteOrderQty: o.quoteOrderQty,
      selfTradePreventionMode: o.stpMode,
      expiryReason: o.expiryReason,
      preventedQuantity: o.preventedSteps * spec.stepUnits,
      preventedMatchId: o.preventedMatchId,
      strategyId: o.strategyId,
      strategyType: o.strategyType,
      lockedAmount: o.locked,
      stopPrice: x?.stopPrice ?? 0,
      trailingDelta: x?.trailingDelta ?? 0,
      trailingTime: x?.trailingTime ?? -1,
      icebergQty: (x?.icebergSteps ?? 0) * spec.stepUnits,
      pegPriceType: x?.pegPriceType ?? null,
      pegOffsetValue: x?.pegPriceType ? x.pegOffsetValue : null,
      peggedPrice: (x?.peggedTicks ?? 0) * spec.tickUnits,
      usedSor: x?.usedSor ?? false,
      amendCount: x?.amendCount ?? 0,
    };
  }

  #tradeView(t: MarketTradeRecord): MarketTradeView {
    return {
      id: t.tradeId,
      price: t.price,
      qty: t.qty,
      quoteQty: t.quote,
      time: t.time,
      isBuyerMaker: t.isBuyerMaker,
      isBestMatch: true,
    };
  }
}
