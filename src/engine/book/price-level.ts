/**
 * One price of one side of a book: an intrusive doubly linked FIFO of resting orders (O(1)
 * append, O(1) removal from anywhere) and the total remaining quantity in steps.
 */
import type { Order } from '../order.ts';

export class PriceLevel {
  head: Order | null = null;
  tail: Order | null = null;
  // The counters change only through append / remove / shrink, so they always match the FIFO.
  // TypeScript-private rather than #private: a level sits in the order graph's cycles, which the
  // snapshot codec keeps only for classes whose fields it can copy (snapshot/graph-codec.ts).
  private shown = 0;
  private orders = 0;
  private slices = 0;

  constructor(readonly ticks: number) {}

  /** Sum of what the orders show (an iceberg shows its visible slice). */
  get totalSteps(): number {
    return this.shown;
  }

  get count(): number {
    return this.orders;
  }

  /** Icebergs resting here: a walk through this level must rotate their refilled slices. */
  get icebergs(): number {
    return this.slices;
  }

  /** An order here now shows `steps` less (filled, prevented, amended down); it keeps its place. */
  shrink(steps: number): void {
    this.shown -= steps;
  }

  append(order: Order): void {
    order.level = this;
    order.prev = this.tail;
    order.next = null;
    if (this.tail) this.tail.next = order;
    else this.head = order;
    this.tail = order;
    this.shown += order.bookSteps;
    this.orders += 1;
    if (order.ext !== null && order.ext.icebergSteps !== 0) this.slices += 1;
  }

  /** Unlinks `order`; `shownSteps` is what the order still counted toward the level total. */
  remove(order: Order, shownSteps: number): void {
    if (order.prev) order.prev.next = order.next;
    else this.head = order.next;
    if (order.next) order.next.prev = order.prev;
    else this.tail = order.prev;
    order.prev = null;
    order.next = null;
    order.level = null;
    this.shown -= shownSteps;
    this.orders -= 1;
    if (order.ext !== null && order.ext.icebergSteps !== 0) this.slices -= 1;
  }

  /**
   * An iceberg whose visible slice ran out shows its next slice (`bookSteps`, already set) at the
   * back of the queue: a refilled slice loses time priority.
   */
  requeue(order: Order): void {
    this.remove(order, 0);
    this.append(order);
  }
}
