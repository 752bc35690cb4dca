/**
 * One price of one side of a book: an intrusive doubly linked FIFO of resting orders (O(1)
 * append, O(1) removal from anywhere) and the total remaining quantity in steps.
 */
import type { Order } from '../order.ts';

export class PriceLevel {
  head: Order | null = null;
  tail: Order | null = null;
  totalSteps = 0;
  count = 0;

  constructor(readonly ticks: number) {}

  append(order: Order): void {
    order.level = this;
    order.prev = this.tail;
    order.next = null;
    if (this.tail) this.tail.next = order;
    else this.head = order;
    this.tail = order;
    this.totalSteps += order.remainingSteps;
    this.count += 1;
  }

  /** Unlinks `order`; `remainingSteps` is what the order still counted toward the level total. */
  remove(order: Order, remainingSteps: number): void {
    if (order.prev) order.prev.next = order.next;
    else this.head = order.next;
    if (order.next) order.next.prev = order.prev;
    else this.tail = order.prev;
    order.prev = null;
    order.next = null;
    order.level = null;
    this.totalSteps -= remainingSteps;
    this.count -= 1;
  }
}
