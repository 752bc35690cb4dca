/**
 * One WebSocket API connection, transport-agnostic: text frames in (`handle`), text frames out
 * (the `send` it was given). ws-api-sockets.ts wires it to a `ws` socket; tests and benches may
 * drive it directly.
 *
 * Request lifecycle (web-socket-api.md "Request format", "Response format"):
 *
 *   text frame
 *     │
 *     ▼
 *   1 envelope ──── nested 128 levels deep (refused before it is parsed: nothing recursive
 *     ▼             ever walks it), not JSON, not an object, `id` not an integer/string/null,
 *     ▼             `method` not a string, `params` not an object ─→ 400 -1135 "Invalid JSON
 *     ▼             Request" (weight 1, as a REST request to no endpoint), with the request's id
 *     ▼             when it can be read (null otherwise)
 *   2 method ────── not a method of the connection's venue (ws-api-methods.ts: spot, a `v3/`
 *     ▼             prefix allowed; ws-fapi-methods.ts: USDⓈ-M futures) ─→ 400 -1000 (weight 1)
 *     ▼             `returnRateLimits` not a boolean ─→ 400 -1130 (weight 1)
 *     ▼
 *   3-8 the REST pipeline on the method's row (handle-request.ts serveEndpoint): parameters
 *     ▼             (-11xx), IP weight (429/418 -1003, counted with the IP's REST requests),
 *     ▼             apiKey/session + signature (ws-api-authenticator.ts: -1102, -2014, -2015,
 *     ▼             -1022), timestamp (-1021), unfilled order count (-1015), the handler
 *     ▼
 *   9 session ───── the connection's own methods act once the stages passed: logon, status,
 *     ▼             logout, subscribe (-1002 without a logon, -2035 twice for an account,
 *     ▼             -1191 past 1000 active, -2042 past 65535 in a lifetime), unsubscribe (-2036)
 *     ▼
 *  10 answer ────── {"id","status","result"} or {"id","status","error":{code,msg[,data]}},
 *                   then "rateLimits" unless turned off (connection URL or the request's
 *                   `returnRateLimits`): the account's ORDERS windows on order rows, then the
 *                   IP's REQUEST_WEIGHT windows. A 429/418 error carries
 *                   data {serverTime, retryAfter}; after a 418 the connection is closed.
 *
 * Ids (web-socket-api.md "Request format": INT / STRING / null, echoed): an integer is read
 * from the frame's text and echoed exactly within the signed 64-bit range (JSON.parse would round
 * 9007199254740993 to ...992: params/json-text-scan.ts); a fraction, an exponent or a value
 * beyond that range is not an id (-1135). An id is kept as the JSON text it is answered with.
 *
 * User data: a subscription delivers the account's events from UserStreamHub as
 * {"subscriptionId": N, "event": {...}}; events a request itself causes are sent right after
 * its answer. Ending a subscription (unsubscribe, logout for the logon one) sends
 * eventStreamTerminated. Subscription ids count from 0 per connection (the docs' examples).
 *
 * Determinism: simulated time only (ctx.now()); nothing here draws a random number.
 */
import { ApiError, apiError } from '../core/index.ts';
import type { ExchangeContext } from '../context/index.ts';
import { serveEndpoint, type EndpointOutcome } from '../rest/index.ts';
import type { WindowUsage } from '../limits/index.ts';
import { exactRequestId, nestingBeyond, paramErrors } from '../params/index.ts';
import { apiTime, type TimeUnit, answerText } from '../serialize/index.ts';
import type { ApiKeyEntry, AuthenticatedKey } from '../signing/index.ts';
import { WsApiAuthenticator, type SessionKeyHolder } from './ws-api-authenticator.ts';
import { SPOT_WS_API, type SessionAction, type WsApiMethod, type WsApiVenue } from './ws-api-methods.ts';
import { collectWsApiParams, wsApiRowOf } from './ws-api-params.ts';

export interface WsApiConnectionOptions {
  readonly ip: string;
  /** Time unit of every answer and event (`timeUnit` in the connection URL). */
  readonly unit: TimeUnit;
  /** `returnRateLimits` of the connection URL (default true). */
  readonly returnRateLimits: boolean;
  /** Sends one text frame. */
  readonly send: (text: string) => void;
  /** Ends the connection (after an IP ban). */
  readonly close: (code: number, reason: string) => void;
  /**
   * Which WebSocket API the connection is (default spot's /ws-api/v3): its methods, and whose
   * REQUEST_WEIGHT and ORDERS windows its frames count against and answer with (ws-fapi-methods.ts:
   * USDⓈ-M's /ws-fapi/v1, on the futures limits). The envelope is the same on both.
   */
  readonly venue?: WsApiVenue;
}

interface Subscription {
  readonly accountId: number;
  /** Started by userDataStream.subscribe on the logged-on key (ended by session.logout). */
  readonly fromLogon: boolean;
  readonly unsubscribe: () => void;
}

interface Envelope {
  /** The request id as the JSON text it is echoed with. */
  readonly id: string;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** Binance's subscription limits per connection (web-socket-api.md, "User Data Stream subscription"). */
export const MAX_ACTIVE_SUBSCRIPTIONS = 1000;
export const MAX_LIFETIME_SUBSCRIPTIONS = 65535;

const POLICY_VIOLATION = 1008;
const ENVELOPE_WEIGHT = 1;

export class WsApiConnection implements SessionKeyHolder {
  readonly #ctx: ExchangeContext;
  readonly #options: WsApiConnectionOptions;
  readonly #venue: WsApiVenue;
  readonly connectedSince: number;
  sessionKey: ApiKeyEntry | undefined;
  #authorizedSince: number | undefined;
  readonly #subscriptions = new Map<number, Subscription>();
  #subscriptionsStarted = 0;
  /** Events raised while a request is served, sent after its answer; undefined between requests. */
  #held: string[] | undefined;
  #closed = false;

  constructor(ctx: ExchangeContext, options: WsApiConnectionOptions) {
    this.#ctx = ctx;
    this.#options = options;
    this.#venue = options.venue ?? SPOT_WS_API;
    this.connectedSince = ctx.now();
  }

  /** Active user data subscriptions. */
  get subscriptionCount(): number {
    return this.#subscriptions.size;
  }

  /** Serves one text frame; never throws. */
  handle(text: string): void {
    if (this.#closed) return;
    this.#held = [];
    let answer: string;
    try {
      answer = this.#answer(text);
    } catch {
      answer = this.#frame(idOf(text), failed(apiError('UNKNOWN_ERROR')), undefined, false);
    }
    this.#options.send(answer);
    const held = this.#held;
    this.#held = undefined;
    for (const event of held) this.#options.send(event);
  }

  /** Ends every subscription (the socket closed). */
  close(): void {
    this.#closed = true;
    for (const sub of this.#subscriptions.values()) sub.unsubscribe();
    this.#subscriptions.clear();
  }

  revokeSession(): void {
    this.#logout();
  }

  #answer(text: string): string {
    const ctx = this.#ctx;
    const ip = this.#options.ip;
    const weightLimiter = ctx.weightLimiterOf(this.#venue.limitGroup);
    let envelope: Envelope;
    try {
      envelope = readEnvelope(text);
    } catch (error) {
      weightLimiter.addWeight(ip, ENVELOPE_WEIGHT, ctx.now());
      return this.#frame(idOf(text), failed(error), undefined, this.#options.returnRateLimits);
    }
    const method = this.#venue.find(envelope.method);
    const returnRateLimits = envelope.params['returnRateLimits'] ?? this.#options.returnRateLimits;
    if (method === undefined || typeof returnRateLimits !== 'boolean') {
      weightLimiter.addWeight(ip, ENVELOPE_WEIGHT, ctx.now());
      const error = method === undefined ? apiError('WS_API_UNKNOWN_METHOD', envelope.method) : paramErrors.invalidData('returnRateLimits');
      return this.#frame(envelope.id, failed(error), undefined, this.#options.returnRateLimits);
    }
    const auth = new WsApiAuthenticator(envelope.params, method.permission, this, ip, method.session === 'logon');
    let outcome = serveEndpoint(ctx, { row: wsApiRowOf(method.row), raw: collectWsApiParams(envelope.params), unit: this.#options.unit, ip, auth });
    if (outcome.status === 200 && method.session !== undefined) outcome = this.#session(method.session, auth.key, envelope.params, returnRateLimits, outcome);
    const frame = this.#frame(envelope.id, outcome, returnRateLimits ? this.#orderCounts(method, auth.key, outcome) : undefined, returnRateLimits);
    if (outcome.error !== undefined && outcome.status === BANNED) this.#closeSoon();
    return frame;
  }

  #closeSoon(): void {
    this.#closed = true;
    queueMicrotask(() => this.#options.close(POLICY_VIOLATION, 'IP banned'));
  }

  /** ORDERS windows of the account, on order rows whose key is known. */
  #orderCounts(method: WsApiMethod, key: AuthenticatedKey | null, outcome: EndpointOutcome): readonly WindowUsage[] | undefined {
    if (method.row.orderCount === undefined || key === null) return undefined;
    return outcome.orderCounts ?? this.#ctx.orderLimiterOf(method.row.limitGroup).counts(String(key.accountId), this.#ctx.now());
  }

  /** An answer frame; `id` is the request id's JSON text. */
  #frame(id: string, outcome: EndpointOutcome, orderCounts: readonly WindowUsage[] | undefined, returnRateLimits: boolean): string {
    const now = this.#ctx.now();
    let text = `{"id":${id},"status":${outcome.status},`;
    if (outcome.error === undefined) {
      const body = outcome.body;
      text += `"result":${answerText(body)}`;
    } else {
      const error: { code: number; msg: string; data?: unknown } = outcome.error.toBody();
      if (outcome.retryAfterSeconds !== undefined && error.data === undefined) {
        const nowMs = Math.floor(now / 1000);
        error.data = { serverTime: nowMs, retryAfter: nowMs + outcome.retryAfterSeconds * 1000 };
      }
      text += `"error":${JSON.stringify(error)}`;
    }
    if (returnRateLimits) text += `,"rateLimits":${JSON.stringify(rateLimitsOf(orderCounts, this.#ctx.weightLimiterOf(this.#venue.limitGroup).usage(this.#options.ip, now)))}`;
    return `${text}}`;
  }

  #session(action: SessionAction, key: AuthenticatedKey | null, params: Readonly<Record<string, unknown>>, returnRateLimits: boolean, passed: EndpointOutcome): EndpointOutcome {
    try {
      return succeeded(this.#act(action, key, params, returnRateLimits), passed);
    } catch (error) {
      return failed(error);
    }
  }

  #act(action: SessionAction, key: AuthenticatedKey | null, params: Readonly<Record<string, unknown>>, returnRateLimits: boolean): unknown {
    switch (action) {
      case 'logon': {
        const entry = this.#ctx.apiKeys.get((key as AuthenticatedKey).apiKey) as ApiKeyEntry;
        if (this.sessionKey !== entry) this.#endLogonSubscription();
        this.sessionKey = entry;
        this.#authorizedSince = this.#ctx.now();
        return this.#status(returnRateLimits);
      }
      case 'status':
        return this.#status(returnRateLimits);
      case 'logout':
        this.#logout();
        return this.#status(returnRateLimits);
      case 'subscriptions':
        return [...this.#subscriptions.keys()].map((subscriptionId) => ({ subscriptionId }));
      case 'subscribe':
        if (this.sessionKey === undefined) throw apiError('UNAUTHORIZED');
        return { subscriptionId: this.#subscribe(this.sessionKey.accountId, true) };
      case 'subscribeSignature':
        return { subscriptionId: this.#subscribe((key as AuthenticatedKey).accountId, false) };
      case 'unsubscribe':
        this.#unsubscribe(params['subscriptionId'] === undefined ? undefined : Number(params['subscriptionId']));
        return {};
    }
  }

  #status(returnRateLimits: boolean): unknown {
    const unit = this.#options.unit;
    const since = this.#authorizedSince;
    return {
      apiKey: this.sessionKey?.apiKey ?? null,
      authorizedSince: since === undefined || this.sessionKey === undefined ? null : apiTime(since, unit),
      connectedSince: apiTime(this.connectedSince, unit),
      returnRateLimits,
      serverTime: apiTime(this.#ctx.now(), unit),
      userDataStream: this.#subscriptions.size > 0,
    };
  }

  #subscribe(accountId: number, fromLogon: boolean): number {
    for (const sub of this.#subscriptions.values()) if (sub.accountId === accountId) throw apiError('SUBSCRIPTION_ACTIVE');
    if (this.#subscriptions.size >= MAX_ACTIVE_SUBSCRIPTIONS) throw apiError('TOO_MANY_SUBSCRIPTIONS', MAX_ACTIVE_SUBSCRIPTIONS);
    if (this.#subscriptionsStarted >= MAX_LIFETIME_SUBSCRIPTIONS) throw apiError('MAXIMUM_SUBSCRIPTION_IDS');
    const subscriptionId = this.#subscriptionsStarted++;
    const prefix = `{"subscriptionId":${subscriptionId},"event":`;
    const unsubscribe = this.#ctx.userStream.subscribe(
      accountId,
      (event) => this.#deliver(`${prefix}${JSON.stringify(event)}}`),
      this.#options.unit,
    );
    this.#subscriptions.set(subscriptionId, { accountId, fromLogon, unsubscribe });
    return subscriptionId;
  }

  #deliver(frame: string): void {
    if (this.#closed) return;
    if (this.#held !== undefined) this.#held.push(frame);
    else this.#options.send(frame);
  }

  #unsubscribe(subscriptionId: number | undefined): void {
    if (this.#subscriptions.size === 0) throw apiError('SUBSCRIPTION_INACTIVE');
    if (subscriptionId === undefined) {
      for (const id of [...this.#subscriptions.keys()]) this.#end(id);
      return;
    }
    if (!this.#subscriptions.has(subscriptionId)) throw apiError('SUBSCRIPTION_INACTIVE');
    this.#end(subscriptionId);
  }

  #end(subscriptionId: number): void {
    const sub = this.#subscriptions.get(subscriptionId);
    if (sub === undefined) return;
    sub.unsubscribe();
    this.#subscriptions.delete(subscriptionId);
    const event = { e: 'eventStreamTerminated', E: apiTime(this.#ctx.now(), this.#options.unit) };
    this.#deliver(`{"subscriptionId":${subscriptionId},"event":${JSON.stringify(event)}}`);
  }

  #endLogonSubscription(): void {
    for (const [id, sub] of [...this.#subscriptions]) if (sub.fromLogon) this.#end(id);
  }

  #logout(): void {
    this.#endLogonSubscription();
    this.sessionKey = undefined;
    this.#authorizedSince = undefined;
  }
}

const BANNED = 418;

function succeeded(body: unknown, passed: EndpointOutcome): EndpointOutcome {
  return { status: 200, body, error: undefined, orderCounts: passed.orderCounts, retryAfterSeconds: undefined };
}

function failed(thrown: unknown): EndpointOutcome {
  const error = thrown instanceof ApiError ? thrown : apiError('UNKNOWN_ERROR');
  return { status: error.status, body: error.toBody(), error, orderCounts: undefined, retryAfterSeconds: undefined };
}

/** The envelope of a request frame; throws -1135 for anything that is not one. */
function readEnvelope(text: string): Envelope {
  // Refused unparsed: JSON.stringify of a parameter (ws-api-params.ts) would overflow the stack.
  if (nestingBeyond(text) >= 0) throw paramErrors.invalidJsonRequest();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw paramErrors.invalidJsonRequest();
  }
  if (!isObject(parsed)) throw paramErrors.invalidJsonRequest();
  const { method, params } = parsed;
  const id = idText(parsed['id'], text);
  if (id === undefined || typeof method !== 'string' || (params !== undefined && !isObject(params))) throw paramErrors.invalidJsonRequest();
  return { id, method, params: params ?? {} };
}

/**
 * The request's id when it can be read, for the answer to a frame that is not a request: a
 * frame refused for its depth is still read (V8's JSON.parse is iterative: only recursive walks
 * of the value are at risk), a frame that is not JSON has none.
 */
function idOf(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    return (isObject(parsed) ? idText(parsed['id'], text) : undefined) ?? NULL_ID;
  } catch {
    return NULL_ID;
  }
}

const NULL_ID = 'null';
const anyString = (): boolean => true;

/** INT / STRING / null (web-socket-api.md "Request format") as its JSON text; absent is null; undefined for any other id. */
function idText(id: unknown, text: string): string | undefined {
  return id === undefined ? NULL_ID : exactRequestId(id, text, anyString);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The `rateLimits` array: ORDERS windows (order rows), shortest first, then REQUEST_WEIGHT
 * windows, as both APIs' examples list them (spot: SECOND 10 then DAY 1; USDⓈ-M ws-fapi
 * order.place: SECOND 10 then MINUTE 1, then REQUEST_WEIGHT MINUTE 1).
 */
function rateLimitsOf(orderCounts: readonly WindowUsage[] | undefined, weight: readonly WindowUsage[]): object[] {
  const out: object[] = [];
  const orders = (orderCounts ?? []).filter((usage) => usage.limit.rateLimitType === 'ORDERS');
  for (const usage of orders.sort((a, b) => windowSeconds(a) - windowSeconds(b))) out.push(rateLimitJson(usage));
  for (const usage of weight) if (usage.limit.rateLimitType === 'REQUEST_WEIGHT') out.push(rateLimitJson(usage));
  return out;
}

const INTERVAL_SECONDS: Readonly<Record<string, number>> = { SECOND: 1, MINUTE: 60, HOUR: 3600, DAY: 86_400 };

function windowSeconds(usage: WindowUsage): number {
  return (INTERVAL_SECONDS[usage.limit.interval] ?? 0) * usage.limit.intervalNum;
}

function rateLimitJson(usage: WindowUsage): object {
  const { rateLimitType, interval, intervalNum, limit } = usage.limit;
  return { rateLimitType, interval, intervalNum, limit, count: usage.used };
}
