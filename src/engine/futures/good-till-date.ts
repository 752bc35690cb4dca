/**
 * GTD orders on margin symbols (fapi timeInForce GTD, futures facts §3.1): a LIMIT order that
 * rests like GTC and expires at its goodTillDate. The engine has no timers, so expiry is a step
 * of the next command: Engine.apply calls `expireDueOrders` with the command's time before the
 * command acts, and every open GTD order due at or before that time expires then — in due-time,
 * then symbol, then order-id order — with the due time as the event time (**chosen**: the
 * expiry is where it would have been on a clock; the command that reveals it comes after, so the
 * events stay in time order). Status EXPIRED with expiry reason NONE (fapi `er` 0: Binance's list
 * has no GTD reason, **chosen**); the reservation is released as on a cancel (closeOrder).
 *
 * The queue is consulted only when it is not empty, and spot engines (no futures state) never
 * look at it. Deterministic and replayable: it is part of the state (snapshot and digest), and a
 * journal replay runs the same commands at the same times.
 */
import type { EngineState } from '../engine-state.ts';
import { expire } from '../order-lifecycle.ts';
import type { GtdEntry } from './futures-state.ts';

function before(a: GtdEntry, b: GtdEntry): boolean {
  return a.due !== b.due ? a.due < b.due : a.symbolIndex !== b.symbolIndex ? a.symbolIndex < b.symbolIndex : a.orderId < b.orderId;
}

/** Queues an open GTD order (kept sorted: binary search for its place). */
export function queueGoodTill(queue: GtdEntry[], entry: GtdEntry): void {
  let lo = 0;
  let hi = queue.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(queue[mid]!, entry)) lo = mid + 1;
    else hi = mid;
  }
  queue.splice(lo, 0, entry);
}

/** Whether a GTD order is due at `time` (the caller's cheap guard before `expireDueOrders`). */
export function goodTillDue(state: EngineState, time: number): boolean {
  const futures = state.futures;
  return futures !== null && futures.gtdQueue.length !== 0 && futures.gtdQueue[0]!.due <= time;
}

/** Expires every open GTD order due at or before `time`, at its due time. */
export function expireDueOrders(state: EngineState, time: number): void {
  const queue = state.futures!.gtdQueue;
  let n = 0;
  while (n < queue.length && queue[n]!.due <= time) {
    const { due, symbolIndex, orderId } = queue[n]!;
    n++;
    const symbol = state.symbolList[symbolIndex]!;
    const order = symbol.live.get(orderId);
    // Filled, canceled or liquidated since it was queued: nothing to expire.
    if (order === undefined || !order.isOpen) continue;
    expire(state, symbol, order, 'EXPIRED', 'NONE', due);
  }
  queue.splice(0, n);
}
