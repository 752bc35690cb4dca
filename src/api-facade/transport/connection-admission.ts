/**
 * Connection attempts and open connections per client IP, for the WebSocket endpoints on the
 * HTTP server (the listen-key user data stream, the WebSocket API): attempts are counted in fixed
 * windows of simulated time (Binance: 300 per 5 minutes per IP), open connections until closed.
 * An IP's entry is dropped once it has no open connection and its window has passed, so the map
 * holds only IPs that are connected or were seen in the current window.
 */
import type { Duplex } from 'node:stream';
import { ApiError, apiError, rawErrorResponse } from '../core/index.ts';

/** One IP's counts; `open` is the caller's to raise when the upgrade completes. */
export interface IpConnectionCount {
  window: number;
  attempts: number;
  open: number;
}

export class ConnectionAttempts {
  readonly #attemptsPerIp: number;
  readonly #windowUs: number;
  readonly #openPerIp: number;
  readonly #perIp = new Map<string, IpConnectionCount>();

  constructor(attemptsPerIp: number, windowUs: number, openPerIp: number) {
    this.#attemptsPerIp = attemptsPerIp;
    this.#windowUs = windowUs;
    this.#openPerIp = openPerIp;
  }

  /** Counts an attempt from `ip`: its counts, or the 429 -1003 refusal over either limit. */
  attempt(ip: string, nowUs: number): IpConnectionCount | ApiError {
    const window = Math.floor(nowUs / this.#windowUs);
    let count = this.#perIp.get(ip);
    if (count === undefined) this.#perIp.set(ip, (count = { window, attempts: 0, open: 0 }));
    if (count.window !== window) {
      count.window = window;
      count.attempts = 0;
    }
    count.attempts++;
    if (count.attempts > this.#attemptsPerIp) return apiError('TOO_MANY_CONNECTION_ATTEMPTS', this.#attemptsPerIp, this.#windowUs / 60_000_000);
    if (count.open >= this.#openPerIp) return apiError('TOO_MANY_OPEN_CONNECTIONS', this.#openPerIp);
    return count;
  }

  /** Counts an upgrade attempt: its IP's counts, or undefined once the refusal was written and the socket ended. */
  admit(socket: Duplex, ip: string, nowUs: number): IpConnectionCount | undefined {
    const count = this.attempt(ip, nowUs);
    if (!(count instanceof ApiError)) return count;
    socket.end(rawErrorResponse(count));
    return undefined;
  }

  /** A connection of `ip` closed. */
  release(ip: string, nowUs: number): void {
    const count = this.#perIp.get(ip);
    if (count !== undefined && --count.open === 0 && count.window !== Math.floor(nowUs / this.#windowUs)) this.#perIp.delete(ip);
  }
}
