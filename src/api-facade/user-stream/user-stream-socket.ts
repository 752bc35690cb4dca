/**
 * The legacy listen-key user data stream over WebSocket (`ws`), on the HTTP server's port:
 * `ws://host:port/ws/<listenKey>` (Binance serves it on its stream host; clients take the base
 * as an option). Events arrive unwrapped, one JSON text frame each, in the order the facade
 * publishes them; `?timeUnit=MICROSECOND` switches their times to µs.
 *
 * Rules (binance-facts §6.1):
 * - Upgrading with an unknown, closed or expired key is refused (HTTP 400, -1125 in the body).
 * - A key that expires on simulated time (60 minutes without keepalive) sends
 *   {e: "listenKeyExpired", E, listenKey} and closes the connection; a key closed by
 *   DELETE /api/v3/userDataStream closes it without that event. Keys are checked after every HTTP
 *   request the server answers (simulated time moves with the backend): the stream holds no timer.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ExchangeContext } from '../exchange-context.ts';
import { apiTime, type TimeUnit } from '../serialize/api-time.ts';

interface StreamConnection {
  readonly socket: WebSocket;
  readonly listenKey: string;
  readonly unit: TimeUnit;
  readonly unsubscribe: () => void;
}

const STREAM_PATH = /^\/ws\/([A-Za-z0-9]{1,128})$/;

export class UserStreamSockets {
  readonly #ctx: ExchangeContext;
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly #connections = new Set<StreamConnection>();

  constructor(ctx: ExchangeContext) {
    this.#ctx = ctx;
  }

  /** Handles an HTTP upgrade: accepts /ws/<live key>, refuses anything else. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const match = STREAM_PATH.exec(q < 0 ? url : url.slice(0, q));
    const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    const unit: TimeUnit = query.get('timeUnit')?.toUpperCase() === 'MICROSECOND' ? 'MICROSECOND' : 'MILLISECOND';
    const listenKey = match?.[1];
    const accountId = listenKey === undefined ? undefined : this.#ctx.listenKeys.accountOf(listenKey, this.#ctx.now());
    if (listenKey === undefined || accountId === undefined) {
      const body = JSON.stringify({ code: -1125, msg: 'This listenKey does not exist.' });
      socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      return;
    }
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      const connection: StreamConnection = {
        socket: ws,
        listenKey,
        unit,
        unsubscribe: this.#ctx.userStream.subscribe(accountId, (event) => {
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(event));
        }, unit),
      };
      this.#connections.add(connection);
      ws.on('close', () => this.#drop(connection));
      ws.on('error', () => this.#drop(connection));
    });
  }

  /** Ends the streams whose key is no longer live: expired keys first say so. */
  sweep(): void {
    const now = this.#ctx.now();
    for (const c of [...this.#connections]) {
      if (this.#ctx.listenKeys.isLive(c.listenKey, now)) continue;
      if (this.#ctx.listenKeys.hasExpired(c.listenKey, now) && c.socket.readyState === c.socket.OPEN) {
        c.socket.send(JSON.stringify({ e: 'listenKeyExpired', E: apiTime(now, c.unit), listenKey: c.listenKey }));
      }
      c.socket.close(1000, 'listenKey closed');
      this.#drop(c);
    }
  }

  /** Closes every stream (server shutdown). */
  close(): void {
    for (const c of [...this.#connections]) {
      c.socket.terminate();
      this.#drop(c);
    }
    this.#wss.close();
  }

  #drop(connection: StreamConnection): void {
    if (!this.#connections.delete(connection)) return;
    connection.unsubscribe();
  }
}
