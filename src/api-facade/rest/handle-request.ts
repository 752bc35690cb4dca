/**
 * handleRequest: THE transport seam. The HTTP server and the in-process client both call it; it
 * never throws and never writes to stdout. Every response is JSON: a success body, or
 * `{code, msg}` with the status of the stage that refused the request.
 * serveEndpoint runs the same stages from 3 on for a request a transport has routed and collected
 * itself, with its own stage 5 (`RequestAuthenticator`): the WebSocket API (ws-api/) does.
 *
 * Lifecycle (the first stage that fails answers; stages read the endpoint table's row):
 *
 *   request {method, path, rawQuery, rawBody, headers, ip}
 *     │
 *     ▼
 *   0 firewall ──────── (fault, off by default) SQL statement in query or body ─→ 403 -1000
 *     ▼
 *   1 route ─────────── method+path not in the table ─→ 404 {-1000 "Unknown endpoint: GET /x"}
 *     ▼                 (Binance answers an HTML 404; a JSON body is kinder to clients)
 *   2 X-MBX-TIME-UNIT ─ not MICROSECOND/MILLISECOND (either case) ─→ 400 -1194
 *     ▼
 *   3 params ───────── collectRawParams + parseParams against row.schema ─→ 400 -1100..-1151
 *     ▼                (param-schema.ts gives their order; the body is read on POST/PUT/DELETE
 *     ▼                 unless the Content-Type is JSON; `jsonBody` rows read a JSON object
 *     ▼                 body then, -1135 when it is not one, and sign over it)
 *   4 IP weight ────── RequestWeightLimiter.charge(ip, weight(params)) ─→ 429 -1003 / 418 -1003,
 *     ▼                both with Retry-After; then a row's per-IP keyedLimit (funding rate
 *     ▼                endpoints' shared budget) ─→ 429 -1003 with Retry-After
 *   5 API key + sig ── verifyRequest (row.security) ─→ 401 -2014 / 401 -2015 / 400 -1102 / 400 -1022
 *     ▼                then a row's per-UID keyedLimit (/sapi weight per user id) ─→ 429 -1003
 *     ▼                with Retry-After and X-SAPI-USED-UID-WEIGHT-1M
 *   6 timestamp ────── SIGNED only; ctx.clientTime maps it to simulated µs ─→ 400 -1021
 *     ▼                ("...outside of the recvWindow." / "...1000ms ahead of the server's time.")
 *   7 order count ──── rows with orderCount: OrderCountLimiter.charge(account) ─→ 429 -1015
 *     ▼                (rows with chargesOrderCount, i.e. cancelReplace, charge in the handler)
 *     ▼
 *   8 handler ──────── row.handler; `call.send()` repeats the recvWindow check (-1021) just
 *     ▼                before a command reaches the engine; engine refusals via rejectToApiError
 *     ▼                (-1013, -2010, -2011, ...), queries -2013 / -2039 / -1121 / -1220 ...
 *     ▼                (fault, off by default) a command that reached the engine answers
 *     ▼                503 -1007 with probability p, though it ran (faults.ts)
 *   9 serialize ────── JSON (JSON.stringify, or a handler's own JsonText / JsonAnswer: serialize/json-text.ts;
 *                      handleRequestValue gives the in-process client the parsed value instead,
 *                      copied directly: serialize/json-value.ts);
 *                      X-MBX-USED-WEIGHT-* (+ legacy X-MBX-USED-WEIGHT) on EVERY response,
 *                      X-MBX-ORDER-COUNT-* on successful order-count rows only
 *
 *   anything else thrown ─→ 500 -1000 "An unknown error occurred while processing the request."
 *
 * Weight rules:
 * - A request refused at stages 1-3 is not weighed by `charge` (its weight may depend on the
 *   params it failed to send) but still pays, via addWeight: the row's weight with default
 *   params, 1 for an unknown path. It counts no raw request.
 * - Rows with `weightOnFailureOnly` (order placement and cancels) pay their listed weight like
 *   any row by default (the seed spec). With ExchangeContext `successfulOrderWeight: 'zero'` (the
 *   fact sheet's 2026-04-02 rule) they are admitted with weight 0 and pay their listed weight
 *   (addWeight) when they fail at any later stage.
 * - Rows with `envelopeErrors` (fiat deposit, payment history) answer errors as
 *   {code: "<code>", message, data: null, success: false} with the same status.
 *
 * Consequence of this order: a malformed parameter is reported before a missing or bad API key
 * or signature, and an over-limit IP is refused before its key is looked at.
 * Determinism: simulated time only (ctx.now()); no wall clock, timers or randomness.
 */
import { ApiError, apiError, type FacadeCommand } from '../core/index.ts';
import { engineTimeout, firewallBlocked, sendToEngine, type Refusal, type ExchangeContext } from '../context/index.ts';
import type { EngineEvent } from '../../engine/index.ts';
import { findEndpoint, type Endpoint, type HandlerCall, weightOf } from '../endpoints/index.ts';
import { writeLimitHeaders, type WindowUsage, type KeyedLimitName } from '../limits/index.ts';
import { collectJsonParams, collectRawParams, type RawParams, parseParams, type ParsedSoFar, type TimestampParam } from '../params/index.ts';
import { type TimeUnit, answerText, answerValueOf, parseTimeUnit } from '../serialize/index.ts';
import { type ApiKeyRegistry, type AuthenticatedKey, isSigned, type SecurityType, type RequestHeaders, verifyRequest } from '../signing/index.ts';
import { checkTimestamp, DEFAULT_RECV_WINDOW_US, recheckRecvWindow } from './timing.ts';

export interface ApiRequest {
  readonly method: string;
  /** Path without the query string (a '?...' tail is split off if present). */
  readonly path: string;
  /** Query string as received, without '?'. */
  readonly rawQuery: string;
  /** Body as received (latin1 from the HTTP adapter), '' when none. */
  readonly rawBody: string;
  readonly headers: RequestHeaders;
  /** Client IP; undefined for in-process callers (weight is then counted under 'in-process'). */
  readonly ip?: string | undefined;
}

export interface ApiResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** JSON text. */
  readonly body: string;
}

export const TIME_UNIT_HEADER = 'x-mbx-time-unit';
const IN_PROCESS_IP = 'in-process';
const JSON_CONTENT_TYPE = 'application/json;charset=UTF-8';

const unknownError = (): ApiError => apiError('UNKNOWN_ERROR');
const invalidTimeUnit = (): ApiError => apiError('INVALID_TIME_UNIT');
const notFound = (method: string, path: string): ApiError => apiError('UNKNOWN_ENDPOINT', method, path);

/** One header's single value, names matched case-insensitively; undefined if absent. */
export function headerValue(headers: RequestHeaders, name: string): string | undefined {
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== name) continue;
    const v = headers[key];
    return typeof v === 'string' ? v : v?.[0];
  }
  return undefined;
}

function timeUnitOf(headers: RequestHeaders): TimeUnit {
  const unit = parseTimeUnit(headerValue(headers, TIME_UNIT_HEADER));
  if (unit === null) throw invalidTimeUnit();
  return unit;
}

function isJson(request: ApiRequest): boolean {
  return (headerValue(request.headers, 'content-type') ?? '').toLowerCase().includes('json');
}

/** The form body, or '' for GET and JSON bodies (clients send an empty JSON body on DELETE). */
function formBody(request: ApiRequest): string {
  if (request.method === 'GET') return '';
  return isJson(request) ? '' : request.rawBody;
}

/** Mutable progress of one request through the stages, for the final headers and weight. */
interface Progress {
  row: Endpoint | undefined;
  params: ParsedSoFar | undefined;
  /** Stage 4 passed (charge counted the request). */
  admitted: boolean;
  /** Stage 4 refused it (429/418): the limiter settled its weight. */
  limiterRefused: boolean;
  retryAfterSeconds: number | undefined;
  orderCounts: readonly WindowUsage[] | undefined;
  /** Headers of a keyed limit the row charged (per-UID weight). */
  keyedHeaders: Record<string, string> | undefined;
}

/** Serves one request; never throws. */
export function handleRequest(ctx: ExchangeContext, request: ApiRequest): ApiResponse {
  return handleRequestAs(ctx, request, bodyText);
}

/** What handleRequest answers, with the body rendered for its reader. */
interface Rendered<B> {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: B;
}

/** An answer whose body is the value a client parses from the JSON text, not the text itself. */
export interface ApiValueResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** Equal to JSON.parse of handleRequest's body, and the caller's own (serialize/json-value.ts). */
  readonly json: unknown;
}

/**
 * Serves one request as handleRequest does, and answers with the parsed body instead of its
 * text: the in-process client's path (no stringify on this side and no parse on the other).
 * Never throws.
 */
export function handleRequestValue(ctx: ExchangeContext, request: ApiRequest): ApiValueResponse {
  const answer = handleRequestAs(ctx, request, answerValueOf);
  return { status: answer.status, headers: answer.headers, json: answer.body };
}

/**
 * The stages and the answer's headers, with the body made by `render` (text for a transport,
 * the value for the in-process client). A render that throws answers 500 -1000.
 */
function handleRequestAs<B>(ctx: ExchangeContext, request: ApiRequest, render: (body: unknown) => B): Rendered<B> {
  const ip = request.ip ?? IN_PROCESS_IP;
  const progress = newProgress();
  // No closure over the stages (see "Hot path" in ARCHITECTURE.md): the try is written out here and in serveEndpoint.
  try {
    return respond(ctx, ip, 200, runStages(ctx, request, ip, progress), progress, render);
  } catch (e) {
    const failed = failure(ctx, ip, progress, e);
    return respond(ctx, ip, failed.status, failed.body, progress, render);
  }
}

/**
 * One endpoint request whose transport already routed it, collected its parameters and knows
 * how it is authenticated: the WebSocket API (ws-api/) enters the pipeline here, at stage 3,
 * and runs the same stages 3-8 (parse, IP weight, key + signature through `auth`, timestamp,
 * order count, handler) with the same errors and weight rules as handleRequest.
 */
export interface EndpointRequest {
  readonly row: Endpoint;
  readonly raw: RawParams;
  readonly unit: TimeUnit;
  /** Client IP (the weight of every transport from that IP is counted together). */
  readonly ip: string;
  readonly auth: RequestAuthenticator;
}

/** Stage 5 as a transport does it: REST reads headers and the raw query/body; the WebSocket API its params. */
export interface RequestAuthenticator {
  /** The key for a request to a row of `security`; null for NONE; throws the ApiError otherwise. */
  authenticate(security: SecurityType, registry: ApiKeyRegistry): AuthenticatedKey | null;
}

/** What an endpoint request came to: the status and body, and what rate-limit answers need. */
export interface EndpointOutcome {
  readonly status: number;
  /** A success value (possibly a JsonText) or the `{code, msg}` body of the error. */
  readonly body: unknown;
  /** The error answered, when status is not 200. */
  readonly error: ApiError | undefined;
  /** The account's unfilled order counts after a successful order-count row. */
  readonly orderCounts: readonly WindowUsage[] | undefined;
  readonly retryAfterSeconds: number | undefined;
}

/** Serves one already-routed endpoint request (see EndpointRequest); never throws. */
export function serveEndpoint(ctx: ExchangeContext, request: EndpointRequest): EndpointOutcome {
  const progress = newProgress();
  progress.row = request.row;
  try {
    const body = runEndpoint(ctx, request.row, request.raw, request.unit, request.ip, request.auth, progress);
    return { status: 200, body, error: undefined, orderCounts: progress.orderCounts, retryAfterSeconds: progress.retryAfterSeconds };
  } catch (e) {
    return failure(ctx, request.ip, progress, e);
  }
}

function newProgress(): Progress {
  return { row: undefined, params: undefined, admitted: false, limiterRefused: false, retryAfterSeconds: undefined, orderCounts: undefined, keyedHeaders: undefined };
}

/** A thrown error as its answer (an unknown one as -1000), after paying its weight. */
function failure(ctx: ExchangeContext, ip: string, progress: Progress, thrown: unknown): EndpointOutcome {
  const error = thrown instanceof ApiError ? thrown : unknownError();
  const body = progress.row?.envelopeErrors === true ? { code: String(error.code), message: error.msg, data: error.data ?? null, success: false } : error.toBody();
  try {
    chargeFailure(ctx, ip, progress);
  } catch {
    // Weight bookkeeping must not turn a client error into a 500.
  }
  return { status: error.status, body, error, orderCounts: progress.orderCounts, retryAfterSeconds: progress.retryAfterSeconds };
}

function chargeFailure(ctx: ExchangeContext, ip: string, progress: Progress): void {
  const row = progress.row;
  const now = ctx.now();
  if (progress.limiterRefused) return;
  if (row === undefined) ctx.weightLimiter.addWeight(ip, 1, now);
  else if (!progress.admitted) ctx.weightLimiterOf(row.limitGroup).addWeight(ip, safeWeight(ctx, row, progress.params), now);
  else if (paysOnFailureOnly(ctx, row)) ctx.weightLimiterOf(row.limitGroup).addWeight(ip, safeWeight(ctx, row, progress.params), now);
}

/** Order placement and cancels under the fact sheet's 2026 rule (off by default: the seed's weights). */
function paysOnFailureOnly(ctx: ExchangeContext, row: Endpoint): boolean {
  return row.weightOnFailureOnly && ctx.successfulOrderWeight === 'zero';
}

function safeWeight(ctx: ExchangeContext, row: Endpoint, params: ParsedSoFar | undefined): number {
  try {
    return weightOf(row, params, ctx);
  } catch {
    return weightOf(row, {}, ctx);
  }
}

function runStages(ctx: ExchangeContext, request: ApiRequest, ip: string, progress: Progress): unknown {
  // 1 route
  const q = request.path.indexOf('?');
  const path = q < 0 ? request.path : request.path.slice(0, q);
  const rawQuery = q < 0 ? request.rawQuery : request.rawQuery === '' ? request.path.slice(q + 1) : request.rawQuery;
  const method = request.method.toUpperCase();
  // The firewall stands in front of the application: it sees the raw request, routed or not.
  if (ctx.faults.firewallBlocks(rawQuery, request.rawBody)) throw firewallBlocked();
  const row = findEndpoint(method, path);
  if (row === undefined) throw notFound(method, path);
  progress.row = row;

  // 2 time unit
  const unit = timeUnitOf(request.headers);

  // 3 params (collected here, parsed by runEndpoint)
  const jsonBody = row.jsonBody && request.method !== 'GET' && isJson(request);
  const rawBody = jsonBody ? request.rawBody : formBody(request);
  const raw = jsonBody ? collectJsonParams(rawQuery, rawBody) : collectRawParams(rawQuery, rawBody);
  return runEndpoint(ctx, row, raw, unit, ip, new HttpAuthenticator(request.headers, rawQuery, rawBody, request.ip), progress);
}

/** REST's stage 5: the X-MBX-APIKEY header and the signature over the raw query and body. */
class HttpAuthenticator implements RequestAuthenticator {
  readonly #headers: RequestHeaders;
  readonly #rawQuery: string;
  readonly #rawBody: string;
  readonly #clientIp: string | undefined;

  constructor(headers: RequestHeaders, rawQuery: string, rawBody: string, clientIp: string | undefined) {
    this.#headers = headers;
    this.#rawQuery = rawQuery;
    this.#rawBody = rawBody;
    this.#clientIp = clientIp;
  }

  authenticate(security: SecurityType, registry: ApiKeyRegistry): AuthenticatedKey | null {
    return verifyRequest({ securityType: security, headers: this.#headers, rawQuery: this.#rawQuery, rawBody: this.#rawBody, clientIp: this.#clientIp }, registry);
  }
}

/** Stages 3 (parse) to 8 of a routed request, whatever its transport. */
function runEndpoint(ctx: ExchangeContext, row: Endpoint, raw: RawParams, unit: TimeUnit, ip: string, auth: RequestAuthenticator, progress: Progress): unknown {
  // 3 params
  const params = parseParams(row.schema, raw);
  progress.params = params;

  // 4 IP weight
  // /fapi rows count against the futures API's own limits (endpoint-row.ts limitGroupOf).
  const charge = ctx.weightLimiterOf(row.limitGroup).charge(ip, paysOnFailureOnly(ctx, row) ? 0 : weightOf(row, params, ctx), ctx.now());
  progress.admitted = true;
  if (!charge.ok) {
    progress.retryAfterSeconds = charge.retryAfterSeconds;
    // Refused by the limiter: it already counted (429) or ignored (418) this request.
    progress.limiterRefused = true;
    throw charge.error;
  }
  if (row.keyedLimit?.name === 'fundingRate') chargeKeyed(ctx, row.keyedLimit.name, ip, row.keyedLimit.weight, progress);

  // 5 API key + signature
  const key: AuthenticatedKey | null = auth.authenticate(row.security, ctx.apiKeys);
  if (row.keyedLimit?.name === 'uidWeight' && key !== null) chargeKeyed(ctx, 'uidWeight', String(ctx.uidOf(key.accountId)), row.keyedLimit.weight, progress);

  // 6 timestamp / recvWindow on simulated time
  let timestampUs: number | undefined;
  let recvWindowUs = DEFAULT_RECV_WINDOW_US;
  if (isSigned(row.security)) {
    timestampUs = ctx.clientTime(params['timestamp'] as TimestampParam, ctx.now(), ip);
    recvWindowUs = (params['recvWindow'] as number | undefined) ?? DEFAULT_RECV_WINDOW_US;
    checkTimestamp(timestampUs, recvWindowUs, ctx.now());
  }

  // 7 unfilled order count
  if (row.orderCount !== undefined && key !== null && !row.chargesOrderCount) {
    const counted = ctx.orderLimiterOf(row.limitGroup).charge(String(key.accountId), row.orderCount, ctx.now());
    if (!counted.ok) throw counted.error;
  }

  // Due countdownCancelAll timers fire before a /fapi request is served (hosts without a scheduler).
  if (row.limitGroup === 'USDM') ctx.futuresCountdowns.fireDue(ctx.now());

  // 8 handler; a command that reached the engine may lose its answer to an injected timeout
  const call = new Call(ctx, unit, key, timestampUs, recvWindowUs);
  let result: unknown;
  try {
    result = row.handler(params, call);
  } catch (error) {
    if (call.reachedEngine && ctx.faults.engineTimedOut()) throw engineTimeout();
    throw error;
  }
  if (call.reachedEngine && ctx.faults.engineTimedOut()) throw engineTimeout();
  if (row.orderCount !== undefined && key !== null) progress.orderCounts = ctx.orderLimiterOf(row.limitGroup).counts(String(key.accountId), ctx.now());
  // A client may learn its clock offset from this answer (the live server's client clock rule keeps it).
  if (row.tellsServerTime) ctx.onServerTime?.(call.nowUs, ip);
  return result;
}

/**
 * What a handler sees of one request. A class rather than an object literal with arrow functions:
 * the closures were rebuilt on every request (and, under tsx's keepNames transform, each was also
 * renamed with Object.defineProperty), a few percent of a signed order's cost.
 */
class Call implements HandlerCall {
  readonly ctx: ExchangeContext;
  readonly unit: TimeUnit;
  readonly key: AuthenticatedKey | null;
  readonly nowUs: number;
  /** The signed request's timestamp on simulated time; undefined when not SIGNED (no recheck). */
  readonly #timestampUs: number | undefined;
  readonly #recvWindowUs: number;
  /** send ran: a command may have reached the engine. */
  reachedEngine = false;

  constructor(ctx: ExchangeContext, unit: TimeUnit, key: AuthenticatedKey | null, timestampUs: number | undefined, recvWindowUs: number) {
    this.ctx = ctx;
    this.unit = unit;
    this.key = key;
    this.nowUs = ctx.now();
    this.#timestampUs = timestampUs;
    this.#recvWindowUs = recvWindowUs;
  }

  send(command: FacadeCommand, refusal: Refusal): readonly EngineEvent[] {
    if (this.#timestampUs !== undefined) recheckRecvWindow(this.#timestampUs, this.#recvWindowUs, this.ctx.now());
    this.reachedEngine = true;
    return sendToEngine(this.ctx, command, refusal);
  }
}

/** A row's keyed limit (see the lifecycle): refuses with 429 -1003 and Retry-After. */
function chargeKeyed(ctx: ExchangeContext, name: KeyedLimitName, key: string, weight: number, progress: Progress): void {
  const limiter = ctx.keyedLimiters[name];
  const charged = limiter.charge(key, weight, ctx.now());
  progress.keyedHeaders = limiter.headers(charged.usage);
  if (!charged.ok) {
    progress.retryAfterSeconds = charged.retryAfterSeconds;
    throw charged.error;
  }
}

function respond<B>(ctx: ExchangeContext, ip: string, status: number, body: unknown, progress: Progress, render: (body: unknown) => B): Rendered<B> {
  try {
    const headers: Record<string, string> = { 'Content-Type': JSON_CONTENT_TYPE };
    const limiter = progress.row === undefined ? ctx.weightLimiter : ctx.weightLimiterOf(progress.row.limitGroup);
    writeLimitHeaders(headers, { weight: limiter.usage(ip, ctx.now()), orderCounts: progress.orderCounts, retryAfterSeconds: progress.retryAfterSeconds });
    if (progress.keyedHeaders !== undefined) Object.assign(headers, progress.keyedHeaders);
    return { status, headers, body: render(body) };
  } catch {
    const error = unknownError();
    return { status: error.status, headers: { 'Content-Type': JSON_CONTENT_TYPE }, body: render(error.toBody()) };
  }
}

/** The JSON text of a handler's answer (a JsonText is already its text, a JsonAnswer writes its own). */
function bodyText(body: unknown): string {
  return answerText(body);
}
