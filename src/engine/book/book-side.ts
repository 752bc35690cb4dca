/**
 * One side of a book. Levels are kept in an array sorted so that the best price is LAST
 * (bids ascending, asks descending): taking or emptying the best level is a pop, and a new level
 * is placed by binary search. A map gives O(1) access by price.
 *
 * A level that empties in the middle of the array stays there, dormant, instead of being spliced
 * out: order flow keeps returning to the same prices near the touch, and re-using the dormant
 * level avoids two array splices per order move (they were a quarter of the matching core's
 * time). The best end never holds a dormant level, so `best()` is always a live level, and the
 * array is compacted when dormant levels outnumber live ones by far. Dormant levels never leave
 * this class: readers walk the live levels best first with `cursor()` (or `forEachLive`).
 */
import type { Order } from '../order.ts';
import { PriceLevel } from './price-level.ts';

export type BookSideFields = [isBid: boolean, levels: PriceLevel[], byTicks: Map<number, PriceLevel>, dormant: number, orderCount: number];

/** Slots of the level hint (a power of two), see BookSide.#hint. */
const HINT_SLOTS = 4096;
const HINT_MASK = HINT_SLOTS - 1;

export class BookSide {
  /** Worst .. best; may hold dormant (empty) levels anywhere but at the end. */
  #levels: PriceLevel[] = [];
  #byTicks = new Map<number, PriceLevel>();
  #dormant = 0;
  orderCount = 0;
  /**
   * A direct-mapped cache in front of #byTicks for `add`, by ticks modulo HINT_SLOTS: prices
   * near the touch (where orders arrive) each have a slot of their own, and an array read with
   * one comparison is a fraction of a Map lookup, the largest single cost of a resting placement.
   * Holds only levels that are in #byTicks (cleared when one leaves it); derived, not state (a
   * side read back from a snapshot starts with an empty one).
   */
  #hint: (PriceLevel | undefined)[] = new Array<PriceLevel | undefined>(HINT_SLOTS).fill(undefined);

  constructor(readonly isBid: boolean) {}

  /** Snapshot support (snapshot/engine-snapshot.ts): every field, the private ones included. */
  exportFields(): BookSideFields {
    return [this.isBid, this.#levels, this.#byTicks, this.#dormant, this.orderCount];
  }

  static importFields(fields: BookSideFields): BookSide {
    const side = new BookSide(fields[0]);
    [, side.#levels, side.#byTicks, side.#dormant, side.orderCount] = fields;
    return side;
  }

  best(): PriceLevel | undefined {
    return this.#levels[this.#levels.length - 1];
  }

  /** The best live level after the best one, or undefined. */
  secondBest(): PriceLevel | undefined {
    const levels = this.#levels;
    for (let i = levels.length - 2; i >= 0; i--) {
      const level = levels[i] as PriceLevel;
      if (level.count > 0) return level;
    }
    return undefined;
  }

  /** Live (non-empty) levels. */
  get levelCount(): number {
    return this.#levels.length - this.#dormant;
  }

  level(ticks: number): PriceLevel | undefined {
    const level = this.#byTicks.get(ticks);
    return level !== undefined && level.count > 0 ? level : undefined;
  }

  /** A cursor over the live levels, best first (`next()` until undefined). One per walk. */
  cursor(): LevelCursor {
    return new LevelCursor(this.#levels);
  }

  /** Calls `visit` for each live level, best first, until it returns false. */
  forEachLive(visit: (level: PriceLevel) => boolean | void): void {
    const levels = this.#levels;
    for (let i = levels.length - 1; i >= 0; i--) {
      const level = levels[i] as PriceLevel;
      if (level.count !== 0 && visit(level) === false) return;
    }
  }

  /** For invariant checks only: every level worst .. best, dormant ones included. */
  levelsIncludingDormant(): readonly PriceLevel[] {
    return this.#levels;
  }

  /** True if `a` is a better price than `b` on this side. */
  better(a: number, b: number): boolean {
    return this.isBid ? a > b : a < b;
  }

  add(order: Order): void {
    const ticks = order.priceTicks;
    const slot = ticks & HINT_MASK;
    const hinted = this.#hint[slot];
    let level = hinted !== undefined && hinted.ticks === ticks ? hinted : this.#byTicks.get(ticks);
    if (level === undefined) {
      level = new PriceLevel(ticks);
      this.#byTicks.set(ticks, level);
      this.#insertLevel(level);
      this.#hint[slot] = level;
    } else {
      if (level !== hinted) this.#hint[slot] = level;
      if (level.count === 0) this.#dormant -= 1; // wakes up in place
    }
    level.append(order);
    this.orderCount += 1;
  }

  remove(order: Order, remainingSteps: number): void {
    const level = order.level;
    if (!level) throw new Error(`order ${order.orderId} is not on the book`);
    level.remove(order, remainingSteps);
    this.orderCount -= 1;
    if (level.count > 0) return;
    const levels = this.#levels;
    if (levels[levels.length - 1] === level) {
      // Keep the best end live: drop this level and any dormant ones now exposed.
      levels.pop();
      this.#forget(level);
      while (levels.length > 0 && (levels[levels.length - 1] as PriceLevel).count === 0) {
        this.#forget(levels.pop() as PriceLevel);
        this.#dormant -= 1;
      }
    } else {
      this.#dormant += 1;
      if (this.#dormant > 4 * (levels.length - this.#dormant) + 256) this.#compact();
    }
  }

  /** Drops a level from the price map (and the hint, if it is there). */
  #forget(level: PriceLevel): void {
    this.#byTicks.delete(level.ticks);
    const slot = level.ticks & HINT_MASK;
    if (this.#hint[slot] === level) this.#hint[slot] = undefined;
  }

  #insertLevel(level: PriceLevel): void {
    const levels = this.#levels;
    const ticks = level.ticks;
    // Find the first index whose price is better than `ticks` (array is worst..best).
    let lo = 0;
    let hi = levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.better((levels[mid] as PriceLevel).ticks, ticks)) hi = mid;
      else lo = mid + 1;
    }
    if (lo === levels.length) levels.push(level);
    else levels.splice(lo, 0, level);
  }

  /** Drops every dormant level (amortised: runs only after many levels went dormant). */
  #compact(): void {
    const levels = this.#levels;
    let write = 0;
    for (let read = 0; read < levels.length; read++) {
      const level = levels[read] as PriceLevel;
      if (level.count > 0) levels[write++] = level;
      else this.#forget(level);
    }
    levels.length = write;
    this.#dormant = 0;
  }
}

/** Walks a side's live levels best first, skipping dormant ones (see BookSide). */
export class LevelCursor {
  #index: number;

  constructor(private readonly levels: readonly PriceLevel[]) {
    this.#index = levels.length - 1;
  }

  /** The next live level, or undefined when the side is exhausted. */
  next(): PriceLevel | undefined {
    const levels = this.levels;
    let i = this.#index;
    while (i >= 0 && (levels[i] as PriceLevel).count === 0) i--;
    this.#index = i - 1;
    return i >= 0 ? levels[i] : undefined;
  }
}
