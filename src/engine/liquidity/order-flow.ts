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
 *
 * Epochs. The book is drawn from the profile (levels a side, a uniform spread in spreadTicks,
 * sizes T_k × (1 ± jitter)) around a mid, and steps on from there; each draw has its own random
 * stream `${seed}/order-flow/${symbol}/${epoch}.${redraw}` (seedrandom alea). A new epoch starts
 * at the anchor (`SetSyntheticAnchor`), at a print more than the profile's depth away from the
 * previous one (the market jumped: its makers requote around the print) and at the first print
 * after more than `REDRAW_AFTER_MICROS` (a gap in the data): judged from the prints alone, so the
 * epoch count needs no book. Within an epoch, a print that empties a side redraws the book around
 * it (redraw + 1): that one depends on the book, so it is found when the book catches up.
 *
 * Laziness. Like the ladder, the book is brought up to date only when something reads it (a
 * taker's walk, depth, bookTicker, a fill model, the state hash): the epoch's draw, then its steps
 * and the prints since (queued as they came), merged in time order (a step at t before a print at
 * t), from the epoch's stream. So the book at a time is a pure function of the seed and the
 * commands before it, never of when, or whether, anyone looked; and a dense tape nobody reads
 * between prints costs a comparison and a queue entry per print, as the ladder costs one. Update ids do not wait for reads either: every step boundary passed counts as one update
 * of the engine's sequence (a step with no event changes nothing a client can see).
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
/** A print after this long without one (a gap in the data) starts a new epoch. */
export const REDRAW_AFTER_MICROS = 600_000_000;
/** Extra levels a side may hold beyond `levels` before its worst one goes. */
const SLACK_LEVELS = 10;
/** P(level k) ∝ LEVEL_DECAY^k. */
const LEVEL_DECAY = 0.75;
/** ln(1 / LEVEL_DECAY): k = ⌊−ln(1 − u) / this⌋ is geometric with P(k) ∝ LEVEL_DECAY^k. */
const LEVEL_DECAY_SCALE = Math.log(1 / LEVEL_DECAY);

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

/** Prints queued before a catch-up is forced (memory stays bounded on a tape nobody reads). */
const MAX_PENDING_PRINTS = 4096;

/** What the process reads and writes: a depth book's level operations (depth-book.ts). */
export interface FlowTarget {
  /** A print consumed the book (depth-book.ts's rule); returns true when it emptied a side. */
  consumePrint(ticks: number, steps: number, takerIsBuyer: boolean): boolean;
  /** Best level with steps left, in ticks; 0 when the side is empty. */
  bestLiveTicks(isBid: boolean): number;
  stepsAtPrice(isBid: boolean, ticks: number): number;
  setLevel(isBid: boolean, ticks: number, steps: number): void;
  levelCount(isBid: boolean): number;
  dropWorst(isBid: boolean): void;
  clear(): void;
}

export class OrderFlowProcess {
  /** Simulated now (µs), as far as the engine has let time pass. */
  now = -1;
  /** The current epoch (0: none yet, the book is empty until an anchor or a print); counted by prints alone. */
  epoch = 0;
  /** Redraws within the epoch (a print emptied a side): found only when the book catches up, so kept apart from `epoch`. */
  redraw = 0;
  /** The last print or anchor (ticks): what the next print's jump is measured from. */
  anchorTicks = 0;
  /** Time of the last print or anchor (µs), for the gap rule. */
  lastPrintTime = -1;
  /** Where the caught-up book quotes an empty side around: the epoch's mid, then each print it consumed. */
  quoteTicks = 0;
  /** Prints since the last catch-up (ticks, steps, taker side, time), consumed in order at the next. */
  pendingCount = 0;
  pendingTicks: Float64Array = new Float64Array(64);
  pendingSteps: Float64Array = new Float64Array(64);
  pendingBuyer: Uint8Array = new Uint8Array(64);
  pendingTime: Float64Array = new Float64Array(64);
  /** The epoch's book has been drawn into the depth book. */
  drawn = true;
  /** The next step boundary of the epoch not yet applied (µs). */
  nextStep = 0;
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
  #streamPrefix: string;
  /** The epoch's stream, once anything was drawn from it (null: not yet, or a snapshot read back that had none). */
  #random: seedrandom.StatefulPRNG<seedrandom.State.Alea> | null = null;

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
    this.#streamPrefix = `${seed}/order-flow/${symbol}/`;
  }

  /** Snapshot support (snapshot/engine-snapshot.ts): every field; the stream as its state. */
  exportFields(): unknown[] {
    return [
      this.now, this.epoch, this.anchorTicks, this.lastPrintTime, this.drawn, this.nextStep,
      [this.redraw, this.quoteTicks, this.pendingCount, this.pendingTicks, this.pendingSteps, this.pendingBuyer, this.pendingTime],
      this.#levels, this.#spreadMin, this.#spreadMax, this.#gap, this.#jitter, this.#target, this.#mean, this.#step, this.#streamPrefix,
      this.#random === null ? null : this.#random.state(),
    ];
  }

  static importFields(fields: unknown[]): OrderFlowProcess {
    const p = new OrderFlowProcess({ levels: 1, baseQty: 1 }, '', '', 1);
    const f = fields as [number, number, number, number, boolean, number, [number, number, number, Float64Array, Float64Array, Uint8Array, Float64Array], number, number, number, number, number, Float64Array, number, number, string, seedrandom.State.Alea | null];
    [p.now, p.epoch, p.anchorTicks, p.lastPrintTime, p.drawn, p.nextStep, , p.#levels, p.#spreadMin, p.#spreadMax, p.#gap, p.#jitter, p.#target, p.#mean, p.#step, p.#streamPrefix] = f;
    [p.redraw, p.quoteTicks, p.pendingCount, p.pendingTicks, p.pendingSteps, p.pendingBuyer, p.pendingTime] = f[6];
    p.#random = f[16] === null ? null : seedrandom.alea('', { state: f[16] });
    return p;
  }

  /** How far the profile's levels reach from the touch, in ticks: a print further from the last is a jump. */
  get depthTicks(): number {
    return (this.#levels + this.#spreadMax) * this.#gap;
  }

  /**
   * Lets time reach `time` (µs); returns the step boundaries passed (the engine counts each as a
   * book update). Nothing is computed: the book catches up when read (`catchUp`).
   */
  passTime(time: number): number {
    if (time <= this.now) return 0;
    const step = this.#step;
    const passed = this.now < 0 || this.epoch === 0 ? 0 : Math.floor(time / step) - Math.floor(this.now / step);
    this.now = time;
    return passed;
  }

  /** Starts a new epoch drawn around `midTicks` now (the draw itself waits for a read); prints queued for the old one are dropped. */
  startEpoch(midTicks: number): void {
    this.anchorTicks = midTicks;
    this.lastPrintTime = this.now;
    this.pendingCount = 0;
    this.epoch++;
    this.redraw = 0;
    this.#redrawAround(midTicks, this.now);
  }

  /** The book is drawn anew around `midTicks` at `time` (drawn at the next catch-up), from a stream of its own. */
  #redrawAround(midTicks: number, time: number): void {
    this.quoteTicks = midTicks;
    this.drawn = false;
    this.nextStep = (Math.floor(time / this.#step) + 1) * this.#step;
    this.#random = null;
  }

  /** True when a print at `ticks` now starts a new epoch: the first print, a jump beyond the book's depth, the first after a gap. */
  jumps(ticks: number): boolean {
    return this.epoch === 0 || Math.abs(ticks - this.anchorTicks) > this.depthTicks || this.now - this.lastPrintTime > REDRAW_AFTER_MICROS;
  }

  /**
   * A print at `ticks` now met the current epoch: queued until the book is read (returns true
   * when the queue is full and the caller must catch the book up now).
   */
  queuePrint(ticks: number, steps: number, takerIsBuyer: boolean): boolean {
    this.anchorTicks = ticks;
    this.lastPrintTime = this.now;
    const n = this.pendingCount;
    if (n === this.pendingTicks.length) {
      const grow = <T extends Float64Array | Uint8Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.pendingTicks = grow(this.pendingTicks);
      this.pendingSteps = grow(this.pendingSteps);
      this.pendingBuyer = grow(this.pendingBuyer);
      this.pendingTime = grow(this.pendingTime);
    }
    this.pendingTicks[n] = ticks;
    this.pendingSteps[n] = steps;
    this.pendingBuyer[n] = takerIsBuyer ? 1 : 0;
    this.pendingTime[n] = this.now;
    this.pendingCount = n + 1;
    return n + 1 >= MAX_PENDING_PRINTS;
  }

  /** True when the book has something to catch up on. */
  get behind(): boolean {
    return !this.drawn || this.nextStep <= this.now || this.pendingCount > 0;
  }

  /**
   * Brings `book` up to now: the epoch's draw if pending, then its steps and the queued prints in
   * time order (a step at t before a print at t); a print that empties a side starts a new epoch
   * at its time, drawn around it, and the rest carry on in that one.
   */
  catchUp(book: FlowTarget): void {
    if (this.epoch === 0) return;
    const now = this.now;
    const mean = this.#mean;
    const count = this.pendingCount;
    let i = 0;
    for (;;) {
      if (!this.drawn) {
        this.drawn = true;
        this.#draw(book);
      }
      const printTime = i < count ? this.pendingTime[i]! : Infinity;
      if (this.nextStep <= now && this.nextStep <= printTime) {
        const events = mean > 0 ? this.#poisson(mean) : 0;
        for (let e = 0; e < events; e++) this.#event(book);
        this.nextStep += this.#step;
        continue;
      }
      if (i >= count) break;
      const ticks = this.pendingTicks[i]!;
      this.quoteTicks = ticks;
      if (book.consumePrint(ticks, this.pendingSteps[i]!, this.pendingBuyer[i] === 1)) {
        this.redraw++;
        this.#redrawAround(ticks, printTime);
      }
      i++;
    }
    this.pendingCount = 0;
  }

  /** Text for the state hash: where the process stands (the book itself is hashed by its owner, after catching up). */
  describe(): string {
    const s = this.#random?.state();
    return `flow epoch ${this.epoch}.${this.redraw} anchor ${this.anchorTicks} quote ${this.quoteTicks} next ${this.nextStep} rng ${s === undefined ? '-' : `${s.s0},${s.s1},${s.s2},${s.c}`}`;
  }

  #stream(): seedrandom.StatefulPRNG<seedrandom.State.Alea> {
    // state: true lets a snapshot save the stream's position.
    return (this.#random ??= seedrandom.alea(`${this.#streamPrefix}${this.epoch}.${this.redraw}`, { state: true }));
  }

  #draw(book: FlowTarget): void {
    const random = this.#stream();
    book.clear();
    const spread = this.#spreadMin + Math.floor(random() * (this.#spreadMax - this.#spreadMin + 1));
    const bestBid = this.quoteTicks - Math.floor(spread / 2);
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
  }

  /** Knuth's product of uniforms: a variable number of draws, all from the epoch's stream in order. */
  #poisson(mean: number): number {
    const random = this.#stream();
    const limit = Math.exp(-mean);
    let k = 0;
    let product = random();
    while (product > limit) {
      k++;
      product *= random();
    }
    return k;
  }

  #event(book: FlowTarget): void {
    const random = this.#stream();
    // Five numbers an event, whatever it does.
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
    // A spread wider than the profile's (a print went through a side): makers close it from the
    // other side, at a spread the profile allows, so the touch follows the market.
    if (bid > 0 && ask > 0 && ask - bid > this.#spreadMax * gap && uInside < 0.5) {
      const spread = (this.#spreadMin + Math.floor(uLevel * (this.#spreadMax - this.#spreadMin + 1))) * gap;
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
      from = isBid ? this.quoteTicks - half : this.quoteTicks + half;
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
