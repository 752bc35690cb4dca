/**
 * The shape of one row of the endpoint table, and what a handler receives.
 *
 * A row is declarative: method, path, security type, weight (a number, or a function of the
 * parsed parameters where the docs give one), unfilled-order count, parameter schema, a one-line
 * summary for the docs, and the handler. The router, the parameter stage, the limiter stage, the
 * auth stage, the in-process client and the docs listing all read the row; nothing about an
 * endpoint lives anywhere else.
 *
 * Handlers return the JSON body (any JSON-serialisable value) or throw an ApiError. They read the
 * simulated time from `call.nowUs` and send engine commands only through `call.send`.
 */
import type { ApiError, FacadeCommand, MarketBackend } from '../core/index.ts';
import type { EngineEvent } from '../../engine/index.ts';
import type { Refusal, ExchangeContext, LimitGroup } from '../context/index.ts';
import type { ParamSchema, ParsedParams, ParamSpec, ParsedSoFar } from '../params/index.ts';
import type { AuthenticatedKey, SecurityType } from '../signing/index.ts';
import type { TimeUnit } from '../serialize/index.ts';
import type { KeyedLimitName } from '../limits/index.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Whose rate limits a row counts against: spot's (every /api, /sapi, /dapi ... row) or the
 * USDⓈ-M futures API's own (every /fapi row: 2400 weight per minute per IP, its own ORDERS per
 * account; futures facts §1). Derived from the path, so no row can forget it.
 */
export function limitGroupOf(path: string): LimitGroup {
  return path.startsWith('/fapi/') ? 'USDM' : 'SPOT';
}

/** A keyed limit a row charges: which limiter, and the weight of one request. */
export interface KeyedLimit {
  readonly name: KeyedLimitName;
  readonly weight: number;
}

/**
 * What a handler sees of the ExchangeContext: the market (backend queries, futures model), asset
 * precision, and the per-area state rows read (SOR groups, listen keys, the unfilled order count,
 * fiat, pay, disclaimers; the market feed, which REST depth lets observe the book). Not `apply` (commands go through `call.send`), nor the request stages'
 * own parts (API keys, IP weight and keyed limiters, client clock rule, faults, user stream hub).
 */
export type HandlerContext = Pick<
  ExchangeContext,
  'futures' | 'positions' | 'assetPrecision' | 'uidOf' | 'rateLimits' | 'sors' | 'listenKeys' | 'orderLimiter' | 'futuresOrderLimiter' | 'futuresListenKeys' | 'futuresAlgo' | 'futuresCountdowns' | 'futuresPriceMatch' | 'fiat' | 'pay' | 'equityDisclaimers' | 'marketFeed'
> & { readonly backend: Pick<MarketBackend, 'engine' | 'now' | 'history'> };

export interface HandlerCall {
  readonly ctx: HandlerContext;
  /** Unit of every time field in the response (X-MBX-TIME-UNIT). */
  readonly unit: TimeUnit;
  /** The authenticated key; null on NONE endpoints. */
  readonly key: AuthenticatedKey | null;
  /** Simulated time the request is served at, µs. */
  readonly nowUs: number;
  /**
   * The engine round trip (engine-round-trip.ts): the second recvWindow check (-1021), the mark
   * for fault injection, apply at simulated now, the user data stream, first fills; a refusal is
   * thrown as `refusal` maps it. Returns the command's events.
   */
  send(command: FacadeCommand, refusal: Refusal): readonly EngineEvent[];
}

export interface EndpointDef<S extends readonly ParamSpec[]> {
  readonly method: HttpMethod;
  readonly path: string;
  readonly security: SecurityType;
  /** A number, or a function of the parameters (and the exchange, e.g. to tell a known symbol). */
  readonly weight: number | ((params: ParsedParams<S>, ctx: ExchangeContext) => number);
  /**
   * Order placement and cancels: under the fact sheet's 2026-04-02 rule (binance-facts §4.2,
   * ExchangeContext `successfulOrderWeight: 'zero'`) a successful request costs 0 weight and a
   * failed one its listed weight; by default (the seed spec) every request pays its weight.
   */
  readonly weightOnFailureOnly?: boolean;
  /**
   * Errors use the account-service envelope {code STRING, message, data null, success false}
   * (fiat deposit, payment history) instead of {code, msg}; the HTTP status stays.
   */
  readonly envelopeErrors?: boolean;
  /**
   * The answer is what clients sync their clocks to (GET /api/v3/time, the WebSocket API's
   * `time`): the server is told (`ExchangeContext.onServerTime`), so a live server can recognise
   * stamps made with the offset a client learnt from it.
   */
  readonly tellsServerTime?: boolean;
  /** Unfilled-order count a request adds (ORDERS limits); absent: not an order endpoint. */
  readonly orderCount?: number;
  /**
   * A limit besides the IP weight: a per-UID weight (/sapi "weight per user id"), or a per-IP
   * budget a group of endpoints shares (funding rate history and info).
   */
  readonly keyedLimit?: KeyedLimit;
  /** Parameters may come as a JSON object body (Content-Type JSON), e.g. POST /sapi/v1/fiat/deposit. */
  readonly jsonBody?: boolean;
  /**
   * The handler charges the unfilled order count itself (cancelReplace: what happens over the
   * limit depends on its parameters); the request stage only reports the counts afterwards.
   */
  readonly chargesOrderCount?: boolean;
  readonly schema: ParamSchema<S>;
  readonly summary: string;
  readonly handler: (params: ParsedParams<S>, call: HandlerCall) => unknown;
}

/** A row with its parameter types erased, as the table stores it. */
export interface Endpoint {
  readonly method: HttpMethod;
  readonly path: string;
  readonly security: SecurityType;
  readonly weight: number | ((params: ParsedSoFar, ctx: ExchangeContext) => number);
  readonly weightOnFailureOnly: boolean;
  readonly envelopeErrors: boolean;
  readonly tellsServerTime: boolean;
  readonly orderCount: number | undefined;
  readonly chargesOrderCount: boolean;
  readonly keyedLimit: KeyedLimit | undefined;
  readonly limitGroup: LimitGroup;
  readonly jsonBody: boolean;
  readonly schema: ParamSchema;
  readonly summary: string;
  readonly handler: (params: ParsedSoFar, call: HandlerCall) => unknown;
}

/** Declares a row with precisely typed parameters and stores it erased. */
export function defineEndpoint<const S extends readonly ParamSpec[]>(def: EndpointDef<S>): Endpoint {
  const weight = def.weight;
  return {
    method: def.method,
    path: def.path,
    security: def.security,
    weight: typeof weight === 'number' ? weight : (p, ctx) => weight(p as ParsedParams<S>, ctx),
    weightOnFailureOnly: def.weightOnFailureOnly ?? false,
    envelopeErrors: def.envelopeErrors ?? false,
    tellsServerTime: def.tellsServerTime ?? false,
    orderCount: def.orderCount,
    chargesOrderCount: def.chargesOrderCount ?? false,
    keyedLimit: def.keyedLimit,
    limitGroup: limitGroupOf(def.path),
    jsonBody: def.jsonBody ?? false,
    schema: def.schema,
    summary: def.summary,
    handler: (p, call) => def.handler(p as ParsedParams<S>, call),
  };
}

/** The weight of a request to `row` with `params`; the static weight when params are unknown. */
export function weightOf(row: Endpoint, params: ParsedSoFar | undefined, ctx: ExchangeContext): number {
  if (typeof row.weight === 'number') return row.weight;
  return row.weight(params ?? {}, ctx);
}

/** For handlers: the error type they throw, re-exported so rows import one module. */
export type { ApiError };
