/**
 * node:http adapter over handleRequest. It only moves bytes: the query string and the body are
 * passed as raw strings (the body decoded as latin1, one char per byte, so the signature check
 * sees exactly the bytes sent), and the JSON response is written as handleRequest built it.
 *
 * Rules:
 * - Survives any input: a malformed URL is routed as a path (404), a body above `maxBodyBytes`
 *   (default 1 MiB) gets 413 {-1000 "Request body too large."} and the connection is closed,
 *   a request node:http cannot parse gets a JSON -1000 with 400, or 431 / 414 for headers or a
 *   request line past node's 16 KiB limit (`clientErrorResponse`), a socket error is ignored. Nothing is logged to stdout.
 * - `listen(port, host)` resolves to the base URL (port 0 picks a free one); `close()` stops
 *   accepting, ends idle and active keep-alive connections, and resolves when done.
 * - WebSocket upgrades to /ws[/<stream>...] and /stream[?streams=...] open market and user data
 *   streams (stream-sockets.ts), to /ws-api/v3 the WebSocket API (ws-api-sockets.ts).
 * - The client IP is the socket's remote address (no X-Forwarded-For: the simulator is not
 *   meant to sit behind a proxy).
 * Determinism: the only host interaction is socket I/O; the simulation is driven by the
 * backend's clock, never by this file.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExchangeContext } from '../context/index.ts';
import { apiError, rawErrorResponse } from '../core/index.ts';
import { handleRequest } from '../rest/index.ts';
import { StreamSockets, type StreamLimits } from './stream-sockets.ts';
import { isWsApiPath, WsApiSockets, type WsApiLimits } from './ws-api-sockets.ts';

/** Where a control plane is served: exsim's own namespace beside Binance's paths. */
const CONTROL_PREFIX = '/exsim/';

/**
 * A control plane served beside the exchange under CONTROL_PREFIX (src/serve/control: the clock,
 * status, accounts). The facade only routes to it; what it does is the caller's.
 */
export interface ControlPlane {
  handle(request: { method: string; path: string; query: URLSearchParams; body: string; headers: IncomingMessage['headers'] }): Promise<{ status: number; body: unknown }>;
}

export interface HttpServerOptions {
  /** Requests under CONTROL_PREFIX go here; absent: they are unknown endpoints like any other path. */
  readonly control?: ControlPlane;
  readonly maxBodyBytes?: number;
  /** WebSocket stream limits; default DEFAULT_STREAM_LIMITS (Binance's). */
  readonly streamLimits?: Partial<StreamLimits>;
  /** WebSocket API limits; default DEFAULT_WS_API_LIMITS. */
  readonly wsApiLimits?: Partial<WsApiLimits>;
  /**
   * Runs after each request was handled and before its answer is written (a journal's commit
   * point). A promise holds the answer until it settles (group commit: one fsync for every
   * request handled meanwhile); undefined writes it at once.
   */
  readonly beforeAnswer?: () => Promise<void> | undefined;
}

const DEFAULT_MAX_BODY = 1 << 20;

export class ExsimHttpServer {
  readonly #ctx: ExchangeContext;
  readonly #server: Server;
  readonly #maxBody: number;
  readonly #streams: StreamSockets;
  readonly #wsApi: WsApiSockets;
  readonly #control: ControlPlane | undefined;
  readonly #beforeAnswer: (() => Promise<void> | undefined) | undefined;

  constructor(ctx: ExchangeContext, options: HttpServerOptions = {}) {
    this.#ctx = ctx;
    this.#maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
    this.#control = options.control;
    this.#beforeAnswer = options.beforeAnswer;
    this.#server = createServer((req, res) => this.#serve(req, res));
    this.#streams = new StreamSockets(ctx, options.streamLimits);
    this.#wsApi = new WsApiSockets(ctx, options.wsApiLimits, {
      beforeRequest: () => this.#streams.beforeRequest(),
      afterRequest: () => this.#streams.afterRequest(),
      beforeAnswer: () => this.#beforeAnswer?.(),
    });
    // WebSocket upgrades: the WebSocket API at /ws-api/v3; market streams and listen-key user data at /ws[/...] and /stream[?streams=...].
    this.#server.on('upgrade', (req, socket, head) => (isWsApiPath(req.url) ? this.#wsApi.upgrade(req, socket, head) : this.#streams.upgrade(req, socket, head)));
    this.#server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
      if (!socket.writable) {
        socket.destroy();
        return;
      }
      socket.end(clientErrorResponse(err));
    });
  }

  /** Open stream connections (market and user data). */
  get streamConnections(): number {
    return this.#streams.size;
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

  #serve(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('error', () => res.destroy());
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > this.#maxBody) {
        tooLarge = true;
        const error = apiError('REQUEST_BODY_TOO_LARGE');
        this.#write(res, error.status, { 'Content-Type': 'application/json;charset=UTF-8', Connection: 'close' }, JSON.stringify(error.toBody()));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) return;
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const path = q < 0 ? url : url.slice(0, q);
      if (this.#control !== undefined && path.startsWith(CONTROL_PREFIX)) {
        const body = chunks.length === 0 ? '' : Buffer.concat(chunks).toString('utf8');
        void this.#control.handle({ method: req.method ?? 'GET', path, query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)), body, headers: req.headers }).then(
          (answer) => {
            this.#write(res, answer.status, { 'Content-Type': 'application/json;charset=UTF-8' }, JSON.stringify(answer.body));
            this.#streams.afterRequest();
          },
          () => this.#write(res, 500, { 'Content-Type': 'application/json;charset=UTF-8' }, JSON.stringify(apiError('UNKNOWN_ERROR').toBody())),
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
      if (commit === undefined) this.#write(res, response.status, response.headers, response.body);
      else {
        commit.then(
          () => this.#write(res, response.status, response.headers, response.body),
          // The journal could not be written: the answer must not claim what may not be kept.
          () => res.destroy(),
        );
      }
      // What the request changed streams now; it may have moved simulated time past a listen
      // key's expiry (O(1) unless one is due).
      this.#streams.afterRequest();
    });
  }

  #write(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
    if (res.headersSent || res.destroyed) return;
    // The headers object is this response's own (built per request), so the length joins it in
    // place: no copy (ARCHITECTURE.md, "Object shapes").
    headers['Content-Length'] = String(Buffer.byteLength(body));
    res.writeHead(status, headers);
    res.end(body);
  }
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
