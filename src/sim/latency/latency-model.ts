/**
 * The latency of the three legs between a strategy and the exchange, on the virtual clock:
 * - entry: a new order (or any command but a cancel) travelling strategy -> engine;
 * - cancel: CancelOrder / CancelAllOrders travelling strategy -> engine (often faster or slower
 *   than entry on real venues, so it is a separate leg);
 * - ack: the engine's response travelling back, engine -> strategy.
 * Market data is not delayed here (the tape is what the exchange saw; a strategy reading it at
 * time t sees it at t).
 *
 * Each leg draws from its own seeded stream (`${seed}/latency/${leg}`, plus
 * `${seed}/latency/${leg}/regime` for bursts), so the entry latencies of a run do not change
 * when the strategy starts cancelling more.
 */
import { LatencySampler, type LatencyDistribution, type LatencySample } from './latency-distribution.ts';
import { randomStream } from './random-source.ts';

export type LatencyLeg = 'entry' | 'cancel' | 'ack';


/** Per leg; a missing leg is constant 0. */
export type LatencyConfig = Partial<Readonly<Record<LatencyLeg, LatencyDistribution>>>;

const ZERO: LatencyDistribution = { kind: 'constant', micros: 0 };

export class LatencyModel {
  readonly #legs: Record<LatencyLeg, LatencySampler>;

  constructor(config: LatencyConfig, seed: string, origin: number) {
    const make = (leg: LatencyLeg): LatencySampler =>
      new LatencySampler(config[leg] ?? ZERO, randomStream(seed, `latency/${leg}`), { random: randomStream(seed, `latency/${leg}/regime`), origin });
    this.#legs = { entry: make('entry'), cancel: make('cancel'), ack: make('ack') };
  }

  draw(leg: LatencyLeg, time: number): LatencySample {
    return this.#legs[leg].draw(time);
  }

  distribution(leg: LatencyLeg): LatencyDistribution {
    return this.#legs[leg].distribution;
  }
}
