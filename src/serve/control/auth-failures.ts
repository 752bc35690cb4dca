/**
 * Failed control-plane authentications per client IP (`--admin-key` guesses): after `failures`
 * wrong or missing keys from an IP within a fixed window, every control request from that IP is
 * refused (429 -1003, Retry-After) until the window ends, the right key included, so guessing
 * stays at `failures` tries a window.
 *
 * Wall time, not simulated time: the guesses come in real time, and the control plane is what
 * moves simulated time (a paused or manual clock would never end a window, and speed:100 would
 * end a minute's window in 0.6 s). The wall clock is the served exchange's (`WallClock`, passed
 * in: wall-clock.ts in a server, a fake in tests). Host state, like the sockets: not journaled,
 * a restart forgets it.
 *
 * Memory: only the IPs that failed in the current window (the map starts afresh with each window).
 */
import type { WallClock } from '../../clock/index.ts';

export interface AuthFailureLimits {
  /** Failed authentications an IP may have per window before it is refused. */
  readonly failures: number;
  readonly windowMs: number;
}

export const DEFAULT_AUTH_FAILURE_LIMITS: AuthFailureLimits = { failures: 10, windowMs: 60_000 };

export class AuthFailures {
  readonly #limits: AuthFailureLimits;
  readonly #wallClock: WallClock;
  #window = -1;
  readonly #failed = new Map<string, number>();

  constructor(wallClock: WallClock, limits: Partial<AuthFailureLimits> = {}) {
    this.#wallClock = wallClock;
    this.#limits = { ...DEFAULT_AUTH_FAILURE_LIMITS, ...limits };
  }

  get limits(): AuthFailureLimits {
    return this.#limits;
  }

  /** Whole seconds until `ip` may try again; 0 when it may now. */
  refusedFor(ip: string): number {
    const now = this.#now();
    if ((this.#failed.get(ip) ?? 0) < this.#limits.failures) return 0;
    return Math.max(1, Math.ceil(((this.#window + 1) * this.#limits.windowMs - now) / 1000));
  }

  /** `ip` failed to authenticate. */
  failed(ip: string): void {
    this.#now();
    this.#failed.set(ip, (this.#failed.get(ip) ?? 0) + 1);
  }

  /** Wall ms now, the counts cleared when a new window began. */
  #now(): number {
    const now = this.#wallClock();
    const window = Math.floor(now / this.#limits.windowMs);
    if (window !== this.#window) {
      this.#window = window;
      this.#failed.clear();
    }
    return now;
  }
}
