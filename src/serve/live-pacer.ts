/**
 * A live adapter for a simulation whose time advances synchronously (`Advanceable`: a Scheduler,
 * or a composition behind the same three members): a loop on real timers that keeps it in step
 * with its pacing. It sleeps until the next due time (capped at `maxSleepMs`, so data-driven
 * time that the target cannot announce still moves smoothly), then calls `advanceToPacedTime`.
 * A served replay reads its tape asynchronously and has a pacer of its own
 * (backends/replay-pacer.ts); this one is for library users pacing a Scheduler of their own.
 *
 * Outside the deterministic core on purpose, as everything with host timers: what the simulation
 * does at each step depends only on the simulated times it is advanced to; how finely real time
 * slices those steps does not change the order or the simulated time of anything that fires.
 */
import { advanceToPacedTime, realDelayToNextTime, type Advanceable, type Pacing } from '../clock/index.ts';

export interface LivePacerOptions {
  /** Longest real sleep between steps, ms. Default 20. */
  maxSleepMs?: number;
  /**
   * Called when a step throws; the pacer has stopped by then. Default: none, and the error is
   * rethrown from the timer (an uncaught exception: a broken simulation should not run on).
   */
  onError?: (error: unknown) => void;
}

export interface LivePacer {
  readonly running: boolean;
  /**
   * Re-plans the sleep to step as soon as possible: call it after scheduling work that may be due
   * sooner than the current sleep ends. The step runs from a fresh timer task, never inside the
   * caller (which may itself be running inside a timer's action).
   */
  wake(): void;
  stop(): void;
}

const DEFAULT_MAX_SLEEP_MS = 20;

export function startLivePacer(target: Advanceable, pacing: Pacing, options: LivePacerOptions = {}): LivePacer {
  if (pacing.mode.kind === 'manual') throw new Error('manual pacing has nothing to pace: advance the clock explicitly');
  const maxSleepMs = options.maxSleepMs ?? DEFAULT_MAX_SLEEP_MS;
  if (!(maxSleepMs > 0)) throw new RangeError(`maxSleepMs must be positive, got ${maxSleepMs}`);
  const onError = options.onError;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = true;

  const step = (): void => {
    timer = undefined;
    if (!running) return;
    try {
      const realNow = pacing.realNow();
      advanceToPacedTime(target, pacing, realNow);
      const delay = realDelayToNextTime(target, pacing, realNow) ?? maxSleepMs;
      timer = setTimeout(step, Math.min(delay, maxSleepMs)); // determinism-ok: the live pacer is the wall-clock adapter
    } catch (error) {
      running = false;
      if (onError === undefined) throw error;
      onError(error);
    }
  };

  const pacer: LivePacer = {
    get running() {
      return running;
    },
    wake() {
      if (!running) return;
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(step, 0); // determinism-ok: the live pacer is the wall-clock adapter
    },
    stop() {
      running = false;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
  step();
  return pacer;
}
