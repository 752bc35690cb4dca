/**
 * Latency distributions for one leg of the order path (entry, cancel, acknowledgement), drawn
 * in whole microseconds from a seeded stream, so the virtual clock stays integer and a replay
 * with the same seed draws the same latencies.
 *
 * - constant: always `micros`.
 * - normal: N(mean, stdDev) truncated at 0 by rejection (a negative draw is redrawn, so the
 *   result follows the truncated normal, not a normal with a spike at 0); after 64 rejections in
 *   a row (mean far below 0) the draw is 0.
 * - lognormal: `median × exp(sigma × Z)`: the median is what a typical request takes and sigma
 *   the heaviness of the right tail (sigma 0.5: the 99th percentile is ~3.2× the median), which
 *   is the shape measured round trips to exchanges have.
 * - lognormal with bursts: the same, multiplied by `multiplier` while a seeded regime switch is
 *   in its burst state (see burst-regime.ts): latency spikes come in clusters (an overloaded
 *   gateway, a volatile minute), not as independent outliers.
 */
import type { RandomSource } from './random-source.ts';
import { BurstRegime } from './burst-regime.ts';

export type LatencyDistribution =
  | { readonly kind: 'constant'; readonly micros: number }
  | { readonly kind: 'normal'; readonly mean: number; readonly stdDev: number }
  | { readonly kind: 'lognormal'; readonly median: number; readonly sigma: number }
  | {
      readonly kind: 'lognormal-bursts';
      readonly median: number;
      readonly sigma: number;
      /** Latency multiplier during a burst (>= 1). */
      readonly multiplier: number;
      /** Mean length of a calm period (µs, exponentially distributed). */
      readonly meanCalmMicros: number;
      /** Mean length of a burst (µs, exponentially distributed). */
      readonly meanBurstMicros: number;
    };

/** One drawn latency, with what produced it. */
export interface LatencySample {
  readonly micros: number;
  /** True when a burst multiplied it. */
  readonly burst: boolean;
}

const MAX_REJECTIONS = 64;

/** A distribution bound to its random stream(s). */
export class LatencySampler {
  readonly #regime: BurstRegime | null;

  constructor(
    readonly distribution: LatencyDistribution,
    private readonly random: RandomSource,
    /** Only for bursts: the regime's own stream and the time its timeline starts (µs). */
    regime?: { readonly random: RandomSource; readonly origin: number },
  ) {
    validate(distribution);
    this.#regime =
      distribution.kind === 'lognormal-bursts'
        ? new BurstRegime(regime?.random ?? random, regime?.origin ?? 0, distribution.meanCalmMicros, distribution.meanBurstMicros)
        : null;
  }

  /** A latency for a request sent at `time` (µs). */
  draw(time: number): LatencySample {
    const d = this.distribution;
    switch (d.kind) {
      case 'constant':
        return { micros: d.micros, burst: false };
      case 'normal': {
        for (let i = 0; i < MAX_REJECTIONS; i++) {
          const x = d.mean + d.stdDev * standardNormal(this.random);
          if (x >= 0) return { micros: Math.round(x), burst: false };
        }
        return { micros: 0, burst: false };
      }
      case 'lognormal':
        return { micros: Math.round(d.median * Math.exp(d.sigma * standardNormal(this.random))), burst: false };
      case 'lognormal-bursts': {
        const base = d.median * Math.exp(d.sigma * standardNormal(this.random));
        const burst = this.#regime!.inBurst(time);
        return { micros: Math.round(burst ? base * d.multiplier : base), burst };
      }
    }
  }
}

/** Box–Muller; uses two uniforms per draw (the second variate is dropped: simpler to reason about a stream). */
export function standardNormal(random: RandomSource): number {
  const u1 = 1 - random(); // (0, 1]: log is finite
  const u2 = random();
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

function validate(d: LatencyDistribution): void {
  const bad = (what: string): never => {
    throw new RangeError(`latency ${d.kind}: ${what}`);
  };
  switch (d.kind) {
    case 'constant':
      if (!(Number.isSafeInteger(d.micros) && d.micros >= 0)) bad(`micros must be an integer >= 0, got ${d.micros}`);
      break;
    case 'normal':
      if (!(Number.isFinite(d.mean) && d.stdDev >= 0 && Number.isFinite(d.stdDev))) bad(`need a finite mean and stdDev >= 0, got ${d.mean}, ${d.stdDev}`);
      break;
    case 'lognormal':
    case 'lognormal-bursts':
      if (!(d.median >= 0 && Number.isFinite(d.median) && d.sigma >= 0 && Number.isFinite(d.sigma))) bad(`need median >= 0 and sigma >= 0, got ${d.median}, ${d.sigma}`);
      if (d.kind === 'lognormal-bursts') {
        if (!(d.multiplier >= 1 && Number.isFinite(d.multiplier))) bad(`multiplier must be >= 1, got ${d.multiplier}`);
        if (!(d.meanCalmMicros >= 1 && d.meanBurstMicros >= 1)) bad(`meanCalmMicros and meanBurstMicros must be >= 1 µs`);
      }
      break;
  }
}
