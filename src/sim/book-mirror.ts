/**
 * The replay's view of one symbol's resting orders (all of them are simulated accounts'
 * orders: historical liquidity never enters the engine's book), kept so that the per-trade path
 * can ask "does this print reach anything?" with one comparison and hand fill models plain
 * arrays instead of calling the engine's view-building queries on every trade.
 *
 * It is refreshed from `Engine.forEachRestingOrder` after every strategy command on the symbol (rare next
 * to tape trades) and updated in place after every market fill (which the replay applies itself),
 * so it always equals the engine's book. (The synthetic book, the replay's stand-in for the
 * historical book, is not made of orders: a historical print never fills it, which would count
 * the same liquidity twice.)
 */
import type { Engine } from '../engine/index.ts';

/** One resting order. `remaining` is updated in place as the market fills it. */
export interface RestingOrder {
  readonly orderId: number;
  readonly accountId: number;
  readonly isBuy: boolean;
  /** Price units. */
  readonly price: number;
  /** Base units still open. */
  remaining: number;
}

export interface MirrorChanges {
  /** Orders that left the book, in orderId order. */
  readonly gone: RestingOrder[];
  /** Orders that appeared, in orderId order. */
  readonly added: RestingOrder[];
}

const byOrderId = (a: RestingOrder, b: RestingOrder): number => a.orderId - b.orderId;

export class BookMirror {
  /** Best price first, orderId (= FIFO) order within a price. */
  bids: RestingOrder[] = [];
  asks: RestingOrder[] = [];
  /** Best bid price, or -Infinity with no bid: `bestBid >= p` is the whole reach test. */
  bestBid = -Infinity;
  /** Best ask price, or +Infinity with no ask. */
  bestAsk = Infinity;
  #byId = new Map<number, RestingOrder>();

  constructor(private readonly symbol: string) {}

  /** Snapshot support (Replay.exportState): plain data; its RestingOrders are shared with the fill model's. */
  exportFields(): unknown[] {
    return [this.bids, this.asks, this.bestBid, this.bestAsk, this.#byId];
  }

  importFields(fields: unknown[]): void {
    this.bids = fields[0] as RestingOrder[];
    this.asks = fields[1] as RestingOrder[];
    this.bestBid = fields[2] as number;
    this.bestAsk = fields[3] as number;
    this.#byId = fields[4] as Map<number, RestingOrder>;
  }

  get size(): number {
    return this.#byId.size;
  }

  /** Re-reads the engine's book; reports which orders left and which appeared. */
  refresh(engine: Engine): MirrorChanges {
    const seen = new Set<number>();
    const added: RestingOrder[] = [];
    const byId = this.#byId;
    const read = (side: 'BUY' | 'SELL'): RestingOrder[] => {
      const out: RestingOrder[] = [];
      const isBuy = side === 'BUY';
      engine.forEachRestingOrder(this.symbol, side, (orderId, accountId, price, remaining) => {
        seen.add(orderId);
        let order = byId.get(orderId);
        if (order === undefined) {
          order = { orderId, accountId, isBuy, price, remaining };
          byId.set(orderId, order);
          added.push(order);
        } else {
          order.remaining = remaining;
        }
        out.push(order);
      });
      return out;
    };
    this.bids = read('BUY');
    this.asks = read('SELL');
    const gone: RestingOrder[] = [];
    for (const [orderId, order] of byId) {
      if (!seen.has(orderId)) gone.push(order);
    }
    for (const order of gone) byId.delete(order.orderId);
    this.#updateBest();
    return { gone: gone.sort(byOrderId), added: added.sort(byOrderId) };
  }

  /** Applies a market fill the engine accepted; returns true if the order left the book. */
  filled(orderId: number, quantity: number): boolean {
    const order = this.#byId.get(orderId);
    if (order === undefined) throw new Error(`${this.symbol}: market fill of order ${orderId}, which is not resting`);
    order.remaining -= quantity;
    if (order.remaining > 0) return false;
    this.#byId.delete(orderId);
    const side = order.isBuy ? this.bids : this.asks;
    side.splice(side.indexOf(order), 1);
    this.#updateBest();
    return true;
  }

  get(orderId: number): RestingOrder | undefined {
    return this.#byId.get(orderId);
  }

  #updateBest(): void {
    this.bestBid = this.bids[0]?.price ?? -Infinity;
    this.bestAsk = this.asks[0]?.price ?? Infinity;
  }
}
