/**
 * The WebSocket APIs over `ws`, on the HTTP server's port: spot's at `/ws-api/v3` (Binance:
 * wss://ws-api.binance.com:443/ws-api/v3) and USDⓈ-M futures' at `/ws-fapi/v1` (Binance:
 * wss://ws-fapi.binance.com/ws-fapi/v1). The path picks the venue (ws-api/: its methods, its
 * limits); everything else below is the same for both. Each connection is a WsApiConnection; this file only
 * admits connections and moves frames (the admission, the time unit, keepalive and the message
 * rate are connection-admission.ts's, shared with the streams).
 *
 * Connection URL: `?returnRateLimits=false` hides rateLimits by default on the connection;
 * `?timeUnit=MICROSECOND|microsecond|MILLISECOND|millisecond` sets the unit of every time
 * (anything else refuses the upgrade with HTTP 400 -1194, as X-MBX-TIME-UNIT does on REST).
 *
 * Rules (web-socket-api.md "Rate limits", binance-facts §6.5; `WsApiLimits`):
 * - Connecting costs 2 request weight to the IP (the REST limiter: one budget per IP; on
 *   /ws-fapi/v1 the futures API's limiter, chosen: Binance's futures docs state no connect weight).
 * - At most 300 connection attempts per IP per 5 minutes of simulated time, and at most 300 open
 *   connections per IP (an exsim bound: the docs give none); refused at the upgrade with HTTP 429
 *   and -1003 in the body.
 * - Incoming frames of at most 64 KiB (`ws` maxPayload: a bigger one closes the connection with
 *   1009 before it is buffered). Binance states no bound; its largest requests (order lists) are
 *   far below.
 * - Incoming messages: every request is weighed by the IP's REQUEST_WEIGHT limit like a REST
 *   request (frames that are not requests cost 1), and a 418 ban closes the connection.
 *   Besides, at most `messagesPerSecond` frames per connection per second of simulated time
 *   (default 6000, an exsim flood bound: Binance's WebSocket API has none besides the weight, and
 *   6000 is a minute's whole weight budget, so no client within its weight reaches it in a
 *   second); over it the connection is closed with 1008.
 * - Binance's transport rules on the wall clock (keepalive.ts): a ping every 20 s, a close for a
 *   connection silent for a minute, a 24 h connection life; `ws` answers the client's pings.
 * - What is queued for a client that stops reading counts against the server's one send budget
 *   (send-budget.ts, shared with the streams): over its own cap, or the slowest while all are
 *   over the total, the connection is dropped.
 * - Server shutdown: every connection gets Binance's connection event
 *   `{"event":{"e":"serverShutdown","E":...}}`, then a close (1001), as the streams get theirs.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { ConnectionAdmission, MessageRate, POLICY_VIOLATION, type AdmissionLimits } from './connection-admission.ts';
import type { ExchangeContext } from '../context/index.ts';
import { apiTime, type TimeUnit } from '../serialize/index.ts';
import { FUTURES_WS_API, SPOT_WS_API, WsApiConnection, type WsApiVenue } from '../ws-api/index.ts';
import { SendBudget, type SendSlot } from './send-budget.ts';
import { textFrame } from './text-frame.ts';

/** The limits both WebSocket endpoints have (connection-admission.ts), with the WebSocket API's defaults. */
export type WsApiLimits = AdmissionLimits;

/** What the server runs around each request (the market streams go out with the state before and after it). */
export interface WsApiRequestHooks {
  beforeRequest?(): void;
  afterRequest?(): void;
  /**
   * Runs before each frame leaves (a journal's commit point, as for HTTP answers): a promise holds
   * the frame until it settles; if it fails the connection is dropped rather than answer what may
   * not be kept. Frames of one connection keep their order.
   */
  beforeAnswer?(): Promise<void> | undefined;
}

export const DEFAULT_WS_API_LIMITS: WsApiLimits = {
  attemptsPerIp: 300,
  attemptWindowUs: 5 * 60 * 1_000_000,
  openPerIp: 300,
  messagesPerSecond: 6000,
  maxPayloadBytes: 64 * 1024,
  pingIntervalMs: 20_000,
  pongTimeoutMs: 60_000,
  connectionLifeMs: 24 * 60 * 60 * 1000,
};

export const WS_API_PATH = SPOT_WS_API.path;
/** USDⓈ-M futures' WebSocket API path. */
export const FUTURES_WS_API_PATH = FUTURES_WS_API.path;
/** Weight of opening a connection (web-socket-api.md "IP limits"). */
const CONNECT_WEIGHT = 2;
const GOING_AWAY = 1001;

/** The WebSocket API a connection path opens, or undefined. */
function venueOf(path: string): WsApiVenue | undefined {
  return path === SPOT_WS_API.path ? SPOT_WS_API : path === FUTURES_WS_API.path ? FUTURES_WS_API : undefined;
}

/** True when an upgrade request is for a WebSocket API (spot's or futures'). */
export function isWsApiPath(url: string | undefined): boolean {
  if (url === undefined) return false;
  const q = url.indexOf('?');
  return venueOf(q < 0 ? url : url.slice(0, q)) !== undefined;
}

export class WsApiSockets {
  readonly #ctx: ExchangeContext;
  readonly #limits: WsApiLimits;
  readonly #wss: WebSocketServer;
  readonly #admission: ConnectionAdmission;
  /** Open connections: the time unit each was opened with, its place under the send budget. */
  readonly #open = new Map<WebSocket, { readonly unit: TimeUnit; readonly slot: SendSlot }>();
  readonly #hooks: WsApiRequestHooks;
  readonly #budget: SendBudget;

  /** `budget`: the server's one send budget (http-server.ts shares it with the streams). */
  constructor(ctx: ExchangeContext, limits: Partial<WsApiLimits> = {}, hooks: WsApiRequestHooks = {}, budget: SendBudget = new SendBudget()) {
    this.#ctx = ctx;
    this.#budget = budget;
    this.#hooks = hooks;
    this.#limits = { ...DEFAULT_WS_API_LIMITS, ...limits };
    this.#wss = new WebSocketServer({ noServer: true, maxPayload: this.#limits.maxPayloadBytes });
    this.#admission = new ConnectionAdmission(this.#limits);
  }

  /** Open WebSocket API connections. */
  get size(): number {
    return this.#open.size;
  }

  /** Handles an HTTP upgrade to /ws-api/v3 or /ws-fapi/v1 within the limits; refuses anything else. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const ctx = this.#ctx;
    const admitted = this.#admission.admit(req, socket, ctx.now(), (path) => venueOf(path) !== undefined);
    if (admitted === undefined) return;
    const { ip, unit } = admitted;
    const venue = venueOf(admitted.path) as WsApiVenue;
    const returnRateLimits = admitted.query.get('returnRateLimits')?.toLowerCase() !== 'false';
    ctx.weightLimiterOf(venue.limitGroup).addWeight(ip, CONNECT_WEIGHT, admitted.now);
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      // The budget destroys the socket of a reader that does not keep up; 'close' then releases it.
      const slot = this.#budget.open(ws, socket, () => undefined);
      this.#open.set(ws, { unit, slot });
      let outbox: Promise<void> | null = null;
      const connection = new WsApiConnection(ctx, {
        venue,
        ip,
        unit,
        returnRateLimits,
        send: (text) => {
          const commit = this.#hooks.beforeAnswer?.();
          if (commit === undefined && outbox === null) {
            this.#budget.send(slot, textFrame(text));
            return;
          }
          // Held behind the commit (and behind frames already held, so the order stays).
          outbox = (outbox ?? Promise.resolve()).then(() => commit).then(
            () => void this.#budget.send(slot, textFrame(text)),
            () => ws.terminate(),
          );
        },
        close: (code, reason) => {
          this.#budget.flush(slot);
          ws.close(code, reason);
        },
      });
      const rate = new MessageRate(this.#limits.messagesPerSecond);
      ws.on('message', (data: RawData, isBinary: boolean) => {
        if (!rate.heard(ctx.now())) {
          ws.close(POLICY_VIOLATION, 'Too many messages');
          return;
        }
        this.#hooks.beforeRequest?.();
        connection.handle(isBinary ? '' : textOf(data));
        this.#hooks.afterRequest?.();
      });
      let released = false;
      const release = (): void => {
        if (released) return;
        released = true;
        this.#budget.close(slot);
        connection.close();
        this.#open.delete(ws);
        this.#admission.release(ws, ip, ctx.now());
      };
      ws.on('close', release);
      ws.on('error', release);
      this.#admission.watch(ws, admitted, release);
    });
  }

  /** Server shutdown: every connection gets `serverShutdown`, then closes. */
  close(): void {
    const now = this.#ctx.now();
    for (const [ws, { unit, slot }] of [...this.#open]) {
      this.#budget.flush(slot);
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event: { e: 'serverShutdown', E: apiTime(now, unit) } }));
      ws.close(GOING_AWAY, 'server shutdown');
    }
    this.#admission.stop();
    this.#wss.close();
  }
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
