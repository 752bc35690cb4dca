/**
 * Monotonic simulated time. A `VirtualClock` is a single cell holding "now" in µs since the
 * epoch that can only move forward: moving it back is a caller bug and throws, leaving the cell
 * unchanged. It has no timers of its own; a `Scheduler` owns one privately and is the only thing
 * that moves it while timers are pending, so time can never skip past a due timer.
 *
 * Code that only needs to read simulated time (signed-request checks, rate-limit windows) should
 * take the read-only `Clock` interface, which both `VirtualClock` and `Scheduler` implement.
 */
import { assertMicros } from './time-units.ts';

/** Read-only view of simulated time. */
export interface Clock {
  /** Current simulated time, µs since the Unix epoch. */
  readonly now: number;
}

export class VirtualClock implements Clock {
  #now: number;

  constructor(startTime = 0) {
    assertMicros(startTime, 'start time');
    this.#now = startTime;
  }

  get now(): number {
    return this.#now;
  }

  /** Throws unless `time` is a valid next value of `now` (a safe integer, not before now). */
  assertCanAdvanceTo(time: number): void {
    assertMicros(time, 'time');
    if (time < this.#now) {
      throw new RangeError(`time ran backwards: asked to advance to ${time} µs, but now is ${this.#now} µs`);
    }
  }

  /** Moves `now` to `time` (which may equal now). Throws, changing nothing, if it is earlier. */
  advanceTo(time: number): void {
    this.assertCanAdvanceTo(time);
    this.#now = time;
  }
}
