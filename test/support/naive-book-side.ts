/**
 * The reference book side for the matching core's contract suite: the simplest structure that
 * can be right. Every resting order in one array, kept sorted by (price priority, arrival); a
 * level is the run of orders at one price. No dormant levels, no maps, no linked lists: each
 * operation is a linear scan, obviously correct and slow. The fast `BookSide`
 * (src/engine/book/book-side.ts) must show the same book after every operation.
 */
export interface NaiveOrder {
  readonly orderId: number;
  readonly ticks: number;
  /** What the order shows on the book (steps). */
  shown: number;
}

/** [ticks, total shown steps, orderIds in FIFO order] per live level, best first. */
export type BookSnapshot = [number, number, number[]][];

export class NaiveBookSide {
  /** Best first; FIFO within a price. */
  readonly #orders: NaiveOrder[] = [];

  constructor(readonly isBid: boolean) {}

  add(order: NaiveOrder): void {
    // After every order at a price at least as good: behind its own price level's queue.
    let i = 0;
    while (i < this.#orders.length && !this.#better(order.ticks, this.#orders[i]!.ticks)) i++;
    this.#orders.splice(i, 0, order);
  }

  remove(orderId: number): void {
    const i = this.#orders.findIndex((o) => o.orderId === orderId);
    if (i < 0) throw new Error(`order ${orderId} is not on the naive book`);
    this.#orders.splice(i, 1);
  }

  /** A refilled iceberg slice: to the back of its level. */
  requeue(orderId: number): void {
    const i = this.#orders.findIndex((o) => o.orderId === orderId);
    const [order] = this.#orders.splice(i, 1);
    this.add(order!);
  }

  bestTicks(): number | undefined {
    return this.#orders[0]?.ticks;
  }

  get orderCount(): number {
    return this.#orders.length;
  }

  snapshot(): BookSnapshot {
    const out: BookSnapshot = [];
    for (const o of this.#orders) {
      const last = out[out.length - 1];
      if (last !== undefined && last[0] === o.ticks) {
        last[1] += o.shown;
        last[2].push(o.orderId);
      } else out.push([o.ticks, o.shown, [o.orderId]]);
    }
    return out;
  }

  #better(a: number, b: number): boolean {
    return this.isBid ? a > b : a < b;
  }
}
