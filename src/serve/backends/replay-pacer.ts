/**
 * The live adapter of a served replay: its tape caught up with the paced clock on a host timer.
 * `Replay.runUntil` is async (it reads the dump files as it goes) and not re-entrant, so runs are
 * serialised: the timer's and the control plane's (`catchUp`). Requests in between see the
 * replay's time, at most one tick behind the pacing.
 *
 * What the replay does depends only on the simulated times it is run to; how finely real time
 * slices them does not change the order or the simulated time of anything.
 */
import type { Pacing } from '../../clock/index.ts';
import type { Replay } from '../../sim/index.ts';

export interface ReplayPacer {
  /** Brings the replay to simulated `target` (after the runs already queued). */
  catchUp(target: number): Promise<void>;
  stop(): void;
}

/** Ms between two catch-ups. */
const TICK_MS = 20;

export function paceReplay(replay: Replay, pacing: Pacing): ReplayPacer {
  let running: Promise<void> = Promise.resolve();
  let failed = false;
  const catchUp = (target: number): Promise<void> => {
    running = running.then(async () => {
      if (failed || target <= replay.now) return;
      try {
        await replay.runUntil(target);
      } catch (error) {
        failed = true;
        clearInterval(timer);
        console.error(`exsim: the replay stopped: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    return running;
  };
  let busy = false;
  const timer = setInterval(() => { // determinism-ok: the wall-clock pacing adapter of a live server
    if (busy) return;
    const target = Math.floor(pacing.simulatedNow());
    if (target <= replay.now) return;
    busy = true;
    void catchUp(target).then(() => (busy = false));
  }, TICK_MS);
  return { catchUp, stop: () => clearInterval(timer) };
}
