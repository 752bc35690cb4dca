/**
 * One price of one side of a book: an intrusive doubly linked FIFO of resting orders (O(1)
 * append, O(1) removal from anywhere) and the total remaining quantity in steps.
 */
import type { Order } from '../order.ts';

export class PriceLevel {
  head: Order | null = null;
  tail: Order | null = null;
  /** Sum of what the orders show (an iceberg shows its visible slice). */
  totalSteps = 0;
  count = 0;
  /** Icebergs resting here: a walk through this level must rotate their refilled slices. */
  icebergs = 0;

  constructor(readonly ticks: number) {}

  append(order: Order): void {
    order.level = this;
    order.prev = this.tail;
    order.next = null;
    if (this.tail) this.tail.next = order;
    else this.head = order;
    this.tail = order;
    this.totalSteps += order.bookSteps;
    this.count += 1;
    if (order.ext !== null && order.ext.icebergSteps !== 0) this.icebergs += 1;
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
    this.totalSteps -= shownSteps;
    this.count -= 1;
    if (order.ext !== null && order.ext.icebergSteps !== 0) this.icebergs -= 1;
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
