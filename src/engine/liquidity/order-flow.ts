/**
 * The order-flow process that keeps a synthetic book alive between prints where no depth was
 * recorded: a seeded, queue-reactive zero-intelligence model of limit arrivals and cancels on a
 * depth book (depth-book.ts, mode `flow`), which prints consume.
 *
 * Time runs in steps of `stepMicros` (100 ms by default, Binance's fastest diff-depth cadence) on
 * the simulated clock. At each step boundary a Poisson(rate × step) number of events happen, each:
 * - a side, bid or ask, with probability ½;
 * - when the spread is wider than `spreadTicks[1]` (a print went through a side), with
 *   probability ½ an arrival at a spread the profile allows from the other side's best: makers
 *   close the gap, so the touch follows the market;
 * - else a level k ≥ 0 gaps away from the side's best, geometric (P(k) ∝ 0.75^k, at most
 *   levels − 1), whose target size is T_k = baseQty × growth^k: an arrival with probability
 *   T_k / (T_k + S) (S: its size now; an empty level always gets one), else a cancel; the amount
 *   is ½ T_k × (1 ± jitter), at least one step; a cancel never takes more than the level has;
 *   an empty side is quoted again around the last print, never through the other side;
 * - a side holding more than levels + 10 levels loses its worst level.
 * Each event draws exactly five numbers from the stream `${seed}/order-flow/${symbol}` (seedrandom
 * alea) whatever it does, and the book at a time is the result of every step up to it and every
 * command before it in time order, so it never depends on when, or whether, anyone looked.
 *
 * A book is drawn from the profile (levels a side, a uniform spread in spreadTicks, sizes T_k ×
 * (1 ± jitter)) around a mid: the anchor (`SetSyntheticAnchor`), the first print when the book is
 * empty, a print that went through it (a side emptied, or a spread wider than the profile's whole
 * depth: the market jumped, its makers requote around the print), and the first print after more
 * than `REDRAW_AFTER_MICROS` without a step having been applied (a gap in the data).
 */
import seedrandom from 'seedrandom';
import type { LadderProfile } from './synthetic-ladder.ts';
import { profileProblem } from './synthetic-ladder.ts';

/** The ladder's depth profile plus the flow's own rates (engine units). */
export interface FlowProfile extends LadderProfile {
  /** Events per simulated second. Default 40. 0: the book only moves with prints. */
  readonly rate?: number;
  /** The step, µs. Default 100,000 (100 ms). */
  readonly stepMicros?: number;
}

export const DEFAULT_FLOW_RATE = 40;
export const DEFAULT_FLOW_STEP_MICROS = 100_000;
/** More than this between two advances (a gap in the data): the book is drawn anew at the next print. */
export const REDRAW_AFTER_MICROS = 600_000_000;
/** Extra levels a side may hold beyond `levels` before its worst one goes. */
const SLACK_LEVELS = 10;
/** P(level k) ∝ LEVEL_DECAY^k. */
const LEVEL_DECAY = 0.75;

/** Why a flow profile cannot be used, or null. */
export function flowProfileProblem(profile: FlowProfile): string | null {
  const ladder = profileProblem(profile);
  if (ladder !== null) return ladder;
  const rate = profile.rate ?? DEFAULT_FLOW_RATE;
  const step = profile.stepMicros ?? DEFAULT_FLOW_STEP_MICROS;
  if (!(Number.isFinite(rate) && rate >= 0 && rate <= 100_000)) return 'rate must be events per second in [0, 100000]';
  if (!(Number.isSafeInteger(step) && step >= 1_000 && step <= 60_000_000)) return 'stepMicros must be an integer in [1000, 60000000]';
  return null;
}

/** What the process reads and writes: a depth book's level operations (depth-book.ts). */
export interface FlowTarget {
  /** Best level with steps left, in ticks; 0 when the side is empty. */
  bestLiveTicks(isBid: boolean): number;
  stepsAtPrice(isBid: boolean, ticks: number): number;
  setLevel(isBid: boolean, ticks: number, steps: number): void;
  levelCount(isBid: boolean): number;
  dropWorst(isBid: boolean): void;
  clear(): void;
}

export class OrderFlowProcess {
  /** The next step boundary not yet applied (µs); -1 until the first draw. */
  nextStep = -1;
  /** Mid of the last draw or print (ticks): the reference when a side is empty. */
  anchorTicks = 0;
  /** Time the process was last advanced to (µs). */
  advancedTo = -1;
  #levels: number;
  #spreadMin: number;
  #spreadMax: number;
  #gap: number;
  #jitter: number;
  /** Target steps per level. */
  #target: Float64Array;
  /** Expected events per step. */
  #mean: number;
  #step: number;
  #random: seedrandom.StatefulPRNG<seedrandom.State.Alea>;

  constructor(profile: FlowProfile, seed: string, symbol: string, stepUnits: number) {
    const problem = flowProfileProblem(profile);
    if (problem !== null) throw new RangeError(`order flow of ${symbol}: ${problem}`);
    this.#levels = profile.levels ?? 10;
    [this.#spreadMin, this.#spreadMax] = profile.spreadTicks ?? [1, 1];
    this.#gap = profile.gapTicks ?? 1;
    this.#jitter = profile.jitter ?? 0.25;
    const growth = profile.growth ?? 1.5;
    this.#target = new Float64Array(this.#levels);
    for (let k = 0; k < this.#levels; k++) this.#target[k] = Math.max(1, (profile.baseQty * growth ** k) / stepUnits);
    this.#step = profile.stepMicros ?? DEFAULT_FLOW_STEP_MICROS;
    this.#mean = ((profile.rate ?? DEFAULT_FLOW_RATE) * this.#step) / 1_000_000;
    // state: true lets a snapshot save the stream's position.
    this.#random = seedrandom.alea(`${seed}/order-flow/${symbol}`, { state: true });
  }

  /** Snapshot support (snapshot/engine-snapshot.ts): every field; the stream as its state. */
  exportFields(): unknown[] {
    return [this.nextStep, this.anchorTicks, this.advancedTo, this.#levels, this.#spreadMin, this.#spreadMax, this.#gap, this.#jitter, this.#target, this.#mean, this.#step, this.#random.state()];
  }

  static importFields(fields: unknown[]): OrderFlowProcess {
    const p = new OrderFlowProcess({ levels: 1, baseQty: 1 }, '', '', 1);
    const f = fields as [number, number, number, number, number, number, number, number, Float64Array, number, number, seedrandom.State.Alea];
    [p.nextStep, p.anchorTicks, p.advancedTo, p.#levels, p.#spreadMin, p.#spreadMax, p.#gap, p.#jitter, p.#target, p.#mean, p.#step] = f;
    p.#random = seedrandom.alea('', { state: f[11] });
    return p;
  }

  /** How far the profile's levels reach from the touch, in ticks: a wider spread is a jump, not a gap to refill. */
  get depthTicks(): number {
    return this.#levels * this.#gap + this.#spreadMax * this.#gap;
  }

  /** Text for the state hash: where the process stands (the book itself is hashed by its owner). */
  describe(): string {
    const s = this.#random.state();
    return `flow next ${this.nextStep} anchor ${this.anchorTicks} rng ${s.s0},${s.s1},${s.s2},${s.c}`;
  }

  /**
   * Applies every step up to `time` (µs) to `book`; returns how many steps changed it (each is
   * one book update). Before the first draw, and across a gap in the data, it only moves on.
   */
  advance(book: FlowTarget, time: number): number {
    if (time < this.advancedTo) return 0;
    const gap = this.advancedTo >= 0 && time - this.advancedTo > REDRAW_AFTER_MICROS;
    this.advancedTo = time;
    if (this.nextStep < 0) return 0;
    if (gap) {
      // A gap in the data: the next print draws the book anew (see notePrint's caller).
      this.nextStep = (Math.floor(time / this.#step) + 1) * this.#step;
      book.clear();
      return 1;
    }
    let updates = 0;
    const mean = this.#mean;
    while (this.nextStep <= time) {
      const events = mean > 0 ? this.#poisson(mean) : 0;
      for (let i = 0; i < events; i++) this.#event(book);
      if (events > 0) updates++;
      this.nextStep += this.#step;
    }
    return updates;
  }

  /** Draws a fresh book around `midTicks` (clearing what was there); steps start after `time`. */
  draw(book: FlowTarget, midTicks: number, time: number): void {
    const random = this.#random;
    book.clear();
    const spread = this.#spreadMin + Math.floor(random() * (this.#spreadMax - this.#spreadMin + 1));
    const bestBid = midTicks - Math.floor(spread / 2);
    const bestAsk = bestBid + spread;
    const jitter = this.#jitter;
    for (let k = 0; k < this.#levels; k++) {
      const target = this.#target[k]!;
      const bid = Math.max(1, Math.round(target * (1 + jitter * (2 * random() - 1))));
      const ask = Math.max(1, Math.round(target * (1 + jitter * (2 * random() - 1))));
      const bidTicks = bestBid - k * this.#gap;
      if (bidTicks >= 1) book.setLevel(true, bidTicks, bid);
      book.setLevel(false, bestAsk + k * this.#gap, ask);
    }
    this.anchorTicks = midTicks;
    this.advancedTo = Math.max(this.advancedTo, time);
    this.nextStep = (Math.floor(time / this.#step) + 1) * this.#step;
  }

  /** True when the book must be drawn (never drawn, or cleared by a gap) before a print can use it. */
  needsDraw(book: FlowTarget): boolean {
    return this.nextStep < 0 || (book.levelCount(true) === 0 && book.levelCount(false) === 0);
  }

  /** Knuth's product of uniforms: a variable number of draws, all from the one stream in order. */
  #poisson(mean: number): number {
    const limit = Math.exp(-mean);
    let k = 0;
    let product = this.#random();
    while (product > limit) {
      k++;
      product *= this.#random();
    }
    return k;
  }

  #event(book: FlowTarget): void {
    const random = this.#random;
    const uSide = random();
    const uInside = random();
    const uLevel = random();
    const uKind = random();
    const uSize = random();
    const isBid = uSide < 0.5;
    const gap = this.#gap;
    const bid = book.bestLiveTicks(true);
    const ask = book.bestLiveTicks(false);
    const jitter = this.#jitter;
    const spreadSpan = this.#spreadMax - this.#spreadMin + 1;
    // A spread wider than the profile's (a print went through a side): makers close it from the
    // other side, at a spread the profile allows, so the touch follows the market.
    if (bid > 0 && ask > 0 && ask - bid > this.#spreadMax * gap && uInside < 0.5) {
      const spread = (this.#spreadMin + Math.floor(uLevel * spreadSpan)) * gap;
      const ticks = isBid ? ask - spread : bid + spread;
      const amount = Math.max(1, Math.round(0.5 * this.#target[0]! * (1 + jitter * (2 * uSize - 1))));
      book.setLevel(isBid, ticks, book.stepsAtPrice(isBid, ticks) + amount);
      return;
    }
    let k = Math.floor(-Math.log(1 - uLevel) / LEVEL_DECAY_SCALE);
    if (k >= this.#levels) k = this.#levels - 1;
    // An empty side quotes again around the last print (never through the other side).
    let from = isBid ? bid : ask;
    if (from === 0) {
      const half = Math.ceil(this.#spreadMin / 2) * gap;
      from = isBid ? this.anchorTicks - half : this.anchorTicks + half;
      if (isBid && ask > 0 && from >= ask) from = ask - gap;
      if (!isBid && bid > 0 && from <= bid) from = bid + gap;
    }
    const ticks = isBid ? from - k * gap : from + k * gap;
    if (ticks < 1) return;
    const size = book.stepsAtPrice(isBid, ticks);
    const target = this.#target[k]!;
    const amount = Math.max(1, Math.round(0.5 * target * (1 + jitter * (2 * uSize - 1))));
    if (uKind * (target + size) < target) book.setLevel(isBid, ticks, size + amount);
    else if (size > 0) book.setLevel(isBid, ticks, Math.max(0, size - amount));
    if (book.levelCount(isBid) > this.#levels + SLACK_LEVELS) book.dropWorst(isBid);
  }
}

/** ln(1 / LEVEL_DECAY): k = ⌊−ln(1 − u) / this⌋ is geometric with P(k) ∝ LEVEL_DECAY^k. */
const LEVEL_DECAY_SCALE = Math.log(1 / LEVEL_DECAY);
