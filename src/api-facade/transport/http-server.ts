/**
 * node:http adapter over handleRequest. It only moves bytes: the query string and the body are
 * passed as raw strings (the body decoded as latin1, one char per byte, so the signature check
 * sees exactly the bytes sent), and the JSON response is written as handleRequest built it.
 *
 * Rules:
 * - Every answer is Binance-shaped JSON (`{code, msg}`) or a closed socket, never node's bare
 *   answers and never two answers to one request:
 *   - a malformed URL is routed as a path (404);
 *   - a body above `maxBodyBytes` (default 1 MiB) is 413 {-1000 "Request body too large."} and the
 *     connection closes: at once from a declared Content-Length (the body is never waited for; an
 *     `Expect: 100-continue` client is told before it sends it), or when a chunked body passes it;
 *   - an HTTP/1.1 request without `Host` is 400 -1000 (node's `requireHostHeader` is off so the
 *     answer is ours, not its bare 400), and the connection closes;
 *   - a request node:http cannot parse is a JSON 400 -1000, or 431 / 414 for headers or a request
 *     line past `maxHeaderSize` (16 KiB, node's default; `clientErrorResponse`), a request whose
 *     headers do not arrive within `headersTimeoutMs` (default 10 s) or whose body does not within
 *     `requestTimeoutMs` (default 30 s) is 408 (node's own timers, checked every
 *     `CHECK_INTERVAL_MS`); each closes the connection. An error that comes after this request was
 *     answered (a broken chunked body after an early 413) or while an earlier request's answer
 *     is pending (pipelining) closes the socket without a second answer (`Exchange`);
 *   - a socket error is ignored. Nothing is logged to stdout.
 * - `listen(port, host)` resolves to the base URL (port 0 picks a free one); `close()` stops
 *   accepting, ends idle and active keep-alive connections, and resolves when done.
 * - WebSocket upgrades to /ws[/<stream>...] and /stream[?streams=...] open market and user data
 *   streams (stream-sockets.ts), to /ws-api/v3 and /ws-fapi/v1 the spot and USDⓈ-M futures WebSocket APIs (ws-api-sockets.ts).
 * - The client IP is the socket's remote address (no X-Forwarded-For: the simulator is not
 *   meant to sit behind a proxy).
 * Determinism: the only host interaction is socket I/O; the simulation is driven by the
 * backend's clock, never by this file.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ExchangeContext } from '../context/index.ts';
import { type ApiError, apiError, rawErrorResponse } from '../core/index.ts';
import { handleRequest } from '../rest/index.ts';
import { SendBudget, type SendBudgetLimits } from './send-budget.ts';
import { StreamSockets, type StreamLimits } from './stream-sockets.ts';
import { isWsApiPath, WsApiSockets, type WsApiLimits } from './ws-api-sockets.ts';

/** Where a control plane is served: exsim's own namespace beside Binance's paths. */
const CONTROL_PREFIX = '/exsim/';

/**
 * A control plane served beside the exchange under CONTROL_PREFIX (src/serve/control: the clock,
 * status, accounts). The facade only routes to it; what it does is the caller's.
 */
export interface ControlPlane {
  handle(request: { method: string; path: string; query: URLSearchParams; body: string; headers: IncomingMessage['headers']; ip: string }): Promise<{ status: number; body: unknown; headers?: Readonly<Record<string, string>> }>;
}

export interface HttpServerOptions {
  /** Requests under CONTROL_PREFIX go here; absent: they are unknown endpoints like any other path. */
  readonly control?: ControlPlane;
  readonly maxBodyBytes?: number;
  /** Wall ms for a request's headers to arrive (default 10 s), then for the whole request (default 30 s): 408 and a close past them. */
  readonly headersTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  /** WebSocket stream limits; default DEFAULT_STREAM_LIMITS (Binance's). */
  readonly streamLimits?: Partial<StreamLimits>;
  /** WebSocket API limits; default DEFAULT_WS_API_LIMITS. */
  readonly wsApiLimits?: Partial<WsApiLimits>;
  /** What WebSocket connections may hold queued for slow readers, together and each (send-budget.ts); default DEFAULT_SEND_BUDGET. */
  readonly sendBudget?: Partial<SendBudgetLimits>;
  /**
   * Runs after each request was handled and before its answer is written (a journal's commit
   * point). A promise holds the answer until it settles (group commit: one fsync for every
   * request handled meanwhile); undefined writes it at once.
   */
  readonly beforeAnswer?: () => Promise<void> | undefined;
}

const DEFAULT_MAX_BODY = 1 << 20;
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** How often node checks its open requests against the two timeouts (at most this late), wall ms. */
const CHECK_INTERVAL_MS = 1000;
/** node's default, stated: the request line and headers together. */
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * One request on a socket, from its headers until its answer is written: what a parse error or
 * a timeout on the same socket may still do (see the header).
 */
interface Exchange {
  /** The request's body has arrived (its answer may be pending: a later error is another request's). */
  bodyDone: boolean;
  /** An answer to it went out (or a raw error did): nothing more is written for it. */
  answered: boolean;
}

export class ExsimHttpServer {
  readonly #ctx: ExchangeContext;
  readonly #server: Server;
  readonly #maxBody: number;
  readonly #streams: StreamSockets;
  readonly #wsApi: WsApiSockets;
  readonly #sendBudget: SendBudget;
  readonly #control: ControlPlane | undefined;
  readonly #beforeAnswer: (() => Promise<void> | undefined) | undefined;
  /** The request each socket is on, from its headers until its answer is written. */
  readonly #exchanges = new WeakMap<Duplex, Exchange>();

  constructor(ctx: ExchangeContext, options: HttpServerOptions = {}) {
    this.#ctx = ctx;
    this.#maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
    this.#control = options.control;
    this.#beforeAnswer = options.beforeAnswer;
    const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
    const requestTimeout = Math.max(headersTimeout, options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
    this.#server = createServer(
      {
        requireHostHeader: false,
        headersTimeout,
        requestTimeout,
        connectionsCheckingInterval: Math.min(CHECK_INTERVAL_MS, Math.max(10, Math.floor(headersTimeout / 4))),
        maxHeaderSize: MAX_HEADER_BYTES,
      },
      (req, res) => this.#serve(req, res, false),
    );
    // `Expect: 100-continue`: the headers are judged before the client is told to send its body.
    this.#server.on('checkContinue', (req, res) => this.#serve(req, res, true));
    // One budget for what every WebSocket connection has queued, streams and WebSocket API alike.
    this.#sendBudget = new SendBudget(options.sendBudget);
    this.#streams = new StreamSockets(ctx, options.streamLimits, this.#sendBudget);
    this.#wsApi = new WsApiSockets(
      ctx,
      options.wsApiLimits,
      {
        beforeRequest: () => this.#streams.beforeRequest(),
        afterRequest: () => this.#streams.afterRequest(),
        beforeAnswer: () => this.#beforeAnswer?.(),
      },
      this.#sendBudget,
    );
    // WebSocket upgrades: the WebSocket APIs at /ws-api/v3 and /ws-fapi/v1; market streams and listen-key user data at /ws[/...] and /stream[?streams=...].
    this.#server.on('upgrade', (req, socket, head) => (isWsApiPath(req.url) ? this.#wsApi.upgrade(req, socket, head) : this.#streams.upgrade(req, socket, head)));
    this.#server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
      const current = this.#exchanges.get(socket);
      if (!socket.writable || (current !== undefined && (current.answered || current.bodyDone))) {
        // Answered already, or an earlier request's answer is pending: no second answer.
        closeAfterWrites(socket);
        return;
      }
      if (current !== undefined) current.answered = true;
      socket.end(clientErrorResponse(err));
    });
  }

  /** Open stream connections (market and user data). */
  get streamConnections(): number {
    return this.#streams.size;
  }

  /** What WebSocket connections have queued for their readers, and how many the budget dropped. */
  get sendBuffers(): { readonly queuedBytes: number; readonly dropped: number } {
    return { queuedBytes: this.#sendBudget.queuedBytes, dropped: this.#sendBudget.dropped };
  }

  /** Starts listening; resolves to the base URL, e.g. http://127.0.0.1:43121. */
  listen(port = 0, host = '127.0.0.1'): Promise<string> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.#server.once('error', onError);
      this.#server.listen(port, host, () => {
        this.#server.off('error', onError);
        const address = this.#server.address() as AddressInfo;
        const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        resolve(`http://${shownHost}:${address.port}`);
      });
    });
  }

  /** Stops the server and closes every connection. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.#server.listening) {
        resolve();
        return;
      }
      this.#streams.close();
      this.#wsApi.close();
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }

  #serve(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void {
    const socket = req.socket;
    const exchange: Exchange = { bodyDone: false, answered: false };
    this.#exchanges.set(socket, exchange);
    res.once('finish', () => {
      if (this.#exchanges.get(socket) === exchange) this.#exchanges.delete(socket);
    });
    req.on('error', () => res.destroy());
    // Refusals from the headers alone: answered at once, the body never waited for.
    if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && req.headers.host === undefined) {
      this.#refuse(res, exchange, apiError('MISSING_HOST_HEADER'));
      return;
    }
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > this.#maxBody) {
      this.#refuse(res, exchange, apiError('REQUEST_BODY_TOO_LARGE'));
      return;
    }
    if (expectsContinue) res.writeContinue();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (exchange.answered) return;
      size += chunk.length;
      if (size > this.#maxBody) {
        // A chunked body (no length declared) that grew past the limit.
        this.#refuse(res, exchange, apiError('REQUEST_BODY_TOO_LARGE'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      exchange.bodyDone = true;
      if (exchange.answered) return;
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const path = q < 0 ? url : url.slice(0, q);
      if (this.#control !== undefined && path.startsWith(CONTROL_PREFIX)) {
        const body = chunks.length === 0 ? '' : Buffer.concat(chunks).toString('utf8');
        const ip = req.socket.remoteAddress ?? '';
        void this.#control.handle({ method: req.method ?? 'GET', path, query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)), body, headers: req.headers, ip }).then(
          (answer) => {
            this.#write(res, exchange, answer.status, { 'Content-Type': 'application/json;charset=UTF-8', ...answer.headers }, JSON.stringify(answer.body));
            this.#streams.afterRequest();
          },
          () => this.#write(res, exchange, 500, { 'Content-Type': 'application/json;charset=UTF-8' }, JSON.stringify(apiError('UNKNOWN_ERROR').toBody())),
        );
        return;
      }
      this.#streams.beforeRequest();
      const response = handleRequest(this.#ctx, {
        method: req.method ?? 'GET',
        path,
        rawQuery: q < 0 ? '' : url.slice(q + 1),
        // Most bodies arrive in one chunk (or none): no copy then.
        rawBody: chunks.length === 0 ? '' : chunks.length === 1 ? (chunks[0] as Buffer).toString('latin1') : Buffer.concat(chunks).toString('latin1'),
        headers: req.headers,
        ip: req.socket.remoteAddress,
      });
      const commit = this.#beforeAnswer?.();
      if (commit === undefined) this.#write(res, exchange, response.status, response.headers, response.body);
      else {
        commit.then(
          () => this.#write(res, exchange, response.status, response.headers, response.body),
          // The journal could not be written: the answer must not claim what may not be kept.
          () => res.destroy(),
        );
      }
      // What the request changed streams now; it may have moved simulated time past a listen
      // key's expiry (O(1) unless one is due).
      this.#streams.afterRequest();
    });
  }

  /**
   * Answers `error` from what was read so far, with `Connection: close`: node ends the socket
   * once the answer is out (destroySoon), so the rest of the body is never read.
   */
  #refuse(res: ServerResponse, exchange: Exchange, error: ApiError): void {
    this.#write(res, exchange, error.status, { 'Content-Type': 'application/json;charset=UTF-8', Connection: 'close' }, JSON.stringify(error.toBody()));
  }

  #write(res: ServerResponse, exchange: Exchange, status: number, headers: Record<string, string>, body: string): void {
    if (exchange.answered || res.headersSent || res.destroyed) return;
    exchange.answered = true;
    // The headers object is this response's own (built per request), so the length joins it in
    // place: no copy (ARCHITECTURE.md, "Object shapes").
    headers['Content-Length'] = String(Buffer.byteLength(body));
    res.writeHead(status, headers);
    res.end(body);
  }
}

/** Closes a socket once what was written to it is flushed (at once when it cannot be written). */
function closeAfterWrites(socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.once('finish', () => socket.destroy());
  socket.end();
}

/**
 * The answer to a request node:http could not parse: JSON like every other refusal. Headers past
 * node's limit (16 KiB) are 431, unless the request line is what overflowed it (longer than half
 * the limit, or no line end among the bytes read): that is a URI too long, 414. Anything else is 400.
 */
const LONG_REQUEST_LINE = 8 * 1024;
function clientErrorResponse(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): string {
  let error = apiError('MALFORMED_HTTP_REQUEST');
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    const lineEnd = err.rawPacket?.indexOf(0x0a) ?? -1;
    const longRequestLine = lineEnd < 0 || lineEnd > LONG_REQUEST_LINE;
    error = apiError(longRequestLine ? 'REQUEST_URI_TOO_LONG' : 'REQUEST_HEADERS_TOO_LARGE');
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    error = apiError('REQUEST_TIMEOUT');
  }
  return rawErrorResponse(error);
}
