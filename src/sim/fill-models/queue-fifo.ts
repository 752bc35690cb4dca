/**
 * The FIFO walk both queue models share (queue-position.ts on prints alone, l2-queue.ts on a
 * recorded book): a print fills the orders it went through as trade-through, then consumes the
 * level at its price from the front — the market quantity ahead of each own order, then the
 * order — from one budget, the print's size, so liquidity is used once and fills are capped by
 * the volume traded at that price. Each own order at a level keeps the market segment between
 * the previous own order and itself (`ahead`).
 */
import type { RestingOrder } from '../book-mirror.ts';
import type { SymbolMarket } from '../symbol-market.ts';
import type { FillPlan, TradePrint } from './fill-model.ts';
import { isThrough } from './fill-model.ts';
import { describeMeeting, planFill } from './price-reach.ts';
import { QUEUE_POSITION, QUEUE_PROBABILISTIC } from './queue-rules.ts';
import { TRADE_THROUGH } from './trade-through.ts';

export interface QueueEntry {
  readonly order: RestingOrder;
  /** Market quantity (base units, may be fractional) between the previous own order at the level and this one. */
  ahead: number;
}

/**
 * A judge for a print smaller than the queue ahead: whether it reached the order anyway (the
 * segment judged canceled), and the numbers for the reason. Absent: it never does.
 */
export type QueueJudge = (queueAhead: number, available: number) => { readonly reached: boolean; readonly note: string };

export function sameLevel(a: RestingOrder, b: RestingOrder): boolean {
  return a.isBuy === b.isBuy && a.price === b.price;
}

/** Plans the print's fills of `resting` (best first, FIFO within a price) into `out`. */
export function consumeQueue(
  model: string,
  entries: ReadonlyMap<number, QueueEntry>,
  trade: TradePrint,
  resting: readonly RestingOrder[],
  market: SymbolMarket,
  out: FillPlan[],
  judge: QueueJudge | null,
): void {
  let available = trade.qty;
  let i = 0;
  const tag = ` model=${model}`;
  // Levels the print went through: the queue there was consumed whole; fill as trade-through.
  for (; i < resting.length; i++) {
    const order = resting[i]!;
    if (!isThrough(trade, order.price)) break;
    const entry = entries.get(order.orderId);
    if (entry !== undefined) entry.ahead = 0;
    available -= planFill(TRADE_THROUGH, trade, order, market, available, tag, out);
  }
  // The level at the print's price: consume the FIFO from the front.
  for (; i < resting.length && available > 0; i++) {
    const order = resting[i]!;
    if (order.price !== trade.price) break;
    const entry = entries.get(order.orderId);
    if (entry === undefined) throw new Error(`${model}: order ${order.orderId} rests but was never seen`);
    const before = entry.ahead;
    let rule = QUEUE_POSITION;
    let note = '';
    if (before > 0) {
      if (available >= before) {
        available -= before;
        entry.ahead = 0;
      } else {
        const judged = judge === null ? null : judge(before, available);
        note = judged === null ? '' : judged.note;
        if (judged !== null && judged.reached) {
          rule = QUEUE_PROBABILISTIC;
          entry.ahead = 0; // judged canceled: the print reaches the order
        } else {
          entry.ahead = before - available;
          available = 0;
        }
      }
    }
    const queue = ` queueAhead=${market.qty(before)}->${market.qty(entry.ahead)}${note}${tag}`;
    if (entry.ahead > 0 || available <= 0) {
      const why = entry.ahead > 0 ? 'queue-ahead' : 'print-used-up';
      out.push({ orderId: order.orderId, quantity: 0, reason: `${rule} NO_FILL why=${why} ${describeMeeting(trade, order, market)}${queue}` });
      break; // everything behind it at this level waits too
    }
    const filled = planFill(rule, trade, order, market, available, queue, out);
    available -= filled;
    if (filled < order.remaining) break; // the print ended on this order: nothing passes it in the FIFO
  }
}

/**
 * `order` left its level: the market quantity that was ahead of it is still ahead of the next own
 * order there. Returns whether other own orders remain at the level.
 */
export function leaveQueue(entries: Map<number, QueueEntry>, order: RestingOrder): boolean {
  const entry = entries.get(order.orderId);
  if (entry === undefined) return true;
  entries.delete(order.orderId);
  let next: QueueEntry | undefined;
  let others = false;
  for (const other of entries.values()) {
    if (!sameLevel(other.order, order)) continue;
    others = true;
    if (next === undefined && other.order.orderId > order.orderId) next = other;
  }
  if (next !== undefined) next.ahead += entry.ahead;
  return others;
}
