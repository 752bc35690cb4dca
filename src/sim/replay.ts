/**
 * Replay: the composition root of a backtest's step loop. Historical trades (one tape per
 * symbol) drive a virtual clock, a fill model decides which simulated resting orders each print
 * reached, the engine applies those fills and records the rest of the print, and every trade
 * (replayed or simulated) joins the symbol's MarketHistory as one tape with the engine's ids.
 *
 * Per tape trade, in this order:
 * 1. Merge: the symbols' tapes are merged by time; at one µs the earlier tape in `tapes` goes
 *    first, and within a tape the source order (trade id order) holds.
 * 2. Clock: the scheduler advances to the trade's time, so every timer due at or before that µs
 *    fires first. Why: a timer at t is something that has happened by t (an order arriving
 *    after its latency, a strategy's wake-up); running it before the prints stamped t means a
 *    strategy acting at t sees the tape strictly before t (no look-ahead inside the µs) and its
 *    order is on the book when the prints of t arrive.
 * 3. Fill model: only if the print reaches the best simulated order on the opposite side at
 *    least by touch (one comparison against the book mirror), the model plans fills; each is
 *    applied as `FillFromMarket` (at the order's own price, tagged with the model's reason), all
 *    together capped by the print's size.
 * 4. Split: the print's size minus what the fills used is applied as `RecordMarketTrade` at the
 *    print's price and taker side (nothing if the fills used it all). The fills come first: they
 *    are at prices at least as good for the taker, which a taker reaches first. So a print of
 *    1.0 that fills 0.3 of a simulated order becomes two trades on the tape (0.3 at the order's
 *    price, then 0.7 at the print's price), consecutive engine trade ids, same µs; the total
 *    traded quantity matches history.
 * 5. History: each of those trades is recorded in the symbol's MarketHistory with the engine's
 *    trade id (the dump's id appears in the fill reasons as `tapeTrade=`).
 * 6. Trade listeners run (strategies that act on every print).
 *
 * Strategy commands go through `apply`, stamped with the current simulated time (zero latency);
 * trades they cause between accounts join the history too, and the book mirror is re-read after
 * each. `submit` is the path with latency: the command is scheduled on the scheduler at
 * now + the entry (or cancel) latency and applied then, after every print stamped before that
 * time (the strategy acted on a view that is stale by the time its order lands, as on a real
 * venue); its events reach `onAck` one ack latency later. Every latency drawn is reported to
 * `onLatency` (a LatencyRecord: leg, when drawn, how long, whether a burst multiplied it).
 *
 * The synthetic book (the historical book's stand-in, SyntheticBook in synthetic-book.ts) lives
 * in the engine: every print the replay applies anchors it there, at O(1) cost, and historical
 * prints never trade with it (the print already used the historical liquidity it stands for).
 *
 * With no tapes the replay is a pure exchange: accounts trade only with each other (and the
 * synthetic book, if one is set), and time moves by `runUntil`.
 * Do not apply commands to `engine` directly or advance `scheduler` yourself: the replay would
 * not see the book change, or the tape would run behind the clock (which throws).
 *
 * Memory: one batch per tape is alive at a time; MarketHistory is bounded by its retention; the
 * journal is the caller's choice (the default in-memory `Journal` grows with the tape; pass a
 * `JournalHasher` or null for long replays).
 */
import type { ApplyDepth, EngineConfig, EngineCommand, EngineEvent, FillFromMarket, OrderFilledByMarket, RecordMarketTrade } from '../engine/index.ts';
import { Engine } from '../engine/index.ts';
import { Scheduler } from '../clock/index.ts';
import { MarketHistory, type MarketHistoryOptions } from '../data/history/index.ts';
import { BUYER_MAKER, type TapeTrade } from '../data/tape.ts';
import { BookMirror, type RestingOrder } from './book-mirror.ts';
import type { FillModel, FillPlan, SymbolFillModel, TradePrint } from './fill-models/fill-model.ts';
import { printEntry, ReplayJournal, type JournalSink } from './journal-sink.ts';
import { LatencyModel, type LatencyConfig, type LatencyLeg } from './latency/latency-model.ts';
import { SymbolMarket } from './symbol-market.ts';
import { TapeCursor, type TapeSource } from './tape-cursor.ts';
import { DepthCursor, type DepthMessage } from './depth-cursor.ts';
import type { DepthSource } from '../data/index.ts';
import { stepFloorMin } from './fill-models/fill-model.ts';

export interface TapeInput {
  readonly symbol: string;
  /** Trade batches of this symbol in time order (e.g. `readTrades(...)`, or an array). */
  readonly trades: TapeSource;
  /**
   * Recorded depth of this symbol (src/data/depth-tape.ts): its book is then the recorded book
   * plus users' orders (a `recorded` depth book from the replay's first µs), queue models read
   * their queues from it, and its messages are replayed in time order with the trades (at one µs,
   * trades first). Messages stamped before the replay's start build the book at the start.
   */
  readonly depth?: DepthSource;
  /**
   * The prints' ids are the venue's and stay the trade ids served (RecordMarketTrade.tradeId),
   * until a user's trade takes one. Default false: the engine numbers trades from 1.
   */
  readonly keepTradeIds?: boolean;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What a strategy may send: any engine command but the market's own two, without `time` (the replay stamps it). */
export type StrategyCommand = DistributiveOmit<Exclude<EngineCommand, FillFromMarket | RecordMarketTrade>, 'time'>;

/** A fill-model decision that filled nothing (a queue estimate, a print that stopped short). */
export interface MarketDecision {
  readonly time: number;
  readonly symbol: string;
  readonly orderId: number;
  readonly reason: string;
}

/** Called after each tape trade was replayed (fills applied, history recorded). */
export type TradeListener = (trade: ReplayedTrade, replay: Replay) => void;

/** The print just replayed (a reused object: copy what you keep). */
export interface ReplayedTrade extends TradePrint {
  readonly symbol: string;
  /** Base units of the print that filled simulated orders. */
  readonly filled: number;
}

/** One latency drawn by `submit`: the decision record that explains when a command landed or its answer came back. */
export interface LatencyRecord {
  /** The submission it belongs to (`SubmitTicket.id`). */
  readonly submitId: number;
  readonly leg: LatencyLeg;
  /** The command's type and, when it has them, its account and symbol. */
  readonly command: string;
  readonly accountId: number | null;
  readonly symbol: string | null;
  /** When the leg started (µs): the send time for entry/cancel, the engine's time for ack. */
  readonly time: number;
  /** µs drawn. */
  readonly latency: number;
  /** True when a burst of the lognormal-with-bursts model multiplied it. */
  readonly burst: boolean;
}

/** What `submit` returns at send time. */
export interface SubmitTicket {
  readonly id: number;
  readonly leg: 'entry' | 'cancel';
  readonly sentAt: number;
  /** When the engine will apply the command (µs). */
  readonly arrivesAt: number;
}

/** Passed to `onAck` with the command's events. */
export interface Ack {
  readonly id: number;
  readonly sentAt: number;
  /** When the engine applied the command (the events' time). */
  readonly appliedAt: number;
  /** When the strategy receives the answer (now, inside `onAck`). */
  readonly receivedAt: number;
}

export type AckListener = (events: readonly EngineEvent[], ack: Ack) => void;

export interface ReplayConfig {
  readonly engine: EngineConfig;
  /** One tape per symbol; their order breaks ties between symbols at one µs. None (the default): pure exchange mode. */
  readonly tapes?: readonly TapeInput[];
  readonly fillModel: FillModel;
  /** Seeds every random stream of the market model (same seed + tape + commands => same journal). */
  readonly seed: string | number;
  /** Simulated time before the first trade (µs). Default 0. */
  readonly startTime?: number;
  /** Default: a new in-memory `Journal`. null: no journal (benchmarks). */
  readonly journal?: JournalSink | null;
  /** Receives every non-fill decision of the fill model. */
  readonly onDecision?: (decision: MarketDecision) => void;
  /** Retention of each symbol's MarketHistory (basePrecision comes from the engine config). */
  readonly history?: Omit<MarketHistoryOptions, 'basePrecision'>;
  /** Prints in the running mean trade size the queue estimator scales (EMA length). Default 200. */
  readonly meanTradeWindow?: number;
  /** Latency of `submit`'s legs. Default: constant 0 on every leg. */
  readonly latency?: LatencyConfig;
  /** Receives every latency `submit` draws. */
  readonly onLatency?: (record: LatencyRecord) => void;
  /**
   * Prints that reach no own order and set off nothing go through the engine's fast path
   * (`Engine.recordPrint`: no command or event objects; the journal gets the same entry). Same
   * state, journal and history either way; false is the full path for every print (tests compare
   * the two). Default true.
   */
  readonly fastPrints?: boolean;
}

export interface ReplayStats {
  tapeTrades: number;
  /** Depth messages applied (recorded depth), and the level updates in them. */
  depthMessages: number;
  depthUpdates: number;
  /** Market fills of resting orders that a recorded book crossed (DEPTH_CROSS). */
  depthCrossFills: number;
  /** FillFromMarket commands applied. */
  marketFills: number;
  /** Non-fill decisions the fill model reported. */
  decisions: number;
  /** Commands sent through `submit`. */
  submitted: number;
}

/** Everything the replay keeps per symbol. */
interface SymbolRuntime {
  readonly name: string;
  readonly market: SymbolMarket;
  readonly mirror: BookMirror;
  readonly model: SymbolFillModel;
  readonly history: MarketHistory;
}

/** Replay.exportState: plain data. */
export interface ReplayState {
  readonly now: number;
  readonly stats: ReplayStats;
  readonly submitIds: number;
  readonly symbols: readonly { readonly name: string; readonly market: [number, number, number]; readonly mirror: unknown[]; readonly model: unknown }[];
  readonly tapes: readonly { readonly symbol: string; readonly consumed: number; readonly lastTime: number }[];
  /** Depth tapes: messages consumed, last message time. */
  readonly depth?: readonly { readonly symbol: string; readonly consumed: number; readonly lastTime: number }[];
}

export class Replay {
  readonly engine: Engine;
  readonly scheduler: Scheduler;
  readonly journal: JournalSink | null;
  readonly fillModel: FillModel;
  readonly stats: ReplayStats = { tapeTrades: 0, depthMessages: 0, depthUpdates: 0, depthCrossFills: 0, marketFills: 0, decisions: 0, submitted: 0 };
  readonly latency: LatencyModel;
  /** The seed every random stream of the market model derives from (as a string). */
  readonly seed: string;
  readonly #symbols = new Map<string, SymbolRuntime>();
  readonly #cursors: { cursor: TapeCursor; runtime: SymbolRuntime; keepIds: boolean }[] = [];
  readonly #depthCursors: { cursor: DepthCursor; runtime: SymbolRuntime }[] = [];
  readonly #onDecision: ((decision: MarketDecision) => void) | undefined;
  readonly #listeners: TradeListener[] = [];
  readonly #marketFillListeners: ((event: OrderFilledByMarket) => void)[] = [];
  readonly #marketEventListeners: ((events: readonly EngineEvent[]) => void)[] = [];
  readonly #onLatency: ((record: LatencyRecord) => void) | undefined;
  #submitIds = 0;
  #running = false;
  readonly #fastPrints: boolean;
  // Reused on the per-trade path (no allocation unless something fills).
  readonly #print: { -readonly [K in keyof ReplayedTrade]: ReplayedTrade[K] } = {
    symbol: '',
    tapeId: 0,
    time: 0,
    price: 0,
    qty: 0,
    isBuyerMaker: false,
    filled: 0,
  };
  readonly #tapeRow: TapeTrade = { id: 0, price: 0, qty: 0, quoteQty: 0, time: 0, isBuyerMaker: false, isBestMatch: true };
  readonly #plans: FillPlan[] = [];

  constructor(config: ReplayConfig) {
    this.engine = new Engine(config.engine);
    // Whatever lives on the clock in the engine (order-flow books) is brought up to each new time
    // before a timer or a reader looks at it.
    this.scheduler = new Scheduler({ startTime: config.startTime ?? 0, onTime: (time) => this.engine.advanceTo(time) });
    this.journal = config.journal === undefined ? new ReplayJournal() : config.journal;
    this.fillModel = config.fillModel;
    this.#onDecision = config.onDecision;
    this.#onLatency = config.onLatency;
    this.#fastPrints = config.fastPrints !== false;
    const seed = String(config.seed);
    this.seed = seed;
    this.latency = new LatencyModel(config.latency ?? {}, seed, config.startTime ?? 0);
    const tapes = config.tapes ?? [];
    const recorded = new Set(tapes.filter((t) => t.depth !== undefined).map((t) => t.symbol));
    for (const name of this.engine.symbolNames()) {
      const spec = this.engine.symbolSpec(name)!;
      const market = new SymbolMarket(name, this.#symbols.size, spec.tickUnits, spec.stepUnits, spec.quotePrecision, spec.basePrecision, config.meanTradeWindow ?? 200);
      const recordedDepth = recorded.has(name);
      if (recordedDepth) market.levelSize = (isBid, price) => this.engine.depthLevel(name, isBid, price);
      this.#symbols.set(name, {
        name,
        market,
        mirror: new BookMirror(name),
        model: config.fillModel.forSymbol({ symbol: name, stepUnits: spec.stepUnits, seed, recordedDepth, baseUnit: 10 ** spec.basePrecision }),
        history: new MarketHistory({ ...config.history, basePrecision: spec.basePrecision }),
      });
    }
    const taped = new Set<string>();
    tapes.forEach((tape, index) => {
      const runtime = this.#symbols.get(tape.symbol);
      if (runtime === undefined) throw new Error(`tape for ${tape.symbol}: no such symbol in the engine config`);
      if (taped.has(tape.symbol)) throw new Error(`two tapes for ${tape.symbol}`);
      taped.add(tape.symbol);
      this.#cursors.push({ cursor: new TapeCursor(tape.symbol, index, tape.trades), runtime, keepIds: tape.keepTradeIds === true });
      if (tape.depth !== undefined) {
        // The recorded book is the book from the first µs: nothing synthetic on top.
        this.apply({ type: 'SetDepthBook', symbol: tape.symbol, mode: 'recorded' });
        this.#depthCursors.push({ cursor: new DepthCursor(tape.symbol, tapes.length + index, tape.depth), runtime });
      }
    });
  }

  /** Symbols whose book is recorded depth. */
  get recordedSymbols(): readonly string[] {
    return this.#depthCursors.map((d) => d.cursor.symbol);
  }

  /**
   * The price of the first print of `symbol`'s tape not replayed yet (loading its first batch
   * if need be), or null when its tape is over or it has none.
   */
  async nextPrintPrice(symbol: string): Promise<number | null> {
    const entry = this.#cursors.find((c) => c.cursor.symbol === symbol);
    if (entry === undefined) return null;
    const cursor = entry.cursor;
    await cursor.load();
    return cursor.batch === null ? null : (cursor.batch.price[cursor.row] as number);
  }

  /**
   * The replay's own state beyond the engine and the histories (those have their own exports),
   * as plain data for v8.serialize (`exsim serve --journal` snapshots): the clock, the tape
   * positions, each symbol's market statistics, book mirror and fill-model state. Taken between
   * two prints. Timers are not in it (they hold callbacks): the caller must know that the ones
   * pending are its own and re-created after a restore (a served exchange's market-data feed and
   * listen keys), not the replay's (latency-delayed commands, a synthetic book's random walk).
   */
  exportState(): ReplayState {
    return {
      now: this.scheduler.now,
      stats: { ...this.stats },
      submitIds: this.#submitIds,
      symbols: [...this.#symbols.values()].map((r) => ({
        name: r.name,
        market: [r.market.meanTradeQty, r.market.lastPrice, r.market.tradeCount],
        mirror: r.mirror.exportFields(),
        model: r.model.exportState?.() ?? null,
      })),
      tapes: this.#cursors.map(({ cursor }) => ({ symbol: cursor.symbol, consumed: cursor.consumed, lastTime: cursor.lastTime })),
      depth: this.#depthCursors.map(({ cursor }) => ({ symbol: cursor.symbol, consumed: cursor.consumed, lastTime: cursor.lastTime })),
    };
  }

  /**
   * Reads an `exportState` back into a replay built the same way (same config, tapes and setup)
   * that has not gone past it: tapes are read forward to the saved positions without replaying
   * (the engine and the histories are imported separately).
   */
  async importState(state: ReplayState): Promise<void> {
    if (this.scheduler.pendingCount > 0) throw new Error(`the replay has ${this.scheduler.pendingCount} timers pending`);
    for (const saved of state.symbols) {
      const runtime = this.#runtime(saved.name);
      [runtime.market.meanTradeQty, runtime.market.lastPrice, runtime.market.tradeCount] = saved.market;
      runtime.mirror.importFields(saved.mirror);
      if (saved.model !== null) {
        if (runtime.model.importState === undefined) throw new Error(`the fill model of ${saved.name} keeps no state`);
        runtime.model.importState(saved.model);
      }
    }
    for (const saved of state.tapes) {
      const entry = this.#cursors.find((c) => c.cursor.symbol === saved.symbol);
      if (entry === undefined) throw new Error(`no tape for ${saved.symbol}`);
      await entry.cursor.skipTo(saved.consumed);
      entry.cursor.lastTime = saved.lastTime;
    }
    for (const saved of state.depth ?? []) {
      const entry = this.#depthCursors.find((c) => c.cursor.symbol === saved.symbol);
      if (entry === undefined) throw new Error(`no depth tape for ${saved.symbol}`);
      await entry.cursor.skipTo(saved.consumed);
      entry.cursor.lastTime = saved.lastTime;
    }
    Object.assign(this.stats, state.stats);
    this.#submitIds = state.submitIds;
    if (state.now > this.scheduler.now) this.scheduler.advanceTo(state.now);
  }

  /** Current simulated time (µs). */
  get now(): number {
    return this.scheduler.now;
  }

  /** The symbol's market-data history (replayed and simulated trades as one tape). */
  history(symbol: string): MarketHistory {
    return this.#runtime(symbol).history;
  }

  /** The fill model's state for a symbol (e.g. a QueueSymbolModel, to inspect queue positions). */
  fillModelOf(symbol: string): SymbolFillModel {
    return this.#runtime(symbol).model;
  }

  /** The simulated orders resting on a symbol, as the market model sees them. */
  restingOrders(symbol: string): { readonly bids: readonly RestingOrder[]; readonly asks: readonly RestingOrder[] } {
    const { mirror } = this.#runtime(symbol);
    return { bids: mirror.bids, asks: mirror.asks };
  }

  /** What the replay knows of a symbol's market (grid, last replayed price, mean print size). */
  market(symbol: string): SymbolMarket {
    return this.#runtime(symbol).market;
  }

  /**
   * Runs `listener` for every fill the market model gives a resting order between commands (the
   * API facade lowers the unfilled order count on an order's first fill).
   */
  onMarketFill(listener: (event: OrderFilledByMarket) => void): void {
    this.#marketFillListeners.push(listener);
  }

  /**
   * Runs `listener` with all the events of each command the replayed market applies on its own
   * (a market fill, and a recorded print that set off stops or list legs): besides the fill
   * itself, what it triggered (stops that started working and traded, OCO partners that
   * expired, pending legs placed).
   */
  onMarketEvents(listener: (events: readonly EngineEvent[]) => void): void {
    this.#marketEventListeners.push(listener);
  }

  /** Runs `listener` after every replayed tape trade. */
  onTrade(listener: TradeListener): void {
    this.#listeners.push(listener);
  }

  /** Runs `action` when simulated time reaches `time` (µs), as a timer on the scheduler. */
  schedule(time: number, action: () => void): void {
    this.scheduler.schedule(Math.max(time, this.scheduler.now), action);
  }

  /**
   * Applies a command of the market itself at the current simulated time (the futures model's
   * mark and funding, futures-clock.ts) and hands its events to the market-event listeners, as a
   * market fill's are: what it caused (margin calls, liquidations, funding fees) reaches the user
   * data streams without anyone having asked.
   */
  applyMarket(command: StrategyCommand): readonly EngineEvent[] {
    const events = this.apply(command);
    for (const listener of this.#marketEventListeners) listener(events);
    return events;
  }

  /** Applies a strategy command at the current simulated time; returns its events. */
  apply(command: StrategyCommand): readonly EngineEvent[] {
    // type and time first, so journal lines read naturally; the rest in the caller's key order.
    const stamped = Object.assign({ type: command.type, time: this.scheduler.now }, command) as EngineCommand;
    const events = this.engine.apply(stamped);
    this.journal?.record(stamped, events);
    // Orders the command expired on its own (a futures GTD order due by now, orders a liquidation
    // expired): their symbols' mirrors are re-read too, or a later print would plan fills for them.
    let expiredOn: string[] | undefined;
    for (const event of events) {
      if (event.type === 'TradeExecuted') {
        this.#recordHistory(this.#runtime(event.symbol), event.tradeId, event.price, event.quantity, event.quoteQuantity, event.time, event.isBuyerMaker);
      } else if (event.type === 'OrderExpired' && !(expiredOn ??= []).includes(event.symbol)) {
        expiredOn.push(event.symbol);
      }
    }
    const own = 'accountId' in command && 'symbol' in command ? command.symbol : undefined;
    if (own !== undefined) {
      const runtime = this.#symbols.get(own);
      if (runtime !== undefined) this.#refreshBook(runtime);
    }
    if (expiredOn !== undefined) {
      for (const symbol of expiredOn) {
        const runtime = symbol === own ? undefined : this.#symbols.get(symbol);
        if (runtime !== undefined) this.#refreshBook(runtime);
      }
    }
    return events;
  }

  /**
   * Sends a command with latency: it is applied (as by `apply`) at now + the entry latency (the
   * cancel latency for CancelOrder / CancelAllOrders), after every print and timer due before
   * that time, and `onAck` gets its events one ack latency later. Even a zero latency goes
   * through the scheduler: the command lands at the next advance of the clock (before any print
   * at the current µs that is still to come), never inside the caller.
   */
  submit(command: StrategyCommand, onAck?: AckListener): SubmitTicket {
    const id = ++this.#submitIds;
    this.stats.submitted++;
    const leg = command.type === 'CancelOrder' || command.type === 'CancelAllOrders' ? 'cancel' : 'entry';
    const sentAt = this.scheduler.now;
    const arrivesAt = sentAt + this.#drawLatency(id, leg, command, sentAt);
    this.scheduler.schedule(arrivesAt, () => {
      const events = this.apply(command);
      // Drawn whether or not anyone listens, so adding a callback does not shift the stream.
      const receivedAt = arrivesAt + this.#drawLatency(id, 'ack', command, arrivesAt);
      if (onAck !== undefined) {
        this.scheduler.schedule(receivedAt, () => onAck(events, { id, sentAt, appliedAt: arrivesAt, receivedAt }));
      }
    });
    return { id, leg, sentAt, arrivesAt };
  }

  #drawLatency(submitId: number, leg: LatencyLeg, command: StrategyCommand, time: number): number {
    const sample = this.latency.draw(leg, time);
    this.#onLatency?.({
      submitId,
      leg,
      command: command.type,
      accountId: 'accountId' in command ? command.accountId : null,
      symbol: 'symbol' in command ? command.symbol : null,
      time,
      latency: sample.micros,
      burst: sample.burst,
    });
    return sample.micros;
  }

  /**
   * Replays every tape trade stamped at or before `time`, then advances the clock to `time`
   * (firing the timers due by then). `time` must not be before now. `maxTapeTrades` stops the
   * tape once `stats.tapeTrades` reaches it (a journal restore: a live run may have been
   * interrupted between two prints of one µs, where a batch of the tape was still loading).
   */
  async runUntil(time: number, maxTapeTrades = Infinity): Promise<void> {
    if (!(Number.isSafeInteger(time) && time >= this.scheduler.now)) {
      throw new RangeError(`runUntil(${time}): must be an integer µs not before now (${this.scheduler.now})`);
    }
    await this.#run(time, maxTapeTrades);
    this.scheduler.advanceTo(time);
  }

  /** Replays every remaining tape trade. The clock stops at the last trade (later timers stay queued). */
  async runToEnd(): Promise<void> {
    await this.#run(Infinity, Infinity);
  }

  // ---- the loop ------------------------------------------------------------------------------

  async #run(limit: number, maxTapeTrades: number): Promise<void> {
    if (this.#running) throw new Error('the replay is already running (runUntil/runToEnd are not re-entrant)');
    this.#running = true;
    try {
      await this.#pump(limit, maxTapeTrades);
    } finally {
      this.#running = false;
    }
  }

  /**
   * Merges the tapes: replays runs of trades (or depth messages) from the tape that is first in
   * (time, rank) order, where a trade tape's rank is its index and a depth tape's comes after
   * every trade tape's (at one µs, trades before depth: a print and the update that shows it do
   * not reduce a queue twice).
   */
  async #pump(limit: number, maxTapeTrades: number): Promise<void> {
    const cursors = this.#cursors;
    const depthCursors = this.#depthCursors;
    const stats = this.stats;
    for (;;) {
      if (stats.tapeTrades >= maxTapeTrades) return;
      let best: (typeof cursors)[number] | undefined;
      let bestDepth: (typeof depthCursors)[number] | undefined;
      let bestTime = Infinity;
      let bestRank = Infinity;
      // The runner-up bounds how far `best` may run before the merge must look again.
      let stopTime = Infinity;
      let stopRank = Infinity;
      for (const entry of cursors) {
        const cursor = entry.cursor;
        if (cursor.done) continue;
        if (cursor.batch === null || cursor.row >= cursor.batch.length) await cursor.load();
        if (cursor.done) continue;
        const t = cursor.time;
        if (t < bestTime) {
          stopTime = bestTime;
          stopRank = bestRank;
          best = entry;
          bestDepth = undefined;
          bestTime = t;
          bestRank = cursor.index;
        } else if (t < stopTime) {
          stopTime = t;
          stopRank = cursor.index;
        }
      }
      for (const entry of depthCursors) {
        const cursor = entry.cursor;
        if (cursor.done) continue;
        if (cursor.exhausted) await cursor.load();
        if (cursor.done) continue;
        const t = cursor.time;
        if (t < bestTime || (t === bestTime && cursor.rank < bestRank)) {
          stopTime = bestTime;
          stopRank = bestRank;
          best = undefined;
          bestDepth = entry;
          bestTime = t;
          bestRank = cursor.rank;
        } else if (t < stopTime || (t === stopTime && cursor.rank < stopRank)) {
          stopTime = t;
          stopRank = cursor.rank;
        }
      }
      if ((best === undefined && bestDepth === undefined) || bestTime > limit) return;
      const end = Math.min(limit, stopTime);
      if (bestDepth !== undefined) {
        const { cursor, runtime } = bestDepth;
        // At `stopTime` itself only a tape ranked after this one waits for it.
        const atStop = end < stopTime || cursor.rank < stopRank;
        for (;;) {
          const message = cursor.next(end, atStop);
          if (message === null) break;
          this.#replayDepth(runtime, message);
        }
        continue;
      }
      const { cursor, runtime, keepIds } = best!;
      const batch = cursor.batch!;
      const { id, price, qty, time, flags } = batch;
      const n = batch.length;
      const index = cursor.index;
      let row = cursor.row;
      let lastTime = cursor.lastTime;
      while (row < n) {
        const t = time[row]!;
        if (t > end || (t === stopTime && index > stopRank) || stats.tapeTrades >= maxTapeTrades) break;
        if (t < lastTime) throw new Error(`tape of ${cursor.symbol}: trade ${id[row]} at ${t} µs is before the previous one (${lastTime} µs)`);
        lastTime = t;
        cursor.row = row + 1; // before replaying: a listener that throws leaves the cursor past this trade
        cursor.lastTime = t;
        this.#replayTrade(runtime, id[row]!, t, price[row]!, qty[row]!, (flags[row]! & BUYER_MAKER) !== 0, keepIds);
        row++;
      }
    }
  }

  /**
   * One recorded depth message: the clock moves to it (timers due by then fire first; a message
   * stamped before now builds the book now), the engine's depth book takes it, the queue model
   * hears of the levels where own orders rest, and own orders the recorded book now crosses are
   * filled from the crossing liquidity.
   */
  #replayDepth(s: SymbolRuntime, message: DepthMessage): void {
    const scheduler = this.scheduler;
    let time = message.time;
    if (time < scheduler.now) time = scheduler.now;
    else if (time !== scheduler.now) scheduler.advanceTo(time);
    else {
      const next = scheduler.nextTime();
      if (next !== undefined && next <= time) scheduler.advanceTo(time);
    }
    const command: ApplyDepth = { type: 'ApplyDepth', time, symbol: s.name, clear: message.clear, bids: message.bids, asks: message.asks };
    const events = this.engine.apply(command);
    this.journal?.record(command, events);
    if (events[0]?.type === 'OrderRejected') {
      throw new Error(`depth of ${s.name}: the message at ${message.time} µs was refused (${events[0].reason}): a price off the symbol's tick grid (${s.market.price(s.market.tickUnits)}) or a bad amount`);
    }
    this.stats.depthMessages++;
    this.stats.depthUpdates += (message.bids.length + message.asks.length) / 2;
    const mirror = s.mirror;
    if (mirror.size === 0) return;
    const model = s.model;
    if (model.onDepth !== undefined && model.watches !== undefined) {
      this.#noteLevels(s, message.bids, true);
      this.#noteLevels(s, message.asks, false);
      if (message.clear) {
        // A snapshot may have dropped a level it does not list: every watched level is read again.
        for (const order of mirror.bids) if (model.watches(true, order.price)) model.onDepth(true, order.price, this.engine.depthLevel(s.name, true, order.price));
        for (const order of mirror.asks) if (model.watches(false, order.price)) model.onDepth(false, order.price, this.engine.depthLevel(s.name, false, order.price));
      }
    }
    this.#fillCrossed(s, time);
  }

  /** Tells the queue model the new sizes of the levels a message set where own orders rest. */
  #noteLevels(s: SymbolRuntime, levels: ArrayLike<number>, isBid: boolean): void {
    const model = s.model;
    const mirror = s.mirror;
    // Own orders span [worst, best] on each side: rows outside cannot touch them.
    const own = isBid ? mirror.bids : mirror.asks;
    if (own.length === 0) return;
    const best = own[0]!.price;
    const worst = own[own.length - 1]!.price;
    for (let i = 0; i < levels.length; i += 2) {
      const price = levels[i]!;
      if (isBid ? price > best || price < worst : price < best || price > worst) continue;
      if (model.watches!(isBid, price)) model.onDepth!(isBid, price, this.engine.depthLevel(s.name, isBid, price));
    }
  }

  /**
   * Own orders the recorded book crosses (a recorded ask at or below a resting bid, or a bid at or
   * above a resting ask): the market reached them. Each fills at its own price, best first and
   * FIFO, from the crossing recorded liquidity, which it takes (DEPTH_CROSS).
   */
  #fillCrossed(s: SymbolRuntime, time: number): void {
    const top = this.engine.depthTop(s.name);
    if (top === null) return;
    const mirror = s.mirror;
    if (top.ask > 0 && mirror.bestBid >= top.ask) this.#fillCrossedSide(s, true, time);
    if (top.bid > 0 && mirror.bestAsk <= top.bid) this.#fillCrossedSide(s, false, time);
  }

  #fillCrossedSide(s: SymbolRuntime, ownIsBid: boolean, time: number): void {
    const mirror = s.mirror;
    const market = s.market;
    for (;;) {
      const order = (ownIsBid ? mirror.bids : mirror.asks)[0];
      if (order === undefined) return;
      const crossing = this.engine.depthCrossing(s.name, !ownIsBid, order.price);
      const quantity = stepFloorMin(crossing, order.remaining, market.stepUnits);
      if (quantity === 0) return;
      const top = this.engine.depthTop(s.name)!;
      const reason =
        `DEPTH_CROSS order=${order.orderId} orderPrice=${market.price(order.price)} book${ownIsBid ? 'BestAsk' : 'BestBid'}=${market.price(ownIsBid ? top.ask : top.bid)} ` +
        `crossing=${market.qty(crossing)} filled=${market.qty(quantity)}`;
      const command: FillFromMarket = { type: 'FillFromMarket', time, symbol: s.name, orderId: order.orderId, quantity, reason, fromBook: true };
      const events = this.engine.apply(command);
      this.journal?.record(command, events);
      const at = fillIndex(events);
      const event = events[at];
      if (event === undefined || event.type !== 'OrderFilledByMarket') throw new Error(`DEPTH_CROSS fill refused for order ${order.orderId}: ${JSON.stringify(events)}`);
      this.stats.marketFills++;
      this.stats.depthCrossFills++;
      for (const listener of this.#marketFillListeners) listener(event);
      this.#recordHistory(s, event.tradeId, event.price, event.quantity, event.quoteQuantity, time, order.isBuy);
      const gone = mirror.filled(order.orderId, quantity);
      if (gone) s.model.orderGone?.(order);
      if (events.length > 1) this.#afterContingencies(s, withoutFill(events, at));
      for (const listener of this.#marketEventListeners) listener(events);
      if (!gone) return; // the crossing liquidity ran out on this order
    }
  }

  #replayTrade(s: SymbolRuntime, tapeId: number, time: number, price: number, qty: number, isBuyerMaker: boolean, keepId: boolean): void {
    const scheduler = this.scheduler;
    if (time !== scheduler.now) scheduler.advanceTo(time);
    else {
      const next = scheduler.nextTime();
      if (next !== undefined && next <= time) scheduler.advanceTo(time);
    }
    this.stats.tapeTrades++;
    s.market.observe(price, qty);
    const print = this.#print;
    print.symbol = s.name;
    print.tapeId = tapeId;
    print.time = time;
    print.price = price;
    print.qty = qty;
    print.isBuyerMaker = isBuyerMaker;
    print.filled = 0;
    const mirror = s.mirror;
    if (isBuyerMaker ? mirror.bestBid >= price : mirror.bestAsk <= price) print.filled = this.#fill(s, print);
    const left = qty - print.filled;
    if (left > 0 && this.#fastPrints) {
      const venueId = keepId ? tapeId : undefined;
      const tradeId = this.engine.recordPrint(s.name, time, price, left, isBuyerMaker, venueId);
      if (tradeId >= 0) {
        const quote = this.engine.printQuote;
        const journal = this.journal;
        if (journal !== null) {
          if (journal.recordPrint !== undefined) journal.recordPrint(time, s.name, price, left, isBuyerMaker, venueId, tradeId, quote);
          else {
            const entry = printEntry(time, s.name, price, left, isBuyerMaker, venueId, tradeId, quote);
            journal.record(entry.command, entry.events);
          }
        }
        this.#recordHistory(s, tradeId, price, left, quote, time, isBuyerMaker);
        const listeners = this.#listeners;
        for (let i = 0; i < listeners.length; i++) listeners[i]!(print, this);
        return;
      }
    }
    if (left > 0) {
      const command: RecordMarketTrade = keepId
        ? { type: 'RecordMarketTrade', time, symbol: s.name, price, quantity: left, isBuyerMaker, tradeId: tapeId }
        : { type: 'RecordMarketTrade', time, symbol: s.name, price, quantity: left, isBuyerMaker };
      const events = this.engine.apply(command);
      this.journal?.record(command, events);
      const event = events[0];
      // A print the engine refuses (a zero or non-integer amount in the dump) stays out of the
      // tape; the journal shows the refusal.
      if (event !== undefined && event.type === 'MarketTradeRecorded') {
        this.#recordHistory(s, event.tradeId, price, left, event.quoteQuantity, time, isBuyerMaker);
      }
      if (events.length > 1) this.#afterContingencies(s, events);
    }
    const listeners = this.#listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!(print, this);
  }

  /** Lets the model plan fills for the print, applies them; returns the base units they used. */
  #fill(s: SymbolRuntime, print: TradePrint): number {
    const plans = this.#plans;
    plans.length = 0;
    const mirror = s.mirror;
    s.model.onTrade(print, print.isBuyerMaker ? mirror.bids : mirror.asks, s.market, plans);
    let used = 0;
    let contingent = false;
    for (const plan of plans) {
      if (plan.quantity === 0) {
        this.#decide(print.time, s.name, plan);
        continue;
      }
      const order = mirror.get(plan.orderId);
      // An earlier fill's contingency (a triggered stop, an expired OCO partner) may have ended
      // or reduced the order this plan names: drop the plan.
      if (contingent && (order === undefined || plan.quantity > order.remaining)) continue;
      used += plan.quantity;
      if (order === undefined || !(plan.quantity > 0 && plan.quantity <= order.remaining && plan.quantity % s.market.stepUnits === 0) || used > print.qty) {
        throw new Error(`fill model ${this.fillModel.name} planned an impossible fill: ${JSON.stringify(plan)} for print ${print.tapeId} of ${print.qty}`);
      }
      const command: FillFromMarket = { type: 'FillFromMarket', time: print.time, symbol: s.name, orderId: plan.orderId, quantity: plan.quantity, reason: plan.reason };
      const events = this.engine.apply(command);
      this.journal?.record(command, events);
      const at = fillIndex(events);
      const event = events[at];
      if (event === undefined || event.type !== 'OrderFilledByMarket') {
        throw new Error(`FillFromMarket refused for order ${plan.orderId}: ${JSON.stringify(events)}`);
      }
      this.stats.marketFills++;
      const fillListeners = this.#marketFillListeners;
      for (let i = 0; i < fillListeners.length; i++) fillListeners[i]!(event);
      this.#recordHistory(s, event.tradeId, event.price, event.quantity, event.quoteQuantity, print.time, order.isBuy);
      if (mirror.filled(plan.orderId, plan.quantity)) s.model.orderGone?.(order);
      const eventListeners = this.#marketEventListeners;
      if (events.length > 1) {
        // The fill set off stops or list legs: they may have traded, rested or ended orders the
        // remaining plans name. The mirror is re-read; plans for orders gone are dropped.
        contingent = true;
        this.#afterContingencies(s, withoutFill(events, at));
      }
      for (let i = 0; i < eventListeners.length; i++) eventListeners[i]!(events);
    }
    return used;
  }

  /**
   * Events beyond the market's own command (a fill or a recorded print): trades of triggered
   * stops join the history, and the book mirror is re-read.
   */
  #afterContingencies(s: SymbolRuntime, events: readonly EngineEvent[]): void {
    for (const event of events) {
      if (event.type === 'TradeExecuted') {
        this.#recordHistory(this.#runtime(event.symbol), event.tradeId, event.price, event.quantity, event.quoteQuantity, event.time, event.isBuyerMaker);
      }
    }
    this.#refreshBook(s);
    if (events[0]?.type === 'MarketTradeRecorded') {
      const eventListeners = this.#marketEventListeners;
      for (let i = 0; i < eventListeners.length; i++) eventListeners[i]!(events);
    }
  }

  /** Re-reads a symbol's book after a strategy command; tells the model what left and what arrived. */
  #refreshBook(s: SymbolRuntime): void {
    const { gone, added } = s.mirror.refresh(this.engine);
    for (const order of gone) s.model.orderGone?.(order);
    if (added.length === 0 || s.model.orderResting === undefined) return;
    const notes: FillPlan[] = [];
    for (const order of added) s.model.orderResting(order, s.market, notes);
    for (const note of notes) this.#decide(this.scheduler.now, s.name, note);
  }

  #decide(time: number, symbol: string, plan: FillPlan): void {
    this.stats.decisions++;
    const decision = { time, symbol, orderId: plan.orderId, reason: plan.reason };
    this.journal?.decision?.(decision);
    this.#onDecision?.(decision);
  }

  #recordHistory(s: SymbolRuntime, tradeId: number, price: number, qty: number, quote: number, time: number, isBuyerMaker: boolean): void {
    const row = this.#tapeRow;
    row.id = tradeId;
    row.price = price;
    row.qty = qty;
    row.quoteQty = quote;
    row.time = time;
    row.isBuyerMaker = isBuyerMaker;
    s.history.record(row);
  }

  #runtime(symbol: string): SymbolRuntime {
    const runtime = this.#symbols.get(symbol);
    if (runtime === undefined) throw new Error(`unknown symbol ${symbol}`);
    return runtime;
  }
}

/**
 * Where a FillFromMarket's OrderFilledByMarket is among its events: first on spot; on a margin
 * symbol the fill's futures events (wallet, position) come before it (docs/usdm-futures.md), and
 * GTD orders due by the command's time expire before everything. -1 when refused.
 */
function fillIndex(events: readonly EngineEvent[]): number {
  if (events[0]?.type === 'OrderFilledByMarket') return 0;
  for (let i = 1; i < events.length; i++) if (events[i]!.type === 'OrderFilledByMarket') return i;
  return -1;
}

/** The events of a fill's command other than the fill itself (what it set off, and futures bookkeeping). */
function withoutFill(events: readonly EngineEvent[], at: number): readonly EngineEvent[] {
  return at === 0 ? events.slice(1) : [...events.slice(0, at), ...events.slice(at + 1)];
}
