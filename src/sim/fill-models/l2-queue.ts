/**
 * Queue position on a recorded book (L2): where depth is recorded, the queue ahead of a resting
 * order is not estimated from print sizes but read from the book, and it moves with the book.
 * The models hftbacktest documents for this (its RiskAdverseQueueModel and ProbQueueModel):
 *
 * - joining: the order goes to the back of its level; the market quantity ahead of it is the
 *   recorded level's size at that moment (own orders already there keep their own places);
 * - trades at the order's price move the queue forward (the print consumes the FIFO from the
 *   front: market quantity ahead, then own orders, from one budget, the print's size, so fills
 *   are capped by the volume traded at that price); prints through the price fill it as
 *   trade-through; the fill reasons name the print and the queue ahead before and after;
 * - a level update that shrinks the level:
 *   - **risk-averse**: only caps the queue: ahead = min(ahead, new size) (cancels are assumed to
 *     come from behind us, the pessimistic view);
 *   - **probabilistic**: the part of the decrease not explained by trades since the level's
 *     previous update (chg) is split between front and back with probability p = prob(front,
 *     back) of being behind: front' = front − (1 − p)·chg + min(back − p·chg, 0), then capped at
 *     the new size. The expected advance, not a random draw, so it needs no random stream.
 *     `prob` is one of hftbacktest's families (quantities in the base asset's units, e.g. BTC):
 *       power  (n): f(back) / (f(back) + f(front)),  f(x) = x^n
 *       power2 (n): f(back) / f(back + front)
 *       power3 (n): 1 − f(front / (front + back))
 *       log       : f(back) / (f(back) + f(front)),  f(x) = ln(1 + x)
 *       log2      : f(back) / f(back + front)
 * - a level that grows does not move anyone (new quantity joins behind).
 *
 * Own orders at one level share one FIFO in orderId order; each entry keeps the market segment
 * between the previous own order and itself, so the cumulative market ahead of an order is the
 * sum of the segments up to it.
 */
import type { RestingOrder } from '../book-mirror.ts';
import type { SymbolMarket } from '../symbol-market.ts';
import type { FillPlan, SymbolFillModel, TradePrint } from './fill-model.ts';
import { consumeQueue, leaveQueue, sameLevel, type QueueEntry } from './queue-fifo.ts';
import { QUEUE_ESTIMATE } from './queue-rules.ts';

export const QUEUE_PROBABILITY_FAMILIES = ['power', 'power2', 'power3', 'log', 'log2'] as const;
export type QueueProbabilityFamily = (typeof QUEUE_PROBABILITY_FAMILIES)[number];

/** The probabilistic model's shape: a family and its exponent (ignored by the log families). */
export interface QueueProbabilityShape {
  readonly family: QueueProbabilityFamily;
  readonly n: number;
}

/** Probability that a decrease of the level came from behind the order (front, back in base-asset units, >= 0). */
export function probabilityBehind(shape: QueueProbabilityShape, front: number, back: number): number {
  const n = shape.n;
  let p: number;
  switch (shape.family) {
    case 'power':
      p = back ** n / (back ** n + front ** n);
      break;
    case 'power2':
      p = back ** n / (back + front) ** n;
      break;
    case 'power3':
      p = 1 - (front / (front + back)) ** n;
      break;
    case 'log':
      p = Math.log1p(back) / (Math.log1p(back) + Math.log1p(front));
      break;
    case 'log2':
      p = Math.log1p(back) / Math.log1p(back + front);
      break;
  }
  // 0/0 (an empty level): nothing is ahead to lose, so the decrease is behind.
  return Number.isFinite(p) ? p : 1;
}

/** The shape's text, as `--fill-model` takes it: `power3:3`, `log`. */
export function shapeText(shape: QueueProbabilityShape): string {
  return shape.family.startsWith('log') ? shape.family : `${shape.family}:${shape.n}`;
}


/** A level with own orders: its last recorded size and the market volume traded at it since. */
interface LevelState {
  size: number;
  traded: number;
}

export class L2QueueSymbolModel implements SymbolFillModel {
  /** By orderId, in orderId order. */
  #entries = new Map<number, QueueEntry>();
  /** By `levelKey`: levels where own orders rest. */
  #levels = new Map<number, LevelState>();

  constructor(
    private readonly name: string,
    /** null: risk-averse. */
    private readonly shape: QueueProbabilityShape | null,
    private readonly baseUnit: number,
  ) {}

  exportState(): unknown {
    return [this.#entries, this.#levels];
  }

  importState(state: unknown): void {
    [this.#entries, this.#levels] = state as [Map<number, QueueEntry>, Map<number, LevelState>];
  }

  /** Market quantity ahead of an order (base units), for tests and tools. */
  queueAhead(orderId: number): number | undefined {
    const entry = this.#entries.get(orderId);
    if (entry === undefined) return undefined;
    let total = 0;
    for (const other of this.#entries.values()) {
      if (other === entry) break;
      if (sameLevel(other.order, entry.order)) total += other.ahead;
    }
    return total + entry.ahead;
  }

  orderResting(order: RestingOrder, market: SymbolMarket, out: FillPlan[]): void {
    const size = market.levelSize(order.isBuy, order.price);
    let marketAhead = 0;
    for (const other of this.#entries.values()) if (sameLevel(other.order, order)) marketAhead += other.ahead;
    const ahead = Math.max(0, size - marketAhead);
    this.#entries.set(order.orderId, { order, ahead });
    const key = levelKey(order.isBuy, order.price);
    if (!this.#levels.has(key)) this.#levels.set(key, { size, traded: 0 });
    out.push({
      orderId: order.orderId,
      quantity: 0,
      reason: `${QUEUE_ESTIMATE} model=${this.name} order=${order.orderId} orderPrice=${market.price(order.price)} estimator=recordedLevel depth=${market.qty(size)} queueAhead=${market.qty(marketAhead + ahead)}`,
    });
  }

  orderGone(order: RestingOrder): void {
    if (!leaveQueue(this.#entries, order)) this.#levels.delete(levelKey(order.isBuy, order.price));
  }

  onTrade(trade: TradePrint, resting: readonly RestingOrder[], market: SymbolMarket, out: FillPlan[]): void {
    // The print's maker side: a SELL taker (buyer is the maker) hits bids. Its volume there explains that much of the level's next decrease.
    const level = this.#levels.get(levelKey(trade.isBuyerMaker, trade.price));
    if (level !== undefined) level.traded += trade.qty;
    consumeQueue(this.name, this.#entries, trade, resting, market, out, null);
  }

  /** True when own orders rest at that level (the replay asks before reading the level's size). */
  watches(isBid: boolean, price: number): boolean {
    return this.#levels.has(levelKey(isBid, price));
  }

  onDepth(isBid: boolean, price: number, newSize: number): void {
    const key = levelKey(isBid, price);
    const level = this.#levels.get(key);
    if (level === undefined) return;
    const explained = Math.max(0, level.size - level.traded);
    const change = explained - newSize;
    level.size = newSize;
    level.traded = 0;
    const unit = this.baseUnit;
    let cumulative = 0;
    let previousFront = 0;
    for (const entry of this.#entries.values()) {
      if (entry.order.isBuy !== isBid || entry.order.price !== price) continue;
      cumulative += entry.ahead;
      let front = cumulative;
      if (this.shape !== null && change > 0) {
        const back = Math.max(0, explained - front);
        const p = probabilityBehind(this.shape, front / unit, back / unit);
        front = front - (1 - p) * change + Math.min(back - p * change, 0);
      }
      front = Math.max(previousFront, Math.min(Math.max(front, 0), newSize));
      entry.ahead = front - previousFront;
      previousFront = front;
    }
  }
}

/** One number per (side, price): prices are positive integers, so the sign carries the side. */
function levelKey(isBid: boolean, price: number): number {
  return isBid ? price : -price;
}
