import { describe, expect, it } from 'vitest';
import { Account, ZERO_RATES } from '../../../../src/engine/accounts/account.ts';
import { BookSide } from '../../../../src/engine/book/book-side.ts';
import { OrderBook } from '../../../../src/engine/book/order-book.ts';
import { Order } from '../../../../src/engine/order.ts';

const account = new Account(0, 1, ZERO_RATES, ZERO_RATES, ZERO_RATES, { enabled: false, asset: 'BNB', rate: 0 }, ['SPOT'], true, -1);
let nextId = 1;
function order(isBuy: boolean, ticks: number, steps: number): Order {
  return new Order(0, nextId++, 'x', account, isBuy, 'LIMIT', 'GTC', ticks, steps, 0, 'NONE', 0, null, null);
}

/** [ticks, totalSteps, orderIds] per level, best first. */
function levels(side: BookSide): [number, number, number[]][] {
  const out: [number, number, number[]][] = [];
  side.forEachLive((level) => {
    const ids: number[] = [];
    for (let o = level.head; o !== null; o = o.next) ids.push(o.orderId);
    out.push([level.ticks, level.totalSteps, ids]);
  });
  return out;
}

describe('BookSide', () => {
  it('a cursor walks the live levels best first, skipping dormant ones; forEachLive agrees', () => {
    const bids = new BookSide(true);
    const orders = [10, 11, 12, 13].map((t) => order(true, t, 1));
    for (const o of orders) bids.add(o);
    bids.remove(orders[1]!, 1); // 11 goes dormant in place
    bids.remove(orders[2]!, 1); // 12 too
    const cursor = bids.cursor();
    const seen: number[] = [];
    for (let level = cursor.next(); level !== undefined; level = cursor.next()) seen.push(level.ticks);
    expect(seen).toEqual([13, 10]);
    expect(cursor.next()).toBeUndefined();
    expect(levels(bids).map(([t]) => t)).toEqual([13, 10]);
    expect(bids.levelsIncludingDormant()).toHaveLength(4);
  });

  it('bids: the highest price is best; levels sorted best first whatever the insertion order', () => {
    const bids = new BookSide(true);
    const [a, b, c, d] = [order(true, 100, 1), order(true, 102, 2), order(true, 99, 3), order(true, 101, 4)];
    for (const o of [a, b, c, d]) bids.add(o);
    expect(levels(bids).map(([t]) => t)).toEqual([102, 101, 100, 99]);
    expect(bids.best()?.ticks).toBe(102);
    expect(bids.orderCount).toBe(4);
    expect(bids.better(101, 100)).toBe(true);
  });

  it('asks: the lowest price is best', () => {
    const asks = new BookSide(false);
    for (const t of [105, 103, 104]) asks.add(order(false, t, 1));
    expect(levels(asks).map(([t]) => t)).toEqual([103, 104, 105]);
    expect(asks.best()?.ticks).toBe(103);
    expect(asks.better(103, 104)).toBe(true);
  });

  it('orders at one price queue FIFO and the level totals their quantity', () => {
    const asks = new BookSide(false);
    const first = order(false, 100, 5);
    const second = order(false, 100, 7);
    asks.add(first);
    asks.add(second);
    expect(levels(asks)).toEqual([[100, 12, [first.orderId, second.orderId]]]);
    expect(asks.level(100)?.count).toBe(2);
    expect(first.level).toBe(asks.level(100));
  });

  it('removing from the middle, head and tail keeps the FIFO linked', () => {
    const bids = new BookSide(true);
    const os = [order(true, 50, 1), order(true, 50, 2), order(true, 50, 3), order(true, 50, 4)];
    for (const o of os) bids.add(o);
    bids.remove(os[1]!, 2);
    bids.remove(os[0]!, 1);
    bids.remove(os[3]!, 4);
    expect(levels(bids)).toEqual([[50, 3, [os[2]!.orderId]]]);
    expect(os[1]!.level).toBeNull();
    expect(os[1]!.next).toBeNull();
    expect(bids.orderCount).toBe(1);
  });

  it('removing the last order of a level removes the level (best and inner levels)', () => {
    const asks = new BookSide(false);
    const a = order(false, 10, 1);
    const b = order(false, 11, 1);
    const c = order(false, 12, 1);
    for (const o of [a, b, c]) asks.add(o);
    asks.remove(b, 1);
    expect(levels(asks).map(([t]) => t)).toEqual([10, 12]);
    expect(asks.level(11)).toBeUndefined();
    expect(asks.levelCount).toBe(2);
    asks.remove(a, 1);
    expect(asks.best()?.ticks).toBe(12);
    asks.remove(c, 1);
    expect(asks.best()).toBeUndefined();
    expect(asks.levelsIncludingDormant()).toEqual([]);
    expect(asks.levelCount).toBe(0);
  });

  it('an inner level that empties stays dormant in place and wakes up without moving', () => {
    const asks = new BookSide(false);
    const a = order(false, 10, 1);
    const b = order(false, 11, 1);
    const c = order(false, 12, 1);
    for (const o of [a, b, c]) asks.add(o);
    const inner = b.level;
    asks.remove(b, 1);
    expect(asks.levelsIncludingDormant()).toHaveLength(3); // kept, empty
    const d = order(false, 11, 2);
    asks.add(d);
    expect(d.level).toBe(inner);
    expect(levels(asks).map(([t]) => t)).toEqual([10, 11, 12]);
    // Emptying the best exposes no dormant level: best() is always live.
    asks.remove(d, 2);
    asks.remove(a, 1);
    expect(asks.best()?.ticks).toBe(12);
    expect(asks.levelsIncludingDormant()).toHaveLength(1);
  });

  it('a level re-created after being emptied goes to the back of nothing: new FIFO', () => {
    const bids = new BookSide(true);
    const a = order(true, 10, 1);
    bids.add(a);
    bids.remove(a, 1);
    const b = order(true, 10, 2);
    bids.add(b);
    expect(levels(bids)).toEqual([[10, 2, [b.orderId]]]);
  });

  it('removing an order that is not on the book throws', () => {
    const bids = new BookSide(true);
    expect(() => bids.remove(order(true, 10, 1), 1)).toThrow();
  });
});

describe('OrderBook', () => {
  it('side() is the own side, opposite() the other', () => {
    const book = new OrderBook();
    expect(book.side(true)).toBe(book.bids);
    expect(book.side(false)).toBe(book.asks);
    expect(book.opposite(true)).toBe(book.asks);
    expect(book.opposite(false)).toBe(book.bids);
    expect(book.bids.isBid).toBe(true);
    expect(book.asks.isBid).toBe(false);
  });
});
