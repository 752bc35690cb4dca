/**
 * The legacy listen-key user data stream over WebSocket (`ws`), on the HTTP server's port:
 * `ws://host:port/ws/<listenKey>` (Binance serves it on its stream host; clients take the base
 * as an option). Events arrive unwrapped, one JSON text frame each, in the order the facade
 * publishes them; `?timeUnit=MICROSECOND` switches their times to µs.
 *
 * Rules (binance-facts §6.1, §6.4):
 * - Upgrading with an unknown, closed or expired key is refused (HTTP 400, -1125 in the body).
 * - A key that expires on simulated time (60 minutes without keepalive) sends
 *   {e: "listenKeyExpired", E, listenKey} and closes the connection; a key closed by
 *   DELETE /api/v3/userDataStream closes it at once, without that event.
 * - Limits (`StreamLimits`, defaults from §6.4): at most 300 connection attempts per IP per 5
 *   minutes of simulated time and at most 300 open connections per IP (refused at the upgrade with
 *   HTTP 429 and -1003 in the body); at most 5 incoming messages per second of simulated time on a
 *   connection (the stream takes no requests; a client over the rate is disconnected with close
 *   code 1008); incoming frames of at most 4 KiB (`ws` maxPayload: a bigger one closes the
 *   connection with 1009 before it is buffered). Binance's 1024 streams per connection does not
 *   apply: a listen-key connection carries one stream.
 *
 * Cost: nothing here is proportional to the open connections on a request's path. Expiry is an
 * ordered queue of keys by expiry time (one entry per key with connections); `expireDue`, called
 * after every HTTP request, reads its head and does work only when a key is due. A keepalive that
 * moved a due key's expiry re-queues it when it reaches the head. DELETE reaches the key's
 * connections through the store's end listener.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { EventQueue, type QueueEntry } from '../../clock/event-queue.ts';
import { ConnectionAttempts } from '../connection-attempts.ts';
import type { ExchangeContext } from '../exchange-context.ts';
import { apiError } from '../exchange-errors.ts';
import type { KeyEnd } from '../listen-keys.ts';
import { rawErrorResponse } from '../raw-error-response.ts';
import { apiTime, type TimeUnit } from '../serialize/api-time.ts';

/** Connection limits of the stream endpoint (defaults: DEFAULT_STREAM_LIMITS). */
export interface StreamLimits {
  /** Connection attempts per IP per `attemptWindowUs` of simulated time (Binance: 300 per 5 min). */
  readonly attemptsPerIp: number;
  readonly attemptWindowUs: number;
  /** Open connections per IP at once. */
  readonly openPerIp: number;
  /** Incoming messages per connection per second of simulated time (Binance: 5). */
  readonly messagesPerSecond: number;
  /** Largest incoming frame, bytes (`ws` maxPayload; its default is 100 MiB). */
  readonly maxPayloadBytes: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  attemptsPerIp: 300,
  attemptWindowUs: 5 * 60 * 1_000_000,
  openPerIp: 300,
  messagesPerSecond: 5,
  maxPayloadBytes: 4096,
};

interface StreamConnection {
  readonly socket: WebSocket;
  readonly listenKey: string;
  readonly ip: string;
  readonly unit: TimeUnit;
  readonly unsubscribe: () => void;
  messageSecond: number;
  messages: number;
}

/** A key with open connections, queued at the expiry it had when queued. */
interface KeyExpiry extends QueueEntry {
  readonly key: string;
}

const STREAM_PATH = /^\/ws\/([A-Za-z0-9]{1,128})$/;
const POLICY_VIOLATION = 1008;

export class UserStreamSockets {
  readonly #ctx: ExchangeContext;
  readonly #limits: StreamLimits;
  readonly #wss: WebSocketServer;
  readonly #byKey = new Map<string, Set<StreamConnection>>();
  readonly #expiries = new EventQueue<KeyExpiry>();
  readonly #queued = new Map<string, KeyExpiry>();
  readonly #attempts: ConnectionAttempts;

  constructor(ctx: ExchangeContext, limits: Partial<StreamLimits> = {}) {
    this.#ctx = ctx;
    this.#limits = { ...DEFAULT_STREAM_LIMITS, ...limits };
    this.#wss = new WebSocketServer({ noServer: true, maxPayload: this.#limits.maxPayloadBytes });
    this.#attempts = new ConnectionAttempts(this.#limits.attemptsPerIp, this.#limits.attemptWindowUs, this.#limits.openPerIp);
    ctx.listenKeys.onKeyEnded((key, end) => this.#endKey(key, end, this.#ctx.now()));
  }

  /** Open stream connections. */
  get size(): number {
    let n = 0;
    for (const set of this.#byKey.values()) n += set.size;
    return n;
  }

  /** Handles an HTTP upgrade: accepts /ws/<live key> within the limits, refuses anything else. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const now = this.#ctx.now();
    const ip = req.socket.remoteAddress ?? '';
    const count = this.#attempts.admit(socket, ip, now);
    if (count === undefined) return;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const match = STREAM_PATH.exec(q < 0 ? url : url.slice(0, q));
    const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    const unit: TimeUnit = query.get('timeUnit')?.toUpperCase() === 'MICROSECOND' ? 'MICROSECOND' : 'MILLISECOND';
    const listenKey = match?.[1];
    const accountId = listenKey === undefined ? undefined : this.#ctx.listenKeys.accountOf(listenKey, now);
    if (listenKey === undefined || accountId === undefined) {
      socket.end(rawErrorResponse(apiError('INVALID_LISTEN_KEY')));
      return;
    }
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      count.open++;
      const connection: StreamConnection = {
        socket: ws,
        listenKey,
        ip,
        unit,
        unsubscribe: this.#ctx.userStream.subscribe(accountId, (event) => {
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(event));
        }, unit),
        messageSecond: -1,
        messages: 0,
      };
      // The key may have ended while the handshake ran.
      const expiresAt = this.#ctx.listenKeys.expiryOf(listenKey, this.#ctx.now());
      if (expiresAt === undefined) {
        ws.close(1000, 'listenKey closed');
        this.#release(connection);
        return;
      }
      let set = this.#byKey.get(listenKey);
      if (set === undefined) this.#byKey.set(listenKey, (set = new Set()));
      set.add(connection);
      this.#schedule(listenKey, expiresAt);
      ws.on('message', () => this.#onMessage(connection));
      ws.on('close', () => this.#drop(connection));
      ws.on('error', () => this.#drop(connection));
    });
  }

  /** Ends the streams whose key ran out by simulated now. O(1) when none is due. */
  expireDue(): void {
    const head = this.#expiries.peek();
    if (head === undefined) return;
    const now = this.#ctx.now();
    if (head.time > now) return;
    for (let due = this.#expiries.peek(); due !== undefined && due.time <= now; due = this.#expiries.peek()) {
      this.#expiries.pop();
      this.#queued.delete(due.key);
      if (!this.#byKey.has(due.key)) continue;
      const expiresAt = this.#ctx.listenKeys.expiryOf(due.key, now);
      if (expiresAt === undefined) this.#endKey(due.key, 'expired', now);
      else this.#schedule(due.key, expiresAt); // kept alive since it was queued
    }
  }

  /** Closes every stream (server shutdown). */
  close(): void {
    for (const set of [...this.#byKey.values()]) {
      for (const c of [...set]) {
        c.socket.terminate();
        this.#drop(c);
      }
    }
    this.#wss.close();
  }

  #schedule(key: string, expiresAt: number): void {
    if (this.#queued.has(key)) return;
    const entry: KeyExpiry = { key, time: expiresAt, seq: 0, heapIndex: -1 };
    this.#queued.set(key, entry);
    this.#expiries.push(entry);
  }

  #endKey(key: string, end: KeyEnd, now: number): void {
    const set = this.#byKey.get(key);
    if (set === undefined) return;
    for (const c of [...set]) {
      if (end === 'expired' && c.socket.readyState === c.socket.OPEN) {
        c.socket.send(JSON.stringify({ e: 'listenKeyExpired', E: apiTime(now, c.unit), listenKey: key }));
      }
      c.socket.close(1000, 'listenKey closed');
      this.#drop(c);
    }
  }

  #onMessage(c: StreamConnection): void {
    const second = Math.floor(this.#ctx.now() / 1_000_000);
    if (second !== c.messageSecond) {
      c.messageSecond = second;
      c.messages = 0;
    }
    if (++c.messages > this.#limits.messagesPerSecond) {
      c.socket.close(POLICY_VIOLATION, 'Too many messages');
      this.#drop(c);
    }
  }

  #drop(connection: StreamConnection): void {
    const set = this.#byKey.get(connection.listenKey);
    if (set === undefined || !set.delete(connection)) return;
    if (set.size === 0) {
      this.#byKey.delete(connection.listenKey);
      const queued = this.#queued.get(connection.listenKey);
      if (queued !== undefined) {
        this.#expiries.remove(queued);
        this.#queued.delete(connection.listenKey);
      }
    }
    this.#release(connection);
  }

  #release(connection: StreamConnection): void {
    connection.unsubscribe();
    this.#attempts.release(connection.ip, this.#ctx.now());
  }
}
