/**
 * What the API facade needs of the simulation: the engine's queries, the simulated clock, one
 * MarketHistory per symbol, and a way to apply a command stamped with the current simulated time.
 *
 * Two implementations: `Replay` (src/sim) satisfies this interface structurally (so the facade
 * imports nothing from src/sim), and `EngineBackend` below, a bare engine with histories fed by
 * its own trades and a clock moved only by `advanceTo` (tests, pure-exchange sessions).
 *
 * Rules: the backend owns time; the facade never moves it. No wall clock, no randomness.
 */
import { Engine, type AdjustBalance, type AmendOrder, type CancelAllOrders, type CancelOrder, type CancelOrderList, type CancelReplaceOrder, type EngineCommand, type PlaceOrder, type PlaceOrderList, type EngineEvent, type OrderFilledByMarket, type EngineConfig, type EngineQueries, type TransferFuturesWallet, type SetLeverage, type SetMarginType, type SetPositionMode, type AdjustPositionMargin, type ModifyMarginOrder } from '../../engine/index.ts';
import { MarketHistory } from '../../data/index.ts';

/**
 * The commands the facade sends, without `time`: the backend stamps its `now`. AdjustBalance is
 * a fiat deposit; the order-list, cancel-replace and amend commands come from the trading rows.
 */
export type FacadeCommand =
  | Omit<PlaceOrder, 'time'>
  | Omit<CancelOrder, 'time'>
  | Omit<CancelAllOrders, 'time'>
  | Omit<AdjustBalance, 'time'>
  | Omit<PlaceOrderList, 'time'>
  | Omit<CancelOrderList, 'time'>
  | Omit<CancelReplaceOrder, 'time'>
  | Omit<AmendOrder, 'time'>
  // USDⓈ-M futures (the /fapi rows and the /sapi transfers): wallets, settings, position margin.
  | Omit<TransferFuturesWallet, 'time'>
  | Omit<SetLeverage, 'time'>
  | Omit<SetMarginType, 'time'>
  | Omit<SetPositionMode, 'time'>
  | Omit<AdjustPositionMargin, 'time'>
  | Omit<ModifyMarginOrder, 'time'>;

export interface MarketBackend extends Partial<MarketHooks> {
  /** The engine's queries; commands go through `apply`. */
  readonly engine: EngineQueries;
  /** Current simulated time, µs since the epoch. */
  readonly now: number;
  /** Applies a command at `now`; returns its events. */
  apply(command: FacadeCommand): readonly EngineEvent[];
  /** The symbol's market-data history (throws for an unknown symbol). */
  history(symbol: string): MarketHistory;
}

/**
 * What a backend with a market of its own offers besides commands and queries. Each hook is
 * optional on a backend (a bare engine has none, a Replay has all), and readers look at which
 * exist: ExchangeContext (market fills, market events), the stream sockets (trades, schedule).
 */
export interface MarketHooks {
  /**
   * Backends that fill resting orders between requests (a replay's market model) report each
   * such fill here, so first fills lower the unfilled order count as in-request fills do.
   */
  onMarketFill(listener: (event: OrderFilledByMarket) => void): void;
  /**
   * Every command such a backend applies on its own (market fills, and recorded prints that set
   * off stops or list legs) with all its events, for the user data stream.
   */
  onMarketEvents(listener: (events: readonly EngineEvent[]) => void): void;
  /** Backends that replay a tape call `listener` after each print (market streams deliver then). */
  onTrade(listener: () => void): void;
  /**
   * Backends with a scheduler run `action` when simulated time reaches `time` (µs), before
   * anything later happens: periodic market streams push at their boundaries with the state of
   * that moment, not the state of whenever the host next looks.
   */
  schedule(time: number, action: () => void): void;
}

/**
 * How a wrapper passes each hook on: one entry per hook name, so a hook added to MarketHooks
 * does not compile until it is forwarded here (a wrapper once forgot `onTrade` and `schedule`,
 * and the streams of a journaled replay fell back to the host tick).
 */
const FORWARD_HOOK: { readonly [K in keyof MarketHooks]: (inner: MarketBackend) => MarketHooks[K] | undefined } = {
  onMarketFill: (inner) => (inner.onMarketFill === undefined ? undefined : (listener) => inner.onMarketFill!(listener)),
  onMarketEvents: (inner) => (inner.onMarketEvents === undefined ? undefined : (listener) => inner.onMarketEvents!(listener)),
  onTrade: (inner) => (inner.onTrade === undefined ? undefined : (listener) => inner.onTrade!(listener)),
  schedule: (inner) => (inner.schedule === undefined ? undefined : (time, action) => inner.schedule!(time, action)),
};

/**
 * A backend around another one: queries, time and history are the inner backend's, `apply`
 * passes through unless a subclass adds to it, and exactly the hooks the inner backend has are
 * forwarded (present when it has them, absent otherwise: readers look at which exist).
 */
export class WrappedBackend implements MarketBackend {
  protected readonly inner: MarketBackend;
  // `declare`: set in the constructor from FORWARD_HOOK, never re-initialised by a field definition.
  declare onMarketFill?: MarketHooks['onMarketFill'];
  declare onMarketEvents?: MarketHooks['onMarketEvents'];
  declare onTrade?: MarketHooks['onTrade'];
  declare schedule?: MarketHooks['schedule'];

  constructor(inner: MarketBackend) {
    this.inner = inner;
    const hooks = this as Partial<Record<keyof MarketHooks, unknown>>;
    for (const name of Object.keys(FORWARD_HOOK) as (keyof MarketHooks)[]) {
      const forward = FORWARD_HOOK[name](inner);
      if (forward !== undefined) hooks[name] = forward;
    }
  }

  get engine(): MarketBackend['engine'] {
    return this.inner.engine;
  }

  get now(): number {
    return this.inner.now;
  }

  apply(command: FacadeCommand): readonly EngineEvent[] {
    return this.inner.apply(command);
  }

  history(symbol: string): MarketHistory {
    return this.inner.history(symbol);
  }
}

/**
 * A bare engine as a backend: every TradeExecuted of an applied command joins its symbol's
 * history with the engine's trade id. Time starts at `startTime` and moves only forward through
 * `advanceTo` (a caller bug otherwise: throws).
 */
export class EngineBackend implements MarketBackend {
  readonly engine: Engine;
  readonly #histories = new Map<string, MarketHistory>();
  #now: number;

  constructor(config: EngineConfig, startTime: number, setup: readonly EngineCommand[] = []) {
    this.engine = new Engine(config);
    this.#now = startTime;
    for (const name of this.engine.symbolNames()) {
      const spec = this.engine.symbolSpec(name);
      if (spec !== undefined) this.#histories.set(name, new MarketHistory({ basePrecision: spec.basePrecision }));
    }
    for (const command of setup) this.#record(this.engine.apply(command));
  }

  get now(): number {
    return this.#now;
  }

  /** Moves simulated time forward to `time` µs. */
  advanceTo(time: number): void {
    if (!Number.isSafeInteger(time) || time < this.#now) throw new RangeError(`time must not run backwards (${time} < ${this.#now})`);
    this.#now = time;
  }

  apply(command: FacadeCommand): readonly EngineEvent[] {
    // The command's keys in order, then `time`; not `{ ...command, time }` (see ARCHITECTURE.md, "Object shapes").
    // Commands are plain data: no `__proto__` key.
    const stamped = Object.assign({}, command) as Record<string, unknown>;
    stamped['time'] = this.#now;
    const events = this.engine.apply(stamped as unknown as EngineCommand);
    this.#record(events);
    return events;
  }

  /** Applies any engine command (setup: accounts, deposits, statuses) at its own time. */
  applyRaw(command: EngineCommand): readonly EngineEvent[] {
    const events = this.engine.apply(command);
    this.#record(events);
    return events;
  }

  history(symbol: string): MarketHistory {
    const h = this.#histories.get(symbol);
    if (h === undefined) throw new Error(`unknown symbol ${symbol}`);
    return h;
  }

  /** Every trade on the engine's tape (its own, market prints, market fills) joins the history. */
  #record(events: readonly EngineEvent[]): void {
    for (const e of events) {
      let isBuyerMaker: boolean;
      if (e.type === 'TradeExecuted' || e.type === 'MarketTradeRecorded') isBuyerMaker = e.isBuyerMaker;
      else if (e.type === 'OrderFilledByMarket') isBuyerMaker = e.quantity > 0 && this.#isBuy(e.symbol, e.accountId, e.orderId);
      else continue;
      this.#histories.get(e.symbol)?.record({
        id: e.tradeId,
        price: e.price,
        qty: e.quantity,
        quoteQty: e.quoteQuantity,
        time: e.time,
        isBuyerMaker,
        isBestMatch: true,
      });
    }
  }

  /** A market fill's resting order was the maker: the buyer was the maker when it was a BUY. */
  #isBuy(symbol: string, accountId: number, orderId: number): boolean {
    return this.engine.getOrder(accountId, symbol, { orderId })?.side === 'BUY';
  }
}
