/**
 * A book of price levels set from outside the engine by `ApplyDepth` messages: the market's
 * liquidity beside the users' own orders when the book is known level by level. Two modes:
 *
 * - `recorded`: replayed depth (Tardis incremental_book_L2, book snapshots, L1 quotes, exsim's
 *   recordings). The data is the truth: a historical print does not touch it (the level's next
 *   recorded update shows what the print took).
 * - `flow`: the seeded order-flow process that keeps a book alive where no depth was recorded
 *   (src/sim/order-flow). Nothing else will update it after a print, so a print consumes it:
 *   levels better than the print's price go, the print's own level loses the print's size, and
 *   levels of the other side at or through the print's price go.
 *
 * Either way, what users take stays taken: a level shows its size minus what users took from it
 * until a message sets that level anew (a taken-out level stays addressable with 0 steps, so a
 * walk's indices stay valid while it takes). A message never leaves the book crossed: when its
 * levels cross the other side, the other side's crossing levels are stale and are dropped
 * (counted in `repairs`).
 *
 * In flow mode the process catches the book up to now before anything reads it (`sync`), so
 * every public accessor starts with it; the process itself writes through the raw level methods.
 *
 * Storage, per side: ascending keys (a bid's key is its ticks, an ask's the negated ticks) so both
 * sides keep their best level at the end of the arrays, where most updates land; binary search,
 * shifts by copyWithin. Level `i` from the best is array index n − 1 − i.
 */
import type { LiquiditySource } from './liquidity-source.ts';
import type { FlowTarget, OrderFlowProcess } from './order-flow.ts';

export type DepthBookMode = 'recorded' | 'flow';

/**
 * One side's levels: keys ascending, best last; steps per level. A level set to 0 below the top
 * stays as a tombstone (0 steps: no different from an absent level to any reader) so a removal
 * deep in a thousand-level book costs a search, not a shift; an insertion next to a tombstone
 * takes its slot, and the tombstones are swept out once they outnumber the live levels. The top
 * slot is never a tombstone (the best level is where every reader starts).
 */
export class DepthSide {
  keys = new Float64Array(64);
  steps = new Float64Array(64);
  /** Slots in use, tombstones included. */
  n = 0;
  /** Slots with steps left. */
  live = 0;

  /** Index of `key`, or -(insertion point) - 1. */
  find(key: number): number {
    const keys = this.keys;
    let lo = 0;
    let hi = this.n - 1;
    // The best end first: most messages touch the top of the book.
    if (hi >= 0) {
      const top = keys[hi]!;
      if (key === top) return hi;
      if (key > top) return -(hi + 1) - 1;
    }
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const k = keys[mid]!;
      if (k < key) lo = mid + 1;
      else if (k > key) hi = mid - 1;
      else return mid;
    }
    return -lo - 1;
  }

  set(key: number, steps: number): void {
    const at = this.find(key);
    if (at >= 0) {
      const before = this.steps[at]!;
      this.steps[at] = steps;
      if (before > 0 && steps === 0) {
        this.live--;
        // No tombstone stays on top: the best level is where every reader starts.
        if (at === this.n - 1) while (this.n > 0 && this.steps[this.n - 1] === 0) this.n--;
        else if (this.n - this.live > 32 && this.n - this.live > this.live) this.compact();
      } else if (before === 0 && steps > 0) this.live++;
      return;
    }
    if (steps === 0) return;
    const p = -at - 1;
    this.live++;
    // A tombstone beside the insertion point takes the key: the order stays sorted, nothing moves.
    if (p > 0 && this.steps[p - 1] === 0) {
      this.keys[p - 1] = key;
      this.steps[p - 1] = steps;
      return;
    }
    if (p < this.n && this.steps[p] === 0) {
      this.keys[p] = key;
      this.steps[p] = steps;
      return;
    }
    if (this.n === this.keys.length) this.grow();
    if (p < this.n) {
      this.keys.copyWithin(p + 1, p, this.n);
      this.steps.copyWithin(p + 1, p, this.n);
    }
    this.keys[p] = key;
    this.steps[p] = steps;
    this.n++;
  }

  /** `steps` taken from slot `at` (it has them). */
  takeAt(at: number, steps: number): void {
    const left = this.steps[at]! - steps;
    this.steps[at] = left;
    if (left === 0) this.live--;
  }

  removeAt(from: number, count: number): void {
    if (count <= 0) return;
    for (let i = from; i < from + count; i++) if (this.steps[i]! > 0) this.live--;
    this.keys.copyWithin(from, from + count, this.n);
    this.steps.copyWithin(from, from + count, this.n);
    this.n -= count;
  }

  /** Keeps the levels whose key is below `bound` (drops key >= bound); returns how many live ones went. */
  dropFrom(bound: number): number {
    let i = this.n;
    let dropped = 0;
    while (i > 0 && this.keys[i - 1]! >= bound) {
      i--;
      if (this.steps[i]! > 0) dropped++;
    }
    this.n = i;
    this.live -= dropped;
    return dropped;
  }

  /** Index of the best level with steps left, or -1. */
  bestLive(): number {
    for (let i = this.n - 1; i >= 0; i--) if (this.steps[i]! > 0) return i;
    return -1;
  }

  /** Empties the side. */
  clear(): void {
    this.n = 0;
    this.live = 0;
  }

  /** Sweeps the tombstones out (keeps order). */
  compact(): void {
    const { keys, steps } = this;
    let w = 0;
    for (let r = 0; r < this.n; r++) {
      if (steps[r]! === 0) continue;
      keys[w] = keys[r]!;
      steps[w] = steps[r]!;
      w++;
    }
    this.n = w;
  }

  /** Doubles the arrays (a plain method: snapshots rebuild sides without running a constructor). */
  grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    keys.set(this.keys);
    const steps = new Float64Array(this.steps.length * 2);
    steps.set(this.steps);
    this.keys = keys;
    this.steps = steps;
  }
}

export class DepthBook implements LiquiditySource, FlowTarget {
  readonly kind = 'depth';
  readonly mode: DepthBookMode;
  /** Flow mode: the process that moves the book between prints (order-flow.ts); null when recorded. */
  flow: OrderFlowProcess | null = null;
  /** True while the process writes (its reads of the book must not catch up again). */
  syncing = false;
  readonly bids = new DepthSide();
  readonly asks = new DepthSide();
  /** Levels dropped because a message crossed them (stale levels of the other side). */
  repairs = 0;
  /** Messages applied. */
  messages = 0;

  constructor(mode: DepthBookMode) {
    this.mode = mode;
  }

  /** Brings a flow book up to now (order-flow.ts); nothing for a recorded one. */
  sync(): void {
    const flow = this.flow;
    if (flow === null || this.syncing || !flow.behind) return;
    this.syncing = true;
    try {
      flow.catchUp(this);
    } finally {
      this.syncing = false;
    }
  }

  /** Number of levels with steps on a side. */
  levelCount(isBid: boolean): number {
    this.sync();
    return (isBid ? this.bids : this.asks).live;
  }

  ticksAt(isBid: boolean, i: number): number {
    this.sync();
    const side = isBid ? this.bids : this.asks;
    const at = side.n - 1 - i;
    if (at < 0) return 0;
    const key = side.keys[at]!;
    return isBid ? key : -key;
  }

  stepsAt(isBid: boolean, i: number): number {
    this.sync();
    const side = isBid ? this.bids : this.asks;
    const at = side.n - 1 - i;
    return at < 0 ? 0 : side.steps[at]!;
  }

  firstLive(isBid: boolean, from: number, cutoff: number): number {
    this.sync();
    const side = isBid ? this.bids : this.asks;
    const keys = side.keys;
    const steps = side.steps;
    for (let at = side.n - 1 - from; at >= 0; at--) {
      if (steps[at]! === 0) continue;
      const key = keys[at]!;
      if (isBid ? key < cutoff : -key > cutoff) return side.n - 1 - at;
    }
    return -1;
  }

  take(isBid: boolean, i: number, steps: number): void {
    this.sync();
    const side = isBid ? this.bids : this.asks;
    const at = side.n - 1 - i;
    const has = at < 0 ? 0 : side.steps[at]!;
    if (!(steps > 0 && steps <= has)) throw new Error(`depth level ${i} has ${has} steps, ${steps} taken`);
    side.takeAt(at, steps);
  }

  /** Empties both sides (a snapshot follows). */
  clear(): void {
    this.bids.clear();
    this.asks.clear();
  }

  /** Sets a level to `steps` (0 removes it); ticks > 0. */
  setLevel(isBid: boolean, ticks: number, steps: number): void {
    if (isBid) this.bids.set(ticks, steps);
    else this.asks.set(-ticks, steps);
  }

  /**
   * After a message: if the best live bid reaches the best live ask, the side the message did
   * not set at its best is stale and loses its crossing levels. `bidSetTicks` / `askSetTicks`:
   * the best bid (highest) and best ask (lowest) the message set with steps, or 0 / Infinity.
   */
  repairCrossing(bidSetTicks: number, askSetTicks: number): void {
    const b = this.bids.bestLive();
    const a = this.asks.bestLive();
    if (b < 0 || a < 0) return;
    const bid = this.bids.keys[b]!;
    const ask = -this.asks.keys[a]!;
    if (bid < ask) return;
    const bidFresh = bid === bidSetTicks;
    const askFresh = ask === askSetTicks;
    // The fresh side wins; when the message set both (it crossed itself), its bids win.
    if (bidFresh || !askFresh) this.repairs += this.asks.dropFrom(-bid);
    else this.repairs += this.bids.dropFrom(ask);
  }

  /**
   * Flow mode: a print meets the book. One that starts a new epoch of the process (the first, a
   * jump beyond the book's depth, one after a gap: order-flow.ts) is the centre of the next draw;
   * any other is queued and consumes the book when it catches up (`consumePrint`). Recorded
   * mode: nothing (the data's next update shows what the print took).
   */
  notePrint(ticks: number, steps: number, takerIsBuyer: boolean): void {
    if (this.mode !== 'flow') return;
    const flow = this.flow;
    if (flow === null) {
      this.consumePrint(ticks, steps, takerIsBuyer);
      return;
    }
    if (flow.jumps(ticks)) return flow.startEpoch(ticks);
    if (flow.queuePrint(ticks, steps, takerIsBuyer)) this.sync();
  }

  /**
   * A print consumes the book: levels better than its price go, its own level loses its size,
   * the other side's levels at or through its price go. Returns true when a side is left empty
   * (the process then draws a new book around the print).
   */
  consumePrint(ticks: number, steps: number, takerIsBuyer: boolean): boolean {
    const hit = takerIsBuyer ? this.asks : this.bids;
    const key = takerIsBuyer ? -ticks : ticks;
    // Levels better than the print (keys above its key) were consumed before it.
    hit.dropFrom(key + 1);
    const at = hit.find(key);
    if (at >= 0 && steps > 0) {
      const left = hit.steps[at]! - steps;
      if (left > 0) hit.steps[at] = left;
      else hit.set(key, 0);
    }
    // The other side cannot stand at or through the print's price.
    const other = takerIsBuyer ? this.bids : this.asks;
    other.dropFrom(takerIsBuyer ? ticks : -ticks);
    return this.bids.bestLive() < 0 || this.asks.bestLive() < 0;
  }

  /** Steps of a side's live levels at or through `ticks` (bids at or above it, asks at or below it). */
  crossingSteps(isBid: boolean, ticks: number): number {
    this.sync();
    const side = isBid ? this.bids : this.asks;
    const bound = isBid ? ticks : -ticks;
    let total = 0;
    for (let at = side.n - 1; at >= 0 && side.keys[at]! >= bound; at--) total += side.steps[at]!;
    return total;
  }

  /** Takes `steps` from a side's levels at or through `ticks`, best first (crossingSteps must cover it). */
  consumeCrossing(isBid: boolean, ticks: number, steps: number): void {
    this.sync();
    const side = isBid ? this.bids : this.asks;
    const bound = isBid ? ticks : -ticks;
    for (let at = side.n - 1; at >= 0 && steps > 0 && side.keys[at]! >= bound; at--) {
      const take = Math.min(steps, side.steps[at]!);
      if (take > 0) side.takeAt(at, take);
      steps -= take;
    }
    if (steps > 0) throw new Error(`depth book: ${steps} crossing steps missing`);
  }

  /** Steps shown at `ticks` on a side (0 when absent or taken out). */
  stepsAtPrice(isBid: boolean, ticks: number): number {
    this.sync();
    const side = isBid ? this.bids : this.asks;
    const at = side.find(isBid ? ticks : -ticks);
    return at < 0 ? 0 : side.steps[at]!;
  }

  bestLiveTicks(isBid: boolean): number {
    return isBid ? this.bestBidTicks() : this.bestAskTicks();
  }

  /** Removes a side's worst level with steps. */
  dropWorst(isBid: boolean): void {
    const side = isBid ? this.bids : this.asks;
    for (let i = 0; i < side.n; i++) {
      if (side.steps[i]! > 0) return side.set(side.keys[i]!, 0);
    }
  }

  /** Best live prices in ticks (0 when a side is empty). */
  bestBidTicks(): number {
    this.sync();
    const b = this.bids.bestLive();
    return b < 0 ? 0 : this.bids.keys[b]!;
  }

  bestAskTicks(): number {
    this.sync();
    const a = this.asks.bestLive();
    return a < 0 ? 0 : -this.asks.keys[a]!;
  }

  describe(): string {
    this.sync();
    const side = (s: DepthSide, isBid: boolean): string => {
      const out: string[] = [];
      // Levels with steps only: a tombstone is no level, and sweeping them must not change the hash.
      for (let i = s.n - 1; i >= 0; i--) if (s.steps[i]! > 0) out.push(`${isBid ? s.keys[i] : -s.keys[i]!}:${s.steps[i]}`);
      return out.join(',');
    };
    return `depth ${this.mode} repairs ${this.repairs} bid ${side(this.bids, true)} ask ${side(this.asks, false)}${this.flow === null ? '' : ` ${this.flow.describe()}`}`;
  }
}
