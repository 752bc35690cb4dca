/**
 * Queue position: an order resting at price P fills from prints at P only once the queue ahead
 * of it at P has been consumed by such prints; prints strictly through P fill it as in
 * trade-through. Binance publishes no historical depth, so the queue is estimated.
 *
 * The level as a FIFO. All resting orders of the engine's book are simulated accounts' orders;
 * at one price they share one virtual FIFO in orderId order (the engine's own time priority),
 * interleaved with segments of estimated market quantity:
 *
 *     [market ahead of A] [A] [market between A and B] [B] ...
 *
 * `ahead` of an order is the market segment directly in front of it. A print at P consumes the
 * FIFO from the front: segments shrink (market orders filled, nothing for us), own orders fill,
 * all from one budget (the print's size), so an earlier own order fills first and no quantity is
 * used twice. A print strictly through P empties the segments at P (the whole level traded).
 *
 * Estimator (when the replay first sees the order resting): the level's depth is
 * `depthMultiple × meanTradeQty` (the running mean size of recent prints of the symbol, see
 * SymbolMarket), or a caller's `estimateDepth`; the order's segment is that depth minus what is
 * already in the FIFO before it (earlier own orders and their segments), never negative. With no
 * print seen yet the mean is 0 and so is the queue. The estimate and its inputs go to the
 * decision log (QUEUE_ESTIMATE).
 *
 * Variants
 * - risk-averse (hftbacktest's RiskAdverseQueueModel): market segments shrink only by prints at
 *   P, never by cancels (we cannot see them). Canceling an own order moves those behind it up by
 *   its own quantity only; its market segment joins the next own order's.
 * - probabilistic: as risk-averse, but when a print at P is smaller than the segment in front
 *   of an order, a seeded draw decides whether that segment had in fact been canceled: with
 *   probability `fillProbability(queueAhead, available)` (default (available / (available +
 *   queueAhead))^power) the segment is cleared and the print fills the order. The stream is
 *   seedrandom's alea seeded with `${seed}/${symbol}/queue`: the same replay draws the same
 *   numbers. Each draw and its probability are in the reason (or the decision log).
 */
import seedrandom from 'seedrandom';
import type { RestingOrder } from '../book-mirror.ts';
import type { SymbolMarket } from '../symbol-market.ts';
import type { FillModel, FillModelContext, FillPlan, SymbolFillModel, TradePrint } from './fill-model.ts';
import { consumeQueue, leaveQueue, sameLevel, type QueueEntry, type QueueJudge } from './queue-fifo.ts';
import { L2QueueSymbolModel, shapeText, type QueueProbabilityShape } from './l2-queue.ts';

/** The probabilistic L2 model's default shape: hftbacktest's examples use power3 with n = 3. */
export const DEFAULT_QUEUE_SHAPE: QueueProbabilityShape = { family: 'power3', n: 3 };

import { QUEUE_ESTIMATE, QUEUE_POSITION, QUEUE_PROBABILISTIC } from './queue-rules.ts';

export { QUEUE_ESTIMATE, QUEUE_POSITION, QUEUE_PROBABILISTIC };

export interface QueuePositionOptions {
  /** Default 'risk-averse'. */
  readonly variant?: 'risk-averse' | 'probabilistic';
  /** Level depth = depthMultiple × the symbol's mean print size. Default 5. */
  readonly depthMultiple?: number;
  /** Replaces the default estimator: the level's depth (base units) when `order` is first seen. */
  readonly estimateDepth?: (order: RestingOrder, market: SymbolMarket) => number;
  /** Probabilistic: exponent of the default fill probability. Default 1. */
  readonly power?: number;
  /** Probabilistic: replaces the default probability (both arguments in base units, queueAhead > available > 0). */
  readonly fillProbability?: (queueAhead: number, available: number) => number;
  /** Probabilistic on a recorded book (l2-queue.ts): the probability family. Default power3 with n = 3. */
  readonly shape?: QueueProbabilityShape;
}


export function queuePosition(options: QueuePositionOptions = {}): FillModel {
  const variant = options.variant ?? 'risk-averse';
  const depthMultiple = options.depthMultiple ?? 5;
  if (!(depthMultiple >= 0)) throw new RangeError(`depthMultiple must be >= 0, got ${depthMultiple}`);
  const power = options.power ?? 1;
  const name = variant === 'risk-averse' ? 'queue-risk-averse' : 'queue-probabilistic';
  const estimate = options.estimateDepth ?? ((_order: RestingOrder, market: SymbolMarket) => depthMultiple * market.meanTradeQty);
  const estimator = options.estimateDepth ? 'custom' : `${depthMultiple}xMeanTradeQty`;
  const probability = options.fillProbability ?? ((queueAhead: number, available: number) => (available / (available + queueAhead)) ** power);
  const shape = options.shape ?? DEFAULT_QUEUE_SHAPE;
  return {
    name,
    // On a recorded book the queue is read from the book (l2-queue.ts); on prints alone it is estimated.
    forSymbol: (context) =>
      context.recordedDepth === true
        ? new L2QueueSymbolModel(variant === 'probabilistic' ? `${name}:${shapeText(shape)}` : name, variant === 'probabilistic' ? shape : null, context.baseUnit ?? 1e8)
        : new QueueSymbolModel(name, context, variant === 'probabilistic', estimate, estimator, probability),
  };
}

export class QueueSymbolModel implements SymbolFillModel {
  /** By orderId, in orderId order (orders are first seen in that order). */
  #entries = new Map<number, QueueEntry>();
  #random: seedrandom.StatefulPRNG<seedrandom.State.Alea> | null;

  constructor(
    private readonly name: string,
    context: FillModelContext,
    probabilistic: boolean,
    private readonly estimate: (order: RestingOrder, market: SymbolMarket) => number,
    private readonly estimator: string,
    private readonly probability: (queueAhead: number, available: number) => number,
  ) {
    // state: true lets a snapshot save the stream's position (the numbers drawn are the same).
    this.#random = probabilistic ? seedrandom.alea(`${context.seed}/${context.symbol}/queue`, { state: true }) : null;
  }

  exportState(): unknown {
    return [this.#entries, this.#random === null ? null : this.#random.state()];
  }

  importState(state: unknown): void {
    const [entries, random] = state as [Map<number, QueueEntry>, object | null];
    this.#entries = entries;
    if (random !== null) this.#random = seedrandom.alea('', { state: random as seedrandom.State.Alea });
  }

  /** Queue ahead of an order: its segment plus everything in front of it at its level (for tests and tools). */
  queueAhead(orderId: number): number | undefined {
    const entry = this.#entries.get(orderId);
    if (entry === undefined) return undefined;
    let total = 0;
    for (const other of this.#entries.values()) {
      if (other === entry) break;
      if (sameLevel(other.order, entry.order)) total += other.ahead + other.order.remaining;
    }
    return total + entry.ahead;
  }

  orderResting(order: RestingOrder, market: SymbolMarket, out: FillPlan[]): void {
    const depth = this.estimate(order, market);
    if (!(depth >= 0 && Number.isFinite(depth))) throw new RangeError(`queue estimate for order ${order.orderId} is ${depth}`);
    let ownAhead = 0;
    for (const other of this.#entries.values()) {
      if (sameLevel(other.order, order)) ownAhead += other.ahead + other.order.remaining;
    }
    const ahead = Math.max(0, depth - ownAhead);
    this.#entries.set(order.orderId, { order, ahead });
    out.push({
      orderId: order.orderId,
      quantity: 0,
      reason:
        `${QUEUE_ESTIMATE} model=${this.name} order=${order.orderId} orderPrice=${market.price(order.price)} estimator=${this.estimator} ` +
        `meanTradeQty=${market.qty(market.meanTradeQty)} depth=${market.qty(depth)} ownAhead=${market.qty(ownAhead)} queueAhead=${market.qty(ahead)}`,
    });
  }

  orderGone(order: RestingOrder): void {
    leaveQueue(this.#entries, order);
  }

  onTrade(trade: TradePrint, resting: readonly RestingOrder[], market: SymbolMarket, out: FillPlan[]): void {
    consumeQueue(this.name, this.#entries, trade, resting, market, out, this.#judge);
  }

  /** Probabilistic: a seeded draw decides whether a print smaller than the queue ahead reached the order. */
  readonly #judge: QueueJudge | null = (queueAhead, available) => {
    if (this.#random === null) return { reached: false, note: '' };
    const p = this.probability(queueAhead, available);
    const u = this.#random();
    return { reached: u < p, note: ` p=${p.toFixed(6)} draw=${u.toFixed(6)}` };
  };
}
