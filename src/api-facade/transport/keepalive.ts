/**
 * Binance's transport rules for a WebSocket connection, on the wall clock (they are about the
 * network, not the market, so simulated time standing still does not stop them): the server
 * pings every `pingIntervalMs` (20 s), drops a connection it has not heard from (a pong or any
 * frame) for `pongTimeoutMs` (1 minute), and drops every connection at `connectionLifeMs` (24 h).
 * One host timer for all connections while any is open, serving a twentieth of them a tick
 * (see SLOTS); nothing per request.
 */
import type { WebSocket } from 'ws';

export interface KeepAliveLimits {
  readonly pingIntervalMs: number;
  readonly pongTimeoutMs: number;
  readonly connectionLifeMs: number;
}

/**
 * Connections are dealt round-robin into this many slots, and one slot is served per tick of
 * pingIntervalMs / SLOTS: each connection is still pinged (and checked) every pingIntervalMs,
 * but 10,000 connections opened in the same second no longer make one wave of 10,000 pings (and
 * 10,000 pongs back) that stalled every request for ~0.1 s every 20 s.
 */
const SLOTS = 20;

interface Watched {
  readonly openedAt: number;
  heardAt: number;
  readonly slot: number;
  /** Called when the rules drop the connection (after terminate). */
  readonly onDrop: () => void;
}

export class KeepAlive {
  readonly #limits: KeepAliveLimits;
  readonly #watched = new Map<WebSocket, Watched>();
  readonly #slots: Set<WebSocket>[] = Array.from({ length: SLOTS }, () => new Set<WebSocket>());
  /** The slot the next connection joins, and the slot the next tick serves. */
  #nextSlot = 0;
  #tickSlot = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(limits: KeepAliveLimits) {
    this.#limits = limits;
  }

  /** Watches `ws` from now on; `onDrop` runs when the rules end it. */
  add(ws: WebSocket, onDrop: () => void): void {
    const wall = Date.now(); // determinism-ok: transport keepalive on the wall clock
    const slot = this.#nextSlot;
    this.#nextSlot = (slot + 1) % SLOTS;
    const watched: Watched = { openedAt: wall, heardAt: wall, slot, onDrop };
    this.#watched.set(ws, watched);
    this.#slots[slot]!.add(ws);
    const heard = (): void => {
      watched.heardAt = Date.now(); // determinism-ok: transport keepalive on the wall clock
    };
    ws.on('pong', heard);
    ws.on('ping', heard);
    ws.on('message', heard);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#check(), Math.max(1, this.#limits.pingIntervalMs / SLOTS)); // determinism-ok: transport keepalive on the wall clock
      this.#timer.unref();
    }
  }

  remove(ws: WebSocket): void {
    const watched = this.#watched.get(ws);
    if (watched === undefined) return;
    this.#watched.delete(ws);
    this.#slots[watched.slot]!.delete(ws);
    if (this.#watched.size === 0) this.stop();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One tick: the connections of one slot are pinged, or dropped if silent too long or too old. */
  #check(): void {
    const wall = Date.now(); // determinism-ok: transport keepalive on the wall clock
    const slot = this.#slots[this.#tickSlot]!;
    this.#tickSlot = (this.#tickSlot + 1) % SLOTS;
    for (const ws of [...slot]) {
      const w = this.#watched.get(ws)!;
      if (wall - w.heardAt > this.#limits.pongTimeoutMs || wall - w.openedAt >= this.#limits.connectionLifeMs) {
        this.#watched.delete(ws);
        slot.delete(ws);
        ws.terminate();
        w.onDrop();
      } else if (ws.readyState === ws.OPEN) {
        ws.ping();
      }
    }
    if (this.#watched.size === 0) this.stop();
  }
}
