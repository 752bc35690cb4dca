/**
 * The engine's queries: everything that reads the state without changing it (views of accounts,
 * orders, lists, trades, the book, reference prices, the state hash, the invariant check).
 * `Engine` adds `apply`; code that must only read (the API facade's backend, a replay's
 * consumers) takes an `EngineQueries`.
 */
import { findOrderIdByClientId } from './find-order.ts';
import { recordOf, type OrderRecord } from './order-archive.ts';
import type { EngineState, MarketTradeRecord, SymbolState } from './engine-state.ts';
import type { PlaceOrder } from './commands.ts';
import { placementRefusal } from './place-order.ts';
import type { RejectReason } from './reject-reason.ts';
import type { EngineConfig, PriceRangeRule, ReferencePriceCalculation } from './symbol-config.ts';
import type { SymbolSpec } from './symbol-spec.ts';
import { computeStateHash } from './state-hash.ts';
import type { SymbolStatus } from './types.ts';
import type { OrderList } from './order-lists/order-list.ts';
import { forEachMergedLevel } from './liquidity/merged-levels.ts';
import { DepthBook, type DepthBookMode } from './liquidity/depth-book.ts';
import { checkInvariants } from './check-invariants.ts';
import {
  commissionRatesOf,
  futuresAccountView,
  futuresBracketViews,
  futuresIncomeViews,
  futuresOrderInfoView,
  futuresPositionViews,
  futuresSettingsView,
  insuranceFundViews,
  marginAssetsOf,
  markPriceView,
  positionModeOf,
} from './futures/futures-queries.ts';
import type {
  FuturesAccountView,
  FuturesBracketView,
  FuturesIncomeView,
  FuturesOrderInfoView,
  FuturesPositionView,
  FuturesSymbolSettingsView,
  IncomeType,
  MarkPriceView,
} from './futures/futures-views.ts';
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

function listView(list: OrderList): OrderListView {
  // The snapshot's fields then transactionTime, written out (an object spread per query cost more than the rest of it).
  return {
    symbol: list.symbol,
    orderListId: list.orderListId,
    accountId: list.accountId,
    kind: list.kind,
    contingencyType: list.contingencyType,
    listStatusType: list.listStatusType,
    listOrderStatus: list.listOrderStatus,
    listClientOrderId: list.listClientOrderId,
    orders: list.orderIds.map((orderId, i) => ({ orderId, clientOrderId: list.clientOrderIds[i] as string })),
    transactionTime: list.transactionTime,
  };
}

/** One side of `depth`: aggregated live levels (users' and the synthetic book's), best first, at most `limit` (<= 5000). */
function depthSide(s: SymbolState, isBid: boolean, limit: number): [number, number][] {
  const { tickUnits, stepUnits } = s.spec;
  const out: [number, number][] = [];
  forEachMergedLevel(s, isBid, Math.min(limit, 5000), (ticks, steps) => {
    out.push([ticks * tickUnits, steps * stepUnits]);
  });
  return out;
}

export class EngineQueries {
  constructor(protected state: EngineState) {}

  get config(): EngineConfig {
    return this.state.config;
  }

  /** Commands applied so far: the book's update id for market data (grows with every change). */
  get sequence(): number {
    return this.state.sequence;
  }

  /** Time of the last applied command (µs). */
  get time(): number {
    return this.state.lastTime;
  }

  symbolNames(): readonly string[] {
    return this.state.symbolList.map((s) => s.spec.symbol);
  }

  symbolSpec(symbol: string): SymbolSpec | undefined {
    return this.state.symbols.get(symbol)?.spec;
  }

  symbolStatus(symbol: string): SymbolStatus | undefined {
    return this.state.symbols.get(symbol)?.status;
  }

  /**
   * Why `command` would be refused if applied now, or null; funds are not checked. Changes
   * nothing and emits nothing (POST /api/v3/order/test).
   */
  placementRefusal(command: PlaceOrder): RejectReason | null {
    return placementRefusal(this.state, command);
  }

  /**
   * The symbol's reference price at `now` (default: the last command's time): one set from
   * outside, else the engine's arithmetic mean when configured, else null.
   */
  referencePrice(symbol: string, now: number = this.state.lastTime): number | null {
    return this.state.symbols.get(symbol)?.referencePriceAt(now) ?? null;
  }

  /**
   * How the symbol's reference price is calculated (GET /api/v3/referencePrice/calculation):
   * EXTERNAL (method 0, set by an operator) while one is set from outside, else the configured
   * calculation; null when the symbol has none.
   */
  referencePriceCalculation(symbol: string): ReferencePriceCalculation | null {
    const s = this.state.symbols.get(symbol);
    if (!s) return null;
    if (s.referencePrice !== null) return { calculationType: 'EXTERNAL', externalCalculationId: 0 };
    return s.spec.referencePriceCalculation;
  }

  /** The symbol's execution rules as configured (GET /api/v3/executionRules). */
  executionRules(symbol: string): readonly PriceRangeRule[] {
    const s = this.state.symbols.get(symbol);
    return s ? (this.state.config.symbols[s.spec.index]?.executionRules ?? []) : [];
  }

  accountIds(): readonly number[] {
    return [...this.state.accounts.keys()];
  }

  account(accountId: number): AccountView | undefined {
    const state = this.state;
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
    const s = this.state.symbols.get(symbol);
    const account = this.state.accounts.get(accountId);
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

  /**
   * getOrder(accountId, symbol, { orderId })?.executedQty without the record and view getOrder
   * builds (two objects of ~30 fields): the facade asks it for both orders of every fill.
   */
  executedQty(accountId: number, symbol: string, orderId: number): number | undefined {
    const s = this.state.symbols.get(symbol);
    if (!s || !this.state.accounts.get(accountId) || !Number.isSafeInteger(orderId) || s.accountIdOf(orderId) !== accountId) return undefined;
    const steps = s.executedStepsOf(orderId);
    return steps === undefined ? undefined : steps * s.spec.stepUnits;
  }

  /** Open orders of an account, one symbol or all, by symbol then orderId. */
  openOrders(accountId: number, symbol?: string): OrderView[] {
    const account = this.state.accounts.get(accountId);
    if (!account) return [];
    const symbols = symbol === undefined ? this.state.symbolList : [this.state.symbols.get(symbol)].filter((s) => s !== undefined);
    const out: OrderView[] = [];
    for (const s of symbols) {
      for (const order of s.openOrdersOf(account)) out.push(this.#view(s, recordOf(order)));
    }
    return out;
  }

  /** Every order (open and closed) of an account on a symbol, by orderId. */
  allOrders(accountId: number, symbol: string): OrderView[] {
    const s = this.state.symbols.get(symbol);
    const account = this.state.accounts.get(accountId);
    if (!s || !account) return [];
    const out: OrderView[] = [];
    for (let orderId = 1; orderId < s.nextOrderId; orderId++) {
      if (s.accountIdOf(orderId) === accountId) out.push(this.#view(s, s.record(orderId)!));
    }
    return out;
  }

  accountTrades(accountId: number, symbol: string): AccountTradeView[] {
    const s = this.state.symbols.get(symbol);
    const account = this.state.accounts.get(accountId);
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
      commissionAsset: this.state.assetNames[t.commissionAsset] as string,
      time: t.time,
      isBuyer: t.isBuyer,
      isMaker: t.isMaker,
      isBestMatch: true,
    }));
  }

  /** SOR allocations of an account on a symbol, oldest first. */
  allocations(accountId: number, symbol: string): AllocationView[] {
    const s = this.state.symbols.get(symbol);
    const account = this.state.accounts.get(accountId);
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
      commissionAsset: this.state.assetNames[a.commissionAsset] as string,
      time: a.time,
      isBuyer: a.isBuyer,
      isMaker: false,
      isAllocator: false,
    }));
  }

  preventedMatches(accountId: number, symbol: string): PreventedMatchView[] {
    const s = this.state.symbols.get(symbol);
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
    const state = this.state;
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
    for (const l of this.state.orderLists.values()) if (l.accountId === accountId) out.push(listView(l));
    return out;
  }

  /** The account's lists still executing, by orderListId. */
  openOrderLists(accountId: number): OrderListView[] {
    const out: OrderListView[] = [];
    for (const l of this.state.orderLists.values()) if (l.accountId === accountId && l.isOpen) out.push(listView(l));
    return out;
  }

  /** Amend keepPriority history of one order of the account, oldest first. */
  orderAmendments(accountId: number, symbol: string, orderId: number): AmendmentView[] {
    const s = this.state.symbols.get(symbol);
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
    const s = this.state.symbols.get(symbol);
    if (!s) return [];
    const out: OrderView[] = [];
    s.book.side(side === 'BUY').forEachLive((level) => {
      for (let o = level.head; o !== null; o = o.next) out.push(this.#view(s, recordOf(o)));
    });
    return out;
  }

  /**
   * The resting orders of one side of a book in priority order, as the fields a replay's book
   * mirror keeps: price in units and the base units still open (origQty - executedQty -
   * preventedQuantity of bookOrders' views). Builds no view: the mirror reads the book after
   * every strategy command, and two 30-field objects per resting order were a tenth of a grid
   * backtest's allocations.
   */
  forEachRestingOrder(symbol: string, side: 'BUY' | 'SELL', visit: (orderId: number, accountId: number, price: number, remaining: number) => void): void {
    const s = this.state.symbols.get(symbol);
    if (!s) return;
    const { tickUnits, stepUnits } = s.spec;
    s.book.side(side === 'BUY').forEachLive((level) => {
      for (let o = level.head; o !== null; o = o.next) visit(o.orderId, o.account.accountId, o.priceTicks * tickUnits, (o.origSteps - o.executedSteps - o.preventedSteps) * stepUnits);
    });
  }

  /** Aggregated levels, best first, at most `limit` (<= 5000) a side. */
  depth(symbol: string, limit: number): DepthView {
    const s = this.state.symbols.get(symbol);
    if (!s) return { bids: [], asks: [] };
    return { bids: depthSide(s, true, limit), asks: depthSide(s, false, limit) };
  }

  bookTicker(symbol: string): BookTickerView | undefined {
    const s = this.state.symbols.get(symbol);
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

  /**
   * The depth book's own size at `price` (price units) on a side, in base units: 0 when the level
   * is absent or taken out, or the symbol has no depth book. Users' orders are not counted.
   */
  depthLevel(symbol: string, isBid: boolean, price: number): number {
    const s = this.state.symbols.get(symbol);
    const book = s?.liquidity;
    if (!(book instanceof DepthBook)) return 0;
    return book.stepsAtPrice(isBid, price / s!.spec.tickUnits) * s!.spec.stepUnits;
  }

  /** Base units of the depth book's `isBid` side at or through `price` (bids at or above, asks at or below); 0 without a depth book. */
  depthCrossing(symbol: string, isBid: boolean, price: number): number {
    const s = this.state.symbols.get(symbol);
    const book = s?.liquidity;
    if (!(book instanceof DepthBook)) return 0;
    return book.crossingSteps(isBid, Math.floor(price / s!.spec.tickUnits)) * s!.spec.stepUnits;
  }

  /** The depth book's own best prices (price units, 0 for an empty side), users' orders not merged; null without a depth book. */
  depthTop(symbol: string): { readonly bid: number; readonly ask: number } | null {
    const s = this.state.symbols.get(symbol);
    const book = s?.liquidity;
    if (!(book instanceof DepthBook)) return null;
    return { bid: book.bestBidTicks() * s!.spec.tickUnits, ask: book.bestAskTicks() * s!.spec.tickUnits };
  }

  /** What a symbol's depth book is and has done (null without one): its mode, messages applied, stale levels dropped, levels held. */
  depthBookStats(symbol: string): { readonly mode: DepthBookMode; readonly messages: number; readonly repairs: number; readonly bidLevels: number; readonly askLevels: number } | null {
    const book = this.state.symbols.get(symbol)?.liquidity;
    if (!(book instanceof DepthBook)) return null;
    return { mode: book.mode, messages: book.messages, repairs: book.repairs, bidLevels: book.levelCount(true), askLevels: book.levelCount(false) };
  }

  lastTrade(symbol: string): MarketTradeView | undefined {
    const s = this.state.symbols.get(symbol);
    if (!s?.lastTrade) return undefined;
    return this.#tradeView(s.lastTrade);
  }

  /** The most recent trades (up to 1000), oldest first. */
  recentTrades(symbol: string, limit: number): MarketTradeView[] {
    const s = this.state.symbols.get(symbol);
    if (!s) return [];
    const ring = s.recentTrades;
    const ordered = ring.length < 1000 ? ring : [...ring.slice(s.recentHead), ...ring.slice(0, s.recentHead)];
    return ordered.slice(Math.max(0, ordered.length - limit)).map((t) => this.#tradeView(t));
  }

  /** Commissions collected by the exchange per asset, in asset units. */
  feesCollected(): Readonly<Record<string, number>> {
    const state = this.state;
    return Object.fromEntries(state.assetNames.map((name, i) => [name, state.fees[i] as number]));
  }

  /** Net value brought in per asset by CreateAccount and AdjustBalance (conservation baseline). */
  totalDeposited(): Readonly<Record<string, number>> {
    const state = this.state;
    return Object.fromEntries(state.assetNames.map((name, i) => [name, state.deposited[i] as number]));
  }

  /** SHA-256 hex of a canonical serialization of the whole state. */
  stateHash(): string {
    return computeStateHash(this.state);
  }

  /** Throws if an internal invariant is broken (crossed book, level totals, locked funds, ...); see check-invariants.ts. */
  checkInvariants(): void {
    checkInvariants(this.state);
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

  // ---- USDⓈ-M futures (docs/usdm-futures.md). Engine names: symbols `um:BTCUSDT`, assets `um:USDT`. ----

  /** Whether `symbol` is a margin (futures) symbol. */
  isMarginSymbol(symbol: string): boolean {
    return (this.state.symbols.get(symbol)?.margin ?? null) !== null;
  }

  /** The futures wallet assets of the configured margin symbols (`um:USDT`, ...), config order. */
  futuresAssets(): string[] {
    return marginAssetsOf(this.state).map((a) => this.state.assetNames[a] as string);
  }

  /** One margin asset of an account (`asset` is the wallet asset, e.g. `um:USDT`); undefined if unknown. */
  futuresAccount(accountId: number, asset: string): FuturesAccountView | undefined {
    return futuresAccountView(this.state, accountId, asset);
  }

  /** Every margin asset of an account, config order (GET /fapi/v3/balance, /fapi/v3/account assets). */
  futuresBalances(accountId: number): FuturesAccountView[] {
    return this.futuresAssets().flatMap((asset) => futuresAccountView(this.state, accountId, asset) ?? []);
  }

  /** Positions (one-way: a BOTH row per margin symbol; hedge: LONG and SHORT), flat ones included. */
  futuresPositions(accountId: number, symbol?: string): FuturesPositionView[] {
    return futuresPositionViews(this.state, accountId, symbol);
  }

  /** The account's position mode (GET /fapi/v1/positionSide/dual). */
  futuresPositionMode(accountId: number): 'ONE_WAY' | 'HEDGE' {
    return positionModeOf(this.state, accountId);
  }

  /** Leverage, margin type and max notional of an account on a margin symbol (GET /fapi/v1/symbolConfig). */
  futuresSymbolSettings(accountId: number, symbol: string): FuturesSymbolSettingsView | undefined {
    return futuresSettingsView(this.state, accountId, symbol);
  }

  /** The leverage brackets of a margin symbol (GET /fapi/v1/leverageBracket). */
  futuresBrackets(symbol: string): FuturesBracketView[] | undefined {
    return futuresBracketViews(this.state, symbol);
  }

  /** Income rows of an account, oldest first (GET /fapi/v1/income). */
  futuresIncome(accountId: number, filter?: { symbol?: string; incomeType?: IncomeType; startTime?: number; endTime?: number }): FuturesIncomeView[] {
    return futuresIncomeViews(this.state, accountId, filter);
  }

  /** The insurance fund per margin asset. */
  futuresInsuranceFund(): { asset: string; balance: number }[] {
    return insuranceFundViews(this.state);
  }

  /** Mark, index and last funding rate of a margin symbol (GET /fapi/v1/premiumIndex). */
  futuresMarkPrice(symbol: string): MarkPriceView | undefined {
    return markPriceView(this.state, symbol);
  }

  /** Maker / taker commission rates (1e-8) the account pays on a margin symbol. */
  futuresCommissionRates(accountId: number, symbol: string): { maker: number; taker: number } | undefined {
    return commissionRatesOf(this.state, accountId, symbol);
  }

  /** positionSide / reduceOnly / postOnly / goodTillTime (GTD) / liquidation (a system close) of a margin order, open or closed. */
  futuresOrderInfo(symbol: string, orderId: number): FuturesOrderInfoView | undefined {
    return futuresOrderInfoView(this.state, symbol, orderId);
  }
}
