/**
 * The synthetic book: the market's liquidity model for a symbol whose historical order book is
 * not published (Binance publishes trades, not books). A user's MARKET or crossing LIMIT order
 * walks its levels and pays realistic slippage instead of filling unlimited size at the last
 * price; depth and bookTicker show it merged with the users' own orders.
 *
 * It is not an account and places no orders. What it shows is a pure function of the tape and
 * the seed, computed only when something needs it (a taker's walk, a plan, depth, bookTicker, a
 * peg, the state hash), so its cost per replayed print is one comparison:
 *
 * - anchor: the last print. A print by a BUY taker at p shows the ask was at p, so the best ask
 *   is p and the best bid p − spread; a SELL taker's print puts the best bid at p and the best
 *   ask at p + spread. An anchor set without a side (`SetSyntheticAnchor`: the first instant of
 *   a replay, or a random walk's mid m) puts the best bid at m − ⌊spread/2⌋ ticks.
 * - epoch: the book is drawn anew when the anchor moves (price or taker side) or, after a user
 *   took liquidity from it, at the next print even at the same price. Until then, liquidity a
 *   user took stays taken. Each epoch draws from its own seeded stream
 *   (`seedrandom.alea("<seed>/synthetic-book/<symbol>/<epoch>")`), so a book's shape never
 *   depends on when, or whether, anyone looked at it.
 * - spread: uniform whole ticks in [spreadTicks[0], spreadTicks[1]].
 * - levels: `levels` a side, `gapTicks` apart; level i (0 = best) holds
 *   baseQty × growth^i × (1 + jitter × U(−1, 1)) rounded to LOT_SIZE steps, at least one step.
 *   Books are thin at the touch and thicker away from it.
 * - users' orders: a synthetic level that would cross a user's resting order on the other side
 *   is not shown (that order is the better price); at one price the users' orders come first.
 *
 * Fills against it settle as an external flow, as the market's fills of resting orders do
 * (`FillFromMarket`): the taker pays and receives through its account and pays its taker fee,
 * the other side enters or leaves the engine as net deposits, so every asset stays conserved.
 */
import seedrandom from 'seedrandom';
import type { LiquiditySource } from './liquidity-source.ts';

/** The depth profile of a symbol's synthetic book (units are the engine's integers). */
export interface LadderProfile {
  /** Levels a side. Default 10. */
  readonly levels?: number;
  /** Spread between best bid and best ask in ticks, drawn uniformly per epoch: [min, max]. Default [1, 1]. */
  readonly spreadTicks?: readonly [number, number];
  /** Ticks between consecutive levels. Default 1. */
  readonly gapTicks?: number;
  /** Base units at the best level (before jitter). */
  readonly baseQty: number;
  /** Size multiplier per level away from the touch. Default 1.5. */
  readonly growth?: number;
  /** Relative size jitter per level, in [0, 1). Default 0.25. */
  readonly jitter?: number;
}

/** Why a profile cannot be used, or null. */
export function profileProblem(profile: LadderProfile): string | null {
  const levels = profile.levels ?? 10;
  const [spreadMin, spreadMax] = profile.spreadTicks ?? [1, 1];
  const gap = profile.gapTicks ?? 1;
  const growth = profile.growth ?? 1.5;
  const jitter = profile.jitter ?? 0.25;
  if (!(Number.isInteger(levels) && levels >= 1 && levels <= 5000)) return 'levels must be an integer in [1, 5000]';
  if (!(Number.isInteger(spreadMin) && Number.isInteger(spreadMax) && spreadMin >= 1 && spreadMax >= spreadMin)) return 'spreadTicks must be integers 1 <= min <= max';
  if (!(Number.isInteger(gap) && gap >= 1)) return 'gapTicks must be an integer >= 1';
  if (!(Number.isSafeInteger(profile.baseQty) && profile.baseQty > 0)) return 'baseQty must be a positive integer of base units';
  if (!(growth > 0 && Number.isFinite(growth))) return 'growth must be > 0';
  if (!(jitter >= 0 && jitter < 1)) return 'jitter must be in [0, 1)';
  return null;
}

/** The anchor's kind: none yet, a BUY taker's print, a SELL taker's print, or a mid. */
const NONE = 0;
const BUY_TAKER = 1;
const SELL_TAKER = 2;
const MID = 3;

export class SyntheticLadder implements LiquiditySource {
  readonly kind = 'synthetic-ladder';
  levels: number;
  #spreadMin: number;
  #spreadSpan: number;
  #gap: number;
  #jitter: number;
  /** baseQty × growth^i, per level. */
  #mean: Float64Array;
  #stepUnits: number;
  #streamPrefix: string;
  /** Steps left per level (index 0 = the best), for the current epoch once drawn. */
  #bids: Float64Array;
  #asks: Float64Array;
  #bestBid = 0;
  #bestAsk = 0;
  #anchorTicks = 0;
  #anchorKind = NONE;
  /** Anchor moves so far (counted when they happen, not when drawn): names the draw's stream. */
  #epoch = 0;
  /** The anchor moved since the last draw. */
  #stale = false;
  /** A user took liquidity since the last draw (the next print draws anew even at one price). */
  #taken = false;

  constructor(profile: LadderProfile, seed: string, symbol: string, stepUnits: number) {
    const problem = profileProblem(profile);
    if (problem !== null) throw new RangeError(`synthetic book of ${symbol}: ${problem}`);
    this.levels = profile.levels ?? 10;
    const [spreadMin, spreadMax] = profile.spreadTicks ?? [1, 1];
    this.#spreadMin = spreadMin;
    this.#spreadSpan = spreadMax - spreadMin + 1;
    this.#gap = profile.gapTicks ?? 1;
    this.#jitter = profile.jitter ?? 0.25;
    const growth = profile.growth ?? 1.5;
    this.#mean = new Float64Array(this.levels);
    for (let i = 0; i < this.levels; i++) this.#mean[i] = profile.baseQty * growth ** i;
    this.#stepUnits = stepUnits;
    this.#streamPrefix = `${seed}/synthetic-book/${symbol}/`;
    this.#bids = new Float64Array(this.levels);
    this.#asks = new Float64Array(this.levels);
  }

  /** Snapshot support (snapshot/engine-snapshot.ts): every field, the private ones included. */
  exportFields(): unknown[] {
    return [this.levels, this.#spreadMin, this.#spreadSpan, this.#gap, this.#jitter, this.#mean, this.#stepUnits, this.#streamPrefix, this.#bids, this.#asks, this.#bestBid, this.#bestAsk, this.#anchorTicks, this.#anchorKind, this.#epoch, this.#stale, this.#taken];
  }

  static importFields(fields: unknown[]): SyntheticLadder {
    const ladder = new SyntheticLadder({ levels: 1, baseQty: 1 }, '', '', 1);
    const f = fields as [number, number, number, number, number, Float64Array, number, string, Float64Array, Float64Array, number, number, number, number, number, boolean, boolean];
    [ladder.levels, ladder.#spreadMin, ladder.#spreadSpan, ladder.#gap, ladder.#jitter, ladder.#mean, ladder.#stepUnits, ladder.#streamPrefix, ladder.#bids, ladder.#asks, ladder.#bestBid, ladder.#bestAsk, ladder.#anchorTicks, ladder.#anchorKind, ladder.#epoch, ladder.#stale, ladder.#taken] = f;
    return ladder;
  }

  /** A print at `ticks` by a buyer (or seller) taker: the anchor follows it (its size does not matter). O(1). */
  notePrint(ticks: number, _steps: number, takerIsBuyer: boolean): void {
    const kind = takerIsBuyer ? BUY_TAKER : SELL_TAKER;
    if (ticks === this.#anchorTicks && kind === this.#anchorKind && !this.#taken) return;
    this.#anchorTicks = ticks;
    this.#anchorKind = kind;
    this.#taken = false;
    this.#epoch++;
    this.#stale = true;
  }

  /** Anchors on a mid price without a taker side (a replay's first instant, a random walk). */
  setMid(ticks: number): void {
    this.#anchorTicks = ticks;
    this.#anchorKind = MID;
    this.#taken = false;
    this.#epoch++;
    this.#stale = true;
  }

  /** True once an anchor is known (before that the book is empty). */
  get anchored(): boolean {
    return this.#anchorKind !== NONE;
  }

  /** Price of level `i` of a side, in ticks (may be < 1: such a level is empty). */
  ticksAt(isBid: boolean, i: number): number {
    this.#ensure();
    return isBid ? this.#bestBid - i * this.#gap : this.#bestAsk + i * this.#gap;
  }

  /** Steps left at level `i` of a side. */
  stepsAt(isBid: boolean, i: number): number {
    this.#ensure();
    return (isBid ? this.#bids : this.#asks)[i] as number;
  }

  /**
   * The first level at index >= `from` of a side that has steps left and is shown: bids below
   * `cutoff` (the users' best ask, or Infinity), asks above it (the users' best bid, or 0).
   * -1 when there is none.
   */
  firstLive(isBid: boolean, from: number, cutoff: number): number {
    this.#ensure();
    const steps = isBid ? this.#bids : this.#asks;
    for (let i = from; i < this.levels; i++) {
      if ((steps[i] as number) === 0) continue;
      const ticks = isBid ? this.#bestBid - i * this.#gap : this.#bestAsk + i * this.#gap;
      if (isBid ? ticks < cutoff : ticks > cutoff) return i;
    }
    return -1;
  }

  /** A user took `steps` from level `i` of a side. */
  take(isBid: boolean, i: number, steps: number): void {
    this.#ensure();
    const side = isBid ? this.#bids : this.#asks;
    const left = (side[i] as number) - steps;
    if (!(steps > 0 && left >= 0)) throw new Error(`synthetic level ${i} has ${side[i]} steps, ${steps} taken`);
    side[i] = left;
    this.#taken = true;
  }

  /** A canonical text of what it shows now, for the state hash. */
  describe(): string {
    this.#ensure();
    return `anchor ${this.#anchorKind}:${this.#anchorTicks} epoch ${this.#epoch} taken ${this.#taken} bid ${this.#bestBid} ${this.#bids.join(',')} ask ${this.#bestAsk} ${this.#asks.join(',')}`;
  }

  /** Draws the epoch's book if the anchor moved since the last draw. */
  #ensure(): void {
    if (!this.#stale) return;
    this.#stale = false;
    const random = seedrandom.alea(this.#streamPrefix + this.#epoch);
    const spread = this.#spreadMin + Math.floor(random() * this.#spreadSpan);
    const anchor = this.#anchorTicks;
    const kind = this.#anchorKind;
    const bestBid = kind === BUY_TAKER ? anchor - spread : kind === SELL_TAKER ? anchor : anchor - Math.floor(spread / 2);
    this.#bestBid = bestBid;
    this.#bestAsk = bestBid + spread;
    const stepUnits = this.#stepUnits;
    const jitter = this.#jitter;
    // Bid and ask of one level are drawn together, so both sides' sizes come from one sequence.
    for (let i = 0; i < this.levels; i++) {
      const mean = this.#mean[i] as number;
      const bid = mean * (1 + jitter * (2 * random() - 1));
      const ask = mean * (1 + jitter * (2 * random() - 1));
      this.#bids[i] = bestBid - i * this.#gap >= 1 ? Math.max(1, Math.round(bid / stepUnits)) : 0;
      this.#asks[i] = Math.max(1, Math.round(ask / stepUnits));
    }
  }
}
