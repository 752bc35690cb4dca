/**
 * The basis model: each contract's premium over its index, as a rate (RATE_SCALE units), a pure
 * function of (seed, contract, t).
 *
 * - Perpetual: PERPETUAL_PREMIUM_MEAN + PERPETUAL_PREMIUM_AMPLITUDE × noise(t).
 * - Quarterly: carry × (delivery − t) / year + QUARTERLY_PREMIUM_AMPLITUDE × noise(t), carry drawn
 *   once per contract in [4 %, 12 %): contango that converges to the index at delivery (0 after).
 * noise(t) = 0.6 × hourly knots + 0.4 × minute knots, each in [-1, 1], linear between knots, so
 * the premium is piecewise linear with a breakpoint every minute: its extremes over any interval
 * are at the ends or at minute knots inside (`range`).
 */
import seedrandom from 'seedrandom';
import type { FuturesContract } from './contracts.ts';
import {
  FAST_KNOT_US,
  PERPETUAL_PREMIUM_AMPLITUDE,
  PERPETUAL_PREMIUM_MEAN,
  QUARTERLY_CARRY_MIN,
  QUARTERLY_CARRY_SPAN,
  QUARTERLY_PREMIUM_AMPLITUDE,
  SLOW_KNOT_US,
  YEAR_SECONDS,
} from './model-parameters.ts';
import { knotTimesBetween, NOISE_SCALE, SeededNoise } from './seeded-noise.ts';

/** noise × amplitude / NOISE_SCALE, floored. */
function scaled(noise: number, amplitude: number): number {
  return Math.floor((noise * amplitude) / NOISE_SCALE);
}

export class PremiumModel {
  readonly contract: FuturesContract;
  readonly #slow: SeededNoise;
  readonly #fast: SeededNoise;
  /** Annual carry (quarterlies), RATE_SCALE units. */
  readonly carry: number;

  constructor(seed: string, contract: FuturesContract) {
    this.contract = contract;
    this.#slow = new SeededNoise(seed, `${contract.streamKey}/premium/slow`, SLOW_KNOT_US);
    this.#fast = new SeededNoise(seed, `${contract.streamKey}/premium/fast`, FAST_KNOT_US);
    this.carry = contract.deliveryTime === null ? 0 : QUARTERLY_CARRY_MIN + Math.floor(seedrandom.alea(`${seed}/${contract.streamKey}/carry`)() * QUARTERLY_CARRY_SPAN);
  }

  /** The premium rate at t. */
  at(t: number): number {
    const noise = Math.floor((6 * this.#slow.at(t) + 4 * this.#fast.at(t)) / 10);
    const delivery = this.contract.deliveryTime;
    if (delivery === null) return PERPETUAL_PREMIUM_MEAN + scaled(noise, PERPETUAL_PREMIUM_AMPLITUDE);
    const left = Math.max(0, Math.floor((delivery - t) / 1_000_000));
    // carry < 1.2e7 and left < 2e7 s (two quarters): the product stays below 2^53.
    return Math.floor((this.carry * left) / YEAR_SECONDS) + scaled(noise, QUARTERLY_PREMIUM_AMPLITUDE);
  }

  /** Lowest and highest premium over [from, to] (the function is linear between minute knots up to the carry's one-second steps). */
  range(from: number, to: number): { min: number; max: number } {
    let min = Math.min(this.at(from), this.at(to));
    let max = Math.max(this.at(from), this.at(to));
    for (const t of knotTimesBetween(from, to, FAST_KNOT_US)) {
      const p = this.at(t);
      if (p < min) min = p;
      if (p > max) max = p;
    }
    return { min, max };
  }
}
