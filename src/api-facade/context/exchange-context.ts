/**
 * Everything a request is judged and served against: the market backend (engine + histories +
 * simulated clock), the API keys, the two limiters, listen keys, and the rule that maps a
 * client's `timestamp` onto simulated time.
 *
 * Client clocks (issue 5). A client's `timestamp` is compared with SIMULATED now. The mapping is
 * a hook, `clientTime`:
 * - Default (identity): the timestamp is read as simulated time. Right for in-process clients and
 *   for bots that learn the offset from GET /api/v3/time (they send server time), and for any
 *   session whose simulated clock is the wall clock (realtime pacing from "now").
 * - `exsim serve` supplies the live rule (src/serve/client-clock.ts): the timestamp is read both as a
 *   wall-clock stamp placed on the simulated time line by the pacing and as simulated time, and
 *   the reading nearer to simulated now is judged. The facade reads no wall clock itself.
 *
 * The futures model (src/futures) is built on the first futures request: a spot-only session
 * never builds it.
 *
 * Rules: no wall clock, no randomness; one context serves one simulated exchange.
 */
import { MarketFeed, ListenKeyStore, UserStreamHub, futuresUserStreamEvents } from '../streams/index.ts';
import type { TimestampParam } from '../params/index.ts';
import { ApiKeyRegistry, type ApiKeyConfig } from '../signing/index.ts';
import { BINANCE_RATE_LIMITS, USDM_FUTURES_RATE_LIMITS, validateRateLimits, type RateLimit, RequestWeightLimiter, type RequestWeightLimiterOptions, OrderCountLimiter, defaultKeyedLimiters, type KeyedLimitName, type KeyedWeightLimiter } from '../limits/index.ts';
import type { FacadeCommand, MarketBackend } from '../core/index.ts';
import { type EngineEvent, isFuturesSymbol } from '../../engine/index.ts';
import { Faults, type FaultOptions } from './faults.ts';
import { FuturesMarket, PositionsModel, type FundingSetup } from '../../futures/index.ts';
import { FiatAccounts, PayLedger, EquityDisclaimers } from '../account-services/index.ts';
import { noteFill } from './engine-round-trip.ts';
import { FuturesAlgoDriver } from './futures-algo-driver.ts';
import { FuturesCountdowns } from './futures-countdowns.ts';
import { FuturesPriceMatches } from './futures-price-match.ts';

/** Whose rate limits a request counts against (endpoint-row.ts `limitGroupOf`). */
export type LimitGroup = 'SPOT' | 'USDM';

/** Maps a client's `timestamp` to simulated µs (see header). */
/** Maps a client's `timestamp` onto simulated µs; `ip` is the client's (a rule may remember what each client was told). */
export type ClientTimeRule = (timestamp: TimestampParam, simulatedNowUs: number, ip: string) => number;

export const IDENTITY_CLIENT_TIME: ClientTimeRule = (timestamp) => timestamp.us;

export interface ExchangeContextOptions {
  readonly backend: MarketBackend;
  readonly apiKeys?: readonly ApiKeyConfig[];
  /** exchangeInfo `rateLimits` and what the limiters enforce; default the live Binance values. */
  readonly rateLimits?: readonly RateLimit[];
  /** The USDⓈ-M futures API's limits (/fapi rows, counted apart from spot's); default USDM_FUTURES_RATE_LIMITS. */
  readonly futuresRateLimits?: readonly RateLimit[];
  readonly weightLimiter?: Omit<RequestWeightLimiterOptions, 'rateLimits'>;
  readonly clientTime?: ClientTimeRule;
  /** Told the simulated time each answer a client may sync its clock to carries (GET /api/v3/time). */
  readonly onServerTime?: (simulatedUs: number, ip: string) => void;
  /** `uid` shown by GET account; default 1_000_000 + accountId. */
  readonly uidOf?: (accountId: number) => number;
  /** Injected faults (engine timeouts, firewall); all off by default. */
  readonly faults?: FaultOptions;
  /** Seed of the futures model (basis, positions); DEFAULT_FUTURES_SEED when absent. */
  readonly futuresSeed?: string;
  /** Funding of the traded USDⓈ-M perpetuals (interval, recorded rates), as the replay's futures clock settles it. */
  readonly futuresFunding?: Readonly<Record<string, FundingSetup>>;
  /** Recorded marks of the traded USDⓈ-M perpetuals (FuturesMarket `marks`), as the replay's futures clock sends them. */
  readonly futuresMarks?: Readonly<Record<string, (t: number) => number | null>>;
  /**
   * Smart order routing groups (exchangeInfo `sors`). Default none: SOR is off, exchangeInfo has
   * no `sors` key and POST sor/order is refused. With one group per base asset, a symbol in a
   * group takes SOR orders; this single-venue simulation fills them from the symbol's own book.
   */
  readonly sors?: readonly SorGroup[];
  /**
   * Weight of a successful order placement or cancel: 'listed' (default) pays the endpoint's
   * weight as the seed spec lists it (1); 'zero' is the fact sheet's 2026-04-02 rule (a successful
   * one costs 0, a failed one its weight).
   */
  readonly successfulOrderWeight?: 'listed' | 'zero';
}

/** One SOR group: symbols sharing a base asset whose quotes are interchangeable 1:1. */
export interface SorGroup {
  readonly baseAsset: string;
  readonly symbols: readonly string[];
}

export class ExchangeContext {
  readonly backend: MarketBackend;
  readonly apiKeys: ApiKeyRegistry;
  readonly rateLimits: readonly RateLimit[];
  readonly weightLimiter: RequestWeightLimiter;
  readonly orderLimiter: OrderCountLimiter;
  /** The /fapi rows' own limits: request weight per IP and orders per account (futures facts §1). */
  readonly futuresRateLimits: readonly RateLimit[];
  readonly futuresWeightLimiter: RequestWeightLimiter;
  readonly futuresOrderLimiter: OrderCountLimiter;
  readonly listenKeys = new ListenKeyStore();
  /** USDⓈ-M futures listen keys (POST /fapi/v1/listenKey): one per account, apart from spot's. */
  readonly futuresListenKeys = new ListenKeyStore('FUTURES_INVALID_LISTEN_KEY');
  /** User data stream events of every batch the facade causes or observes. */
  readonly userStream: UserStreamHub;
  /** The USDⓈ-M user data stream (futures listen keys): ORDER_TRADE_UPDATE, ACCOUNT_UPDATE, ... */
  readonly futuresUserStream: UserStreamHub;
  /** The USDⓈ-M conditional orders (POST /fapi/v1/algoOrder), placed in the engine at their trigger. */
  readonly futuresAlgo: FuturesAlgoDriver;
  /** POST /fapi/v1/countdownCancelAll's timers. */
  readonly futuresCountdowns: FuturesCountdowns;
  /** The priceMatch mode of each order the facade priced from the book. */
  readonly futuresPriceMatch = new FuturesPriceMatches();
  /** Market streams on simulated time (WebSocket connections and backtests subscribe; REST depth observes). */
  readonly marketFeed: MarketFeed;
  readonly clientTime: ClientTimeRule;
  readonly onServerTime: ((simulatedUs: number, ip: string) => void) | undefined;
  readonly uidOf: (accountId: number) => number;
  readonly faults: Faults;
  readonly sors: readonly SorGroup[];
  readonly successfulOrderWeight: 'listed' | 'zero';
  readonly #futuresSeed: string | undefined;
  readonly #futuresFunding: Readonly<Record<string, FundingSetup>> | undefined;
  readonly #futuresMarks: Readonly<Record<string, (t: number) => number | null>> | undefined;
  #futures: FuturesMarket | undefined;
  #positions: PositionsModel | undefined;
  /** Limits besides the IP weight that endpoint rows name (`keyedLimit`). */
  readonly keyedLimiters: Record<KeyedLimitName, KeyedWeightLimiter>;
  /**
   * Account-side supplementary state: fiat deposit settings and records, the payment history
   * (tests and scenarios add payments with `pay.record`), equity disclaimer acceptances.
   */
  readonly fiat = new FiatAccounts();
  readonly pay: PayLedger;
  readonly equityDisclaimers = new EquityDisclaimers();
  readonly #precision = new Map<string, number>();

  constructor(options: ExchangeContextOptions) {
    this.backend = options.backend;
    this.apiKeys = new ApiKeyRegistry(options.apiKeys ?? []);
    this.rateLimits = validateRateLimits(options.rateLimits ?? BINANCE_RATE_LIMITS);
    this.weightLimiter = new RequestWeightLimiter({ ...options.weightLimiter, rateLimits: this.rateLimits });
    this.orderLimiter = new OrderCountLimiter({ rateLimits: this.rateLimits });
    this.futuresRateLimits = validateRateLimits(options.futuresRateLimits ?? USDM_FUTURES_RATE_LIMITS);
    this.futuresWeightLimiter = new RequestWeightLimiter({ ...options.weightLimiter, rateLimits: this.futuresRateLimits });
    this.futuresOrderLimiter = new OrderCountLimiter({ rateLimits: this.futuresRateLimits });
    this.clientTime = options.clientTime ?? IDENTITY_CLIENT_TIME;
    this.onServerTime = options.onServerTime;
    this.uidOf = options.uidOf ?? ((accountId) => 1_000_000 + accountId);
    this.faults = new Faults(options.faults);
    this.sors = options.sors ?? [];
    this.#futuresSeed = options.futuresSeed;
    this.#futuresFunding = options.futuresFunding;
    this.#futuresMarks = options.futuresMarks;
    this.successfulOrderWeight = options.successfulOrderWeight ?? 'listed';
    this.keyedLimiters = defaultKeyedLimiters();
    this.pay = new PayLedger(this.uidOf);
    for (const a of this.backend.engine.config.assets ?? []) this.#precision.set(a.asset, a.precision);
    // A resting order the replayed market fills between requests stops counting as unfilled at
    // its first fill, exactly as one filled by another request does (engine-round-trip.ts).
    this.userStream = new UserStreamHub(this.backend.engine, this.assetPrecision);
    this.futuresUserStream = new UserStreamHub(this.backend.engine, this.assetPrecision, (events, c) =>
      futuresUserStreamEvents(events, c, (symbol, orderId) => this.futuresPriceMatch.modeOf(symbol, orderId)),
    );
    const backend = this.backend;
    this.futuresCountdowns = new FuturesCountdowns({
      engine: backend.engine,
      apply: (command) => this.apply(command),
      schedule: backend.schedule === undefined ? undefined : (time, action) => backend.schedule!(time, action),
    });
    this.futuresAlgo = new FuturesAlgoDriver({ engine: this.backend.engine, apply: (command) => this.apply(command), stream: this.futuresUserStream, assetPrecision: this.assetPrecision });
    this.marketFeed = new MarketFeed(this.backend, { futures: () => this.futures });
    this.backend.onMarketFill?.((fill) => {
      noteFill(this.backend.engine, this.orderLimiter, fill.accountId, fill.symbol, fill.orderId, fill.quantity, fill.time);
      if (this.backend.onMarketEvents === undefined) this.#publish([fill]);
    });
    // What the market's own commands set off (stops triggered by prints, OCO partners expired)
    // reaches the stream with the fill that caused it.
    this.backend.onMarketEvents?.((events) => this.#publish(events));
  }

  /** The futures venues derived from the spot market (src/futures), built on first use. */
  get futures(): FuturesMarket {
    if (this.#futures === undefined) {
      const engine = this.backend.engine;
      // The derived futures market reads the spot tape; margin symbols are not spot pairs.
      const specs = engine.symbolNames().filter((n) => !isFuturesSymbol(n)).flatMap((name) => engine.symbolSpec(name) ?? []);
      const seed = this.#futuresSeed;
      const funding = this.#futuresFunding;
      const marks = this.#futuresMarks;
      this.#futures = new FuturesMarket({ specs, history: (symbol) => this.backend.history(symbol), ...(seed === undefined ? {} : { seed }), ...(funding === undefined ? {} : { funding }), ...(marks === undefined ? {} : { marks }) });
    }
    return this.#futures;
  }

  /** The futures venues' positions model (open interest, ratios, ADL, insurance fund). */
  get positions(): PositionsModel {
    this.#positions ??= new PositionsModel(this.futures);
    return this.#positions;
  }

  /** Applies a command at simulated now and pushes its user data stream events (through `call.send` from a handler). */
  apply(command: FacadeCommand): readonly EngineEvent[] {
    const events = this.backend.apply(command);
    this.#publish(events);
    return events;
  }

  /** Both user data streams see every batch; each says only what is its own (spot or futures). */
  #publish(events: readonly EngineEvent[]): void {
    // A priceMatch placement learns its order id here, before anything is said of the order.
    this.futuresPriceMatch.bind(events);
    this.userStream.publish(events);
    this.futuresUserStream.publish(events);
    // Prices and fills of the batch move the algo book; what fires is placed (and published) here.
    this.futuresAlgo.observe(events);
  }

  /** The account and stream of a live listen key of either API, or undefined. */
  userStreamOfKey(key: string, nowUs: number): { readonly accountId: number; readonly hub: UserStreamHub; readonly keys: ListenKeyStore } | undefined {
    const spot = this.listenKeys.accountOf(key, nowUs);
    if (spot !== undefined) return { accountId: spot, hub: this.userStream, keys: this.listenKeys };
    const futures = this.futuresListenKeys.accountOf(key, nowUs);
    if (futures !== undefined) return { accountId: futures, hub: this.futuresUserStream, keys: this.futuresListenKeys };
    return undefined;
  }

  /** The request-weight limiter a row counts against (its limitGroup: /fapi rows have their own). */
  weightLimiterOf(group: LimitGroup): RequestWeightLimiter {
    return group === 'USDM' ? this.futuresWeightLimiter : this.weightLimiter;
  }

  /** The order-count limiter a row counts against. */
  orderLimiterOf(group: LimitGroup): OrderCountLimiter {
    return group === 'USDM' ? this.futuresOrderLimiter : this.orderLimiter;
  }

  /** Simulated now, µs. */
  now(): number {
    return this.backend.now;
  }

  /** Decimal places of an asset (8 unless configured, as in the engine). */
  readonly assetPrecision = (asset: string): number => this.#precision.get(asset) ?? 8;
}
