/**
 * One counter per configured limit for one key (an IP or an account), each living in the fixed,
 * UTC-aligned window of its limit (see rate-limit-config). A counter whose window has passed
 * reads as 0 and restarts on the next write: reset is lazy, so nothing runs on timers and an idle
 * key costs nothing.
 *
 * Simulated time never runs backwards (src/clock); a time in a window before the one a counter
 * already holds is a caller bug and throws, rather than silently mixing two windows.
 */
import { assertMicros } from '../../clock/time-units.ts';
import { windowStartUs, type RateLimit } from './rate-limit-config.ts';

export class FixedWindowCounters {
  readonly #limits: readonly RateLimit[];
  /** Window start (µs) each counter belongs to; -Infinity before the first write. */
  readonly #starts: number[];
  readonly #values: number[];

  constructor(limits: readonly RateLimit[]) {
    this.#limits = limits;
    this.#starts = limits.map(() => Number.NEGATIVE_INFINITY);
    this.#values = limits.map(() => 0);
  }

  /** The count of limit `i` in the window containing `nowUs`. */
  get(i: number, nowUs: number): number {
    return this.#roll(i, nowUs) ? (this.#values[i] ?? 0) : 0;
  }

  /** Adds `amount` (may be negative) to limit `i` in the window of `nowUs`, never going below 0. */
  add(i: number, amount: number, nowUs: number): void {
    if (!this.#roll(i, nowUs)) {
      this.#starts[i] = this.#startOf(i, nowUs);
      this.#values[i] = 0;
    }
    this.#values[i] = Math.max(0, (this.#values[i] ?? 0) + amount);
  }

  /** True while any counter still holds a non-zero count for the window of `nowUs`. */
  anyLive(nowUs: number): boolean {
    return this.#limits.some((_, i) => this.get(i, nowUs) > 0);
  }

  /** True when counter `i` holds the window of `nowUs`; throws if `nowUs` lies in an earlier window. */
  #roll(i: number, nowUs: number): boolean {
    assertMicros(nowUs, 'nowUs');
    const start = this.#startOf(i, nowUs);
    const held = this.#starts[i] ?? Number.NEGATIVE_INFINITY;
    if (start < held) throw new RangeError(`time ${nowUs} lies before the current rate-limit window (starting ${held})`);
    return start === held;
  }

  #startOf(i: number, nowUs: number): number {
    const limit = this.#limits[i];
    if (limit === undefined) throw new RangeError(`no limit at index ${i}`);
    return windowStartUs(limit, nowUs);
  }
}
