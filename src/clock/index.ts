/**
 * exsim's virtual clock: simulated time in integer microseconds since the Unix epoch, a
 * (time, insertion sequence) scheduler, and the pacing that ties simulated time to real time
 * for a live server.
 *
 * Rules
 * - Imports nothing from the rest of exsim and no `node:*` module; knows nothing about markets.
 * - Deterministic throughout: no wall clock, no randomness, no host timers. Time changes only
 *   through `advanceTo`/`advanceBy`/`runNext`; `Pacing` maps real time to simulated time for
 *   the real time its caller passes (a `WallClock`). The wall clock and the host timers of a
 *   live server are the served exchange's (src/serve: wall-clock.ts, live-pacer.ts).
 *
 * Invariants
 * - `now` never decreases; asking it to (or scheduling before now) throws and changes nothing.
 * - Timers fire in (time, insertion sequence) order; during a firing `now` is the timer's time;
 *   timers scheduled by a callback fire in the same advance when due.
 * - A cancelled timer never fires; a periodic timer fires at firstAt + k × interval, each
 *   occurrence counting as a new insertion when it re-arms.
 */
export { VirtualClock, type Clock } from './virtual-clock.ts';
export { EventQueue, type QueueEntry } from './event-queue.ts';
export {
  Scheduler,
  type FiredTimer,
  type PayloadDispatch,
  type SchedulerOptions,
  type TimerCallback,
  type TimerHandle,
} from './scheduler.ts';
export {
  Pacing,
  formatPacingMode,
  pacingSpeed,
  parsePacingMode,
  type PacingAnchor,
  type PacingMode,
  type PacingOptions,
  type WallClock,
} from './pacing.ts';
export { advanceToPacedTime, realDelayToNextTime, type Advanceable } from './pace-driver.ts';
export {
  MICROS_PER_DAY,
  MICROS_PER_HOUR,
  MICROS_PER_MILLI,
  MICROS_PER_MINUTE,
  MICROS_PER_SECOND,
  assertMicros,
  microsToMillis,
  millisToMicros,
} from './time-units.ts';
