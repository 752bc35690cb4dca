/**
 * The strategy interface: what a backtest (and a scenario) hands to user code.
 *
 * A strategy is an ES module whose default export (or named export `strategy`) is a function
 * `(ctx: StrategyContext) => void | Promise<void>`. It trades only through `ctx.client`, the REST
 * surface in-process (same paths, parameters and JSON as over HTTP, so a bot's request code moves
 * between a backtest and `exsim serve` unchanged), and it waits only on `ctx.clock`, which runs
 * on the replay's Scheduler (simulated time; a backtest of a day finishes in seconds).
 *
 *   export const params = { spread: '0.001' };          // defaults, overridden by --param/--sweep
 *   export default async function grid(ctx: StrategyContext) {
 *     for (;;) {
 *       const book = await ctx.client.get<Depth>('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5 });
 *       ...
 *       await ctx.clock.sleep(1_000);                     // one simulated second
 *     }
 *   }
 *
 * Rules (the runtime relies on them to stay deterministic and fast):
 * - Await only `ctx.client`, `ctx.clock` and promises built from them. A promise resolved by the
 *   host (a file read, a host timer) would let the replay run on without the strategy.
 * - No `Date.now`, `Math.random` or host timers: `ctx.clock.now()` is the time, `ctx.random()`
 *   a stream seeded from the backtest's seed.
 * - The strategy may never return (a loop until the backtest's end is normal): the backtest stops
 *   at `--to` whatever the strategy is waiting for. `onStop` hooks run then.
 *
 * Research helpers save the code every strategy rewrites: `ctx.bars` (closed bars as objects),
 * `ctx.symbol` (tick, step, minimum notional, rounding onto the grids), `ctx.orders` (typed
 * orders), `ctx.tag` (why an order was sent, shown in trades.csv) and, imported from 'exsim', exact
 * indicators (sma, ema, rsi, bollinger, atr, vwap: indicators.ts).
 */
import type { KlineInterval } from '../data/index.ts';
import type { Bar } from './market-bars.ts';
import type { OrderHelper } from './order-helper.ts';
import type { SymbolRules } from './symbol-rules.ts';

export type { Bar } from './market-bars.ts';
export { OrderHelper, type Order, type OrderFill, type NewOrder } from './order-helper.ts';
export { SymbolRules, type Rounding } from './symbol-rules.ts';
export { atr, bollinger, ema, IndicatorDecimal, rsi, sma, vwap, type BollingerBands, type DecimalInput, type PriceBar } from './indicators.ts';

/** What a REST call answered (the raw form; `get`/`post`/... return `json` or throw). */
export interface RestResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly json: unknown;
}

export type RestMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type RestParams = Readonly<Record<string, string | number | boolean>>;

/** A refused REST call: the HTTP status and the exchange's `{code, msg}`. */
export class RestCallError extends Error {
  constructor(
    readonly method: RestMethod,
    readonly path: string,
    readonly status: number,
    readonly code: number,
    readonly msg: string,
  ) {
    super(`${method} ${path}: HTTP ${status} ${code} ${msg}`);
    this.name = 'RestCallError';
  }
}

/**
 * The REST surface. Every call costs the simulated latency of its leg (entry, or cancel for
 * DELETE order calls) before the exchange handles it, and the ack latency before the answer
 * arrives; with zero latency (the default) it is handled at the current simulated time.
 */
export interface StrategyClient {
  /** The raw response, whatever its status. */
  request(method: RestMethod, path: string, params?: RestParams): Promise<RestResponse>;
  /** The parsed JSON of a 2xx answer; throws `RestCallError` otherwise. */
  get<T = unknown>(path: string, params?: RestParams): Promise<T>;
  post<T = unknown>(path: string, params?: RestParams): Promise<T>;
  put<T = unknown>(path: string, params?: RestParams): Promise<T>;
  delete<T = unknown>(path: string, params?: RestParams): Promise<T>;
}

/** Simulated time, in milliseconds like the REST API (µs where named). */
export interface SimClock {
  /** Simulated now, ms since the epoch. */
  now(): number;
  /** Simulated now, µs since the epoch. */
  nowMicros(): number;
  /** Resolves `ms` simulated milliseconds from now (0: after everything due now). */
  sleep(ms: number): Promise<void>;
  /** Resolves at simulated time `timeMs` (at once when it has passed). */
  sleepUntil(timeMs: number): Promise<void>;
  /** Runs `task` every `ms` (first after `ms`), each run awaited before the next is timed; returns a stop function. */
  every(ms: number, task: (nowMs: number) => void | Promise<void>): () => void;
}

/** One print of the market, as the public trade stream would show it. */
export interface TradeTick {
  readonly symbol: string;
  /** Decimal string, exact. */
  readonly price: string;
  /** The price as a number, for indicators (never for money). */
  readonly priceNumber: number;
  readonly qty: string;
  /** ms since the epoch. */
  readonly time: number;
  readonly isBuyerMaker: boolean;
}

export interface StrategyContext {
  readonly client: StrategyClient;
  readonly clock: SimClock;
  /** The symbols the backtest replays (the first is the main one). */
  readonly symbols: readonly string[];
  /** The module's `params` defaults, overridden by the command line. Always strings: parse what you need. */
  readonly params: Readonly<Record<string, string>>;
  /** The backtest's window, ms since the epoch: [from, to). */
  readonly from: number;
  readonly to: number;
  /** Uniform [0, 1) from a stream seeded by the backtest's seed. */
  random(): number;
  /**
   * Called synchronously for every print of the replayed tape, after the market model handled
   * it, at its simulated time. Work started here runs at that time, before the next print,
   * whether or not the main function has returned: a call is handled at the print's time plus
   * the entry latency and its answer resolves one ack latency later; a `spawn`ed task starts at
   * once. Keep the handler short (note the price, start a call or a task); hand work to a task
   * with `spawn` rather than by resolving a promise of your own, which is seen only at the
   * strategy's next wake-up.
   */
  onTrade(listener: (trade: TradeTick) => void): void;
  /**
   * Subscribes to a Binance market stream by its name (`btcusdt@trade`, `btcusdt@depth@100ms`,
   * `btcusdt@kline_1m`, `btcusdt@bookTicker`, `!miniTicker@arr`, ...; the names and payloads of
   * the WebSocket streams, so a bot's message handler runs unchanged). Messages arrive on the
   * simulated clock: trades at their print, bookTicker when the best levels change, the periodic
   * streams at their cadence (depth every 100 ms or 1 s, klines every 2 s and once more with `x`
   * true at the close, tickers and avgPrice every 1 s). Work started in the handler runs at that
   * time, as in `onTrade`. A listen key from `POST /api/v3/userDataStream` is a stream name too
   * (the account's user data events, as on a WebSocket). Returns the unsubscribe; throws for a
   * name that is neither. `{ market: 'futures' }`: a USDⓈ-M stream of a `futures` backtest, as
   * served at /fstream (`btcusdt@markPrice@1s`, `btcusdt@depth@100ms` of the perpetual,
   * `!forceOrder@arr`, ...); `@markPrice` / `@forceOrder` names need no option (they cannot be
   * spot's), nor does a futures listen key from `POST /fapi/v1/listenKey`.
   */
  stream(name: string, handler: (message: unknown) => void, options?: { readonly market?: 'spot' | 'futures' }): () => void;
  /**
   * The strategy account's user data events (executionReport, outboundAccountPosition,
   * balanceUpdate, listStatus: the user data stream's JSON), as the engine produces them: a fill
   * by a replayed print at the print, a request's own events when it is handled. Returns the
   * unsubscribe.
   */
  onUserData(handler: (event: Record<string, unknown>) => void): () => void;
  /** Runs a concurrent task (its own loop with its own sleeps), tracked like the main one. */
  spawn(task: () => Promise<void>): void;
  /** Runs when the backtest reaches its end (synchronously; the client still answers then, without latency). */
  onStop(hook: () => void): void;
  /** A line in the backtest's log (`log.txt` in the report), stamped with simulated time. */
  log(message: string): void;
  /**
   * The last `limit` (default 500, at most 1000) bars of a replayed symbol that have closed by
   * simulated now, oldest first, as GET /api/v3/klines would list them but without the bar still
   * forming; read from the market history, so they cost no request and no latency.
   */
  bars(symbol: string, interval: KlineInterval, limit?: number): Bar[];
  /** The symbol's rules: tickSize, stepSize, minQty, minNotional, ..., `roundPrice`, `roundQty`. */
  symbol(symbol: string): SymbolRules;
  /** Typed orders over `client`: `place`, `market`, `limit`, `cancel`, `get`, `open`. */
  readonly orders: OrderHelper;
  /**
   * Names the reason an order was sent (`'stop'`, `'take-profit'`, `'signal'`): trades.csv shows the
   * reason of the order that opened each round trip and of the one that closed it. `order` is an
   * orderId (of `symbol`, default the first) or a clientOrderId.
   */
  tag(order: number | string, reason: string, symbol?: string): void;
}

export type StrategyFunction = (ctx: StrategyContext) => void | Promise<void>;

/** What a strategy module may export. */
export interface StrategyModule {
  readonly default?: StrategyFunction;
  readonly strategy?: StrategyFunction;
  /** Parameter defaults (strings, as typed on the command line). */
  readonly params?: Readonly<Record<string, string>>;
  /** Opening balances of the strategy's account as decimal strings, e.g. `{ USDT: '100000', BTC: '1' }`. */
  readonly balances?: Readonly<Record<string, string>>;
  /** Commission: a Binance spot tier (`'VIP3'`) or `{ maker: '0.0002', taker: '0.0004' }` (fractions); default VIP0, 0.1%. */
  readonly fees?: string | { readonly maker: string; readonly taker: string };
  /** Fees paid in BNB: 25% off every rate (see account-setup.ts). */
  readonly bnbDiscount?: boolean;
  /** One line saying what it does (shown by the report). */
  readonly description?: string;
  /**
   * USDⓈ-M perpetuals it trades, Binance names (`['BTCUSDT']`): each is traded through `/fapi` beside
   * its spot symbol, with a mark each simulated second and funding at each funding time, every 8 h
   * unless `:4h` or `:1h` follows the name (`['BTCUSDT:4h']`; futures-setup.ts). Fund the futures wallet with POST /sapi/v1/asset/transfer (MAIN_UMFUTURE).
   */
  readonly futures?: readonly string[];
}
