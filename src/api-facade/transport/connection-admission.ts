/**
 * What both WebSocket endpoints on the HTTP server (the market and user data streams, the
 * WebSocket API) do alike, in one place:
 * - at the upgrade (`admit`): the attempt counted against the IP's connection attempts per fixed
 *   window of simulated time and its open connections (Binance: 300 per 5 minutes, and an exsim
 *   bound on open ones; 429 -1003 over either), the path routed (404 for a path neither serves),
 *   the `timeUnit` URL parameter read by the one time-unit parser (-1194 for a bad one, as
 *   Binance answers);
 * - per connection: Binance's transport rules on the wall clock (`watch`: keepalive.ts), the
 *   count of open connections given back when it closes (`release`), and a bound on incoming
 *   messages per second of simulated time (`MessageRate`; over it the caller closes with 1008).
 * An IP's entry is dropped once it has no open connection and its window has passed, so the map
 * holds only IPs that are connected or were seen in the current window.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { ApiError, apiError, rawErrorResponse } from '../core/index.ts';
import { parseTimeUnit, type TimeUnit } from '../serialize/index.ts';
import { KeepAlive, type KeepAliveLimits } from './keepalive.ts';

/** The limits both endpoints have, each with its own values. */
export interface AdmissionLimits extends KeepAliveLimits {
  /** Connection attempts per IP per `attemptWindowUs` of simulated time. */
  readonly attemptsPerIp: number;
  readonly attemptWindowUs: number;
  /** Open connections per IP at once. */
  readonly openPerIp: number;
  /** Incoming messages per connection per second of simulated time. */
  readonly messagesPerSecond: number;
  /** Largest incoming frame, bytes (`ws` maxPayload; its default is 100 MiB). */
  readonly maxPayloadBytes: number;
}

/** One IP's counts. */
export interface IpConnectionCount {
  window: number;
  attempts: number;
  open: number;
}

/** An upgrade let through: who asked, for what, in which time unit. */
export interface Admission {
  readonly ip: string;
  /** The URL's path and its query string as sent (no `?`). */
  readonly path: string;
  readonly rawQuery: string;
  readonly query: URLSearchParams;
  readonly unit: TimeUnit;
  readonly now: number;
  /** The IP's counts, raised by `watch` when the upgrade completes. */
  readonly count: IpConnectionCount;
}

/** Close code of a connection over its message rate. */
export const POLICY_VIOLATION = 1008;

export class ConnectionAdmission {
  readonly #limits: AdmissionLimits;
  readonly #perIp = new Map<string, IpConnectionCount>();
  readonly #keepAlive: KeepAlive;

  constructor(limits: AdmissionLimits) {
    this.#limits = limits;
    this.#keepAlive = new KeepAlive(limits);
  }

  /**
   * An upgrade request at simulated `nowUs`: counted, routed (`serves` says whether this endpoint
   * serves the path) and its time unit read. Undefined once a refusal was written and the socket
   * ended (429 -1003 over the limits, 404 for a path not served, 400 -1194 for a bad time unit).
   */
  admit(req: IncomingMessage, socket: Duplex, nowUs: number, serves: (path: string) => boolean): Admission | undefined {
    socket.on('error', () => socket.destroy());
    const ip = req.socket.remoteAddress ?? '';
    const counted = this.#attempt(ip, nowUs);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const rawQuery = q < 0 ? '' : url.slice(q + 1);
    const query = new URLSearchParams(rawQuery);
    const unit = parseTimeUnit(query.get('timeUnit'));
    const refusal = counted instanceof ApiError ? counted : !serves(path) ? apiError('UNKNOWN_ENDPOINT', 'GET', path) : unit === null ? apiError('INVALID_TIME_UNIT') : null;
    if (refusal !== null) {
      socket.end(rawErrorResponse(refusal));
      return undefined;
    }
    return { ip, path, rawQuery, query, unit: unit!, now: nowUs, count: counted as IpConnectionCount };
  }

  /** An admitted connection opened: it counts as open, and Binance's transport rules watch it; `onDrop` runs when they end it. */
  watch(ws: WebSocket, admission: Admission, onDrop: () => void): void {
    admission.count.open++;
    this.#keepAlive.add(ws, onDrop);
  }

  /** A watched connection of `ip` closed (once per connection). */
  release(ws: WebSocket, ip: string, nowUs: number): void {
    this.#keepAlive.remove(ws);
    const count = this.#perIp.get(ip);
    if (count !== undefined && --count.open === 0 && count.window !== Math.floor(nowUs / this.#limits.attemptWindowUs)) this.#perIp.delete(ip);
  }

  /** Server shutdown: no more keepalive ticks. */
  stop(): void {
    this.#keepAlive.stop();
  }

  /** Counts an attempt from `ip`: its counts, or the 429 -1003 refusal over either limit. */
  #attempt(ip: string, nowUs: number): IpConnectionCount | ApiError {
    const limits = this.#limits;
    const window = Math.floor(nowUs / limits.attemptWindowUs);
    let count = this.#perIp.get(ip);
    if (count === undefined) this.#perIp.set(ip, (count = { window, attempts: 0, open: 0 }));
    if (count.window !== window) {
      count.window = window;
      count.attempts = 0;
    }
    count.attempts++;
    if (count.attempts > limits.attemptsPerIp) return apiError('TOO_MANY_CONNECTION_ATTEMPTS', limits.attemptsPerIp, limits.attemptWindowUs / 60_000_000);
    if (count.open >= limits.openPerIp) return apiError('TOO_MANY_OPEN_CONNECTIONS', limits.openPerIp);
    return count;
  }
}

/** Incoming messages of one connection per second of simulated time. */
export class MessageRate {
  readonly #perSecond: number;
  #second = -1;
  #count = 0;

  constructor(perSecond: number) {
    this.#perSecond = perSecond;
  }

  /** Counts one message at simulated `nowUs`; false once the connection is over its rate. */
  heard(nowUs: number): boolean {
    const second = Math.floor(nowUs / 1_000_000);
    if (second !== this.#second) {
      this.#second = second;
      this.#count = 0;
    }
    return ++this.#count <= this.#perSecond;
  }
}
