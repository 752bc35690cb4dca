/**
 * Everything the engine knows, in one place, so that each step of command handling is a plain
 * function of (state, command). No field is iterated in an order that depends on anything but
 * the command stream: maps are keyed by ids assigned in command order and read in that order.
 */
import type { Account } from './accounts/account.ts';
import { OrderBook } from './book/order-book.ts';
import type { EngineCommand } from './commands.ts';
import type { EngineEvent } from './events.ts';
import type { RejectReason } from './reject-reason.ts';
import { LiveOrders } from './live-orders.ts';
import type { Order } from './order.ts';
import type { OrderList } from './order-lists/order-list.ts';
import { OrderArchive, recordOf, type OrderRecord } from './order-archive.ts';
import { PriceBandCache } from './filters/check-order-filters.ts';
import { TradeWindow } from './reference-price.ts';
import { BucketedMean } from './reference-price-buckets.ts';
import type { AssetConfig, AssetFilter, EngineConfig, ExchangeFilter } from './symbol-config.ts';
import { compileSymbol, type SymbolSpec } from './symbol-spec.ts';
import type { LiquiditySource } from './liquidity/liquidity-source.ts';
import { FuturesState, MarginSymbol } from './futures/futures-state.ts';
import type { SelfTradePreventionMode, SymbolStatus } from './types.ts';
import { parseUnitsOrThrow } from './units.ts';

/** A trade on the symbol's tape: the engine's own, or one recorded from the market (replay). */
export interface MarketTradeRecord {
  tradeId: number;
  /** Price units (quote units per whole base). */
  price: number;
  /** Base units. */
  qty: number;
  quote: number;
  time: number;
  isBuyerMaker: boolean;
}

export interface PreventedMatchRecord {
  preventedMatchId: number;
  takerOrderId: number;
  makerOrderId: number;
  takerAccountId: number;
  makerAccountId: number;
  tradeGroupId: number;
  mode: SelfTradePreventionMode;
  priceTicks: number;
  takerPreventedSteps: number;
  makerPreventedSteps: number;
  time: number;
}

export interface AmendmentRecord {
  orderId: number;
  accountId: number;
  executionId: number;
  origClientOrderId: string;
  newClientOrderId: string;
  origSteps: number;
  newSteps: number;
  time: number;
}

/** Account ids below this are also found through a dense array (EngineState.account). */
const ACCOUNT_ARRAY_LIMIT = 1 << 16;

/** How many recent market trades each symbol keeps for queries (the API's max limit). */
export const RECENT_TRADES_KEPT = 1000;

export class SymbolState {
  status: SymbolStatus;
  readonly book = new OrderBook();
  /** The market's own liquidity beside the users' orders (liquidity/: a synthetic ladder or a depth book), or null. */
  liquidity: LiquiditySource | null = null;
  /** Open orders by orderId (once closed, the archive holds them). */
  readonly live = new LiveOrders();
  /** Open orders per account slot (MAX_NUM_ORDERS); kept on the symbol, where it is hot. */
  readonly openByAccount: number[] = [];
  /** Per account slot: may the account trade this symbol (permission sets), once computed. */
  readonly permitted: (boolean | undefined)[] = [];
  readonly archive: OrderArchive;
  nextOrderId = 1;
  nextTradeId = 1;
  nextPreventedMatchId = 0;
  /** SOR allocation ids (per symbol, from 0 as in the FAQ's examples). */
  nextAllocationId = 0;
  /** The reference price set from outside (EXTERNAL calculation), or null. */
  referencePrice: number | null = null;
  /** The engine's own reference price (ARITHMETIC_MEAN calculation), when configured. */
  readonly meanReference: BucketedMean | null;
  readonly window: TradeWindow;
  /** Ring of the most recent trades (oldest overwritten first). */
  readonly recentTrades: MarketTradeRecord[] = [];
  recentHead = 0;
  tradeCount = 0;
  lastTrade: MarketTradeRecord | null = null;
  readonly preventedMatches: PreventedMatchRecord[] = [];
  readonly baseAsset: number;
  readonly quoteAsset: number;
  /** Open stop / take-profit orders per account slot (MAX_NUM_ALGO_ORDERS). */
  readonly algoByAccount: number[] = [];
  /** Open iceberg orders per account slot (MAX_NUM_ICEBERG_ORDERS). */
  readonly icebergByAccount: number[] = [];
  /** Open order lists per account slot (MAX_NUM_ORDER_LISTS). */
  readonly listsByAccount: number[] = [];
  /**
   * Stops waiting for their trigger, in acceptance order. Every trade on the symbol is checked
   * against them after the command that made it (contingency.ts).
   */
  stops: Order[] = [];
  /** Trade prices since the stops were last checked (collected only while stops wait). */
  tradePrices: number[] = [];
  /** List legs that filled or closed since their lists last reacted. */
  listActivity: Order[] = [];
  /** Amend keepPriority records, in order. */
  readonly amendments: AmendmentRecord[] = [];
  /** Execution ids handed to amendments (per symbol, rising). */
  nextExecutionId = 1;
  /** PERCENT_PRICE / PERCENT_PRICE_BY_SIDE bands, recomputed only when the reference moves. */
  readonly percentPriceBands = new PriceBandCache();
  readonly percentPriceBySideBands = new PriceBandCache();
  /**
   * A margin (futures) symbol's contract and mark (engine/futures), null for spot. The one kind
   * check: settlement, reservation and placement choose the futures path when it is set.
   */
  margin: MarginSymbol | null = null;

  constructor(readonly spec: SymbolSpec, baseAsset: number, quoteAsset: number) {
    this.status = spec.initialStatus;
    const calc = spec.referencePriceCalculation;
    this.meanReference = calc?.calculationType === 'ARITHMETIC_MEAN' ? new BucketedMean(calc.bucketCount, calc.bucketWidthMs) : null;
    this.archive = new OrderArchive(spec.index);
    this.baseAsset = baseAsset;
    this.quoteAsset = quoteAsset;
    this.window = new TradeWindow(spec.basePrecision, [
      5,
      spec.percentPrice?.avgPriceMins ?? 0,
      spec.percentPriceBySide?.avgPriceMins ?? 0,
      spec.minNotional?.avgPriceMins ?? 0,
      spec.notional?.avgPriceMins ?? 0,
    ]);
  }

  openCountOf(account: Account): number {
    return this.openByAccount[account.slot] ?? 0;
  }

  /** The account's open orders on this symbol, by orderId. */
  openOrdersOf(account: Account): Order[] {
    return this.live.filter((order) => order.account === account);
  }

  /** Any order ever accepted, open or closed, as a record. */
  record(orderId: number): OrderRecord | undefined {
    const open = this.live.get(orderId);
    return open ? recordOf(open) : this.archive.get(orderId);
  }

  /** Executed steps of an order, open or closed, without building its record; undefined if there is none. */
  executedStepsOf(orderId: number): number | undefined {
    const open = this.live.get(orderId);
    if (open) return open.executedSteps;
    return this.archive.has(orderId) ? this.archive.executedStepsOf(orderId) : undefined;
  }

  accountIdOf(orderId: number): number | undefined {
    const open = this.live.get(orderId);
    if (open) return open.account.accountId;
    return this.archive.has(orderId) ? this.archive.accountIdOf(orderId) : undefined;
  }

  clientOrderIdOf(orderId: number): string | undefined {
    const open = this.live.get(orderId);
    if (open) return open.clientOrderId;
    return this.archive.has(orderId) ? this.archive.clientOrderIdOf(orderId) : undefined;
  }

  /**
   * The symbol's reference price at `now` (price units): one set from outside wins, else the
   * engine's arithmetic mean when configured; null when there is none.
   */
  referencePriceAt(now: number): number | null {
    if (this.referencePrice !== null) return this.referencePrice;
    return this.meanReference === null ? null : this.meanReference.average(now);
  }

  /** Quote units of `steps` at `ticks`, floored to the quote precision. */
  notional(ticks: number, steps: number): number {
    const spec = this.spec;
    const p = ticks * steps * spec.notionalNum;
    if (p <= Number.MAX_SAFE_INTEGER && spec.notionalDen === 1) return p;
    return notionalExact(ticks, steps, spec.notionalNum, spec.notionalDen);
  }

  /** Symbols with contingent work queued (shared with the engine state; see markDirty). */
  dirtyList: SymbolState[] = [];
  isDirty = false;

  /** Queues this symbol for the contingency pass that ends the current command. */
  markDirty(): void {
    if (!this.isDirty) {
      this.isDirty = true;
      this.dirtyList.push(this);
    }
  }

  /**
   * `recordTrade` of a recorded print (record-market-trade.ts), without a record made per print:
   * once the ring of recent trades is full, its oldest record is rewritten in place (nothing else
   * holds a record: the views copy them). `checkStops` false: the caller knows the price reaches no
   * waiting stop (a quiet print).
   */
  recordPrintTrade(tradeId: number, price: number, qty: number, quote: number, time: number, isBuyerMaker: boolean, checkStops: boolean): void {
    const ring = this.recentTrades;
    if (ring.length < RECENT_TRADES_KEPT) return this.recordTrade({ tradeId, price, qty, quote, time, isBuyerMaker }, checkStops);
    if (checkStops && this.stops.length !== 0) {
      this.tradePrices.push(price);
      this.markDirty();
    }
    const trade = ring[this.recentHead]!;
    trade.tradeId = tradeId;
    trade.price = price;
    trade.qty = qty;
    trade.quote = quote;
    trade.time = time;
    trade.isBuyerMaker = isBuyerMaker;
    this.recentHead = (this.recentHead + 1) % RECENT_TRADES_KEPT;
    this.lastTrade = trade;
    this.tradeCount += 1;
    if (this.meanReference !== null) this.meanReference.record(time, price);
  }

  recordTrade(trade: MarketTradeRecord, checkStops = true): void {
    if (checkStops && this.stops.length !== 0) {
      this.tradePrices.push(trade.price);
      this.markDirty();
    }
    this.lastTrade = trade;
    this.tradeCount += 1;
    if (this.meanReference !== null) this.meanReference.record(trade.time, trade.price);
    if (this.recentTrades.length < RECENT_TRADES_KEPT) this.recentTrades.push(trade);
    else {
      this.recentTrades[this.recentHead] = trade;
      this.recentHead = (this.recentHead + 1) % RECENT_TRADES_KEPT;
    }
  }
}

function notionalExact(ticks: number, steps: number, num: number, den: number): number {
  const p = ticks * steps * num;
  if (p <= Number.MAX_SAFE_INTEGER) {
    let q = Math.floor(p / den);
    if (q * den > p) q -= 1;
    return q;
  }
  const big = (BigInt(ticks) * BigInt(steps) * BigInt(num)) / BigInt(den);
  if (big > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`notional ${big} exceeds the safe integer range`);
  return Number(big);
}

export interface CompiledExchangeFilters {
  maxNumOrders: number | null;
  maxNumAlgoOrders: number | null;
  maxNumIcebergOrders: number | null;
  maxNumOrderLists: number | null;
}

export interface CompiledAssetFilter {
  asset: number;
  limit: number;
}

export class EngineState {
  /**
   * Commands applied so far (refused ones too). Not part of the state hash: it numbers the
   * book's updates for market data (REST depth's lastUpdateId, the diff-depth stream's U/u),
   * where ids only have to grow with every change.
   */
  sequence = 0;
  readonly symbols = new Map<string, SymbolState>();
  readonly symbolList: SymbolState[] = [];
  readonly accounts = new Map<number, Account>();
  /**
   * The same accounts by id as a dense array, for ids below ACCOUNT_ARRAY_LIMIT (the usual case):
   * every command looks its account up, and an array read is a fraction of a Map's hashed lookup.
   * Derived from `accounts` (rebuilt on snapshot import), so it is not state.
   */
  #accountById: (Account | undefined)[] = [];
  /** The symbol the previous lookup found: commands come in runs on one symbol. */
  #lastSymbolName: string | null = null;
  #lastSymbol: SymbolState | undefined = undefined;
  readonly assetNames: string[] = [];
  readonly assetPrecision: number[] = [];
  readonly #assetIndex = new Map<string, number>();
  readonly #assetConfig: ReadonlyMap<string, AssetConfig>;
  /** Commission collected per asset index. */
  readonly fees: number[] = [];
  /** Net deposits per asset index (CreateAccount + AdjustBalance). */
  readonly deposited: number[] = [];
  readonly exchangeFilters: CompiledExchangeFilters;
  /**
   * While an order list's legs are checked: how many legs (and of them stops and icebergs) were
   * checked before the current one, so the count filters see the whole list. 0 otherwise.
   */
  ordersAhead = 0;
  algoAhead = 0;
  icebergAhead = 0;
  /** Symbols whose stops or lists have work queued by the current command (contingency.ts). */
  readonly dirty: SymbolState[] = [];
  /** Every order list ever placed, by orderListId (ids rise in placement order). */
  readonly orderLists = new Map<number, OrderList>();
  nextOrderListId = 0;
  readonly assetFilters: CompiledAssetFilter[] = [];
  readonly config: EngineConfig;
  /** Output buffer of the command being applied. */
  /** Events of the command being applied; null until the first (most commands emit one). */
  events: EngineEvent[] | null = null;
  /** Time of the last applied command: time never runs backwards. */
  lastTime = 0;
  /** Positions, futures settings and insurance funds; null when no margin symbol is configured. */
  futures: FuturesState | null = null;

  constructor(config: EngineConfig) {
    this.config = config;
    this.#assetConfig = new Map((config.assets ?? []).map((a) => [a.asset, a]));
    for (const a of config.assets ?? []) this.assetIndex(a.asset);
    config.symbols.forEach((symbolConfig, index) => {
      if (this.symbols.has(symbolConfig.symbol)) throw new Error(`symbol ${symbolConfig.symbol} configured twice`);
      const spec = compileSymbol(symbolConfig, index, this.#assetConfig);
      const state = new SymbolState(spec, this.assetIndex(spec.baseAsset), this.assetIndex(spec.quoteAsset));
      state.dirtyList = this.dirty;
      if (symbolConfig.contract !== undefined) {
        if (symbolConfig.contract.marginAsset !== symbolConfig.quoteAsset) {
          throw new Error(`margin symbol ${symbolConfig.symbol}: quoteAsset must be the margin asset ${symbolConfig.contract.marginAsset}`);
        }
        state.margin = new MarginSymbol(symbolConfig.contract, state.quoteAsset, spec.quotePrecision, spec.basePrecision);
        this.futures ??= new FuturesState();
        this.futures.marginSymbols.push(index);
      }
      this.symbols.set(spec.symbol, state);
      this.symbolList.push(state);
    });
    this.exchangeFilters = compileExchangeFilters(config.exchangeFilters ?? []);
    for (const f of config.assetFilters ?? []) {
      const asset = this.assetIndex(f.asset);
      this.assetFilters.push({ asset, limit: parseUnitsOrThrow(f.limit, this.assetPrecision[asset] as number, `MAX_ASSET ${f.asset}`) });
    }
  }

  /**
   * Snapshot support (snapshot/engine-snapshot.ts): the public fields (the private asset index
   * and asset config follow from `assetNames` and `config`).
   */
  exportFields(): Record<string, unknown> {
    return Object.assign({}, this) as Record<string, unknown>;
  }

  static importFields(fields: Record<string, unknown>): EngineState {
    const state = new EngineState(fields['config'] as EngineConfig);
    for (const name of fields['assetNames'] as string[]) state.assetIndex(name);
    Object.assign(state, fields);
    state.#lastSymbolName = null;
    state.#lastSymbol = undefined;
    for (const account of state.accounts.values()) state.#indexAccount(account);
    return state;
  }

  /** The account with this id, or undefined (what `accounts.get` answers, faster). */
  account(accountId: number): Account | undefined {
    const byId = this.#accountById;
    if (accountId >= 0 && accountId < byId.length) {
      const account = byId[accountId];
      if (account !== undefined) return account;
    }
    return this.accounts.get(accountId);
  }

  /** Registers a new account (CreateAccount). */
  addAccount(account: Account): void {
    this.accounts.set(account.accountId, account);
    this.#indexAccount(account);
  }

  #indexAccount(account: Account): void {
    const id = account.accountId;
    if (!(Number.isSafeInteger(id) && id >= 0 && id < ACCOUNT_ARRAY_LIMIT)) return;
    const byId = this.#accountById;
    // Filled with undefined up to the id, never with holes: the array stays a fast packed one.
    while (byId.length <= id) byId.push(undefined);
    byId[id] = account;
  }

  /** The symbol with this name, or undefined (what `symbols.get` answers, faster on a repeat). */
  symbol(name: string): SymbolState | undefined {
    if (name === this.#lastSymbolName) return this.#lastSymbol;
    const symbol = this.symbols.get(name);
    if (symbol !== undefined) {
      this.#lastSymbolName = name;
      this.#lastSymbol = symbol;
    }
    return symbol;
  }

  /** Index of an asset, registering it (precision from config, else 8) on first use. */
  assetIndex(name: string): number {
    let index = this.#assetIndex.get(name);
    if (index === undefined) {
      index = this.assetNames.length;
      this.#assetIndex.set(name, index);
      this.assetNames.push(name);
      this.assetPrecision.push(this.#assetConfig.get(name)?.precision ?? 8);
      this.fees.push(0);
      this.deposited.push(0);
    }
    return index;
  }

  /** The precision an asset has or would have once registered (config, else 8). */
  precisionOf(name: string): number {
    const index = this.#assetIndex.get(name);
    return index !== undefined ? (this.assetPrecision[index] as number) : (this.#assetConfig.get(name)?.precision ?? 8);
  }

  findAsset(name: string): number | undefined {
    return this.#assetIndex.get(name);
  }

  /** Refuses `command` with `reason`: its one event; the caller must have changed nothing. */
  reject(command: EngineCommand, reason: RejectReason): void {
    this.emit({
      type: 'OrderRejected',
      time: command.time,
      command: command.type,
      accountId: 'accountId' in command ? command.accountId : null,
      symbol: 'symbol' in command ? command.symbol : null,
      reason,
    });
  }

  emit(event: EngineEvent): void {
    // A one-element literal has exactly the capacity most commands need.
    if (this.events === null) this.events = [event];
    else this.events.push(event);
  }
}

function compileExchangeFilters(filters: readonly ExchangeFilter[]): CompiledExchangeFilters {
  const out: CompiledExchangeFilters = { maxNumOrders: null, maxNumAlgoOrders: null, maxNumIcebergOrders: null, maxNumOrderLists: null };
  for (const f of filters) {
    switch (f.filterType) {
      case 'EXCHANGE_MAX_NUM_ORDERS':
        out.maxNumOrders = f.maxNumOrders;
        break;
      case 'EXCHANGE_MAX_NUM_ALGO_ORDERS':
        out.maxNumAlgoOrders = f.maxNumAlgoOrders;
        break;
      case 'EXCHANGE_MAX_NUM_ICEBERG_ORDERS':
        out.maxNumIcebergOrders = f.maxNumIcebergOrders;
        break;
      case 'EXCHANGE_MAX_NUM_ORDER_LISTS':
        out.maxNumOrderLists = f.maxNumOrderLists;
        break;
    }
  }
  return out;
}

export type { AssetFilter };
