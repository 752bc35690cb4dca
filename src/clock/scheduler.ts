/**
 * Timers on simulated time: the one place the rest of exsim asks "wake me at t" (order latency,
 * user-stream keepalive expiry, funding, kline boundaries).
 *
 * Ordering invariant
 * - Timers fire in (time, insertion sequence) order: two timers due at the same µs fire in the
 *   order they were scheduled, on every run. A periodic timer re-arms when it fires, which
 *   counts as a new insertion at its next time.
 *
 * Time invariant
 * - `now` never decreases. `advanceTo(t)` with t < now, a non-integer time, or a timer scheduled
 *   before now is a caller bug: it throws and changes nothing.
 * - While a timer fires, `now` equals its time. A callback may schedule more timers, including
 *   at `now`; those fire within the same `advanceTo` if due (after everything already queued at
 *   that time), and may cancel any pending timer, which then does not fire.
 * - `advanceTo`/`runNext` may not be called from inside a callback (throws): a nested advance
 *   would move time under the feet of the advance in progress.
 * - If a callback throws, the exception propagates with `now` at that timer's time; the timers
 *   still due stay queued and fire on the next advance.
 *
 * A timer's action is either a callback `(time, handle) => void` or a payload (any non-function
 * value) handed to the `dispatch` function given at construction: payloads keep timers as plain
 * data, which a journal can record and a replay can compare.
 */
import { EventQueue, type QueueEntry } from './event-queue.ts';
import { assertMicros } from './time-units.ts';
import { VirtualClock, type Clock } from './virtual-clock.ts';

/** Called when a callback timer fires; `time` is the time it fired at (= scheduler.now). */
export type TimerCallback = (time: number, handle: TimerHandle) => void;

/** Receives the payload of each payload timer as it fires. */
export type PayloadDispatch<P> = (payload: P, time: number, handle: TimerHandle) => void;

/** What `schedule` returns: identifies a timer for `cancel` and reports its state. */
export interface TimerHandle {
  /** When it fires next (µs); for a timer that fired or was cancelled, when it was last due. */
  readonly time: number;
  /** Repeat interval in µs; 0 for a one-shot timer. */
  readonly interval: number;
  /** True while the timer is queued (scheduled and neither fired for good nor cancelled). */
  readonly pending: boolean;
}

/** One firing, as reported by `runNext`. */
export interface FiredTimer<P> {
  /** The time it fired at (µs). */
  readonly time: number;
  readonly handle: TimerHandle;
  /** The payload of a payload timer; undefined for a callback timer. */
  readonly payload: P | undefined;
}

export interface SchedulerOptions<P> {
  /** Initial `now`, µs since the epoch. Default 0. */
  startTime?: number;
  /** Where payload timers deliver their payload. Required to schedule payload timers. */
  dispatch?: PayloadDispatch<P>;
  /**
   * Called each time the clock moves to a new time (before a timer at that time runs, and when
   * `advanceTo` lands): the owner brings what lives on the clock (a replay's order-flow books) up
   * to now before anyone looks at it.
   */
  onTime?: (time: number) => void;
}

/** A queued timer. Exposed to callers only as the read-only `TimerHandle`. */
class Timer<P> implements QueueEntry, TimerHandle {
  time: number;
  seq = -1;
  heapIndex = -1;
  readonly interval: number;
  readonly callback: TimerCallback | undefined;
  readonly payload: P | undefined;
  readonly owner: Scheduler<P>;

  constructor(owner: Scheduler<P>, time: number, interval: number, action: TimerCallback | P) {
    this.owner = owner;
    this.time = time;
    this.interval = interval;
    if (typeof action === 'function') {
      this.callback = action as TimerCallback;
      this.payload = undefined;
    } else {
      this.callback = undefined;
      this.payload = action;
    }
  }

  get pending(): boolean {
    return this.heapIndex >= 0;
  }
}

export class Scheduler<P = never> implements Clock {
  readonly #clock: VirtualClock;
  readonly #queue = new EventQueue<Timer<P>>();
  readonly #dispatch: PayloadDispatch<P> | undefined;
  readonly #onTime: ((time: number) => void) | undefined;
  /** Set while a timer's action runs, to refuse nested advances. */
  #firing = false;

  constructor(options: SchedulerOptions<P> = {}) {
    this.#clock = new VirtualClock(options.startTime ?? 0);
    this.#dispatch = options.dispatch;
    this.#onTime = options.onTime;
  }

  /** Current simulated time, µs since the epoch. */
  get now(): number {
    return this.#clock.now;
  }

  /** Number of timers queued. */
  get pendingCount(): number {
    return this.#queue.size;
  }

  /** The time of the next timer to fire, or undefined when none is queued. */
  nextTime(): number | undefined {
    return this.#queue.peek()?.time;
  }

  /**
   * Schedules a one-shot timer at absolute time `at` (µs, not before now). `action` is a callback
   * or a payload for the dispatcher. Payloads must not be functions: a function is a callback.
   */
  schedule(at: number, action: TimerCallback | P): TimerHandle {
    this.#assertSchedulable(at, action);
    return this.#enqueue(new Timer(this, at, 0, action));
  }

  /** Schedules a one-shot timer `delay` µs from now (delay >= 0). */
  scheduleAfter(delay: number, action: TimerCallback | P): TimerHandle {
    assertMicros(delay, 'delay');
    if (delay < 0) throw new RangeError(`delay must not be negative, got ${delay}`);
    return this.schedule(this.now + delay, action);
  }

  /**
   * Schedules a periodic timer: first at `firstAt`, then every `interval` µs (> 0) until
   * cancelled. Occurrences are at exact multiples of the interval from `firstAt`, never drifting
   * with when the clock happens to be advanced; a long `advanceTo` fires every occurrence it
   * passes, each at its own time. (Calendar-month boundaries are not periodic: re-schedule
   * one-shot timers for those.)
   */
  scheduleEvery(firstAt: number, interval: number, action: TimerCallback | P): TimerHandle {
    assertMicros(interval, 'interval');
    if (interval <= 0) throw new RangeError(`interval must be positive, got ${interval}`);
    this.#assertSchedulable(firstAt, action);
    return this.#enqueue(new Timer(this, firstAt, interval, action));
  }

  /**
   * Cancels a pending timer; returns false if it already fired (one-shot) or was cancelled.
   * Cancelling a periodic timer from its own callback stops the following occurrences.
   */
  cancel(handle: TimerHandle): boolean {
    if (!(handle instanceof Timer) || handle.owner !== this) {
      throw new Error('cancel: the handle was not issued by this scheduler');
    }
    return this.#queue.remove(handle as Timer<P>);
  }

  /**
   * Fires, in (time, seq) order, every timer due at or before `time` (including those scheduled
   * by callbacks along the way), then sets `now` to `time`. Returns how many timers fired.
   * Throws, changing nothing, if `time` is before now or not a safe integer.
   */
  advanceTo(time: number): number {
    this.#assertNotFiring('advanceTo');
    this.#clock.assertCanAdvanceTo(time);
    const queue = this.#queue;
    let fired = 0;
    for (let next = queue.peek(); next !== undefined && next.time <= time; next = queue.peek()) {
      this.#fire(next);
      fired++;
    }
    const moved = time !== this.#clock.now;
    this.#clock.advanceTo(time);
    if (moved && this.#onTime !== undefined) this.#onTime(time);
    return fired;
  }

  /** `advanceTo(now + delta)`. */
  advanceBy(delta: number): number {
    assertMicros(delta, 'delta');
    return this.advanceTo(this.now + delta);
  }

  /**
   * Fires the next timer, moving `now` to its time, and reports it; returns undefined (and
   * leaves time alone) when none is queued. For event-driven loops:
   * `while (s.nextTime() !== undefined && s.nextTime()! <= horizon) s.runNext();`
   */
  runNext(): FiredTimer<P> | undefined {
    this.#assertNotFiring('runNext');
    const next = this.#queue.peek();
    if (next === undefined) return undefined;
    const time = next.time;
    this.#fire(next);
    return { time, handle: next, payload: next.payload };
  }

  #assertSchedulable(at: number, action: TimerCallback | P): void {
    assertMicros(at, 'timer time');
    if (at < this.now) {
      throw new RangeError(`cannot schedule a timer in the past: at ${at} µs, but now is ${this.now} µs`);
    }
    if (typeof action !== 'function' && this.#dispatch === undefined) {
      throw new Error('a payload timer needs a scheduler constructed with a dispatch function');
    }
  }

  #enqueue(timer: Timer<P>): TimerHandle {
    this.#queue.push(timer);
    return timer;
  }

  /** Pops `timer` (the queue's head), moves time to it, re-arms it if periodic, runs its action. */
  #fire(timer: Timer<P>): void {
    const time = timer.time;
    this.#queue.pop();
    const moved = time !== this.#clock.now;
    this.#clock.advanceTo(time);
    if (moved && this.#onTime !== undefined) this.#onTime(time);
    if (timer.interval > 0) {
      // Re-armed before the action runs, so the action sees a consistent queue (nextTime and
      // pending include the next occurrence) and can cancel it through the same handle.
      const nextTime = time + timer.interval;
      // Past 2^53 µs (year ~2255) the next time would not be exact; the timer just ends.
      if (Number.isSafeInteger(nextTime)) {
        timer.time = nextTime;
        this.#queue.push(timer);
      }
    }
    this.#firing = true;
    try {
      if (timer.callback !== undefined) timer.callback(time, timer);
      else (this.#dispatch as PayloadDispatch<P>)(timer.payload as P, time, timer);
    } finally {
      this.#firing = false;
    }
  }

  #assertNotFiring(method: string): void {
    if (this.#firing) throw new Error(`${method} called from inside a timer's action`);
  }
}
