/**
 * Seeded, time-indexed noise: a piecewise-linear function of simulated time through knots spaced
 * `spacingUs` apart, each knot an integer in [-NOISE_SCALE, NOISE_SCALE] drawn from seedrandom.
 *
 * Why knots in blocks: the value at time t must be a pure function of (seed, stream, t), whatever
 * was asked before (a query at t equals the same query asked first). So knots are drawn in fixed
 * blocks of KNOTS_PER_BLOCK, each block from its own alea stream named `${seed}/${stream}/${block}`;
 * a block is drawn whole, cached, and evicted freely (re-drawing gives the same numbers).
 *
 * No clock, no Math.random: the only randomness is seedrandom's alea, and floats from it are turned
 * into integers at once, so everything downstream is integer arithmetic.
 */
import seedrandom from 'seedrandom';

export const NOISE_SCALE = 1_000_000;
const KNOTS_PER_BLOCK = 1440;
const MAX_CACHED_BLOCKS = 64;

export class SeededNoise {
  readonly #name: string;
  readonly #spacingUs: number;
  readonly #blocks = new Map<number, Int32Array>();

  constructor(seed: string, stream: string, spacingUs: number) {
    if (!Number.isSafeInteger(spacingUs) || spacingUs <= 0) throw new RangeError('spacingUs must be a positive integer');
    this.#name = `${seed}/${stream}`;
    this.#spacingUs = spacingUs;
  }

  get spacingUs(): number {
    return this.#spacingUs;
  }

  /** Knot k (at time k × spacing), in [-NOISE_SCALE, NOISE_SCALE]. */
  knot(k: number): number {
    const block = Math.floor(k / KNOTS_PER_BLOCK);
    let values = this.#blocks.get(block);
    if (values === undefined) {
      const rng = seedrandom.alea(`${this.#name}/${block}`);
      values = new Int32Array(KNOTS_PER_BLOCK);
      for (let i = 0; i < KNOTS_PER_BLOCK; i++) values[i] = Math.floor(rng() * (2 * NOISE_SCALE + 1)) - NOISE_SCALE;
      if (this.#blocks.size >= MAX_CACHED_BLOCKS) this.#blocks.clear();
      this.#blocks.set(block, values);
    }
    return values[k - block * KNOTS_PER_BLOCK]!;
  }

  /** The value at time t (µs): linear between the knots around t, floored to an integer. */
  at(t: number): number {
    const k = Math.floor(t / this.#spacingUs);
    const offset = t - k * this.#spacingUs;
    const v0 = this.knot(k);
    if (offset === 0) return v0;
    const v1 = this.knot(k + 1);
    // |v1 - v0| <= 2e6 and offset < spacing (an hour at most here): the product stays below 2^53.
    return v0 + Math.floor(((v1 - v0) * offset) / this.#spacingUs);
  }
}

/** Knot times strictly between `from` and `to` for a given spacing (the breakpoints of `at`). */
export function* knotTimesBetween(from: number, to: number, spacingUs: number): Generator<number> {
  for (let t = (Math.floor(from / spacingUs) + 1) * spacingUs; t < to; t += spacingUs) yield t;
}
