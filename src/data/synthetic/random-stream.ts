/**
 * Seeded random numbers for the synthetic market. Alea (from seedrandom) is fast, passes the
 * usual test batteries and is fully determined by its seed string. The transforms use only
 * Math.log/sqrt/cos, which V8 computes with its own portable fdlibm port, so a seed gives the
 * same numbers on every machine.
 */
import seedrandom from 'seedrandom';

export class RandomStream {
  private readonly next: seedrandom.PRNG;
  /** Box-Muller yields normals in pairs; the second one waits here. */
  private spareNormal = Number.NaN;

  constructor(seed: string) {
    this.next = seedrandom.alea(seed);
  }

  /** Uniform in [0, 1). */
  uniform(): number {
    return this.next();
  }

  /** Uniform in (0, 1]: safe to take the log of. */
  positiveUniform(): number {
    return 1 - this.next();
  }

  /** Standard normal. */
  normal(): number {
    if (!Number.isNaN(this.spareNormal)) {
      const z = this.spareNormal;
      this.spareNormal = Number.NaN;
      return z;
    }
    const r = Math.sqrt(-2 * Math.log(this.positiveUniform()));
    const theta = 2 * Math.PI * this.next();
    this.spareNormal = r * Math.sin(theta);
    return r * Math.cos(theta);
  }

  /** Exponential with the given mean. */
  exponential(mean: number): number {
    return -Math.log(this.positiveUniform()) * mean;
  }

  /** Log-normal with the given median and log-space standard deviation. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }
}
