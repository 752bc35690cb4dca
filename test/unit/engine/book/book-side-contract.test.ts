/**
 * One contract, two books (exchange-core's habit of a naive and a fast order book under one test
 * suite): random sequences of adds, removals and iceberg requeues go to the fast `BookSide` and
 * to the naive reference (test/support/naive-book-side.ts); after every operation both show the
 * same live levels (price, total, FIFO order of ids), the same best price, level and order counts.
 * Prices are drawn from a narrow band so levels empty and refill in the middle of the book, which
 * is where the fast side's dormant levels and compaction live.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Account, ZERO_RATES } from '../../../../src/engine/accounts/account.ts';
import { BookSide } from '../../../../src/engine/book/book-side.ts';
import { Order } from '../../../../src/engine/order.ts';
import { NaiveBookSide, type BookSnapshot } from '../../../support/naive-book-side.ts';
import { propertyParameters } from '../../../property/property-parameters.ts';

const account = new Account(0, 1, ZERO_RATES, ZERO_RATES, ZERO_RATES, { enabled: false, asset: 'BNB', rate: 0 }, ['SPOT'], true, -1);

type Op = { kind: 'add'; ticks: number; steps: number } | { kind: 'remove'; pick: number } | { kind: 'requeue'; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('add' as const), ticks: fc.integer({ min: 1, max: 40 }), steps: fc.integer({ min: 1, max: 9 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('requeue' as const), pick: fc.nat() }) },
);

function snapshot(side: BookSide): BookSnapshot {
  const out: BookSnapshot = [];
  side.forEachLive((level) => {
    const ids: number[] = [];
    for (let o = level.head; o !== null; o = o.next) ids.push(o.orderId);
    out.push([level.ticks, level.totalSteps, ids]);
  });
  return out;
}

function run(isBid: boolean, ops: readonly Op[]): void {
  const fast = new BookSide(isBid);
  const naive = new NaiveBookSide(isBid);
  const resting: Order[] = [];
  let nextId = 1;
  for (const op of ops) {
    if (op.kind === 'add') {
      const order = new Order(0, nextId++, 'x', account, isBid, 'LIMIT', 'GTC', op.ticks, op.steps, 0, 'NONE', 0, null, null);
      fast.add(order);
      naive.add({ orderId: order.orderId, ticks: op.ticks, shown: op.steps });
      resting.push(order);
    } else if (resting.length > 0) {
      const index = op.pick % resting.length;
      const order = resting[index]!;
      if (op.kind === 'remove') {
        fast.remove(order, order.bookSteps);
        naive.remove(order.orderId);
        resting.splice(index, 1);
      } else {
        // As reduceShown does when an iceberg's slice runs out: the slice leaves the level's
        // total, the next one (here: the same size) joins it at the back.
        order.level!.shrink(order.bookSteps);
        order.level!.requeue(order);
        naive.requeue(order.orderId);
      }
    }
    expect(snapshot(fast)).toEqual(naive.snapshot());
    expect(fast.best()?.ticks).toBe(naive.bestTicks());
    expect(fast.orderCount).toBe(naive.orderCount);
    expect(fast.levelCount).toBe(naive.snapshot().length);
  }
}

describe('BookSide against the naive reference book', () => {
  for (const isBid of [true, false]) {
    it(`shows the same ${isBid ? 'bids' : 'asks'} after every add, removal and requeue`, () => {
      fc.assert(
        fc.property(fc.array(opArb, { minLength: 1, maxLength: 400 }), (ops) => run(isBid, ops)),
        propertyParameters({ numRuns: 150 }),
      );
    });
  }

  it('holds through many dormant levels (the fast side compacts them)', () => {
    // 600 levels filled, then every other one emptied from the middle out: compaction runs.
    const ops: Op[] = [];
    for (let t = 1; t <= 600; t++) ops.push({ kind: 'add', ticks: t, steps: 1 });
    for (let k = 0; k < 300; k++) ops.push({ kind: 'remove', pick: k + 1 });
    run(false, ops);
  });
});
