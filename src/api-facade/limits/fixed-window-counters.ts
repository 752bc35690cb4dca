/**
 * One counter per configured limit for one key (an IP or an account), each living in the fixed,
 * UTC-aligned window of its limit (see rate-limit-config). A counter whose window has passed
 * reads as 0 and restarts on the next write: reset is lazy, so nothing runs on timers and an idle
 * key costs nothing.
 *
 * Simulated time never runs backwards (src/clock); a time in a window before the one a counter
 * already holds is a caller bug and throws, rather than silently mixing two windows.
 */
import { assertMicros } from '../../clock/index.ts';
import { windowLengthUs, type RateLimit } from './rate-limit-config.ts';

/** Window starts (null: never written) and values, per limit. */
export type CountersSnapshot = readonly [readonly (number | null)[], readonly number[]];

export class FixedWindowCounters {
  readonly #limits: readonly RateLimit[];
  /** Window length of each limit, µs (windowLengthUs, worked out once). */
  readonly #lengths: readonly number[];
  /** Window start (µs) each counter belongs to; -Infinity before the first write. */
  readonly #starts: number[];
  readonly #values: number[];

  constructor(limits: readonly RateLimit[]) {
    this.#limits = limits;
    this.#lengths = limits.map(windowLengthUs);
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

  /** The counters as plain data (window starts, null before the first write; values): a journal snapshot. */
  snapshot(): CountersSnapshot {
    return [this.#starts.map((t) => (t === Number.NEGATIVE_INFINITY ? null : t)), [...this.#values]];
  }

  /** Puts back what `snapshot` took (same limits). */
  restore(snapshot: CountersSnapshot): void {
    const [starts, values] = snapshot;
    for (let i = 0; i < this.#limits.length; i++) {
      this.#starts[i] = starts[i] ?? Number.NEGATIVE_INFINITY;
      this.#values[i] = values[i] ?? 0;
    }
  }

  /** True while any counter still holds a non-zero count for the window of `nowUs`. */
  anyLive(nowUs: number): boolean {
    for (let i = 0; i < this.#limits.length; i++) if (this.get(i, nowUs) > 0) return true;
    return false;
  }

  /** True when counter `i` holds the window of `nowUs`; throws if `nowUs` lies in an earlier window. */
  #roll(i: number, nowUs: number): boolean {
    assertMicros(nowUs, 'nowUs');
    const start = this.#startOf(i, nowUs);
    const held = this.#starts[i] ?? Number.NEGATIVE_INFINITY;
    if (start < held) throw new RangeError(`time ${nowUs} lies before the current rate-limit window (starting ${held})`);
    return start === held;
  }

  /** windowStartUs of limit `i`: a multiple of its length since the epoch. */
  #startOf(i: number, nowUs: number): number {
    const len = this.#lengths[i];
    if (len === undefined) throw new RangeError(`no limit at index ${i}`);
    return Math.floor(nowUs / len) * len;
  }
}
