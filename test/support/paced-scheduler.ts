/**
 * A Scheduler with four timers (at +1 s, +2 s twice, +5 s of simulated time) paced on a fake wall
 * clock: what the pace driver's and the live pacer's tests step through.
 */
import { Pacing, Scheduler } from '../../src/clock/index.ts';

export const SIM0 = 1_700_000_000_000_000;
export const REAL0 = 1_800_000_000_000;

export function pacedScheduler(mode: string): { s: Scheduler; pacing: Pacing; fired: number[]; setReal: (ms: number) => void } {
  let real = REAL0;
  const pacing = new Pacing(mode, { simulatedStart: SIM0, wallClock: () => real });
  const s = new Scheduler({ startTime: SIM0 });
  const fired: number[] = [];
  for (const offset of [1_000_000, 2_000_000, 2_000_000, 5_000_000]) s.schedule(SIM0 + offset, (t) => fired.push(t - SIM0));
  return { s, pacing, fired, setReal: (ms) => (real = ms) };
}
