/**
 * One side of a book. Levels are kept in an array sorted so that the best price is LAST
 * (bids ascending, asks descending): taking or emptying the best level is a pop, and a new level
 * is placed by binary search. A map gives O(1) access by price. With the few hundred live levels
 * a real book has near the touch, the occasional splice is cheaper than a tree.
 */
import type { Order } from '../order.ts';
import { PriceLevel } from './price-level.ts';

export class BookSide {
  readonly levels: PriceLevel[] = [];
  readonly #byTicks = new Map<number, PriceLevel>();
  orderCount = 0;

  constructor(readonly isBid: boolean) {}

  best(): PriceLevel | undefined {
    return this.levels[this.levels.length - 1];
  }

  level(ticks: number): PriceLevel | undefined {
    return this.#byTicks.get(ticks);
  }

  /** True if `a` is a better price than `b` on this side. */
  better(a: number, b: number): boolean {
    return this.isBid ? a > b : a < b;
  }

  add(order: Order): void {
    let level = this.#byTicks.get(order.priceTicks);
    if (!level) {
      level = new PriceLevel(order.priceTicks);
      this.#byTicks.set(order.priceTicks, level);
      this.#insertLevel(level);
    }
    level.append(order);
    this.orderCount += 1;
  }

  remove(order: Order, remainingSteps: number): void {
    const level = order.level;
    if (!level) throw new Error(`order ${order.orderId} is not on the book`);
    level.remove(order, remainingSteps);
    this.orderCount -= 1;
    if (level.count === 0) this.#removeLevel(level);
  }

  #insertLevel(level: PriceLevel): void {
    const levels = this.levels;
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

  #removeLevel(level: PriceLevel): void {
    this.#byTicks.delete(level.ticks);
    const levels = this.levels;
    const last = levels.length - 1;
    if (levels[last] === level) {
      levels.pop();
      return;
    }
    let lo = 0;
    let hi = levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = levels[mid] as PriceLevel;
      if (m === level) {
        levels.splice(mid, 1);
        return;
      }
      if (this.better(m.ticks, level.ticks)) hi = mid;
      else lo = mid + 1;
    }
    throw new Error(`level ${level.ticks} missing from side`);
  }
}
