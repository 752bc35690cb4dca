/**
 * Driving simulated time from pacing, one step at a time. No timers and no loop here: the
 * caller decides when to step (on each incoming request, or from `live-pacer.ts`), passing the
 * real time it read, so the stepping itself stays deterministic and testable.
 */
import type { Pacing } from './pacing.ts';

/**
 * Anything whose time can be advanced with due work fired along the way: a `Scheduler`, or a
 * composition (replay) that merges a data tape with a scheduler behind the same three members.
 */
export interface Advanceable {
  readonly now: number;
  nextTime(): number | undefined;
  advanceTo(time: number): unknown;
}

/**
 * Advances `target` to the pacing's simulated time at real time `realNow` (default: the pacing's
 * wall clock now). Never moves backwards: when the pacing lags `target.now` (a manual jump, a
 * wall clock that stepped back), it advances to `target.now`, firing whatever is due there.
 * In manual mode it does nothing. Returns the simulated time after the step.
 */
export function advanceToPacedTime(target: Advanceable, pacing: Pacing, realNow: number = pacing.realNow()): number {
  if (pacing.mode.kind === 'manual') return target.now;
  target.advanceTo(Math.max(pacing.realNowToSimulated(realNow), target.now));
  return target.now;
}

/**
 * Real milliseconds from `realNow` until `target`'s next due time is reached under `pacing`
 * (0 if already due); undefined when nothing is queued or in manual mode. A live loop sleeps
 * this long (capped) before the next `advanceToPacedTime`.
 */
export function realDelayToNextTime(target: Advanceable, pacing: Pacing, realNow: number = pacing.realNow()): number | undefined {
  if (pacing.mode.kind === 'manual') return undefined;
  const next = target.nextTime();
  if (next === undefined) return undefined;
  return Math.max(0, pacing.simulatedToReal(next) - realNow);
}
