/**
 * Runs a strategy's async code against a Replay on the manual clock, as fast as the CPU allows,
 * without ever letting the market run past a moment the strategy is waiting for, and so that
 * every promise the strategy waits on resolves at its simulated time.
 *
 * The drive loop:
 * 1. Settle: if the strategy has runnable work, let it run until it is idle (every task waits on
 *    a simulated-time promise or has finished). Idle is detected with a macrotask barrier that
 *    lets every pending microtask run (see `#settle`); the strategy's code never waits on the
 *    host, so once the barrier passes nothing can happen until simulated time moves.
 * 2. The next stop is the earliest timer on the replay's Scheduler (a wake-up, a request
 *    arriving, an answer coming back), or the end.
 * 3. Replay every print before that time (`runUntil(next - 1)`), then advance the Scheduler to
 *    it: the timers due fire (requests are handled, sleeps resolve) before the prints stamped at
 *    that µs, as the Replay orders timers and prints. Go to 1.
 * The replay stops right after a print (by throwing from the loop's own trade listener, which
 * the Replay supports: its cursor is already past the print) when a trade listener gave the
 * strategy work (a call, a `spawn`, a sleep) or scheduled a timer before the segment's stop. So
 * a call made in `ctx.onTrade` at print time t is handled at t + entry latency and answered at
 * t + entry + ack, and a task spawned there starts at t, whether or not the main function
 * has returned.
 *
 * Cost: a settle is one macrotask (~µs), so it runs only when the strategy has work: `#work` is
 * set when its code calls the client, spawns or sleeps (in a trade listener or anywhere), and when a
 * promise it waits on (a sleep, an answer) resolves. A print that gave a listener nothing to do
 * costs no settle. A listener that hands a print to a task through a promise of its own (not
 * through the client, the clock or `spawn`) is seen at the next settle, not at the print.
 *
 * At the end (`to`), the strategy's `onStop` hooks run, the client answers without latency, and
 * whatever the tasks still wait for is abandoned.
 */
import { type ExchangeContext, FeedDriver, InProcessClient, isFuturesOnlyName } from '../api-facade/index.ts';
import { formatUnits } from '../engine/index.ts';
import { randomStream, type Replay, type ReplayedTrade } from '../sim/index.ts';
import { OrderTags, researchHelpers } from './research-helpers.ts';
import { SimRestClient } from './sim-rest-client.ts';
import { guardHostTime, hostSetImmediate, type HostTimePolicy } from './host-time-guard.ts';
import type { RestMethod, RestResponse, SimClock, StrategyContext, StrategyFunction, TradeTick } from './strategy.ts';

export class StrategyFailure extends Error {}

/** Thrown from the trade listener to end a segment early; never escapes `drive`. */
const STOP_SEGMENT = Symbol('stop-segment');

export interface StrategyRuntimeOptions {
  readonly replay: Replay;
  readonly exchange: ExchangeContext;
  /** The strategy's API key (HMAC, registered in `exchange`). */
  readonly apiKey: string;
  readonly symbols: readonly string[];
  readonly params: Readonly<Record<string, string>>;
  /** µs, [from, to). */
  readonly from: number;
  readonly to: number;
  readonly seed: string;
  /** True: calls pay the replay's latency model; false: handled at once. */
  readonly withLatency: boolean;
  readonly onResponse?: (method: RestMethod, path: string, response: RestResponse) => void;
  /** Called after each print (after the strategy's own listeners): recorders, the progress bar. */
  readonly afterTrade?: (trade: ReplayedTrade) => void;
  /** The strategy's account (its user data events). Default 1. */
  readonly accountId?: number;
  /** Host timers and Date.now in the strategy's code: fail the run (default) or warn (host-time-guard.ts). */
  readonly hostTime?: HostTimePolicy;
}

export class StrategyRuntime {
  /** Lines the strategy logged, each stamped with simulated time. */
  readonly logLines: string[] = [];
  /** The reasons the strategy gave its orders (`ctx.tag`), for trades.csv. */
  readonly tags = new OrderTags();
  /** Segments the drive loop ran (one per distinct stop time). */
  segments = 0;
  readonly #options: StrategyRuntimeOptions;
  readonly #client: SimRestClient;
  readonly #tradeListeners: ((trade: TradeTick) => void)[] = [];
  readonly #stopHooks: (() => void)[] = [];
  readonly #random: () => number;
  #failure: { error: unknown } | null = null;
  #target = Infinity;
  #stopped = false;
  /** The strategy has runnable work (microtasks to settle before simulated time moves on). */
  #work = false;
  /** Settles (macrotask barriers) run. */
  settles = 0;
  /** Delivers the market streams the strategy subscribed to, on the replay's clock and scheduler. */
  readonly #feed: FeedDriver;
  #feedActive = false;

  constructor(options: StrategyRuntimeOptions) {
    this.#options = options;
    this.#random = randomStream(options.seed, 'strategy');
    this.#feed = new FeedDriver(options.exchange.marketFeed, options.replay, (time, action) => options.replay.schedule(time, action));
    this.#client = new SimRestClient({
      client: new InProcessClient(options.exchange, { apiKey: options.apiKey, ip: 'strategy' }),
      scheduler: options.replay.scheduler,
      latency: options.withLatency ? options.replay.latency : null,
      onActivity: () => {
        this.#work = true;
      },
      ...(options.onResponse === undefined ? {} : { onResponse: options.onResponse }),
    });
  }

  /** Runs `strategy` from the replay's current time to `to`. Throws StrategyFailure if the strategy throws. */
  async drive(strategy: StrategyFunction): Promise<void> {
    const release = guardHostTime(this.#options.hostTime ?? 'fail', (error) => this.#fail(error));
    try {
      await this.#drive(strategy);
    } finally {
      release();
    }
  }

  async #drive(strategy: StrategyFunction): Promise<void> {
    const { replay, to } = this.#options;
    const scheduler = replay.scheduler;
    const symbolPrecision = new Map(replay.engine.symbolNames().map((s) => [s, replay.engine.symbolSpec(s)!]));
    replay.onTrade((trade) => {
      if (this.#tradeListeners.length > 0) {
        const spec = symbolPrecision.get(trade.symbol)!;
        const price = formatUnits(trade.price, spec.quotePrecision);
        const tick: TradeTick = {
          symbol: trade.symbol,
          price,
          priceNumber: Number(price),
          qty: formatUnits(trade.qty, spec.basePrecision),
          time: Math.floor(trade.time / 1000),
          isBuyerMaker: trade.isBuyerMaker,
        };
        for (const listener of this.#tradeListeners) {
          try {
            listener(tick);
          } catch (error) {
            this.#fail(error);
          }
        }
      }
      if (this.#feedActive) this.#feed.pump();
      this.#options.afterTrade?.(trade);
      if (this.#work || this.#failure !== null || (scheduler.nextTime() ?? Infinity) < this.#target) throw STOP_SEGMENT;
    });
    this.#spawn(() => strategy(this.#context()));
    for (;;) {
      if (this.#work) await this.#settle();
      // What the strategy's own requests did at this µs (its trades, the book it moved) streams
      // now; a handler that starts work settles before time moves on.
      if (this.#feedActive) {
        this.#feed.pump();
        if (this.#work) continue;
      }
      this.#throwIfFailed();
      const next = Math.min(scheduler.nextTime() ?? Infinity, to);
      this.#target = next;
      this.segments++;
      try {
        if (next - 1 >= replay.now) await replay.runUntil(next - 1);
      } catch (error) {
        if (error === STOP_SEGMENT) continue;
        throw error;
      }
      if (next >= to) break;
      scheduler.advanceTo(next);
    }
    this.#target = Infinity;
    this.#stopped = true;
    this.#client.close();
    for (const hook of this.#stopHooks) {
      try {
        hook();
      } catch (error) {
        this.#fail(error);
      }
    }
    await this.#settle();
    this.#throwIfFailed();
  }

  /**
   * Lets every pending microtask run: a macrotask boundary comes only after the microtask queue
   * is empty, so when it resolves the strategy has done all it can at this simulated time.
   */
  async #settle(): Promise<void> {
    this.settles++;
    // determinism-ok: an event-loop barrier that drains the strategy's microtasks; it reads no time and orders nothing.
    await new Promise((resolve) => hostSetImmediate(resolve));
    // Whatever the strategy did meanwhile has settled too (its microtasks ran before the barrier).
    this.#work = false;
  }

  #spawn(task: () => void | Promise<void>): void {
    this.#work = true;
    Promise.resolve()
      .then(task)
      .catch((error: unknown) => this.#fail(error));
  }

  #fail(error: unknown): void {
    if (this.#failure === null) this.#failure = { error };
  }

  #throwIfFailed(): void {
    if (this.#failure === null) return;
    const error = this.#failure.error;
    const at = new Date(Math.floor(this.#options.replay.now / 1000)).toISOString();
    throw new StrategyFailure(`strategy failed at ${at}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }

  #wakeAt(timeMicros: number): Promise<void> {
    const scheduler = this.#options.replay.scheduler;
    if (this.#stopped) return new Promise(() => {}); // the backtest is over: never resolves
    const at = Math.max(scheduler.now, Math.ceil(timeMicros));
    this.#work = true;
    return new Promise((resolve) => {
      scheduler.schedule(at, () => {
        this.#work = true;
        resolve();
      });
    });
  }

  #context(): StrategyContext {
    const { replay, symbols, params, from, to } = this.#options;
    const clock: SimClock = {
      now: () => Math.floor(replay.now / 1000),
      nowMicros: () => replay.now,
      sleep: (ms) => {
        if (!(ms >= 0 && Number.isFinite(ms))) return Promise.reject(new RangeError(`sleep(${ms}): must be a finite number of ms >= 0`));
        return this.#wakeAt(replay.now + Math.round(ms * 1000));
      },
      sleepUntil: (timeMs) => this.#wakeAt(timeMs * 1000),
      every: (ms, task) => {
        if (!(ms > 0 && Number.isFinite(ms))) throw new RangeError(`every(${ms}): must be a finite number of ms > 0`);
        let running = true;
        this.#spawn(async () => {
          for (;;) {
            await clock.sleep(ms);
            if (!running) return;
            await task(clock.now());
          }
        });
        return () => {
          running = false;
        };
      },
    };
    return {
      client: this.#client,
      clock,
      symbols,
      params,
      from: Math.floor(from / 1000),
      to: Math.floor(to / 1000),
      random: this.#random,
      onTrade: (listener) => void this.#tradeListeners.push(listener),
      stream: (name, handler, options) => {
        const exchange = this.#options.exchange;
        const deliver = (message: unknown): void => {
          this.#work = true;
          try {
            handler(message);
          } catch (error) {
            this.#fail(error);
          }
        };
        // A listen key is a stream name too (as on a WebSocket): the key's account's user data events.
        const keyAccount = exchange.listenKeys.accountOf(name, replay.now);
        if (keyAccount !== undefined) return exchange.userStream.subscribe(keyAccount, deliver);
        const futuresKeyAccount = exchange.futuresListenKeys.accountOf(name, replay.now);
        if (futuresKeyAccount !== undefined) return exchange.futuresUserStream.subscribe(futuresKeyAccount, deliver);
        // As /ws does: names only the futures market has need no option.
        const venue = options?.market === 'futures' || isFuturesOnlyName(name) ? 'futures' : 'spot';
        const unsubscribe = exchange.marketFeed.subscribe(name, deliver, undefined, venue);
        if (unsubscribe === null) {
          const kind = venue === 'futures' ? 'USDⓈ-M stream (e.g. btcusdt@markPrice@1s, btcusdt@depth@100ms of a traded perpetual)' : 'market stream (e.g. btcusdt@trade, btcusdt@depth@100ms, btcusdt@kline_1m)';
          throw new RangeError(`"${name}" is not a ${kind} of this backtest nor a live listen key`);
        }
        this.#feedActive = true;
        this.#feed.pump();
        return unsubscribe;
      },
      onUserData: (handler) =>
        this.#options.exchange.userStream.subscribe(this.#options.accountId ?? 1, (event) => {
          this.#work = true;
          try {
            handler(event as unknown as Record<string, unknown>);
          } catch (error) {
            this.#fail(error);
          }
        }),
      spawn: (task) => this.#spawn(task),
      onStop: (hook) => void this.#stopHooks.push(hook),
      log: (message) => void this.logLines.push(`${new Date(Math.floor(replay.now / 1000)).toISOString()} ${message}`),
      ...researchHelpers({ engine: replay.engine, history: (symbol) => this.#options.exchange.backend.history(symbol), now: () => replay.now, symbols, client: this.#client, tags: this.tags }),
    };
  }
}
