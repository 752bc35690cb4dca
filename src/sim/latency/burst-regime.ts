/**
 * A two-state (calm / burst) regime switch on the virtual clock: calm and burst periods
 * alternate with exponentially distributed lengths, drawn lazily from a seeded stream as time
 * goes on. The timeline starts calm at `origin` (the replay's start time) and depends on time
 * only, not on how many latencies were drawn: the same seed puts the bursts at the same
 * simulated times whatever the strategy sends, so two strategies compared on one seed meet the
 * same stressed minutes.
 */
import type { RandomSource } from './random-source.ts';

export class BurstRegime {
  #burst = false;
  /** End of the current period (µs). */
  #until: number;

  constructor(
    private readonly random: RandomSource,
    origin: number,
    private readonly meanCalm: number,
    private readonly meanBurst: number,
  ) {
    this.#until = origin + this.#length(meanCalm);
  }

  /** Whether `time` is inside a burst. Times must not decrease between calls (the clock does not). */
  inBurst(time: number): boolean {
    while (time >= this.#until) {
      this.#burst = !this.#burst;
      this.#until += this.#length(this.#burst ? this.meanBurst : this.meanCalm);
    }
    return this.#burst;
  }

  /** Exponential with the given mean, in whole µs, at least 1. */
  #length(mean: number): number {
    return Math.max(1, Math.round(-mean * Math.log(1 - this.random())));
  }
}
