/**
 * The facade without sockets: builds the same raw request a REST client would (query string for
 * GET, form body otherwise; `timestamp` and an HMAC `signature` on SIGNED rows) and passes it to
 * handleRequest's stages (handleRequestValue: the answer comes back as the value a client would
 * parse, without the text). Fast and deterministic, for backtests and tests.
 *
 * Rules:
 * - Whether to sign is read from the endpoint table (row.security), as an HTTP client's library
 *   would know it; unknown paths are sent unsigned (and get the 404).
 * - The key's HMAC secret is taken from the context's ApiKeyRegistry (the client and the
 *   exchange share a process); RSA / Ed25519 keys cannot be signed this way (throws).
 * - `timestamp` is the simulated now in ms (a client that syncs with GET /api/v3/time), unless
 *   the caller passes its own.
 */
import { findEndpoint } from '../endpoints/index.ts';
import type { ExchangeContext } from '../context/index.ts';
import { handleRequestValue, type ApiRequest, type ApiResponse } from './handle-request.ts';
import { signHmacSha256, isSigned, API_KEY_HEADER } from '../signing/index.ts';

export type ParamValue = string | number | boolean;

export interface InProcessClientOptions {
  readonly apiKey?: string;
  /** Reported as the client IP (weight limits are per IP). */
  readonly ip?: string;
  /** Sends X-MBX-TIME-UNIT: MICROSECOND. */
  readonly microseconds?: boolean;
}

export interface ClientResponse extends ApiResponse {
  /** The body parsed (the caller's own copy). */
  readonly json: unknown;
}

/** Characters application/x-www-form-urlencoded leaves as they are (URLSearchParams' serializer). */
const FORM_SAFE = /^[A-Za-z0-9*\-._]*$/;

/**
 * `params` form-encoded exactly as `new URLSearchParams(...).toString()` would, joined directly
 * when every key and value is made of characters the encoding leaves alone (symbols, sides,
 * decimals, ids: nearly every call), through URLSearchParams otherwise.
 */
function formEncode(params: Readonly<Record<string, ParamValue>>): string {
  let out = '';
  for (const key in params) {
    if (!Object.hasOwn(params, key)) continue;
    const value = String(params[key]);
    if (!FORM_SAFE.test(key) || !FORM_SAFE.test(value)) return new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
    out += out === '' ? `${key}=${value}` : `&${key}=${value}`;
  }
  return out;
}

/**
 * An answer of the in-process client. A class with `body` on its prototype rather than an object
 * literal with a getter: the literal made a closure and an accessor per answer, which cost more
 * than the JSON round trip it replaced (GET depth limit=20: 16 -> 26 µs). `body` is the JSON text
 * of `json`, written on first read (a caller that changes `json` before reading it sees the
 * change); spreading an answer (`{...r}`) does not copy `body`.
 */
class InProcessResponse implements ClientResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly json: unknown;
  #text: string | undefined;

  constructor(status: number, headers: Record<string, string>, json: unknown) {
    this.status = status;
    this.headers = headers;
    this.json = json;
  }

  get body(): string {
    this.#text ??= JSON.stringify(this.json);
    return this.#text;
  }
}

export class InProcessClient {
  readonly #ctx: ExchangeContext;
  readonly #options: InProcessClientOptions;

  constructor(ctx: ExchangeContext, options: InProcessClientOptions = {}) {
    this.#ctx = ctx;
    this.#options = options;
  }

  get(path: string, params: Readonly<Record<string, ParamValue>> = {}): ClientResponse {
    return this.request('GET', path, params);
  }
  post(path: string, params: Readonly<Record<string, ParamValue>> = {}): ClientResponse {
    return this.request('POST', path, params);
  }
  put(path: string, params: Readonly<Record<string, ParamValue>> = {}): ClientResponse {
    return this.request('PUT', path, params);
  }
  delete(path: string, params: Readonly<Record<string, ParamValue>> = {}): ClientResponse {
    return this.request('DELETE', path, params);
  }

  request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, params: Readonly<Record<string, ParamValue>> = {}): ClientResponse {
    return this.send(this.prepare(method, path, params));
  }

  /**
   * The raw request as a client would put it on the wire now (signed, `timestamp` = simulated
   * now). Split from `send` so a caller with latency can build it at send time and hand it to
   * the exchange when it arrives, as a network would.
   */
  prepare(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, params: Readonly<Record<string, ParamValue>> = {}): ApiRequest {
    const row = findEndpoint(method, path);
    const signed = row !== undefined && isSigned(row.security);
    let encoded = formEncode(params);
    if (signed && !('timestamp' in params)) encoded += `${encoded === '' ? '' : '&'}timestamp=${Math.floor(this.#ctx.now() / 1000)}`;
    if (signed) encoded += `${encoded === '' ? '' : '&'}signature=${this.#sign(encoded)}`;
    const headers: Record<string, string> = {};
    if (this.#options.apiKey !== undefined) headers[API_KEY_HEADER] = this.#options.apiKey;
    if (this.#options.microseconds === true) headers['x-mbx-time-unit'] = 'MICROSECOND';
    const inQuery = method === 'GET';
    if (!inQuery) headers['content-type'] = 'application/x-www-form-urlencoded';
    return { method, path, rawQuery: inQuery ? encoded : '', rawBody: inQuery ? '' : encoded, headers, ip: this.#options.ip };
  }

  /**
   * Hands a prepared request to the exchange at simulated now. The answer's value comes without
   * a JSON round trip (handleRequestValue); `body`, its text, is written only when read.
   */
  send(request: ApiRequest): ClientResponse {
    const { status, headers, json } = handleRequestValue(this.#ctx, request);
    return new InProcessResponse(status, headers, json);
  }

  #sign(payload: string): string {
    const apiKey = this.#options.apiKey;
    const entry = apiKey === undefined ? undefined : this.#ctx.apiKeys.get(apiKey);
    if (entry === undefined) return 'unsigned'; // the server answers -2014/-2015 first
    if (entry.keyType !== 'HMAC') throw new Error('InProcessClient signs HMAC keys only');
    return signHmacSha256(entry.verificationKey, payload);
  }
}
