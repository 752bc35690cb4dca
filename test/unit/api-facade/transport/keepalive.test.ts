/**
 * KeepAlive pings every connection once per ping interval, a twentieth of them per tick, so
 * connections opened together are not pinged (and do not pong) in one wave; silent or too old
 * connections are dropped at their slot's turn. Driven by fake timers and stand-in sockets.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { KeepAlive } from '../../../../src/api-facade/transport/keepalive.ts';

class FakeSocket {
  readonly OPEN = 1;
  readyState = 1;
  pings: number[] = [];
  terminated = false;
  readonly #handlers = new Map<string, (() => void)[]>();

  on(event: string, handler: () => void): this {
    this.#handlers.set(event, [...(this.#handlers.get(event) ?? []), handler]);
    return this;
  }
  emit(event: string): void {
    for (const handler of this.#handlers.get(event) ?? []) handler();
  }
  ping(): void {
    this.pings.push(Date.now());
  }
  terminate(): void {
    this.terminated = true;
    this.readyState = 3;
  }
}

const INTERVAL = 20_000;

describe('KeepAlive', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('spreads the pings of connections opened together over the interval, each pinged once per interval', () => {
    const keepAlive = new KeepAlive({ pingIntervalMs: INTERVAL, pongTimeoutMs: 60_000, connectionLifeMs: 86_400_000 });
    const sockets = Array.from({ length: 1000 }, () => new FakeSocket());
    for (const s of sockets) {
      keepAlive.add(s as unknown as WebSocket, () => undefined);
      s.on('ping', () => undefined);
    }
    const pingedBy = (t: number): number => sockets.filter((s) => s.pings.some((p) => p <= t)).length;
    vi.advanceTimersByTime(INTERVAL / 20);
    expect(pingedBy(INTERVAL / 20)).toBe(50); // one slot: 1000 / 20
    vi.advanceTimersByTime(INTERVAL - INTERVAL / 20);
    expect(sockets.every((s) => s.pings.length === 1)).toBe(true);
    // Every answer keeps them; a second interval pings each once more, one interval after its first.
    for (const s of sockets) s.emit('pong');
    vi.advanceTimersByTime(INTERVAL);
    expect(sockets.every((s) => s.pings.length === 2 && s.pings[1]! - s.pings[0]! === INTERVAL)).toBe(true);
    keepAlive.stop();
  });

  it('drops a connection silent for longer than the pong timeout at its turn, and one past its life', () => {
    const dropped: string[] = [];
    const keepAlive = new KeepAlive({ pingIntervalMs: INTERVAL, pongTimeoutMs: 60_000, connectionLifeMs: 100_000 });
    const silent = new FakeSocket();
    const polite = new FakeSocket();
    keepAlive.add(silent as unknown as WebSocket, () => dropped.push(`silent at ${Date.now()}`));
    keepAlive.add(polite as unknown as WebSocket, () => dropped.push(`polite at ${Date.now()}`));
    // The polite one answers every ping at once.
    const answer = setInterval(() => {
      if (polite.pings.length > 0) polite.emit('pong');
    }, 1000);
    vi.advanceTimersByTime(80_000);
    expect(silent.terminated).toBe(true);
    expect(dropped).toEqual(['silent at 61000']); // slot 0 is served at 1 s, 21 s, 41 s, 61 s: silent 61 s > 60 s
    expect(polite.terminated).toBe(false);
    vi.advanceTimersByTime(22_000);
    expect(polite.terminated).toBe(true); // slot 1 at 102 s: past its 100 s life
    expect(dropped).toEqual(['silent at 61000', 'polite at 102000']);
    clearInterval(answer);
  });
});
