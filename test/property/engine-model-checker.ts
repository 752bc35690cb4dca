/**
 * A model that runs beside the real engine: it applies each command to the engine, replays the
 * returned events into a small independent model (order statuses and fill sums, per-account
 * asset totals, fees, deposits), and after every step compares the engine's queries against the
 * model and against the exchange rules in binance-facts §5.2-5.4, §5.8 and §5.16.
 *
 * The model deliberately does not re-implement matching. It checks what any correct matcher must
 * satisfy: price-time priority against a snapshot of the book taken before the command, legal
 * status transitions, exact notional flooring, commission bounds, funds locked for exactly what
 * each open order still needs, and conservation of every asset to the last unit.
 *
 * A violation throws `InvariantViolation` with the step, the command and the events, so that the
 * shrunk counterexample fast-check prints comes with the reason it failed.
 */
import type { CommissionRates, CreateAccount, EngineCommand, OrderRequest, PlaceOrder } from '../../src/engine/commands.ts';
import type { Engine } from '../../src/engine/engine.ts';
import type {
  CancelReplaceCompleted,
  EngineEvent,
  MatchPrevented,
  OrderAccepted,
  OrderActivated,
  OrderAmended,
  OrderExpired,
  OrderFilledByMarket,
  OrderListUpdated,
  OrderTriggered,
  TradeExecuted,
  TrailingStarted,
} from '../../src/engine/events.ts';
import type { SymbolSpec } from '../../src/engine/symbol-spec.ts';
import type {
  ExpiryReason,
  OrderListKind,
  OrderStatus,
  OrderType,
  SelfTradePreventionMode,
  Side,
  SymbolStatus,
  TimeInForce,
} from '../../src/engine/types.ts';
import { CONDITIONAL_TYPES, TERMINAL_STATUSES } from '../../src/engine/types.ts';
import type { OrderView } from '../../src/engine/views.ts';

export class InvariantViolation extends Error {
  override name = 'InvariantViolation';
}

interface ModelOrder {
  key: string;
  symbol: string;
  orderId: number;
  accountId: number;
  side: Side;
  orderType: OrderType;
  timeInForce: TimeInForce;
  price: number;
  origQty: number;
  quoteOrderQty: number;
  clientOrderId: string;
  stp: SelfTradePreventionMode;
  status: OrderStatus;
  executedQty: number;
  cumQuote: number;
  preventedQty: number;
  everPrevented: boolean;
  /** MARKET by quoteOrderQty: quote amount consumed by DECREMENT / TRANSFER prevention. */
  quoteConsumed: number;
  /** On the book or matching (OrderAccepted isWorking, then OrderTriggered / OrderActivated). */
  working: boolean;
  /** A stop or take-profit type (waits for its trigger until OrderTriggered). */
  conditional: boolean;
  triggered: boolean;
  trailingStarted: boolean;
  stopPrice: number;
  trailingDelta: number;
  /** icebergQty as requested (0: not an iceberg). */
  icebergQty: number;
  pegged: boolean;
  /** False while a pegged stop-limit's price is still to come from the book at its trigger. */
  priceKnown: boolean;
  /** Arrival on the book (acceptance, trigger or activation), for FIFO within a level. */
  arrival: number;
  expiryReason: ExpiryReason;
  /** Its list, or null; role is the leg index in the list. */
  listId: number | null;
  role: number;
}

interface ModelList {
  orderListId: number;
  kind: OrderListKind;
  symbol: string;
  accountId: number;
  listClientOrderId: string;
  legs: string[];
  clientOrderIds: string[];
  done: boolean;
}

/** The request behind each OrderAccepted a command may emit, in order. */
interface ExpectedAcceptance {
  request: OrderRequest;
  /** -1 unless a list leg. */
  role: number;
  kind: OrderListKind | null;
}

/** Legs of an order list that form an OCO pair (the roles). */
function ocoPairRoles(kind: OrderListKind): readonly number[] | null {
  return kind === 'OCO' ? [0, 1] : kind === 'OTOCO' || kind === 'OPOCO' ? [1, 2] : null;
}

/** The stop condition of binance-facts §5.5: STOP_LOSS BUY and TAKE_PROFIT SELL wait for the price to rise to the stop. */
function triggerHolds(type: OrderType, side: Side, stopPrice: number, price: number): boolean {
  const above = (type === 'STOP_LOSS' || type === 'STOP_LOSS_LIMIT') === (side === 'BUY');
  return above ? price >= stopPrice : price <= stopPrice;
}

/** Types that may rest on the book (a stop-limit once triggered). */
function canRest(type: OrderType): boolean {
  return type === 'LIMIT' || type === 'LIMIT_MAKER' || type === 'STOP_LOSS_LIMIT' || type === 'TAKE_PROFIT_LIMIT';
}

/** Types that trade with a limit price. */
function hasLimit(type: OrderType): boolean {
  return canRest(type);
}

/** Types that execute as a MARKET order (a triggered STOP_LOSS / TAKE_PROFIT). */
function marketLike(type: OrderType): boolean {
  return type === 'MARKET' || type === 'STOP_LOSS' || type === 'TAKE_PROFIT';
}

interface ModelAccount {
  accountId: number;
  /** -1 when the account has no trade group. */
  tradeGroupId: number;
  standard: CommissionRates;
  tax: CommissionRates;
  special: CommissionRates;
  /** free + locked per asset, as the events say it must be. */
  total: Map<string, number>;
}

const ZERO_RATES: CommissionRates = { maker: 0, taker: 0, buyer: 0, seller: 0 };
const RATE_SCALE = 100_000_000n;

function orderKey(symbol: string, orderId: number): string {
  return `${symbol}#${orderId}`;
}

function floorMulDiv(a: number, b: number, d: number): number {
  return Number((BigInt(a) * BigInt(b)) / BigInt(d));
}

function ceilMulDiv(a: number, b: number, d: number): number {
  const p = BigInt(a) * BigInt(b);
  const q = p / BigInt(d);
  return Number(q * BigInt(d) < p ? q + 1n : q);
}

function add(map: Map<string, number>, key: string, delta: number): void {
  map.set(key, (map.get(key) ?? 0) + delta);
}

function remaining(o: ModelOrder): number {
  return o.origQty - o.executedQty - o.preventedQty;
}

function isTerminal(status: OrderStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

function json(value: unknown, max = 6000): string {
  const text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}...(${text.length - max} more chars)` : text;
}

/** Context of the command being checked, for error messages. */
interface StepContext {
  index: number;
  command: EngineCommand;
  events: readonly EngineEvent[];
}

export interface CheckerOptions {
  /**
   * Compare stateHash before and after every command that was only rejected. On by default; the
   * main model properties turn it off and leave it to a property of its own, so that one
   * failing rule does not hide every other one.
   */
  checkRejectedHash?: boolean;
}

export class EngineModelChecker {
  readonly #engine: Engine;
  readonly #checkRejectedHash: boolean;
  readonly #orders = new Map<string, ModelOrder>();
  /** Latest accepted order per account, symbol and client order id (the one a lookup by client id means). */
  readonly #byClientId = new Map<string, ModelOrder>();
  readonly #accounts = new Map<number, ModelAccount>();
  readonly #fees = new Map<string, number>();
  readonly #deposits = new Map<string, number>();
  readonly #lastTradeId = new Map<string, number>();
  /** Trades per `${accountId}|${symbol}`: count and commissions paid, from the events. */
  readonly #accountTrades = new Map<string, { count: number; commission: number }>();
  readonly #lastPreventedMatchId = new Map<string, number>();
  readonly #symbols: readonly string[];
  readonly #specs = new Map<string, SymbolSpec>();
  readonly #lists = new Map<number, ModelList>();
  /** Last trade price per symbol (book trades, market prints, market fills). */
  readonly #lastPrice = new Map<string, number>();
  #arrivals = 0;
  /** Within the current step: the requests still to be accepted, and what happened so far. */
  #expected: ExpectedAcceptance[] = [];
  #stepPrices: number[] = [];
  #stepLastPriceBefore = new Map<string, number>();
  /** Orders that started working in this step (accepted working, triggered, activated): the only possible takers. */
  #stepActive = new Set<string>();
  #stepTriggered = new Set<string>();
  #stepActivated = new Set<string>();
  #stepOcoExpired: ModelOrder[] = [];
  #stepAccepted: ModelOrder[] = [];
  #step = 0;
  /** Steps applied before the generated stream began (scenario setup), for readable messages. */
  #setupSteps = 0;
  #ctx: StepContext | null = null;

  constructor(engine: Engine, options: CheckerOptions = {}) {
    this.#engine = engine;
    this.#checkRejectedHash = options.checkRejectedHash ?? true;
    this.#symbols = engine.symbolNames();
    for (const symbol of this.#symbols) {
      const spec = engine.symbolSpec(symbol);
      if (!spec) throw new Error(`no spec for listed symbol ${symbol}`);
      this.#specs.set(symbol, spec);
    }
  }

  /** Marks the end of the fixed setup: later messages number commands within the generated stream. */
  beginStream(): void {
    this.#setupSteps = this.#step;
  }

  /** Applies `command` to the engine, checks every invariant, returns the events. */
  apply(command: EngineCommand): readonly EngineEvent[] {
    const index = this.#step++;
    // CancelReplaceOrder: a part that fails must change nothing, so both failing must leave the hash as it was.
    const hashBefore = this.#checkRejectedHash || command.type === 'CancelReplaceOrder' ? this.#engine.stateHash() : '';
    const pre = this.#snapshotBefore(command);
    this.#beginStep(command);
    let events: readonly EngineEvent[];
    try {
      events = this.#engine.apply(command);
    } catch (error) {
      this.#ctx = { index, command, events: [] };
      this.#fail(`engine.apply threw (it must answer with OrderRejected, never throw): ${String(error)}`);
    }
    this.#ctx = { index, command, events };

    for (const e of events) {
      if (e.time !== command.time) this.#fail(`event ${e.type} has time ${e.time}, command time is ${command.time}`);
    }
    const rejected = events.filter((e) => e.type === 'OrderRejected');
    if (rejected.length > 0) {
      if (events.length !== 1) this.#fail('an OrderRejected must be the only event of its command');
      if (this.#checkRejectedHash) {
        const hashAfter = this.#engine.stateHash();
        if (hashAfter !== hashBefore) this.#fail(`a rejected command changed the state (stateHash ${hashBefore} -> ${hashAfter})`);
      }
    }

    const touched = new Set<string>();
    for (const e of events) this.#applyEvent(e, touched);
    if (this.#expected.length > 0 && rejected.length === 0 && command.type !== 'CancelReplaceOrder') {
      this.#fail(`${this.#expected.length} order(s) of the command were never accepted, yet it was not refused`);
    }
    this.#checkStepContingencies();
    this.#checkCommandOutcome(command, events, pre);
    if (command.type === 'CancelReplaceOrder') {
      const done = events.find((e) => e.type === 'CancelReplaceCompleted');
      if (done?.type === 'CancelReplaceCompleted' && done.cancelResult !== 'SUCCESS' && done.newOrderResult !== 'SUCCESS' && this.#engine.stateHash() !== hashBefore) {
        this.#fail(`CancelReplaceOrder with cancel ${done.cancelResult} and new order ${done.newOrderResult} changed the state`);
      }
    }
    this.#checkState(touched);
    return events;
  }

  /** What the command may accept, and fresh per-step records. */
  #beginStep(command: EngineCommand): void {
    this.#expected = [];
    if (command.type === 'PlaceOrder') this.#expected = [{ request: command, role: -1, kind: null }];
    if (command.type === 'CancelReplaceOrder') this.#expected = [{ request: command.newOrder, role: -1, kind: null }];
    if (command.type === 'PlaceOrderList') this.#expected = command.legs.map((request, role) => ({ request, role, kind: command.kind }));
    this.#stepPrices = [];
    this.#stepLastPriceBefore = new Map(this.#lastPrice);
    this.#stepActive = new Set();
    this.#stepTriggered = new Set();
    this.#stepActivated = new Set();
    this.#stepOcoExpired = [];
    this.#stepAccepted = [];
  }

  #noteTradePrice(symbol: string, price: number): void {
    this.#stepPrices.push(price);
    this.#lastPrice.set(symbol, price);
  }

  /** Rules that need the whole step: an OCO leg expired by OCO_TRIGGER had a partner that traded, ended or triggered. */
  #checkStepContingencies(): void {
    for (const o of this.#stepOcoExpired) {
      const partner = this.#ocoPartner(o);
      if (!partner) this.#fail(`${o.key} expired with OCO_TRIGGER but is not a leg of an OCO pair`);
      if (!(partner.executedQty > 0 || isTerminal(partner.status) || partner.triggered)) {
        this.#fail(`${o.key} expired with OCO_TRIGGER, but its partner ${partner.key} neither traded, ended nor triggered (status ${partner.status})`);
      }
    }
  }

  #ocoPartner(o: ModelOrder): ModelOrder | undefined {
    if (o.listId === null) return undefined;
    const list = this.#lists.get(o.listId);
    const roles = list ? ocoPairRoles(list.kind) : null;
    if (!list || !roles || !roles.includes(o.role)) return undefined;
    const other = roles[0] === o.role ? roles[1]! : roles[0]!;
    return this.#orders.get(list.legs[other]!);
  }

  #fail(message: string): never {
    const ctx = this.#ctx;
    const which = ctx && ctx.index >= this.#setupSteps ? `command [${ctx.index - this.#setupSteps}] of the stream` : `setup step ${ctx?.index}`;
    const where = ctx ? `${which}: ${json(ctx.command, 1000)}\n  events: ${json(ctx.events)}` : 'before any step';
    throw new InvariantViolation(`${message}\n  at ${where}`);
  }

  // ----------------------------------------------------------------------------------------------
  // Before the command

  #snapshotBefore(command: EngineCommand): Snapshot {
    const statuses = new Map<string, SymbolStatus | undefined>();
    for (const s of this.#symbols) statuses.set(s, this.#engine.symbolStatus(s));
    const snap: Snapshot = { statuses, opposite: [], freeBefore: null, openBefore: new Map(), replaceTarget: undefined };
    if (command.type === 'CancelReplaceOrder') {
      // Looked up before the command: the new order may take over the client id.
      snap.replaceTarget = this.#cancelTarget({
        type: 'CancelOrder',
        time: command.time,
        accountId: command.accountId,
        symbol: command.symbol,
        ...(command.cancelOrderId !== undefined ? { orderId: command.cancelOrderId } : {}),
        ...(command.cancelOrigClientOrderId !== undefined ? { origClientOrderId: command.cancelOrigClientOrderId } : {}),
      });
    }
    if (command.type === 'PlaceOrder' && this.#specs.has(command.symbol)) {
      snap.opposite = this.#engine.bookOrders(command.symbol, command.side === 'BUY' ? 'SELL' : 'BUY');
    }
    if (command.type === 'AdjustBalance') {
      const acct = this.#engine.account(command.accountId);
      snap.freeBefore = acct ? (acct.balances.find((b) => b.asset === command.asset)?.free ?? 0) : null;
    }
    if (command.type === 'CancelAllOrders' || command.type === 'CancelOrder' || command.type === 'CancelOrderList' || command.type === 'CancelReplaceOrder') {
      for (const o of this.#orders.values()) {
        if (o.accountId === command.accountId && o.symbol === command.symbol && !isTerminal(o.status)) snap.openBefore.set(o.key, o.status);
      }
    }
    return snap;
  }

  // ----------------------------------------------------------------------------------------------
  // Events into the model, with the per-event rules

  #order(symbol: string, orderId: number, what: string): ModelOrder {
    const o = this.#orders.get(orderKey(symbol, orderId));
    if (!o) this.#fail(`${what} names order ${symbol}#${orderId}, which was never accepted (no OrderAccepted before it)`);
    if (isTerminal(o.status)) this.#fail(`${what} names order ${o.key} after it reached terminal status ${o.status}`);
    return o;
  }

  #transition(o: ModelOrder, next: OrderStatus, what: string): void {
    const legal: Record<OrderStatus, readonly OrderStatus[]> = {
      // NEW -> NEW: an STP event that leaves the order open without a fill (EXPIRE_MAKER taker, DECREMENT).
      // PENDING_NEW: a pending list leg; NEW only by OrderActivated (checked there).
      PENDING_NEW: ['NEW', 'CANCELED', 'EXPIRED'],
      NEW: ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'EXPIRED', 'EXPIRED_IN_MATCH'],
      PARTIALLY_FILLED: ['PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'EXPIRED', 'EXPIRED_IN_MATCH'],
      FILLED: [],
      CANCELED: [],
      EXPIRED: [],
      EXPIRED_IN_MATCH: [],
    };
    if (!legal[o.status].includes(next)) this.#fail(`illegal status transition of ${o.key}: ${o.status} -> ${next} (${what})`);
    o.status = next;
  }

  #account(accountId: number, what: string): ModelAccount {
    const a = this.#accounts.get(accountId);
    if (!a) this.#fail(`${what} names account ${accountId}, which was never created`);
    return a;
  }

  #spec(symbol: string): SymbolSpec {
    const spec = this.#specs.get(symbol);
    if (!spec) this.#fail(`event names unknown symbol ${symbol}`);
    return spec;
  }

  #sameParty(a: number, b: number): boolean {
    if (a === b) return true;
    const ga = this.#account(a, 'self-trade check').tradeGroupId;
    const gb = this.#account(b, 'self-trade check').tradeGroupId;
    return ga !== -1 && ga === gb;
  }

  #applyEvent(e: EngineEvent, touched: Set<string>): void {
    switch (e.type) {
      case 'AccountCreated': {
        const c = this.#ctx?.command;
        if (c?.type !== 'CreateAccount' || c.accountId !== e.accountId) this.#fail('AccountCreated without a matching CreateAccount');
        this.#addAccount(c);
        break;
      }
      case 'BalanceAdjusted': {
        const a = this.#account(e.accountId, 'BalanceAdjusted');
        add(a.total, e.asset, e.delta);
        add(this.#deposits, e.asset, e.delta);
        break;
      }
      case 'OrderAccepted':
        this.#onAccepted(e, touched);
        break;
      case 'OrderRejected':
      case 'SymbolStatusChanged':
      case 'ReferencePriceChanged':
        break;
      case 'OrderFilledByMarket':
        this.#onMarketFill(e, touched);
        break;
      case 'MarketTradeRecorded':
        // The market's print joins the same tape: its id continues the symbol's sequence.
        if (e.tradeId <= (this.#lastTradeId.get(e.symbol) ?? -Infinity)) this.#fail(`market trade id ${e.tradeId} does not increase`);
        this.#lastTradeId.set(e.symbol, e.tradeId);
        this.#noteTradePrice(e.symbol, e.price);
        break;
      case 'TradeExecuted':
        this.#onTrade(e, touched);
        break;
      case 'MatchPrevented':
        this.#onPrevented(e, touched);
        break;
      case 'OrderCanceled': {
        const o = this.#order(e.symbol, e.orderId, 'OrderCanceled');
        if (o.accountId !== e.accountId) this.#fail(`OrderCanceled of ${o.key} says account ${e.accountId}, order belongs to ${o.accountId}`);
        this.#transition(o, 'CANCELED', 'OrderCanceled');
        touched.add(o.key);
        break;
      }
      case 'OrderExpired':
        this.#onExpired(e, touched);
        break;
      case 'OrderTriggered':
        this.#onTriggered(e, touched);
        break;
      case 'TrailingStarted':
        this.#onTrailingStarted(e);
        break;
      case 'OrderActivated':
        this.#onActivated(e, touched);
        break;
      case 'OrderListUpdated':
        this.#onListUpdated(e);
        break;
      case 'OrderAmended':
        this.#onAmended(e, touched);
        break;
      case 'CancelReplaceCompleted':
        this.#onCancelReplaceCompleted(e);
        break;
      case 'SyntheticBookChanged':
      case 'DepthBookSet':
        // The book's liquidity has its own property tests (synthetic-book / depth-book).
        this.#fail(`event ${e.type} from a command stream without a synthetic book: ${json(e)}`);
        break;
      case 'AllocationRecorded':
        // Smart order routing (viaSor) is not generated by this model: no allocation may appear.
        this.#fail(`event ${e.type} from a command stream without SOR orders: ${json(e)}`);
        break;
      case 'FuturesPositionChanged':
      case 'FuturesWalletChanged':
      case 'MarkPriceChanged':
      case 'FundingSettled':
      case 'MarginCalled':
      case 'PositionLiquidated':
      case 'FuturesConfigChanged':
      case 'OrderModified':
        // Futures have their own model-based test (test/property/futures-model.property.test.ts).
        this.#fail(`event ${e.type} from a spot command stream: ${json(e)}`);
        break;
      default: {
        const unknown: never = e;
        this.#fail(`unknown event ${json(unknown)}`);
      }
    }
  }

  #addAccount(c: CreateAccount): void {
    const total = new Map<string, number>();
    for (const [asset, amount] of Object.entries(c.balances ?? {})) {
      add(total, asset, amount);
      add(this.#deposits, asset, amount);
    }
    this.#accounts.set(c.accountId, {
      accountId: c.accountId,
      tradeGroupId: c.tradeGroupId ?? -1,
      standard: c.standardCommission ?? ZERO_RATES,
      tax: c.taxCommission ?? ZERO_RATES,
      special: c.specialCommission ?? ZERO_RATES,
      total,
    });
  }

  #onAccepted(e: OrderAccepted, touched: Set<string>): void {
    const key = orderKey(e.symbol, e.orderId);
    if (this.#orders.has(key)) this.#fail(`OrderAccepted reuses order id ${key}`);
    this.#account(e.accountId, 'OrderAccepted');
    const expected = this.#expected.shift();
    if (!expected) this.#fail(`OrderAccepted ${key} that no order of the command asked for`);
    const r = expected.request;
    if (e.orderType !== r.orderType || e.side !== r.side) this.#fail(`OrderAccepted ${key} is a ${e.side} ${e.orderType}, the request a ${r.side} ${r.orderType}`);
    const conditional = CONDITIONAL_TYPES.has(e.orderType);
    // Pending legs: every leg after the working order of the OTO-kinds (binance-facts §5.12).
    const pending = expected.kind !== null && expected.kind !== 'OCO' && expected.role > 0;
    if (e.status !== (pending ? 'PENDING_NEW' : 'NEW')) this.#fail(`OrderAccepted ${key} with status ${e.status}; a ${pending ? 'pending list leg' : 'new order'} starts ${pending ? 'PENDING_NEW' : 'NEW'}`);
    // Stops wait off the book until triggered; pending legs until their working order fills.
    if (e.isWorking !== (!pending && !conditional)) this.#fail(`OrderAccepted ${key} (${e.orderType}, ${e.status}) says isWorking ${e.isWorking}`);
    if ((expected.kind === null) !== (e.orderListId === -1)) this.#fail(`OrderAccepted ${key} has orderListId ${e.orderListId}`);
    const pegged = r.pegPriceType !== undefined;
    const o: ModelOrder = {
      key,
      symbol: e.symbol,
      orderId: e.orderId,
      accountId: e.accountId,
      side: e.side,
      orderType: e.orderType,
      timeInForce: e.timeInForce,
      price: e.price,
      origQty: e.quantity,
      quoteOrderQty: e.quoteOrderQty,
      clientOrderId: e.clientOrderId,
      stp: e.selfTradePreventionMode,
      status: e.status,
      executedQty: 0,
      cumQuote: 0,
      preventedQty: 0,
      everPrevented: false,
      quoteConsumed: 0,
      working: e.isWorking,
      conditional,
      triggered: false,
      trailingStarted: false,
      stopPrice: r.stopPrice ?? 0,
      trailingDelta: r.trailingDelta ?? 0,
      icebergQty: r.icebergQty ?? 0,
      pegged,
      // A pegged stop-limit takes its price from the book when triggered.
      priceKnown: !(pegged && conditional),
      arrival: e.isWorking ? ++this.#arrivals : 0,
      expiryReason: 'NONE',
      listId: expected.kind === null ? null : e.orderListId,
      role: expected.role,
    };
    if (pegged && !conditional && !(e.price > 0)) this.#fail(`pegged ${key} accepted without a pegged price`);
    if (marketLike(e.orderType) && e.orderType !== 'MARKET' && e.price !== 0) this.#fail(`${e.orderType} ${key} accepted with price ${e.price}`);
    this.#orders.set(key, o);
    this.#byClientId.set(`${e.accountId}|${e.symbol}|${e.clientOrderId}`, o);
    if (o.working) this.#stepActive.add(key);
    this.#stepAccepted.push(o);
    touched.add(key);
  }

  #onExpired(e: OrderExpired, touched: Set<string>): void {
    const o = this.#order(e.symbol, e.orderId, 'OrderExpired');
    if (o.accountId !== e.accountId) this.#fail(`OrderExpired of ${o.key} says account ${e.accountId}, order belongs to ${o.accountId}`);
    const list = o.listId === null ? undefined : this.#lists.get(o.listId);
    const where = `${o.key} expired with ${e.expiryReason}`;
    // The reasons of issue 3 only where they belong (binance-facts §5.12, contingency.ts).
    switch (e.expiryReason) {
      case 'OCO_TRIGGER':
        if (e.status !== 'EXPIRED' || o.status === 'PENDING_NEW') this.#fail(`${where} from ${o.status} as ${e.status}`);
        this.#stepOcoExpired.push(o);
        break;
      case 'OTO_PHASE_ONE_EXPIRED': {
        const working = list ? this.#orders.get(list.legs[0]!) : undefined;
        if (!list || list.kind === 'OCO' || o.role < 1 || o.status !== 'PENDING_NEW') this.#fail(`${where}, but it is not a pending leg of an OTO-kind list`);
        if (!working || !isTerminal(working.status) || working.status === 'FILLED') this.#fail(`${where} while its working order ${working?.key} is ${working?.status}`);
        break;
      }
      case 'REJECTED': {
        // A stop that cannot start working when triggered, or a list leg that cannot be placed when activated.
        const working = list ? this.#orders.get(list.legs[0]!) : undefined;
        const activating = o.status === 'PENDING_NEW' && working?.status === 'FILLED';
        if (!this.#stepTriggered.has(o.key) && !this.#stepActivated.has(o.key) && !activating) this.#fail(`${where}, but it was neither triggered nor activated in this command`);
        break;
      }
      case 'UNFILLED_IOC_QUANTITY_EXPIRED':
      case 'UNFILLED_FOK_ORDER_EXPIRED':
        if (o.timeInForce !== (e.expiryReason === 'UNFILLED_IOC_QUANTITY_EXPIRED' ? 'IOC' : 'FOK') || marketLike(o.orderType)) this.#fail(`${where}, a ${o.orderType} ${o.timeInForce}`);
        if (!this.#stepActive.has(o.key) && !this.#stepTriggered.has(o.key)) this.#fail(`${where} outside the command that made it work`);
        break;
      case 'INSUFFICIENT_LIQUIDITY':
        if (!marketLike(o.orderType)) this.#fail(`${where}, a ${o.orderType}`);
        break;
      default:
        break;
    }
    this.#transition(o, e.status, `OrderExpired ${e.expiryReason}`);
    o.expiryReason = e.expiryReason;
    touched.add(o.key);
  }

  #onTriggered(e: OrderTriggered, touched: Set<string>): void {
    const o = this.#order(e.symbol, e.orderId, 'OrderTriggered');
    if (!o.conditional || o.triggered || o.working || o.status !== 'NEW') {
      this.#fail(`OrderTriggered for ${o.key} (${o.orderType}, status ${o.status}, triggered ${o.triggered}, working ${o.working}): only a waiting stop triggers, once`);
    }
    // The trigger is a trade of this command, or (for a leg activated now) the last price.
    const before = this.#stepLastPriceBefore.get(e.symbol);
    if (!this.#stepPrices.includes(e.triggerPrice) && e.triggerPrice !== before) {
      this.#fail(`${o.key} triggered at ${e.triggerPrice}: no trade of this command had that price (trades ${json(this.#stepPrices)}, last before ${before})`);
    }
    if (o.trailingDelta === 0 && !triggerHolds(o.orderType, o.side, o.stopPrice, e.triggerPrice)) {
      this.#fail(`${o.orderType} ${o.side} ${o.key} with stop ${o.stopPrice} triggered at ${e.triggerPrice}, where its condition does not hold (§5.5)`);
    }
    if (o.trailingDelta > 0 && !o.trailingStarted) this.#fail(`trailing stop ${o.key} triggered before it started tracking`);
    const partner = this.#ocoPartner(o);
    // §5.12: when an OCO stop leg triggers, the other leg is expired first.
    if (partner && !isTerminal(partner.status)) this.#fail(`OCO leg ${o.key} triggered while its partner ${partner.key} is still ${partner.status}`);
    o.triggered = true;
    o.working = true;
    o.arrival = ++this.#arrivals;
    if (o.pegged) o.priceKnown = false;
    this.#stepTriggered.add(o.key);
    this.#stepActive.add(o.key);
    touched.add(o.key);
  }

  #onTrailingStarted(e: TrailingStarted): void {
    const o = this.#order(e.symbol, e.orderId, 'TrailingStarted');
    if (!o.conditional || o.trailingDelta === 0 || o.trailingStarted || o.working) this.#fail(`TrailingStarted for ${o.key} (delta ${o.trailingDelta}, started ${o.trailingStarted}, working ${o.working})`);
    // With a stop price, tracking starts at the first trade that meets the stop condition (§5.6).
    if (o.stopPrice > 0 && !triggerHolds(o.orderType, o.side, o.stopPrice, e.price)) this.#fail(`trailing of ${o.key} started at ${e.price}, its stop ${o.stopPrice} not reached`);
    o.trailingStarted = true;
  }

  #onActivated(e: OrderActivated, touched: Set<string>): void {
    const o = this.#order(e.symbol, e.orderId, 'OrderActivated');
    const list = o.listId === null ? undefined : this.#lists.get(o.listId);
    if (!list || o.status !== 'PENDING_NEW') this.#fail(`OrderActivated for ${o.key} (status ${o.status}), not a pending list leg`);
    const working = this.#orders.get(list.legs[0]!)!;
    if (working.status !== 'FILLED') this.#fail(`pending leg ${o.key} activated while its working order ${working.key} is ${working.status}`);
    const opo = list.kind === 'OPO' || list.kind === 'OPOCO';
    // OPO legs sell what the working order received (less commission), so never more than it bought.
    if (!(e.quantity > 0) || (opo ? e.quantity > working.executedQty : e.quantity !== o.origQty)) {
      this.#fail(`OrderActivated ${o.key} for ${e.quantity} (leg ${o.origQty}, working executed ${working.executedQty})`);
    }
    o.origQty = e.quantity;
    // A pegged leg is pegged again when it is placed (binance-facts §5.9).
    if (o.pegged) o.priceKnown = false;
    this.#transition(o, 'NEW', 'OrderActivated');
    if (!o.conditional) {
      o.working = true;
      o.arrival = ++this.#arrivals;
      this.#stepActive.add(o.key);
    }
    this.#stepActivated.add(o.key);
    touched.add(o.key);
  }

  #onListUpdated(e: OrderListUpdated): void {
    const cmd = this.#ctx?.command;
    const where = `OrderListUpdated ${e.listStatusType}/${e.listOrderStatus} of list ${e.orderListId}`;
    const ids = e.orders.map((x) => orderKey(e.symbol, x.orderId));
    const known = this.#lists.get(e.orderListId);
    if (known?.done) this.#fail(`${where} after the list was ALL_DONE`);
    if ((e.contingencyType === 'OCO') !== (e.kind === 'OCO')) this.#fail(`${where}: contingencyType ${e.contingencyType} for kind ${e.kind}`);
    if (e.listStatusType === 'EXEC_STARTED' && e.listOrderStatus === 'EXECUTING') {
      if (known || cmd?.type !== 'PlaceOrderList') this.#fail(`${where} outside the placement of a new list`);
      const legs = this.#stepAccepted.map((o) => o.key);
      if (json(legs) !== json(ids) || cmd.kind !== e.kind || e.accountId !== cmd.accountId) this.#fail(`${where} names legs ${json(ids)}, the command accepted ${json(legs)}`);
      if (cmd.listClientOrderId !== undefined && e.listClientOrderId !== cmd.listClientOrderId) this.#fail(`${where} lost the listClientOrderId`);
      for (const o of this.#stepAccepted) {
        if (o.listId !== e.orderListId) this.#fail(`leg ${o.key} was accepted with orderListId ${o.listId}, the list is ${e.orderListId}`);
      }
      this.#lists.set(e.orderListId, {
        orderListId: e.orderListId,
        kind: e.kind,
        symbol: e.symbol,
        accountId: e.accountId,
        listClientOrderId: e.listClientOrderId,
        legs: ids,
        clientOrderIds: e.orders.map((x) => x.clientOrderId),
        done: false,
      });
      return;
    }
    if (!known) this.#fail(`${where} for a list that was never placed`);
    if (json(ids) !== json(known.legs) || e.accountId !== known.accountId || e.listClientOrderId !== known.listClientOrderId) this.#fail(`${where} does not match the list as placed`);
    if (e.listStatusType === 'ALL_DONE' && e.listOrderStatus === 'ALL_DONE') {
      const open = known.legs.filter((k) => !isTerminal(this.#orders.get(k)!.status));
      if (open.length > 0) this.#fail(`${where} while legs ${json(open)} are still open`);
      known.done = true;
    } else if (e.listStatusType === 'UPDATED' && e.listOrderStatus === 'EXECUTING') {
      // Only an amend that changed a leg's client order id updates a list.
      if (cmd?.type !== 'AmendOrder') this.#fail(`${where} outside an AmendOrder`);
      const clientIds = known.legs.map((k) => this.#orders.get(k)!.clientOrderId);
      if (json(clientIds) === json(known.clientOrderIds)) this.#fail(`${where} although no leg's client order id changed`);
      if (json(e.orders.map((x) => x.clientOrderId)) !== json(clientIds)) this.#fail(`${where} reports client ids ${json(e.orders)}, the legs have ${json(clientIds)}`);
      known.clientOrderIds = clientIds;
    } else {
      this.#fail(`${where}: not a status this engine reports`);
    }
  }

  #onAmended(e: OrderAmended, touched: Set<string>): void {
    const o = this.#order(e.symbol, e.orderId, 'OrderAmended');
    const cmd = this.#ctx?.command;
    if (cmd?.type !== 'AmendOrder' || cmd.accountId !== o.accountId) this.#fail(`OrderAmended of ${o.key} outside an AmendOrder of its account`);
    if (e.origQuantity !== o.origQty) this.#fail(`OrderAmended of ${o.key} from ${e.origQuantity}, the order had ${o.origQty}`);
    // §5.10: only decreases, and stays above what executed (and was prevented).
    if (!(e.newQuantity < e.origQuantity) || !(e.newQuantity > o.executedQty + o.preventedQty)) {
      this.#fail(`OrderAmended of ${o.key} ${e.origQuantity} -> ${e.newQuantity} with ${o.executedQty} executed, ${o.preventedQty} prevented`);
    }
    if (e.origClientOrderId !== o.clientOrderId) this.#fail(`OrderAmended of ${o.key}: origClientOrderId ${e.origClientOrderId}, the order's is ${o.clientOrderId}`);
    const target = e.orderId === cmd.orderId || (cmd.orderId === undefined && e.origClientOrderId === cmd.origClientOrderId);
    const partner = !target && this.#ocoPartner(o) !== undefined;
    if (!target && !partner) this.#fail(`OrderAmended of ${o.key}, neither the order the amend names nor its OCO partner`);
    if (target && e.newQuantity !== cmd.newQuantity) this.#fail(`OrderAmended of ${o.key} to ${e.newQuantity}, the command asked ${cmd.newQuantity}`);
    o.origQty = e.newQuantity;
    if (e.newClientOrderId !== o.clientOrderId) {
      if (!target || e.newClientOrderId !== cmd.newClientOrderId) this.#fail(`OrderAmended of ${o.key} changed the client id to ${e.newClientOrderId}`);
      // The old id names nothing any more (the amend renamed its order).
      const oldKey = `${o.accountId}|${o.symbol}|${o.clientOrderId}`;
      if (this.#byClientId.get(oldKey) === o) this.#byClientId.delete(oldKey);
      o.clientOrderId = e.newClientOrderId;
      this.#byClientId.set(`${o.accountId}|${o.symbol}|${o.clientOrderId}`, o);
    }
    touched.add(o.key);
  }

  #onCancelReplaceCompleted(e: CancelReplaceCompleted): void {
    const cmd = this.#ctx?.command;
    if (cmd?.type !== 'CancelReplaceOrder') this.#fail('CancelReplaceCompleted outside a CancelReplaceOrder');
    const before = this.#ctx!.events.slice(0, this.#ctx!.events.indexOf(e));
    const canceled = before.filter((x) => x.type === 'OrderCanceled');
    const accepted = before.filter((x) => x.type === 'OrderAccepted');
    const where = `CancelReplaceCompleted cancel ${e.cancelResult} / new ${e.newOrderResult}`;
    if (e.cancelResult === 'SUCCESS') {
      if (e.cancelReason !== null || !canceled.some((x) => x.type === 'OrderCanceled' && x.orderId === e.canceledOrderId)) this.#fail(`${where}: no OrderCanceled of ${e.canceledOrderId} before it`);
    } else if (canceled.length > 0 || e.cancelResult !== 'FAILURE' || e.cancelReason === null) {
      this.#fail(`${where}: a failed cancel (reason ${e.cancelReason}) canceled ${canceled.length} orders`);
    }
    if (e.newOrderResult === 'SUCCESS') {
      if (e.newOrderReason !== null || accepted.length !== 1 || accepted[0]?.type !== 'OrderAccepted' || accepted[0].orderId !== e.newOrderId) this.#fail(`${where}: the new order ${e.newOrderId} has no OrderAccepted`);
    } else {
      if (accepted.length > 0 || e.newOrderId !== -1) this.#fail(`${where}: the new order was not placed, yet ${accepted.length} OrderAccepted / newOrderId ${e.newOrderId}`);
      if ((e.newOrderResult === 'FAILURE') !== (e.newOrderReason !== null)) this.#fail(`${where} with newOrderReason ${e.newOrderReason}`);
    }
    // NOT_ATTEMPTED exactly when the API asked for the cancel only, or the cancel failed under STOP_ON_FAILURE.
    const attempt = !cmd.cancelOnly && (e.cancelResult === 'SUCCESS' || cmd.mode === 'ALLOW_FAILURE');
    if ((e.newOrderResult !== 'NOT_ATTEMPTED') !== attempt) this.#fail(`${where} under ${cmd.mode}${cmd.cancelOnly ? ' (cancel only)' : ''}`);
  }

  /** Status an order must report after losing `qty` of its remaining quantity to a fill. */
  #statusAfterFill(o: ModelOrder, newRemaining: number): OrderStatus[] {
    if (newRemaining > 0) return ['PARTIALLY_FILLED'];
    // A MARKET by quoteOrderQty whose quantity was cut short by the book (§5.2: the book ran out)
    // reports its last fill as PARTIALLY_FILLED and then expires with INSUFFICIENT_LIQUIDITY;
    // the expiry rules in #checkPlaceOutcome make sure the book really was exhausted.
    if (o.orderType === 'MARKET' && o.quoteOrderQty > 0) return ['FILLED', 'PARTIALLY_FILLED'];
    // §5.8 lists FILLED or EXPIRED_IN_MATCH for an order emptied while it also had prevented
    // quantity; only a plain fill must be FILLED.
    return o.preventedQty > 0 ? ['FILLED', 'EXPIRED_IN_MATCH'] : ['FILLED'];
  }

  /**
   * The market (outside the book) filled a resting order as maker: at the order's price, at most
   * its remaining quantity; the account pays and receives as a maker, and the market's side is an
   * external flow, so the model's deposits move by what entered and left.
   */
  #onMarketFill(e: OrderFilledByMarket, touched: Set<string>): void {
    const spec = this.#spec(e.symbol);
    const o = this.#order(e.symbol, e.orderId, 'OrderFilledByMarket');
    if (this.#ctx?.command.type !== 'FillFromMarket') this.#fail('a market fill happened outside a FillFromMarket command');
    if (o.accountId !== e.accountId) this.#fail(`OrderFilledByMarket of ${o.key} says account ${e.accountId}`);
    if (!canRest(o.orderType) || !o.working) this.#fail(`market fill of ${o.key}, a ${o.orderType} (working ${o.working}), which is not resting`);
    this.#learnPrice(o, e.price);
    if (e.price !== o.price) this.#fail(`market fill at ${e.price}, not the order's price ${o.price}`);
    this.#checkOcoFill(o);
    this.#noteTradePrice(e.symbol, e.price);
    if (!(e.quantity > 0) || e.quantity % spec.stepUnits !== 0 || e.quantity > remaining(o)) this.#fail(`market fill quantity ${e.quantity} (remaining ${remaining(o)})`);
    const notional = floorMulDiv(e.price, e.quantity, 10 ** spec.basePrecision);
    if (e.quoteQuantity !== notional) this.#fail(`market fill quoteQuantity ${e.quoteQuantity} != ${notional}`);
    if (e.tradeId <= (this.#lastTradeId.get(e.symbol) ?? -Infinity)) this.#fail(`trade id ${e.tradeId} does not increase`);
    this.#lastTradeId.set(e.symbol, e.tradeId);
    const received = o.side === 'BUY' ? e.quantity : e.quoteQuantity;
    const receivedAsset = o.side === 'BUY' ? spec.baseAsset : spec.quoteAsset;
    const paid = o.side === 'BUY' ? e.quoteQuantity : e.quantity;
    const paidAsset = o.side === 'BUY' ? spec.quoteAsset : spec.baseAsset;
    if (e.commission > 0 && e.commissionAsset !== receivedAsset) this.#fail(`market fill commission in ${e.commissionAsset}, expected ${receivedAsset}`);
    const acct = this.#account(o.accountId, 'market fill');
    let low = 0;
    let high = 0;
    for (const r of [acct.standard, acct.tax, acct.special]) {
      const rateSum = r.maker + (o.side === 'BUY' ? r.buyer : r.seller);
      low += floorMulDiv(received, rateSum, Number(RATE_SCALE));
      high += ceilMulDiv(received, rateSum, Number(RATE_SCALE));
    }
    if (e.commission < low || e.commission > high) this.#fail(`market fill commission ${e.commission} outside [${low}, ${high}]`);
    const allowed = this.#statusAfterFill(o, remaining(o) - e.quantity);
    if (!allowed.includes(e.status)) this.#fail(`${o.key} reported ${e.status} after a market fill, expected ${allowed.join(' or ')}`);
    this.#transition(o, e.status, 'OrderFilledByMarket');
    o.executedQty += e.quantity;
    o.cumQuote += e.quoteQuantity;
    touched.add(o.key);
    add(acct.total, receivedAsset, received - e.commission);
    add(acct.total, paidAsset, -paid);
    add(this.#fees, e.commissionAsset, e.commission);
    add(this.#deposits, receivedAsset, received);
    add(this.#deposits, paidAsset, -paid);
    const k = `${o.accountId}|${e.symbol}`;
    const t = this.#accountTrades.get(k) ?? { count: 0, commission: 0 };
    t.count += 1;
    t.commission += e.commission;
    this.#accountTrades.set(k, t);
  }

  #onTrade(e: TradeExecuted, touched: Set<string>): void {
    const spec = this.#spec(e.symbol);
    const taker = this.#order(e.symbol, e.takerOrderId, 'TradeExecuted (taker)');
    const maker = this.#order(e.symbol, e.makerOrderId, 'TradeExecuted (maker)');
    this.#checkMatchParties('trade', taker, maker);
    if (taker.accountId !== e.takerAccountId || maker.accountId !== e.makerAccountId) this.#fail('TradeExecuted account ids do not match the orders');
    if (taker.side === maker.side) this.#fail(`taker ${taker.key} and maker ${maker.key} are on the same side`);
    if (taker.orderType === 'LIMIT_MAKER') this.#fail(`LIMIT_MAKER ${taker.key} traded as taker (§5.4: it must never take)`);
    this.#learnPrice(maker, e.price);
    if (e.price !== maker.price) this.#fail(`trade price ${e.price} is not the maker's price ${maker.price} (maker ${maker.key})`);
    this.#checkOcoFill(taker);
    this.#checkOcoFill(maker);
    this.#noteTradePrice(e.symbol, e.price);
    if (hasLimit(taker.orderType) && taker.priceKnown) {
      const ok = taker.side === 'BUY' ? e.price <= taker.price : e.price >= taker.price;
      if (!ok) this.#fail(`trade at ${e.price} is through taker ${taker.key}'s limit ${taker.price}`);
    }
    if (e.isBuyerMaker !== (maker.side === 'BUY')) this.#fail('isBuyerMaker disagrees with the maker side');
    if (!(e.quantity > 0) || e.quantity % spec.stepUnits !== 0) this.#fail(`trade quantity ${e.quantity} is not a positive multiple of the step ${spec.stepUnits}`);
    if (e.quantity > remaining(taker)) this.#fail(`trade quantity ${e.quantity} exceeds taker ${taker.key}'s remaining ${remaining(taker)}`);
    if (e.quantity > remaining(maker)) this.#fail(`trade quantity ${e.quantity} exceeds maker ${maker.key}'s remaining ${remaining(maker)}`);
    const notional = floorMulDiv(e.price, e.quantity, 10 ** spec.basePrecision);
    if (e.quoteQuantity !== notional) this.#fail(`quoteQuantity ${e.quoteQuantity} != floor(price*qty/10^${spec.basePrecision}) = ${notional}`);
    if (this.#sameParty(taker.accountId, maker.accountId) && taker.stp !== 'NONE') {
      this.#fail(`self-trade between accounts ${taker.accountId} and ${maker.accountId} executed although taker STP mode is ${taker.stp} (§5.8)`);
    }
    if (e.tradeId <= (this.#lastTradeId.get(e.symbol) ?? -Infinity)) this.#fail(`trade id ${e.tradeId} does not increase`);
    this.#lastTradeId.set(e.symbol, e.tradeId);

    this.#checkCommission(e, taker, true, spec);
    this.#checkCommission(e, maker, false, spec);

    for (const [o, reported, role] of [
      [taker, e.takerStatus, 'taker'],
      [maker, e.makerStatus, 'maker'],
    ] as const) {
      const allowed = this.#statusAfterFill(o, remaining(o) - e.quantity);
      if (!allowed.includes(reported)) this.#fail(`${role} ${o.key} reported ${reported} after the trade, expected ${allowed.join(' or ')}`);
      this.#transition(o, reported, `TradeExecuted as ${role}`);
      o.executedQty += e.quantity;
      o.cumQuote += e.quoteQuantity;
      touched.add(o.key);
    }

    // Value moves: buyer gets base, seller gets quote; each pays its commission out of what it receives (§5.16).
    const buyer = this.#account(taker.side === 'BUY' ? taker.accountId : maker.accountId, 'trade');
    const seller = this.#account(taker.side === 'SELL' ? taker.accountId : maker.accountId, 'trade');
    add(buyer.total, spec.baseAsset, e.quantity);
    add(buyer.total, spec.quoteAsset, -e.quoteQuantity);
    add(seller.total, spec.baseAsset, -e.quantity);
    add(seller.total, spec.quoteAsset, e.quoteQuantity);
    add(this.#account(e.takerAccountId, 'trade').total, e.takerCommissionAsset, -e.takerCommission);
    add(this.#account(e.makerAccountId, 'trade').total, e.makerCommissionAsset, -e.makerCommission);
    add(this.#fees, e.takerCommissionAsset, e.takerCommission);
    add(this.#fees, e.makerCommissionAsset, e.makerCommission);
    for (const [accountId, commission] of [
      [e.takerAccountId, e.takerCommission],
      [e.makerAccountId, e.makerCommission],
    ] as const) {
      const k = `${accountId}|${e.symbol}`;
      const t = this.#accountTrades.get(k) ?? { count: 0, commission: 0 };
      t.count += 1;
      t.commission += commission;
      this.#accountTrades.set(k, t);
    }
  }

  /**
   * Who may meet in a match: the taker is an order that started working in this command (placed,
   * triggered or activated), in a command that can make orders work; the maker rests on the book.
   */
  #checkMatchParties(what: string, taker: ModelOrder, maker: ModelOrder): void {
    const cmd = this.#ctx?.command.type;
    const can = cmd === 'PlaceOrder' || cmd === 'PlaceOrderList' || cmd === 'CancelReplaceOrder' || cmd === 'RecordMarketTrade' || cmd === 'FillFromMarket';
    if (!can) this.#fail(`a ${what} happened in a ${cmd} command`);
    if (!this.#stepActive.has(taker.key) || !taker.working) this.#fail(`${what} with taker ${taker.key}, which did not start working in this command`);
    if (!canRest(maker.orderType) || !maker.working || maker.status === 'PENDING_NEW') this.#fail(`${what} with maker ${maker.key}, a ${maker.orderType} (${maker.status}, working ${maker.working}) that cannot rest on the book`);
  }

  /** A pegged stop-limit learns its price when it works; its first match as maker shows it. */
  #learnPrice(o: ModelOrder, price: number): void {
    if (!o.priceKnown) {
      o.price = price;
      o.priceKnown = true;
    }
  }

  /** §5.12: an OCO never fills both legs. */
  #checkOcoFill(o: ModelOrder): void {
    const partner = this.#ocoPartner(o);
    if (partner && partner.executedQty > 0) this.#fail(`both legs of an OCO traded: ${o.key} and ${partner.key}`);
  }

  /**
   * §5.16: commission = received amount * (maker|taker + buyer|seller rate) for each of the
   * standard, tax and special components, in the received asset (no BNB discount configured).
   * The rounding of each component is not documented, so the total must lie between the sum of
   * the floors and the sum of the ceilings.
   */
  #checkCommission(e: TradeExecuted, o: ModelOrder, isTaker: boolean, spec: SymbolSpec): void {
    const paid = isTaker ? e.takerCommission : e.makerCommission;
    const asset = isTaker ? e.takerCommissionAsset : e.makerCommissionAsset;
    const receivedAsset = o.side === 'BUY' ? spec.baseAsset : spec.quoteAsset;
    const received = o.side === 'BUY' ? e.quantity : e.quoteQuantity;
    if (!Number.isSafeInteger(paid) || paid < 0) this.#fail(`commission ${paid} of ${o.key} is not a non-negative integer`);
    if (paid > 0 && asset !== receivedAsset) this.#fail(`${o.key} paid commission in ${asset}, expected the received asset ${receivedAsset}`);
    const acct = this.#account(o.accountId, 'commission');
    let low = 0;
    let high = 0;
    for (const r of [acct.standard, acct.tax, acct.special]) {
      const rateSum = (isTaker ? r.taker : r.maker) + (o.side === 'BUY' ? r.buyer : r.seller);
      low += floorMulDiv(received, rateSum, Number(RATE_SCALE));
      high += ceilMulDiv(received, rateSum, Number(RATE_SCALE));
    }
    if (paid < low || paid > high) {
      this.#fail(`${isTaker ? 'taker' : 'maker'} ${o.key} (account ${o.accountId}) paid commission ${paid} on received ${received}; rates allow [${low}, ${high}]`);
    }
  }

  /**
   * A MARKET by quoteOrderQty has no fixed remaining quantity: each take comes from what is left
   * of its quote amount (ARCHITECTURE.md, "Decisions"). So the taker's prevented quantity is
   * what its amount would have taken at this maker (bounded by the maker, for DECREMENT and
   * TRANSFER exactly the maker's loss), DECREMENT / TRANSFER consume that much of the amount,
   * and the walk itself decides whether the taker continues.
   */
  #checkQuoteTakerPrevention(
    e: MatchPrevented,
    taker: ModelOrder,
    maker: ModelOrder,
    effective: SelfTradePreventionMode,
    rT: number,
    rM: number,
    basePrecision: number,
  ): void {
    const fail = (what: string) => this.#fail(`${effective} (quoteOrderQty taker ${taker.key}): ${what}`);
    switch (effective) {
      case 'EXPIRE_MAKER':
        if (e.takerPreventedQuantity !== 0 || e.makerPreventedQuantity !== rM) fail(`prevented ${e.takerPreventedQuantity} / ${e.makerPreventedQuantity}, expected 0 / ${rM}`);
        break;
      case 'EXPIRE_TAKER':
      case 'EXPIRE_BOTH':
        if (e.takerPreventedQuantity <= 0 || e.takerPreventedQuantity > rT) fail(`taker prevented ${e.takerPreventedQuantity} outside (0, ${rT}]`);
        if (e.makerPreventedQuantity !== (effective === 'EXPIRE_BOTH' ? rM : 0)) fail(`maker prevented ${e.makerPreventedQuantity}`);
        if (e.takerStatus !== 'EXPIRED_IN_MATCH') fail(`taker reported ${e.takerStatus}, expected EXPIRED_IN_MATCH`);
        break;
      case 'DECREMENT':
      case 'TRANSFER':
        if (e.takerPreventedQuantity !== e.makerPreventedQuantity || e.makerPreventedQuantity <= 0 || e.makerPreventedQuantity > rM) {
          fail(`prevented ${e.takerPreventedQuantity} / ${e.makerPreventedQuantity} with maker remaining ${rM}`);
        }
        taker.quoteConsumed += floorMulDiv(e.price, e.takerPreventedQuantity, 10 ** basePrecision);
        break;
      default:
        fail('unexpected mode');
    }
    const makerExpected: OrderStatus = rM - e.makerPreventedQuantity === 0 ? 'EXPIRED_IN_MATCH' : maker.status;
    if (e.makerStatus !== makerExpected) fail(`maker ${maker.key} reported ${e.makerStatus}, expected ${makerExpected}`);
    const legal: OrderStatus[] = ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'EXPIRED_IN_MATCH'];
    if (!legal.includes(e.takerStatus) || (e.takerStatus === 'NEW' && taker.executedQty > 0)) fail(`taker reported ${e.takerStatus}`);
  }

  #onPrevented(e: MatchPrevented, touched: Set<string>): void {
    const spec = this.#spec(e.symbol);
    const taker = this.#order(e.symbol, e.takerOrderId, 'MatchPrevented (taker)');
    const maker = this.#order(e.symbol, e.makerOrderId, 'MatchPrevented (maker)');
    this.#checkMatchParties('prevented match', taker, maker);
    this.#learnPrice(maker, e.price);
    if (taker.accountId !== e.takerAccountId || maker.accountId !== e.makerAccountId) this.#fail('MatchPrevented account ids do not match the orders');
    if (!this.#sameParty(taker.accountId, maker.accountId)) {
      this.#fail(`match prevented between accounts ${taker.accountId} and ${maker.accountId}, which are not the same account or trade group`);
    }
    if (taker.stp === 'NONE') this.#fail(`match prevented although taker ${taker.key} has STP mode NONE`);
    if (e.price !== maker.price) this.#fail(`prevented match price ${e.price} is not the maker's price ${maker.price}`);
    if (hasLimit(taker.orderType) && taker.priceKnown) {
      const ok = taker.side === 'BUY' ? e.price <= taker.price : e.price >= taker.price;
      if (!ok) this.#fail(`prevented match at ${e.price} is through taker ${taker.key}'s limit ${taker.price}`);
    }
    if (e.preventedMatchId <= (this.#lastPreventedMatchId.get(e.symbol) ?? -Infinity)) this.#fail(`preventedMatchId ${e.preventedMatchId} does not increase`);
    this.#lastPreventedMatchId.set(e.symbol, e.preventedMatchId);

    // §5.8: the taker's mode decides; TRANSFER needs TRANSFER on both sides and two different
    // accounts (within one account it is "like DECREMENT"), else it acts as DECREMENT.
    const effective: SelfTradePreventionMode =
      taker.stp === 'TRANSFER' && (maker.stp !== 'TRANSFER' || taker.accountId === maker.accountId) ? 'DECREMENT' : taker.stp;
    if (e.mode !== taker.stp && e.mode !== effective) this.#fail(`MatchPrevented mode ${e.mode}; taker mode ${taker.stp}, effective ${effective}`);
    const rT = remaining(taker);
    const rM = remaining(maker);
    const quoteTaker = taker.orderType === 'MARKET' && taker.quoteOrderQty > 0;
    let expTaker = 0;
    let expMaker = 0;
    if (quoteTaker) {
      this.#checkQuoteTakerPrevention(e, taker, maker, effective, rT, rM, spec.basePrecision);
      expTaker = e.takerPreventedQuantity;
      expMaker = e.makerPreventedQuantity;
    } else switch (effective) {
      case 'EXPIRE_TAKER':
        expTaker = rT;
        break;
      case 'EXPIRE_MAKER':
        expMaker = rM;
        break;
      case 'EXPIRE_BOTH':
        expTaker = rT;
        expMaker = rM;
        break;
      case 'DECREMENT':
      case 'TRANSFER':
        expTaker = Math.min(rT, rM);
        // An iceberg maker meets the taker one visible slice at a time (§5.7): each prevented
        // match covers at most that slice, and the next slice comes from its new place in the queue.
        if (maker.icebergQty > 0 && e.takerPreventedQuantity > 0 && e.takerPreventedQuantity <= Math.min(expTaker, maker.icebergQty) && e.takerPreventedQuantity % spec.stepUnits === 0) {
          expTaker = e.takerPreventedQuantity;
        }
        expMaker = expTaker;
        break;
    }
    if (e.takerPreventedQuantity !== expTaker || e.makerPreventedQuantity !== expMaker) {
      this.#fail(
        `${effective}: prevented taker ${e.takerPreventedQuantity} / maker ${e.makerPreventedQuantity}, expected ${expTaker} / ${expMaker} (remaining taker ${rT}, maker ${rM})`,
      );
    }
    for (const [o, reported, qty, role] of [
      [taker, e.takerStatus, expTaker, 'taker'],
      [maker, e.makerStatus, expMaker, 'maker'],
    ] as const) {
      // A quote-driven taker's status comes from its walk (checked in #checkQuoteTakerPrevention).
      const expected: OrderStatus = role === 'taker' && quoteTaker ? reported : remaining(o) - qty === 0 ? 'EXPIRED_IN_MATCH' : o.status;
      if (reported !== expected) this.#fail(`${effective}: ${role} ${o.key} reported ${reported} after the prevented match, expected ${expected}`);
      this.#transition(o, reported, `MatchPrevented as ${role}`);
      o.preventedQty += qty;
      o.everPrevented = true;
      touched.add(o.key);
    }

    // TRANSFER between two accounts of a group moves the prevented quantity and its notional
    // (§5.8). The amount at the floored notional and without commission is this test's reading.
    if (effective === 'TRANSFER' && taker.accountId !== maker.accountId) {
      const buyer = this.#account(taker.side === 'BUY' ? taker.accountId : maker.accountId, 'transfer');
      const seller = this.#account(taker.side === 'SELL' ? taker.accountId : maker.accountId, 'transfer');
      const notional = floorMulDiv(e.price, expTaker, 10 ** spec.basePrecision);
      add(buyer.total, spec.baseAsset, expTaker);
      add(buyer.total, spec.quoteAsset, -notional);
      add(seller.total, spec.baseAsset, -expTaker);
      add(seller.total, spec.quoteAsset, notional);
    }
  }

  // ----------------------------------------------------------------------------------------------
  // Per-command outcome rules

  #checkCommandOutcome(command: EngineCommand, events: readonly EngineEvent[], pre: Snapshot): void {
    const rejected = events.length === 1 && events[0]?.type === 'OrderRejected';
    switch (command.type) {
      case 'PlaceOrder':
        this.#checkPlaceOutcome(command, events, pre, rejected);
        break;
      case 'CancelOrder': {
        const target = this.#cancelTarget(command);
        const statusBefore = target ? pre.openBefore.get(target.key) : undefined;
        const open = statusBefore !== undefined;
        const canceled = events.filter((e) => e.type === 'OrderCanceled');
        // §5.11: canceling one leg of a list cancels the whole list.
        if (!rejected) this.#checkCancelCascade(events, target, 'CancelOrder');
        const hit = canceled[0];
        if (hit && (hit.accountId !== command.accountId || hit.symbol !== command.symbol || hit.orderId !== target?.orderId)) {
          this.#fail(`CancelOrder canceled ${hit.symbol}#${hit.orderId} of account ${hit.accountId}; the request names ${target?.key ?? 'no open order'}`);
        }
        if (!open && !rejected) this.#fail('CancelOrder of an unknown, foreign or already closed order must be rejected');
        if (open && target && pre.statuses.get(command.symbol) === 'TRADING') {
          const r = command.cancelRestrictions;
          const allowed = r === undefined || (r === 'ONLY_NEW' ? statusBefore === 'NEW' : statusBefore === 'PARTIALLY_FILLED');
          if (allowed && rejected) this.#fail(`CancelOrder of open ${target.key} (status ${statusBefore}) was rejected`);
          if (!allowed) {
            if (!rejected) this.#fail(`cancelRestrictions ${r} ignored: ${target.key} was ${statusBefore} and got canceled`);
            const reason = events[0]?.type === 'OrderRejected' ? events[0].reason : undefined;
            if (reason !== 'CANCEL_RESTRICTIONS_NOT_MET') this.#fail(`cancel restriction failure reported as ${reason}, expected CANCEL_RESTRICTIONS_NOT_MET`);
          }
        }
        break;
      }
      case 'CancelAllOrders': {
        if (rejected) {
          if (pre.statuses.get(command.symbol) === 'TRADING' && pre.openBefore.size > 0) {
            this.#fail(`CancelAllOrders rejected although ${pre.openBefore.size} orders were open on a TRADING symbol`);
          }
          break;
        }
        // List legs go too; their lists end ALL_DONE.
        const ids = events
          .filter((e) => !(e.type === 'OrderListUpdated' && e.listStatusType === 'ALL_DONE'))
          .map((e) => (e.type === 'OrderCanceled' ? e.orderId : this.#fail(`CancelAllOrders emitted ${e.type}`)));
        const expected = [...pre.openBefore.keys()].map((k) => this.#orders.get(k)?.orderId ?? -1);
        if (json([...ids].sort((a, b) => a - b)) !== json([...expected].sort((a, b) => a - b))) {
          this.#fail(`CancelAllOrders canceled ${json(ids)}, open were ${json(expected)}`);
        }
        break;
      }
      case 'AdjustBalance': {
        if (pre.freeBefore !== null && pre.freeBefore + command.delta < 0 && !rejected) {
          this.#fail(`withdrawal of ${-command.delta} accepted with only ${pre.freeBefore} free: the balance went negative`);
        }
        if (!rejected) {
          const e = events[0];
          if (events.length !== 1 || e?.type !== 'BalanceAdjusted' || e.delta !== command.delta || e.asset !== command.asset) {
            this.#fail('an accepted AdjustBalance must emit exactly one matching BalanceAdjusted');
          }
          const free = this.#engine.account(command.accountId)?.balances.find((b) => b.asset === command.asset)?.free;
          if (pre.freeBefore !== null && free !== pre.freeBefore + command.delta) this.#fail(`free ${command.asset} is ${free}, expected ${pre.freeBefore} + ${command.delta}`);
        }
        break;
      }
      case 'SetSymbolStatus':
        if (!rejected && this.#engine.symbolStatus(command.symbol) !== command.status) this.#fail('symbol status not applied');
        break;
      case 'CreateAccount':
        if (!rejected && !events.some((e) => e.type === 'AccountCreated')) this.#fail('CreateAccount accepted without AccountCreated');
        break;
      case 'SetReferencePrice':
        break;
      case 'FillFromMarket':
        // Then only what the fill's price and the filled leg set off (stops, list reactions).
        if (!rejected && (events[0]?.type !== 'OrderFilledByMarket' || events.slice(1).some((e) => !this.#isContingencyEvent(e)))) {
          this.#fail(`an accepted FillFromMarket must emit one OrderFilledByMarket, then only contingency events: ${json(events)}`);
        }
        break;
      case 'RecordMarketTrade': {
        if (rejected) break;
        const e = events[0];
        const spec = this.#spec(command.symbol);
        const quote = floorMulDiv(command.price, command.quantity, 10 ** spec.basePrecision);
        if (e?.type !== 'MarketTradeRecorded' || e.price !== command.price || e.quantity !== command.quantity || e.quoteQuantity !== quote || events.slice(1).some((x) => !this.#isContingencyEvent(x))) {
          this.#fail(`RecordMarketTrade must emit exactly one matching MarketTradeRecorded (quote ${quote}): ${json(events)}`);
        }
        break;
      }
      case 'PlaceOrderList': {
        if (rejected) break;
        const n = command.legs.length;
        if (events.slice(0, n).some((e) => e.type !== 'OrderAccepted') || events[n]?.type !== 'OrderListUpdated') {
          this.#fail('an accepted order list must emit one OrderAccepted per leg, then its OrderListUpdated EXEC_STARTED');
        }
        if (pre.statuses.get(command.symbol) !== 'TRADING') this.#fail(`order list accepted on ${command.symbol} while its status is ${pre.statuses.get(command.symbol)}`);
        // The OCO prices straddle the last price (§5.12): limit / take-profit on one side, stop-loss on the other.
        const last = this.#stepLastPriceBefore.get(command.symbol);
        const roles = ocoPairRoles(command.kind);
        if (roles && command.kind === 'OCO' && last !== undefined) {
          const [above, below] = [command.legs[roles[0]!]!, command.legs[roles[1]!]!];
          const priceOf = (l: OrderRequest) => (l.orderType === 'LIMIT_MAKER' ? l.price : l.stopPrice);
          const hi = priceOf(above);
          const lo = priceOf(below);
          if ((hi !== undefined && !(hi > last)) || (lo !== undefined && !(lo < last))) this.#fail(`OCO accepted with above ${hi} / below ${lo} around last price ${last}`);
        }
        break;
      }
      case 'CancelOrderList': {
        if (rejected) break;
        const lists = new Set(events.filter((e) => e.type === 'OrderListUpdated').map((e) => (e.type === 'OrderListUpdated' ? e.orderListId : -1)));
        const list = [...lists].map((id) => this.#lists.get(id))[0];
        if (lists.size !== 1 || !list) this.#fail('a CancelOrderList must end exactly one list');
        if (list.accountId !== command.accountId || list.symbol !== command.symbol) this.#fail(`CancelOrderList of account ${command.accountId} ended list ${list.orderListId} of account ${list.accountId}`);
        if (command.orderListId !== undefined && command.orderListId !== list.orderListId) this.#fail(`CancelOrderList for list ${command.orderListId} ended list ${list.orderListId}`);
        if (command.listClientOrderId !== undefined && command.listClientOrderId !== list.listClientOrderId) this.#fail('CancelOrderList ended a list with another listClientOrderId');
        const wanted = list.legs.filter((k) => pre.openBefore.has(k)).sort();
        const got = events.filter((e) => e.type === 'OrderCanceled').map((e) => (e.type === 'OrderCanceled' ? orderKey(e.symbol, e.orderId) : '')).sort();
        if (json(wanted) !== json(got)) this.#fail(`CancelOrderList canceled ${json(got)}, the list's open legs were ${json(wanted)}`);
        break;
      }
      case 'CancelReplaceOrder': {
        if (rejected) break;
        const done = events.filter((e) => e.type === 'CancelReplaceCompleted');
        if (done.length !== 1) this.#fail('a CancelReplaceOrder that is not refused reports exactly one CancelReplaceCompleted');
        const d = done[0]!;
        if (d.type === 'CancelReplaceCompleted' && d.cancelResult === 'SUCCESS') {
          const target = pre.replaceTarget;
          if (!target || target.orderId !== d.canceledOrderId || !pre.openBefore.has(target.key)) this.#fail(`CancelReplaceOrder canceled ${d.canceledOrderId}; the request names ${target?.key ?? 'no open order'}`);
          const r = command.cancelRestrictions;
          const status = pre.openBefore.get(target.key);
          if (r !== undefined && status !== (r === 'ONLY_NEW' ? 'NEW' : 'PARTIALLY_FILLED')) this.#fail(`cancelRestrictions ${r} ignored by CancelReplaceOrder: ${target.key} was ${status}`);
        }
        break;
      }
      case 'AmendOrder': {
        if (rejected) break;
        const amended = events.filter((e) => e.type === 'OrderAmended');
        if (amended.length < 1 || amended.length > 2 || events.some((e) => e.type !== 'OrderAmended' && !(e.type === 'OrderListUpdated' && e.listStatusType === 'UPDATED'))) {
          this.#fail(`an AmendOrder emits OrderAmended (the order, and its OCO partner) and at most a list update: ${json(events)}`);
        }
        if (pre.statuses.get(command.symbol) === 'HALT' || pre.statuses.get(command.symbol) === 'BREAK') this.#fail(`AmendOrder accepted on a ${pre.statuses.get(command.symbol)} symbol`);
        break;
      }
      case 'SetSyntheticBook':
      case 'SetSyntheticAnchor':
      case 'SetDepthBook':
      case 'SetOrderFlowBook':
      case 'ApplyDepth':
        this.#fail(`${command.type} is not generated by this model (see the synthetic-book and depth-book property tests)`);
        break;
      case 'TransferFuturesWallet':
      case 'SetLeverage':
      case 'SetMarginType':
      case 'SetPositionMode':
      case 'AdjustPositionMargin':
      case 'SetMarkPrice':
      case 'SettleFunding':
      case 'SetFuturesCommissionRates':
      case 'ModifyMarginOrder':
        this.#fail(`${command.type} is not generated by this model (see the futures property test)`);
        break;
      default: {
        const unknown: never = command;
        this.#fail(`unknown command ${json(unknown)}`);
      }
    }
  }

  /** Events a command may cause through the contingency pass (stops, list reactions), beyond its own. */
  #isContingencyEvent(e: EngineEvent): boolean {
    return (
      e.type === 'OrderTriggered' ||
      e.type === 'TrailingStarted' ||
      e.type === 'OrderActivated' ||
      e.type === 'OrderListUpdated' ||
      e.type === 'OrderExpired' ||
      e.type === 'TradeExecuted' ||
      e.type === 'MatchPrevented'
    );
  }

  /** A successful cancel: the target's OrderCanceled first, then only its list's other legs and the list's end. */
  #checkCancelCascade(events: readonly EngineEvent[], target: ModelOrder | undefined, what: string): void {
    const first = events[0];
    if (first?.type !== 'OrderCanceled') this.#fail(`a successful ${what} must start with OrderCanceled`);
    const list = target?.listId === null || target === undefined ? undefined : this.#lists.get(target.listId);
    for (const e of events.slice(1)) {
      if (e.type === 'OrderCanceled' && list && list.legs.includes(orderKey(e.symbol, e.orderId))) continue;
      if (e.type === 'OrderListUpdated' && list && e.orderListId === list.orderListId && e.listStatusType === 'ALL_DONE') continue;
      this.#fail(`${what} of ${target?.key} (list ${list?.orderListId ?? 'none'}) also emitted ${json(e)}`);
    }
    if (list && !list.done) this.#fail(`${what} of leg ${target?.key} left its list ${list.orderListId} open`);
  }

  #cancelTarget(c: Extract<EngineCommand, { type: 'CancelOrder' }>): ModelOrder | undefined {
    let target: ModelOrder | undefined;
    if (c.orderId !== undefined) {
      target = this.#orders.get(orderKey(c.symbol, c.orderId));
      if (target && target.accountId !== c.accountId) return undefined;
      // §5.11: with both ids, the order is found by orderId and the client id must match.
      if (target && c.origClientOrderId !== undefined && target.clientOrderId !== c.origClientOrderId) return undefined;
    } else if (c.origClientOrderId !== undefined) {
      target = this.#byClientId.get(`${c.accountId}|${c.symbol}|${c.origClientOrderId}`);
    }
    return target;
  }

  #checkPlaceOutcome(c: PlaceOrder, events: readonly EngineEvent[], pre: Snapshot, rejected: boolean): void {
    const spec = this.#specs.get(c.symbol);
    if (pre.statuses.get(c.symbol) !== 'TRADING' && !rejected) this.#fail(`order accepted on ${c.symbol} while its status is ${pre.statuses.get(c.symbol)}`);
    const crossable = (price: number, p: number) => (c.side === 'BUY' ? price <= p : price >= p);
    const pegged = c.pegPriceType !== undefined;
    const conditional = CONDITIONAL_TYPES.has(c.orderType);
    if (c.orderType === 'LIMIT_MAKER' && c.price !== undefined && !pegged) {
      const wouldTake = pre.opposite.some((m) => crossable(m.price, c.price ?? 0));
      if (!rejected && wouldTake) this.#fail('LIMIT_MAKER accepted although it would match on entry (§5.4)');
      if (rejected && events[0]?.type === 'OrderRejected' && events[0].reason === 'WOULD_MATCH_AND_TAKE' && !wouldTake) {
        this.#fail('LIMIT_MAKER rejected as WOULD_MATCH_AND_TAKE although nothing on the book crosses it');
      }
    }
    if (spec && !rejected) {
      // Requests the exchange refuses before matching (§5.1 mandatory parameters, §5.3, §1.1 filters).
      const malformed =
        (c.orderType === 'LIMIT' && c.timeInForce === undefined) ||
        (c.orderType === 'MARKET' && c.quantity !== undefined && c.quoteOrderQty !== undefined) ||
        (c.price !== undefined && c.orderType !== 'MARKET' && c.price % spec.tickUnits !== 0) ||
        (c.quantity !== undefined && (c.quantity <= 0 || c.quantity % spec.stepUnits !== 0));
      if (malformed) this.#fail('a malformed order (missing timeInForce, both quantity and quoteOrderQty, off-tick price or off-step/zero quantity) was accepted');
      // NOTIONAL applies to every LIMIT / LIMIT_MAKER: minNotional <= price * quantity <= maxNotional (exact, not floored).
      const rule = spec.notional;
      if (rule && hasLimit(c.orderType) && c.price !== undefined && c.quantity !== undefined) {
        const exact = BigInt(c.price) * BigInt(c.quantity);
        const scale = 10n ** BigInt(spec.basePrecision);
        if (exact < BigInt(rule.min) * scale || (rule.max > 0 && exact > BigInt(rule.max) * scale)) {
          this.#fail(`order with notional ${c.price}*${c.quantity}/10^${spec.basePrecision} outside NOTIONAL [${rule.min}, ${rule.max}] was accepted`);
        }
      }
    }
    if (rejected || !spec) return;

    const first = events[0];
    if (first?.type !== 'OrderAccepted') this.#fail('the first event of an accepted order must be OrderAccepted');
    const o = this.#orders.get(orderKey(first.symbol, first.orderId));
    if (!o) this.#fail('accepted order missing from model');
    if (first.accountId !== c.accountId || first.symbol !== c.symbol || first.side !== c.side || first.orderType !== c.orderType) {
      this.#fail('OrderAccepted does not echo the command (account, symbol, side, type)');
    }
    if (c.clientOrderId !== undefined && first.clientOrderId !== c.clientOrderId) this.#fail('OrderAccepted lost the clientOrderId');
    if (first.selfTradePreventionMode !== (c.selfTradePreventionMode ?? spec.defaultStpMode)) {
      this.#fail(`STP mode ${first.selfTradePreventionMode}; requested ${c.selfTradePreventionMode ?? `(default ${spec.defaultStpMode})`}`);
    }
    // A pegged order shows its pegged price (a pegged stop-limit its sent price, or 0, until it triggers); STOP_LOSS / TAKE_PROFIT none.
    const price = pegged && !conditional ? first.price : (c.price ?? 0);
    if (c.orderType !== 'MARKET' && (first.price !== price || first.quantity !== c.quantity)) this.#fail('OrderAccepted price/quantity differ from the command');
    if (conditional) {
      // A stop is only accepted if its condition does not already hold at the last price (§5.5).
      const last = this.#stepLastPriceBefore.get(c.symbol);
      if (c.stopPrice !== undefined && last !== undefined && triggerHolds(c.orderType, c.side, c.stopPrice, last)) {
        this.#fail(`${c.orderType} ${c.side} with stop ${c.stopPrice} accepted although the last price ${last} already meets it (would trigger immediately)`);
      }
    }
    if (c.orderType === 'MARKET' && c.quantity !== undefined && first.quantity !== c.quantity) this.#fail('MARKET OrderAccepted quantity differs from the command');
    if (c.timeInForce !== undefined && first.timeInForce !== c.timeInForce) this.#fail('OrderAccepted timeInForce differs from the command');

    // Price-time priority: the makers this taker touched (traded with or was prevented against)
    // must be exactly the head of the opposite side as it stood before the command.
    // An iceberg maker goes to the back of its level after each slice, so a taker may meet it
    // again later: makers count once, at their first touch. Matches with other takers (stops
    // this command triggered) come after the placed order's walk and are checked per event.
    const touchedMakers: number[] = [];
    for (const e of events) {
      if ((e.type === 'TradeExecuted' || e.type === 'MatchPrevented') && e.takerOrderId === o.orderId) {
        if (!touchedMakers.includes(e.makerOrderId)) touchedMakers.push(e.makerOrderId);
      }
    }
    touchedMakers.forEach((id, i) => {
      const expected = pre.opposite[i];
      if (!expected || expected.orderId !== id) {
        this.#fail(
          `price-time priority broken: maker #${i} touched is ${id}, the book before the command had ${expected ? `${expected.orderId} @${expected.price}` : 'nothing'} there; book was ${json(pre.opposite.map((m) => [m.orderId, m.price]))}`,
        );
      }
    });
    if (c.orderType === 'LIMIT_MAKER' && touchedMakers.length > 0) this.#fail('LIMIT_MAKER touched a maker');

    // IOC/FOK/MARKET never rest (§5.2).
    const isImmediate = !conditional && (c.orderType === 'MARKET' || c.timeInForce === 'IOC' || c.timeInForce === 'FOK');
    const limitPrice = o.price;
    if (isImmediate && !isTerminal(o.status)) this.#fail(`${c.orderType} ${c.timeInForce ?? ''} order ${o.key} is still ${o.status} after its command`);

    const expiry = events.find((e) => e.type === 'OrderExpired' && e.orderId === o.orderId);
    if (expiry?.type === 'OrderExpired' && expiry.status === 'EXPIRED' && !conditional) {
      const expectedReason =
        c.orderType === 'MARKET' ? 'INSUFFICIENT_LIQUIDITY' : c.timeInForce === 'IOC' ? 'UNFILLED_IOC_QUANTITY_EXPIRED' : c.timeInForce === 'FOK' ? 'UNFILLED_FOK_ORDER_EXPIRED' : undefined;
      const checkReason = !(c.orderType === 'MARKET' && c.quoteOrderQty !== undefined);
      if (checkReason && expectedReason !== undefined && expiry.expiryReason !== expectedReason) {
        this.#fail(`${o.key} expired with reason ${expiry.expiryReason}, expected ${expectedReason} (§5.2)`);
      }
      // An order that expires for lack of liquidity must have reached every maker it could
      // trade with: nothing crossable may be left untouched behind the touched prefix.
      if (expiry.expiryReason === 'UNFILLED_IOC_QUANTITY_EXPIRED' || expiry.expiryReason === 'INSUFFICIENT_LIQUIDITY') {
        const untouched = pre.opposite.slice(touchedMakers.length).find((m) => c.orderType === 'MARKET' || crossable(m.price, limitPrice));
        if (untouched) this.#fail(`${o.key} expired (${expiry.expiryReason}) while crossable maker ${untouched.orderId} @${untouched.price} was never reached`);
      }
    }

    // A FOK that expires unfilled must really have lacked liquidity. Judged only when every
    // crossable maker belongs to another party, so self-trade prevention cannot be the reason.
    if (c.timeInForce === 'FOK' && expiry?.type === 'OrderExpired' && expiry.expiryReason === 'UNFILLED_FOK_ORDER_EXPIRED') {
      const crossing = pre.opposite.filter((m) => crossable(m.price, limitPrice));
      const foreignOnly = crossing.every((m) => !this.#sameParty(m.accountId, c.accountId));
      const available = crossing.reduce((sum, m) => sum + m.origQty - m.executedQty - m.preventedQuantity, 0);
      if (foreignOnly && available >= o.origQty) this.#fail(`FOK ${o.key} for ${o.origQty} expired although ${available} crossed it from other parties`);
    }
    // FOK is all or nothing; prevented quantity is outside what §5.2 covers, so only judge FOKs STP never touched.
    if (c.timeInForce === 'FOK' && !o.everPrevented && o.executedQty !== 0 && o.executedQty !== o.origQty) {
      this.#fail(`FOK ${o.key} executed ${o.executedQty} of ${o.origQty}: FOK must fill completely or not at all`);
    }
    if (c.orderType === 'MARKET' && c.quoteOrderQty !== undefined && c.side === 'BUY' && o.cumQuote > c.quoteOrderQty) {
      this.#fail(`MARKET BUY by quoteOrderQty ${c.quoteOrderQty} spent ${o.cumQuote} (§5.3: spends up to quoteOrderQty)`);
    }
    // A MARKET by quoteOrderQty is FILLED only when its quote amount is reached as closely as the
    // lot grid allows (§5.3): what is left of the budget must be less than one more step at the
    // best price still on the book. Stopping short while liquidity remains (for instance an own
    // order that STP should have dealt with, §5.8) is not FILLED.
    // (Not judged when stops triggered or legs activated after the walk: they change the book it looks at.)
    if (c.orderType === 'MARKET' && c.quoteOrderQty !== undefined && o.status === 'FILLED' && this.#stepTriggered.size === 0 && this.#stepActivated.size === 0) {
      const next = this.#engine.bookOrders(c.symbol, c.side === 'BUY' ? 'SELL' : 'BUY')[0];
      const left = c.quoteOrderQty - o.cumQuote - o.quoteConsumed;
      if (next && left > ceilMulDiv(next.price, spec.stepUnits, 10 ** spec.basePrecision)) {
        this.#fail(
          `MARKET ${c.side} by quoteOrderQty ${c.quoteOrderQty} reports FILLED with ${left} of its quote amount left, while order ${next.orderId} of account ${next.accountId} (taker: account ${c.accountId}) still offers liquidity at ${next.price}`,
        );
      }
    }
  }

  // ----------------------------------------------------------------------------------------------
  // Whole-state invariants after every command

  #checkState(touched: ReadonlySet<string>): void {
    const openByAccount = new Map<number, ModelOrder[]>();
    const openBySide = new Map<string, ModelOrder[]>();
    for (const o of this.#orders.values()) {
      if (isTerminal(o.status)) continue;
      const a = openByAccount.get(o.accountId) ?? [];
      a.push(o);
      openByAccount.set(o.accountId, a);
      // Waiting stops and pending legs are open but off the book.
      if (!o.working) continue;
      const k = `${o.symbol}|${o.side}`;
      const s = openBySide.get(k) ?? [];
      s.push(o);
      openBySide.set(k, s);
    }

    for (const symbol of this.#symbols) this.#checkBook(symbol, openBySide);
    this.#checkLists();

    for (const acct of this.#accounts.values()) this.#checkAccount(acct, openByAccount.get(acct.accountId) ?? [], touched);

    // Conservation (DESIGN.md "Numbers"): every unit deposited is in some account or in fees.
    const fees = this.#engine.feesCollected();
    const deposited = this.#engine.totalDeposited();
    const held = new Map<string, number>();
    for (const id of this.#accounts.keys()) {
      for (const b of this.#engine.account(id)?.balances ?? []) add(held, b.asset, b.free + b.locked);
    }
    const assets = new Set([...Object.keys(fees), ...Object.keys(deposited), ...held.keys(), ...this.#fees.keys(), ...this.#deposits.keys()]);
    for (const asset of assets) {
      const f = fees[asset] ?? 0;
      const d = deposited[asset] ?? 0;
      const h = held.get(asset) ?? 0;
      if (h + f !== d) this.#fail(`${asset} not conserved: accounts hold ${h} + fees ${f} = ${h + f}, deposited ${d} (difference ${h + f - d})`);
      if (f !== (this.#fees.get(asset) ?? 0)) this.#fail(`feesCollected ${asset} = ${f}, commissions in the events sum to ${this.#fees.get(asset) ?? 0}`);
      if (d !== (this.#deposits.get(asset) ?? 0)) this.#fail(`totalDeposited ${asset} = ${d}, deposits in the commands sum to ${this.#deposits.get(asset) ?? 0}`);
    }

    try {
      this.#engine.checkInvariants();
    } catch (error) {
      this.#fail(`engine.checkInvariants() threw: ${String(error)}`);
    }
  }

  #checkBook(symbol: string, openBySide: ReadonlyMap<string, ModelOrder[]>): void {
    const sides = { BUY: this.#engine.bookOrders(symbol, 'BUY'), SELL: this.#engine.bookOrders(symbol, 'SELL') };
    for (const side of ['BUY', 'SELL'] as const) {
      const book = sides[side];
      for (let i = 0; i < book.length; i++) {
        const o = book[i]!;
        if (o.side !== side || o.symbol !== symbol) this.#fail(`bookOrders(${symbol}, ${side}) contains ${o.symbol}#${o.orderId} ${o.side}`);
        const prev = book[i - 1];
        if (prev) {
          const better = side === 'BUY' ? prev.price > o.price : prev.price < o.price;
          if (!better && prev.price !== o.price) {
            this.#fail(`${symbol} ${side} book out of price order: ${prev.orderId} @${prev.price} before ${o.orderId} @${o.price}`);
          }
        }
      }
      // FIFO within a level by arrival on the book (acceptance, trigger or activation; an amend
      // keeps its place). Icebergs re-queue after each slice, so only the others are compared.
      // (Prices from the view: a pegged order activated in this command learns its price later.)
      let lastPlain: { m: ModelOrder; price: number } | undefined;
      for (const v of book) {
        const m = this.#orders.get(orderKey(symbol, v.orderId));
        if (!m || m.icebergQty > 0) continue;
        if (lastPlain && lastPlain.price === v.price && lastPlain.m.arrival > m.arrival) {
          this.#fail(`${symbol} ${side} level ${v.price} not FIFO: ${lastPlain.m.key} (arrived ${lastPlain.m.arrival}) ahead of ${m.key} (arrived ${m.arrival})`);
        }
        lastPlain = { m, price: v.price };
      }
      const bookIds = book.map((o) => o.orderId).sort((a, b) => a - b);
      const modelIds = (openBySide.get(`${symbol}|${side}`) ?? []).map((o) => o.orderId).sort((a, b) => a - b);
      if (json(bookIds) !== json(modelIds)) this.#fail(`${symbol} ${side} book holds ${json(bookIds)}, open orders per the events are ${json(modelIds)}`);

      // depth aggregates the same orders (remaining quantity per price level); an iceberg shows
      // one slice: at least one step, at most icebergQty and what remains (§5.7).
      const levels: [number, number, number][] = [];
      const spec = this.#spec(symbol);
      for (const o of book) {
        const rem = o.origQty - o.executedQty - o.preventedQuantity;
        const ice = this.#orders.get(orderKey(symbol, o.orderId))?.icebergQty ?? 0;
        const [low, high] = ice > 0 ? [spec.stepUnits, Math.min(ice, rem)] : [rem, rem];
        const last = levels[levels.length - 1];
        if (last && last[0] === o.price) {
          last[1] += low;
          last[2] += high;
        } else levels.push([o.price, low, high]);
      }
      const depth = this.#engine.depth(symbol, 5000);
      const got = side === 'BUY' ? depth.bids : depth.asks;
      const fits = got.length === levels.length && got.every(([p, q], i) => p === levels[i]![0] && q >= levels[i]![1] && q <= levels[i]![2]);
      if (!fits) this.#fail(`${symbol} depth ${side} ${json(got)} disagrees with bookOrders (price, min, max) ${json(levels)}`);
    }
    const bestBid = sides.BUY[0];
    const bestAsk = sides.SELL[0];
    if (bestBid && bestAsk && !(bestBid.price < bestAsk.price)) {
      this.#fail(`${symbol} book crossed: best bid ${bestBid.price} (#${bestBid.orderId}) >= best ask ${bestAsk.price} (#${bestAsk.orderId})`);
    }
    const last = this.#engine.lastTrade(symbol);
    if ((last?.id ?? -1) !== (this.#lastTradeId.get(symbol) ?? -1)) this.#fail(`${symbol} lastTrade id ${last?.id}, the last TradeExecuted was ${this.#lastTradeId.get(symbol)}`);
    const ticker = this.#engine.bookTicker(symbol);
    if (ticker) {
      const depth = this.#engine.depth(symbol, 1);
      const bid = depth.bids[0];
      const ask = depth.asks[0];
      if (bid && (ticker.bidPrice !== bid[0] || ticker.bidQty !== bid[1])) this.#fail(`${symbol} bookTicker bid ${ticker.bidPrice}x${ticker.bidQty} != depth ${json(bid)}`);
      if (ask && (ticker.askPrice !== ask[0] || ticker.askQty !== ask[1])) this.#fail(`${symbol} bookTicker ask ${ticker.askPrice}x${ticker.askQty} != depth ${json(ask)}`);
    }
  }

  /** A list is ALL_DONE exactly when all its legs ended, and the engine's view agrees. */
  #checkLists(): void {
    for (const list of this.#lists.values()) {
      const open = list.legs.filter((k) => !isTerminal(this.#orders.get(k)!.status));
      if (!list.done && open.length === 0) this.#fail(`list ${list.orderListId}: every leg ended, but no OrderListUpdated ALL_DONE was reported`);
      const view = this.#engine.getOrderList(list.accountId, { orderListId: list.orderListId });
      if (!view) this.#fail(`getOrderList cannot find list ${list.orderListId}`);
      if ((view.listOrderStatus === 'ALL_DONE') !== list.done) this.#fail(`list ${list.orderListId} is ${view.listOrderStatus}, the events say ${list.done ? 'ALL_DONE' : 'EXECUTING'}`);
      if (json(view.orders.map((x) => x.clientOrderId)) !== json(list.clientOrderIds) && !list.done) {
        this.#fail(`list ${list.orderListId} shows client ids ${json(view.orders)}, the events ${json(list.clientOrderIds)}`);
      }
    }
  }

  /**
   * What an open order must hold (quote for BUY, base for SELL), or null when this model cannot
   * know it: a pending leg nothing; an OCO leg whose partner holds the pair's funds nothing; a
   * waiting BUY stop at market the notional at its stop price (its cost is only known at the trigger).
   */
  #neededLock(o: ModelOrder, v: OrderView, spec: SymbolSpec): number | null | 'shared' {
    const rem = v.origQty - v.executedQty - v.preventedQuantity;
    if (o.status === 'PENDING_NEW') return 0;
    const partner = this.#ocoPartner(o);
    if (partner && !isTerminal(partner.status) && partner.status !== 'PENDING_NEW') return 'shared';
    if (o.side === 'SELL') return rem;
    if (!o.working && marketLike(o.orderType)) {
      // Trailing without a stop price: the last price at placement, which the model does not keep.
      // An amend shrinks the estimate to what remains (amend-order.ts, shrinkEstimate).
      return o.stopPrice > 0 ? floorMulDiv(Math.ceil(o.stopPrice / spec.tickUnits) * spec.tickUnits, rem, 10 ** spec.basePrecision) : null;
    }
    if (!o.working && v.price === 0) return null; // a pegged stop-limit without a price: estimated like a stop at market
    return floorMulDiv(v.price, rem, 10 ** spec.basePrecision);
  }

  #checkAccount(acct: ModelAccount, modelOpen: readonly ModelOrder[], touched: ReadonlySet<string>): void {
    const view = this.#engine.account(acct.accountId);
    if (!view) this.#fail(`account ${acct.accountId} vanished`);
    const locked = new Map<string, number>();
    const free = new Map<string, number>();
    for (const b of view.balances) {
      if (!Number.isSafeInteger(b.free) || !Number.isSafeInteger(b.locked)) this.#fail(`account ${acct.accountId} ${b.asset} balance is not an integer: ${json(b)}`);
      if (b.free < 0 || b.locked < 0) this.#fail(`account ${acct.accountId} ${b.asset} balance negative: free ${b.free}, locked ${b.locked}`);
      add(locked, b.asset, b.locked);
      add(free, b.asset, b.free);
    }
    // Per-account value follows the events exactly (deposits, fills, commissions).
    for (const asset of new Set([...acct.total.keys(), ...locked.keys()])) {
      const have = (free.get(asset) ?? 0) + (locked.get(asset) ?? 0);
      const want = acct.total.get(asset) ?? 0;
      if (have !== want) this.#fail(`account ${acct.accountId} holds ${have} ${asset} (free+locked), the events say ${want} (difference ${have - want})`);
    }

    const open = this.#engine.openOrders(acct.accountId);
    const openIds = open.map((o) => `${o.symbol}#${o.orderId}`).sort();
    const modelIds = modelOpen.map((o) => o.key).sort();
    if (json(openIds) !== json(modelIds)) this.#fail(`openOrders(${acct.accountId}) = ${json(openIds)}, the events leave open ${json(modelIds)}`);

    const needed = new Map<string, number>();
    const clientIds = new Set<string>();
    const perSymbol = new Map<string, number>();
    for (const o of open) {
      const spec = this.#spec(o.symbol);
      const rem = o.origQty - o.executedQty - o.preventedQuantity;
      if (o.status !== 'NEW' && o.status !== 'PARTIALLY_FILLED' && o.status !== 'PENDING_NEW') this.#fail(`open order ${o.symbol}#${o.orderId} has status ${o.status}`);
      if (rem <= 0) this.#fail(`open order ${o.symbol}#${o.orderId} has nothing left (remaining ${rem})`);
      if ((o.status === 'PARTIALLY_FILLED') !== (o.executedQty > 0)) this.#fail(`open order ${o.symbol}#${o.orderId} is ${o.status} with executedQty ${o.executedQty}`);
      const m = this.#orders.get(orderKey(o.symbol, o.orderId))!;
      const need = this.#neededLock(m, o, spec);
      if (need === 'shared') {
        // The pair holds its funds once (place-order-list.ts): exactly one of the two open legs locks, the other nothing.
        const partner = this.#ocoPartner(m)!;
        const other = open.find((x) => x.symbol === partner.symbol && x.orderId === partner.orderId);
        if (!other || (o.lockedAmount > 0) === (other.lockedAmount > 0)) {
          this.#fail(`OCO legs ${m.key} and ${partner.key} lock ${o.lockedAmount} and ${other?.lockedAmount}: exactly one must hold the pair's funds`);
        }
      } else if (need !== null && o.lockedAmount !== need) {
        this.#fail(
          `open ${o.side} ${o.type} ${o.symbol}#${o.orderId} (${o.status}, working ${o.isWorking}) locks ${o.lockedAmount}, it needs ${need} (${o.side === 'SELL' ? 'remaining base' : `floor(${o.price} * ${rem} / 10^${spec.basePrecision})`})`,
        );
      }
      add(needed, o.side === 'SELL' ? spec.baseAsset : spec.quoteAsset, o.lockedAmount);
      // The open order is the latest with its client id (ids are unique among open orders), so a lookup by it finds this order.
      const byClient = this.#engine.getOrder(acct.accountId, o.symbol, { clientOrderId: o.clientOrderId });
      if (byClient?.orderId !== o.orderId) this.#fail(`getOrder by clientOrderId ${o.clientOrderId} found ${byClient?.orderId}, the open order with that id is ${o.orderId}`);
      perSymbol.set(o.symbol, (perSymbol.get(o.symbol) ?? 0) + 1);
      // §5.1: a client order id is unique among open orders.
      const cid = `${o.symbol}|${o.clientOrderId}`;
      if (clientIds.has(cid)) this.#fail(`two open orders of account ${acct.accountId} on ${o.symbol} share clientOrderId ${o.clientOrderId}`);
      clientIds.add(cid);
    }
    for (const [symbol, count] of perSymbol) {
      const max = this.#spec(symbol).maxNumOrders;
      if (max !== null && count > max) this.#fail(`account ${acct.accountId} has ${count} open orders on ${symbol}, MAX_NUM_ORDERS is ${max}`);
    }
    for (const asset of new Set([...needed.keys(), ...locked.keys()])) {
      if ((locked.get(asset) ?? 0) !== (needed.get(asset) ?? 0)) {
        this.#fail(`account ${acct.accountId} has ${locked.get(asset) ?? 0} ${asset} locked, its open orders lock ${needed.get(asset) ?? 0}`);
      }
    }

    for (const symbol of this.#symbols) {
      // myTrades: one row per side the account took in a trade (both rows for a self-trade).
      const trades = this.#engine.accountTrades(acct.accountId, symbol);
      const want = this.#accountTrades.get(`${acct.accountId}|${symbol}`) ?? { count: 0, commission: 0 };
      const paid = trades.reduce((sum, t) => sum + t.commission, 0);
      if (trades.length !== want.count || paid !== want.commission) {
        this.#fail(`accountTrades(${acct.accountId}, ${symbol}): ${trades.length} rows, commission ${paid}; the events say ${want.count} rows, ${want.commission}`);
      }
      const all = this.#engine.allOrders(acct.accountId, symbol);
      const model = [...this.#orders.values()].filter((o) => o.accountId === acct.accountId && o.symbol === symbol);
      if (all.length !== model.length) this.#fail(`allOrders(${acct.accountId}, ${symbol}) has ${all.length} orders, ${model.length} were accepted`);
      for (const v of all) {
        const m = this.#orders.get(orderKey(symbol, v.orderId));
        if (!m || m.accountId !== acct.accountId) this.#fail(`allOrders(${acct.accountId}, ${symbol}) lists unknown order ${v.orderId}`);
        this.#compareOrder(v, m);
      }
    }
    // getOrder must agree with the last status the events reported (checked for what changed this step).
    for (const key of touched) {
      const m = this.#orders.get(key);
      if (!m || m.accountId !== acct.accountId) continue;
      const v = this.#engine.getOrder(m.accountId, m.symbol, { orderId: m.orderId });
      if (!v) this.#fail(`getOrder cannot find ${key}`);
      this.#compareOrder(v, m);
    }
  }

  #compareOrder(v: OrderView, m: ModelOrder): void {
    const where = `order ${m.key} (account ${m.accountId})`;
    if (v.status !== m.status) this.#fail(`${where}: engine says ${v.status}, the last event said ${m.status}`);
    if (v.origQty !== m.origQty) this.#fail(`${where}: origQty ${v.origQty}, OrderAccepted said ${m.origQty}`);
    if (v.executedQty > v.origQty) this.#fail(`${where}: executedQty ${v.executedQty} > origQty ${v.origQty}`);
    if (v.executedQty + v.preventedQuantity > v.origQty) this.#fail(`${where}: executed ${v.executedQty} + prevented ${v.preventedQuantity} > origQty ${v.origQty}`);
    if (v.executedQty !== m.executedQty) this.#fail(`${where}: executedQty ${v.executedQty}, trades sum to ${m.executedQty}`);
    if (v.cummulativeQuoteQty !== m.cumQuote) this.#fail(`${where}: cummulativeQuoteQty ${v.cummulativeQuoteQty}, trades sum to ${m.cumQuote}`);
    if (v.preventedQuantity !== m.preventedQty) this.#fail(`${where}: preventedQuantity ${v.preventedQuantity}, MatchPrevented events sum to ${m.preventedQty}`);
    // A pegged stop-limit's (or activated leg's) price comes from the book when it starts working; the view shows it from then on.
    if (!m.priceKnown) this.#learnPrice(m, v.price);
    if (v.side !== m.side || v.price !== m.price || v.type !== m.orderType) this.#fail(`${where}: side/price/type ${v.side}/${v.price}/${v.type} differ from the model's ${m.side}/${m.price}/${m.orderType}`);
    if (!isTerminal(v.status) && v.isWorking !== m.working) this.#fail(`${where}: isWorking ${v.isWorking}, the events say ${m.working}`);
    if (!isTerminal(v.status) && !m.working && v.workingTime !== -1) this.#fail(`${where}: waiting, but workingTime ${v.workingTime} (§5.5: -1)`);
    if (v.status === 'EXPIRED' && v.expiryReason !== m.expiryReason) this.#fail(`${where}: expiryReason ${v.expiryReason}, OrderExpired said ${m.expiryReason}`);
    if (v.orderListId !== (m.listId ?? -1)) this.#fail(`${where}: orderListId ${v.orderListId}, OrderAccepted said ${m.listId ?? -1}`);
    if (isTerminal(v.status) && v.lockedAmount !== 0) this.#fail(`${where}: closed (${v.status}) but still locks ${v.lockedAmount}`);
  }
}

interface Snapshot {
  statuses: Map<string, SymbolStatus | undefined>;
  /** Opposite side of the book (priority order) before a PlaceOrder. */
  opposite: OrderView[];
  /** Free balance of the adjusted asset before an AdjustBalance (null: unknown account). */
  freeBefore: number | null;
  /** Status of each order of the account/symbol open before a cancel, by model key. */
  openBefore: Map<string, OrderStatus>;
  /** The order a CancelReplaceOrder names, as found before it ran. */
  replaceTarget: ModelOrder | undefined;
}
