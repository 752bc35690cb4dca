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
 * Strategy commands go through `apply`, stamped with the current simulated time; trades they
 * cause between accounts join the history too, and the book mirror is re-read after each.
 * Do not apply commands to `engine` directly or advance `scheduler` yourself: the replay would
 * not see the book change, or the tape would run behind the clock (which throws).
 *
 * Memory: one batch per tape is alive at a time; MarketHistory is bounded by its retention; the
 * journal is the caller's choice (the default in-memory `Journal` grows with the tape; pass a
 * `JournalHasher` or null for long replays).
 */
import type { EngineConfig, EngineCommand, EngineEvent, FillFromMarket, RecordMarketTrade } from '../engine/index.ts';
import { Engine, Journal } from '../engine/index.ts';
import { Scheduler } from '../clock/index.ts';
import { MarketHistory, type MarketHistoryOptions } from '../data/history/index.ts';
import { BUYER_MAKER, type TapeTrade } from '../data/tape.ts';
import { BookMirror, type RestingOrder } from './book-mirror.ts';
import type { FillModel, FillPlan, SymbolFillModel, TradePrint } from './fill-models/fill-model.ts';
import type { JournalSink } from './journal-sink.ts';
import { SymbolMarket } from './symbol-market.ts';
import { TapeCursor, type TapeSource } from './tape-cursor.ts';

export interface TapeInput {
  readonly symbol: string;
  /** Trade batches of this symbol in time order (e.g. `readTrades(...)`, or an array). */
  readonly trades: TapeSource;
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

export interface ReplayConfig {
  readonly engine: EngineConfig;
  /** One tape per symbol; their order breaks ties between symbols at one µs. */
  readonly tapes: readonly TapeInput[];
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
}

export interface ReplayStats {
  tapeTrades: number;
  /** FillFromMarket commands applied. */
  marketFills: number;
  /** Non-fill decisions the fill model reported. */
  decisions: number;
}

/** Everything the replay keeps per symbol. */
interface SymbolRuntime {
  readonly name: string;
  readonly market: SymbolMarket;
  readonly mirror: BookMirror;
  readonly model: SymbolFillModel;
  readonly history: MarketHistory;
}

export class Replay {
  readonly engine: Engine;
  readonly scheduler: Scheduler;
  readonly journal: JournalSink | null;
  readonly fillModel: FillModel;
  readonly stats: ReplayStats = { tapeTrades: 0, marketFills: 0, decisions: 0 };
  readonly #symbols = new Map<string, SymbolRuntime>();
  readonly #cursors: { cursor: TapeCursor; runtime: SymbolRuntime }[] = [];
  readonly #onDecision: ((decision: MarketDecision) => void) | undefined;
  readonly #listeners: TradeListener[] = [];
  #running = false;
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
    this.scheduler = new Scheduler({ startTime: config.startTime ?? 0 });
    this.journal = config.journal === undefined ? new Journal() : config.journal;
    this.fillModel = config.fillModel;
    this.#onDecision = config.onDecision;
    const seed = String(config.seed);
    for (const name of this.engine.symbolNames()) {
      const spec = this.engine.symbolSpec(name)!;
      const market = new SymbolMarket(name, this.#symbols.size, spec.tickUnits, spec.stepUnits, spec.quotePrecision, spec.basePrecision, config.meanTradeWindow ?? 200);
      this.#symbols.set(name, {
        name,
        market,
        mirror: new BookMirror(name),
        model: config.fillModel.forSymbol({ symbol: name, stepUnits: spec.stepUnits, seed }),
        history: new MarketHistory({ ...config.history, basePrecision: spec.basePrecision }),
      });
    }
    const taped = new Set<string>();
    config.tapes.forEach((tape, index) => {
      const runtime = this.#symbols.get(tape.symbol);
      if (runtime === undefined) throw new Error(`tape for ${tape.symbol}: no such symbol in the engine config`);
      if (taped.has(tape.symbol)) throw new Error(`two tapes for ${tape.symbol}`);
      taped.add(tape.symbol);
      this.#cursors.push({ cursor: new TapeCursor(tape.symbol, index, tape.trades), runtime });
    });
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

  /** Runs `listener` after every replayed tape trade. */
  onTrade(listener: TradeListener): void {
    this.#listeners.push(listener);
  }

  /** Applies a strategy command at the current simulated time; returns its events. */
  apply(command: StrategyCommand): readonly EngineEvent[] {
    // type and time first, so journal lines read naturally; the rest in the caller's key order.
    const stamped = Object.assign({ type: command.type, time: this.scheduler.now }, command) as EngineCommand;
    const events = this.engine.apply(stamped);
    this.journal?.record(stamped, events);
    for (const event of events) {
      if (event.type === 'TradeExecuted') {
        this.#recordHistory(this.#runtime(event.symbol), event.tradeId, event.price, event.quantity, event.quoteQuantity, event.time, event.isBuyerMaker);
      }
    }
    if (command.type === 'PlaceOrder' || command.type === 'CancelOrder' || command.type === 'CancelAllOrders') {
      const runtime = this.#symbols.get(command.symbol);
      if (runtime !== undefined) this.#refreshBook(runtime);
    }
    return events;
  }

  /**
   * Replays every tape trade stamped at or before `time`, then advances the clock to `time`
   * (firing the timers due by then). `time` must not be before now.
   */
  async runUntil(time: number): Promise<void> {
    if (!(Number.isSafeInteger(time) && time >= this.scheduler.now)) {
      throw new RangeError(`runUntil(${time}): must be an integer µs not before now (${this.scheduler.now})`);
    }
    await this.#run(time);
    this.scheduler.advanceTo(time);
  }

  /** Replays every remaining tape trade. The clock stops at the last trade (later timers stay queued). */
  async runToEnd(): Promise<void> {
    await this.#run(Infinity);
  }

  // ---- the loop ------------------------------------------------------------------------------

  async #run(limit: number): Promise<void> {
    if (this.#running) throw new Error('the replay is already running (runUntil/runToEnd are not re-entrant)');
    this.#running = true;
    try {
      await this.#pump(limit);
    } finally {
      this.#running = false;
    }
  }

  /** Merges the tapes: replays runs of trades from the tape that is first in (time, tape index) order. */
  async #pump(limit: number): Promise<void> {
    const cursors = this.#cursors;
    for (;;) {
      let best: (typeof cursors)[number] | undefined;
      let bestTime = Infinity;
      // The runner-up bounds how far `best` may run before the merge must look again.
      let stopTime = Infinity;
      let stopIndex = Infinity;
      for (const entry of cursors) {
        const cursor = entry.cursor;
        if (cursor.done) continue;
        if (cursor.batch === null || cursor.row >= cursor.batch.length) await cursor.load();
        if (cursor.done) continue;
        const t = cursor.time;
        if (t < bestTime) {
          if (best !== undefined) [stopTime, stopIndex] = [bestTime, best.cursor.index];
          best = entry;
          bestTime = t;
        } else if (t < stopTime) {
          [stopTime, stopIndex] = [t, cursor.index];
        }
      }
      if (best === undefined || bestTime > limit) return;
      const { cursor, runtime } = best;
      const batch = cursor.batch!;
      const { id, price, qty, time, flags } = batch;
      const n = batch.length;
      const index = cursor.index;
      const end = Math.min(limit, stopTime);
      let row = cursor.row;
      let lastTime = cursor.lastTime;
      while (row < n) {
        const t = time[row]!;
        if (t > end || (t === stopTime && index > stopIndex)) break;
        if (t < lastTime) throw new Error(`tape of ${cursor.symbol}: trade ${id[row]} at ${t} µs is before the previous one (${lastTime} µs)`);
        lastTime = t;
        cursor.row = row + 1; // before replaying: a listener that throws leaves the cursor past this trade
        cursor.lastTime = t;
        this.#replayTrade(runtime, id[row]!, t, price[row]!, qty[row]!, (flags[row]! & BUYER_MAKER) !== 0);
        row++;
      }
    }
  }

  #replayTrade(s: SymbolRuntime, tapeId: number, time: number, price: number, qty: number, isBuyerMaker: boolean): void {
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
    if (left > 0) {
      const command: RecordMarketTrade = { type: 'RecordMarketTrade', time, symbol: s.name, price, quantity: left, isBuyerMaker };
      const events = this.engine.apply(command);
      this.journal?.record(command, events);
      const event = events[0];
      // A print the engine refuses (a zero or non-integer amount in the dump) stays out of the
      // tape; the journal shows the refusal.
      if (event !== undefined && event.type === 'MarketTradeRecorded') {
        this.#recordHistory(s, event.tradeId, price, left, event.quoteQuantity, time, isBuyerMaker);
      }
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
    for (const plan of plans) {
      if (plan.quantity === 0) {
        this.#decide(print.time, s.name, plan);
        continue;
      }
      const order = mirror.get(plan.orderId);
      used += plan.quantity;
      if (order === undefined || !(plan.quantity > 0 && plan.quantity <= order.remaining && plan.quantity % s.market.stepUnits === 0) || used > print.qty) {
        throw new Error(`fill model ${this.fillModel.name} planned an impossible fill: ${JSON.stringify(plan)} for print ${print.tapeId} of ${print.qty}`);
      }
      const command: FillFromMarket = { type: 'FillFromMarket', time: print.time, symbol: s.name, orderId: plan.orderId, quantity: plan.quantity, reason: plan.reason };
      const events = this.engine.apply(command);
      this.journal?.record(command, events);
      const event = events[0];
      if (event === undefined || event.type !== 'OrderFilledByMarket') {
        throw new Error(`FillFromMarket refused for order ${plan.orderId}: ${JSON.stringify(events)}`);
      }
      this.stats.marketFills++;
      this.#recordHistory(s, event.tradeId, event.price, event.quantity, event.quoteQuantity, print.time, order.isBuy);
      if (mirror.filled(plan.orderId, plan.quantity)) s.model.orderGone?.(order);
    }
    return used;
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
    this.#onDecision?.({ time, symbol, orderId: plan.orderId, reason: plan.reason });
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
