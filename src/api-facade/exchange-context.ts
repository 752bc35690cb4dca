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
 * - Intended rule for live pacing (not implemented here): a timestamp close to the host's wall
 *   clock is a wall-clock stamp and is mapped through the pacing adapter's real→simulated
 *   mapping (src/clock/pacing.ts) before the check; any other timestamp is taken as simulated
 *   time. Both kinds then pass while fresh and fail when stale or ahead, in every clock mode.
 *   The pacing adapter will supply that function; the facade reads no wall clock itself.
 *
 * Rules: no wall clock, no randomness; one context serves one simulated exchange.
 */
import type { TimestampParam } from './params/param-types.ts';
import { ApiKeyRegistry } from './signing/api-key-registry.ts';
import type { ApiKeyConfig } from './signing/api-key-registry.ts';
import { BINANCE_RATE_LIMITS, validateRateLimits, type RateLimit } from './limits/rate-limit-config.ts';
import { RequestWeightLimiter, type RequestWeightLimiterOptions } from './limits/request-weight-limiter.ts';
import { OrderCountLimiter } from './limits/order-count-limiter.ts';
import { ListenKeyStore } from './listen-keys.ts';
import type { FacadeCommand, MarketBackend } from './market-backend.ts';
import type { EngineEvent } from '../engine/events.ts';
import { UserStreamHub } from './user-stream/user-stream-hub.ts';
import { Faults, type FaultOptions } from './faults.ts';
import { FuturesMarket, PositionsModel } from '../futures/index.ts';
import { defaultKeyedLimiters, type KeyedLimitName, type KeyedWeightLimiter } from './limits/keyed-weight-limiter.ts';
import { FiatAccounts } from './account-services/fiat-accounts.ts';
import { PayLedger } from './account-services/pay-ledger.ts';
import { EquityDisclaimers } from './account-services/equity-disclaimers.ts';

/** Maps a client's `timestamp` to simulated µs (see header). */
export type ClientTimeRule = (timestamp: TimestampParam, simulatedNowUs: number) => number;

export const IDENTITY_CLIENT_TIME: ClientTimeRule = (timestamp) => timestamp.us;

export interface ExchangeContextOptions {
  readonly backend: MarketBackend;
  readonly apiKeys?: readonly ApiKeyConfig[];
  /** exchangeInfo `rateLimits` and what the limiters enforce; default the live Binance values. */
  readonly rateLimits?: readonly RateLimit[];
  readonly weightLimiter?: Omit<RequestWeightLimiterOptions, 'rateLimits'>;
  readonly clientTime?: ClientTimeRule;
  /** `uid` shown by GET account; default 1_000_000 + accountId. */
  readonly uidOf?: (accountId: number) => number;
  /** Injected faults (engine timeouts, firewall); all off by default. */
  readonly faults?: FaultOptions;
  /** Seed of the futures model (basis, positions); DEFAULT_FUTURES_SEED when absent. */
  readonly futuresSeed?: string;
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
  readonly listenKeys = new ListenKeyStore();
  /** User data stream events of every batch the facade causes or observes. */
  readonly userStream: UserStreamHub;
  readonly clientTime: ClientTimeRule;
  readonly uidOf: (accountId: number) => number;
  readonly faults: Faults;
  readonly sors: readonly SorGroup[];
  readonly successfulOrderWeight: 'listed' | 'zero';
  /** The futures venues derived from the spot market (src/futures), and their positions model. */
  readonly futures: FuturesMarket;
  readonly positions: PositionsModel;
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
    this.clientTime = options.clientTime ?? IDENTITY_CLIENT_TIME;
    this.uidOf = options.uidOf ?? ((accountId) => 1_000_000 + accountId);
    this.faults = new Faults(options.faults);
    this.sors = options.sors ?? [];
    this.successfulOrderWeight = options.successfulOrderWeight ?? 'listed';
    const engine = this.backend.engine;
    const specs = engine.symbolNames().flatMap((name) => engine.symbolSpec(name) ?? []);
    this.futures = new FuturesMarket({ specs, history: (symbol) => this.backend.history(symbol), ...(options.futuresSeed === undefined ? {} : { seed: options.futuresSeed }) });
    this.positions = new PositionsModel(this.futures);
    this.keyedLimiters = defaultKeyedLimiters();
    this.pay = new PayLedger(this.uidOf);
    for (const a of this.backend.engine.config.assets ?? []) this.#precision.set(a.asset, a.precision);
    // A resting order the replayed market fills between requests stops counting as unfilled at
    // its first fill, exactly as one filled by another request does (noteFirstFills).
    this.userStream = new UserStreamHub(this.backend.engine, this.assetPrecision);
    this.backend.onMarketFill?.((fill) => {
      const order = this.backend.engine.getOrder(fill.accountId, fill.symbol, { orderId: fill.orderId });
      if (order !== undefined && order.executedQty === fill.quantity) this.orderLimiter.onFirstFill(String(fill.accountId), fill.time);
      if (this.backend.onMarketEvents === undefined) this.userStream.publish([fill]);
    });
    // What the market's own commands set off (stops triggered by prints, OCO partners expired)
    // reaches the stream with the fill that caused it.
    this.backend.onMarketEvents?.((events) => this.userStream.publish(events));
  }

  /** Applies a command at simulated now and pushes its user data stream events. */
  apply(command: FacadeCommand): readonly EngineEvent[] {
    const events = this.backend.apply(command);
    this.userStream.publish(events);
    return events;
  }

  /** Simulated now, µs. */
  now(): number {
    return this.backend.now;
  }

  /** Decimal places of an asset (8 unless configured, as in the engine). */
  readonly assetPrecision = (asset: string): number => this.#precision.get(asset) ?? 8;
}
