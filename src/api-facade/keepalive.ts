/**
 * Binance's transport rules for a WebSocket connection, on the wall clock (they are about the
 * network, not the market, so simulated time standing still does not stop them): the server
 * pings every `pingIntervalMs` (20 s), drops a connection it has not heard from (a pong or any
 * frame) for `pongTimeoutMs` (1 minute), and drops every connection at `connectionLifeMs` (24 h).
 * One host timer for all connections while any is open; nothing per request.
 */
import type { WebSocket } from 'ws';

export interface KeepAliveLimits {
  readonly pingIntervalMs: number;
  readonly pongTimeoutMs: number;
  readonly connectionLifeMs: number;
}

interface Watched {
  readonly openedAt: number;
  heardAt: number;
  /** Called when the rules drop the connection (after terminate). */
  readonly onDrop: () => void;
}

export class KeepAlive {
  readonly #limits: KeepAliveLimits;
  readonly #watched = new Map<WebSocket, Watched>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(limits: KeepAliveLimits) {
    this.#limits = limits;
  }

  /** Watches `ws` from now on; `onDrop` runs when the rules end it. */
  add(ws: WebSocket, onDrop: () => void): void {
    const wall = Date.now(); // determinism-ok: transport keepalive on the wall clock
    const watched: Watched = { openedAt: wall, heardAt: wall, onDrop };
    this.#watched.set(ws, watched);
    const heard = (): void => {
      watched.heardAt = Date.now(); // determinism-ok: transport keepalive on the wall clock
    };
    ws.on('pong', heard);
    ws.on('ping', heard);
    ws.on('message', heard);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#check(), this.#limits.pingIntervalMs); // determinism-ok: transport keepalive on the wall clock
      this.#timer.unref();
    }
  }

  remove(ws: WebSocket): void {
    this.#watched.delete(ws);
    if (this.#watched.size === 0) this.stop();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #check(): void {
    const wall = Date.now(); // determinism-ok: transport keepalive on the wall clock
    for (const [ws, w] of [...this.#watched]) {
      if (wall - w.heardAt > this.#limits.pongTimeoutMs || wall - w.openedAt >= this.#limits.connectionLifeMs) {
        this.#watched.delete(ws);
        ws.terminate();
        w.onDrop();
      } else if (ws.readyState === ws.OPEN) {
        ws.ping();
      }
    }
    if (this.#watched.size === 0) this.stop();
  }
}
