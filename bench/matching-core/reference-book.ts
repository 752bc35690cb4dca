/**
 * A minimal price-time-priority book used only by the op-stream generator (never timed).
 *
 * Why a book in the generator: cancels and moves must target orders that are really resting,
 * a move must carry the order's remaining quantity, and IOC sizes must be chosen from the depth
 * that is really there. All of that depends on matching, so the generator replays its own ops
 * through this model, the same way exchange-core's TestOrdersGenerator drives a naive order book.
 * Both engines under test then see a stream that is valid for them if (and only if) they match
 * with the same price-time rules; the bench's sanity check compares their final books with this
 * model's.
 *
 * Layout: prices are integer ticks in [0, tickCount); each tick holds one FIFO of order handles
 * as an intrusive doubly linked list in typed arrays, so the model stays fast for millions of ops.
 * Quantities are integer lots.
 */

export const BUY = 0;
export const SELL = 1;
export type SideCode = typeof BUY | typeof SELL;

const NONE = -1;

export class ReferenceBook {
  readonly tickCount: number;
  // Per handle (an order slot; handles are never reused).
  readonly side: Uint8Array;
  readonly tick: Int32Array;
  readonly lots: Float64Array;
  readonly account: Int32Array;
  private readonly prev: Int32Array;
  private readonly next: Int32Array;
  /** Position in `live`, or NONE when the order is not resting. */
  private readonly livePos: Int32Array;
  // Per tick.
  private readonly head: Int32Array;
  private readonly tail: Int32Array;
  private readonly levelOrders: Int32Array;
  // Resting orders in no particular order, for O(1) uniform random picks.
  private readonly live: Int32Array;
  liveCount = 0;
  /** Resting orders per side, indexed by SideCode. */
  readonly orders = [0, 0];
  /** Non-empty price levels per side, indexed by SideCode. */
  readonly levels = [0, 0];
  /** Best bid tick, or NONE. */
  bestBid = NONE;
  /** Best ask tick, or NONE. */
  bestAsk = NONE;
  /** Trades (maker fills) executed so far. */
  trades = 0;
  lastTradeTick = NONE;

  constructor(tickCount: number, maxHandles: number) {
    this.tickCount = tickCount;
    this.side = new Uint8Array(maxHandles);
    this.tick = new Int32Array(maxHandles);
    this.lots = new Float64Array(maxHandles);
    this.account = new Int32Array(maxHandles);
    this.prev = new Int32Array(maxHandles).fill(NONE);
    this.next = new Int32Array(maxHandles).fill(NONE);
    this.livePos = new Int32Array(maxHandles).fill(NONE);
    this.head = new Int32Array(tickCount).fill(NONE);
    this.tail = new Int32Array(tickCount).fill(NONE);
    this.levelOrders = new Int32Array(tickCount);
    this.live = new Int32Array(maxHandles);
  }

  isResting(handle: number): boolean {
    return this.livePos[handle]! !== NONE;
  }

  /** A uniformly chosen resting order, given a uniform number in [0, 1). */
  pickResting(u: number): number {
    if (this.liveCount === 0) throw new Error('reference book is empty');
    return this.live[Math.floor(u * this.liveCount)]!;
  }

  /** Best price of the side an order of `side` would trade against, or NONE. */
  oppositeBest(side: SideCode): number {
    return side === BUY ? this.bestAsk : this.bestBid;
  }

  /** Head of the queue at `tick` (NONE if empty). */
  levelHead(tick: number): number {
    return this.head[tick]!;
  }

  /** The order queued after `handle` at its price (NONE at the tail). */
  nextInLevel(handle: number): number {
    return this.next[handle]!;
  }

  /** Next non-empty price of the book side `side` strictly worse than `tick`, or NONE. */
  nextWorseLevel(side: SideCode, tick: number): number {
    if (side === BUY) {
      for (let t = tick - 1; t >= 0; t--) if (this.levelOrders[t]! > 0) return t;
    } else {
      for (let t = tick + 1; t < this.tickCount; t++) if (this.levelOrders[t]! > 0) return t;
    }
    return NONE;
  }

  /**
   * Submits a limit order: matches it against the opposite side up to `tick`, then rests the
   * remainder unless `ioc`. Returns whether the order ended up resting.
   */
  submit(handle: number, side: SideCode, tick: number, lots: number, account: number, ioc: boolean): boolean {
    if (tick < 0 || tick >= this.tickCount) throw new Error(`tick ${tick} outside the model's range`);
    this.side[handle] = side;
    this.tick[handle] = tick;
    this.account[handle] = account;
    let left = lots;
    if (side === BUY) {
      while (left > 0 && this.bestAsk !== NONE && this.bestAsk <= tick) left = this.takeFromLevel(this.bestAsk, left);
    } else {
      while (left > 0 && this.bestBid !== NONE && this.bestBid >= tick) left = this.takeFromLevel(this.bestBid, left);
    }
    this.lots[handle] = left;
    if (left === 0 || ioc) return false;
    this.rest(handle);
    return true;
  }

  /** Removes a resting order from the book. */
  cancel(handle: number): void {
    if (!this.isResting(handle)) throw new Error(`handle ${handle} is not resting`);
    this.unlink(handle);
  }

  private takeFromLevel(tick: number, wanted: number): number {
    let left = wanted;
    while (left > 0) {
      const maker = this.head[tick]!;
      if (maker === NONE) break;
      const available = this.lots[maker]!;
      const fill = available < left ? available : left;
      left -= fill;
      this.trades++;
      this.lastTradeTick = tick;
      if (fill === available) {
        this.lots[maker] = 0;
        this.unlink(maker);
      } else {
        this.lots[maker] = available - fill;
      }
    }
    return left;
  }

  private rest(handle: number): void {
    const tick = this.tick[handle]!;
    const side = this.side[handle]! as SideCode;
    const tail = this.tail[tick]!;
    this.prev[handle] = tail;
    this.next[handle] = NONE;
    if (tail === NONE) {
      this.head[tick] = handle;
      this.levels[side]!++;
    } else {
      this.next[tail] = handle;
    }
    this.tail[tick] = handle;
    this.levelOrders[tick]!++;
    this.orders[side]!++;
    this.livePos[handle] = this.liveCount;
    this.live[this.liveCount++] = handle;
    if (side === BUY) {
      if (this.bestBid === NONE || tick > this.bestBid) this.bestBid = tick;
    } else if (this.bestAsk === NONE || tick < this.bestAsk) {
      this.bestAsk = tick;
    }
  }

  private unlink(handle: number): void {
    const tick = this.tick[handle]!;
    const side = this.side[handle]! as SideCode;
    const prev = this.prev[handle]!;
    const next = this.next[handle]!;
    if (prev === NONE) this.head[tick] = next;
    else this.next[prev] = next;
    if (next === NONE) this.tail[tick] = prev;
    else this.prev[next] = prev;
    this.prev[handle] = NONE;
    this.next[handle] = NONE;
    this.orders[side]!--;
    const remaining = --this.levelOrders[tick]!;
    if (remaining === 0) {
      this.levels[side]!--;
      if (side === BUY && tick === this.bestBid) this.bestBid = this.nextWorseLevel(BUY, tick);
      if (side === SELL && tick === this.bestAsk) this.bestAsk = this.nextWorseLevel(SELL, tick);
    }
    // Swap-remove from the live list.
    const pos = this.livePos[handle]!;
    const last = this.live[--this.liveCount]!;
    this.live[pos] = last;
    this.livePos[last] = pos;
    this.livePos[handle] = NONE;
  }

  /** Aggregated depth of one side, best first: [tick, lots] pairs. */
  depth(side: SideCode): [number, number][] {
    const out: [number, number][] = [];
    let tick = side === BUY ? this.bestBid : this.bestAsk;
    while (tick !== NONE) {
      let lots = 0;
      for (let h = this.head[tick]!; h !== NONE; h = this.next[h]!) lots += this.lots[h]!;
      out.push([tick, lots]);
      tick = this.nextWorseLevel(side, tick);
    }
    return out;
  }
}
