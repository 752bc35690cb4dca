/**
 * The open orders of one symbol, by orderId. Ids are dense and increasing, and orders close
 * roughly in the order they opened, so the index is a list of fixed-size chunks: a lookup is
 * two array reads, and a chunk whose orders have all closed is dropped, so memory follows the
 * number of open orders (plus at most a few chunks), not the length of the run.
 */
import type { Order } from './order.ts';

const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

export type LiveOrdersFields = [chunks: ((Order | undefined)[] | null)[], open: number[], size: number];

export class LiveOrders {
  /** Chunk k holds ids [k * CHUNK + 1, (k + 1) * CHUNK]; null once every order in it closed. */
  #chunks: ((Order | undefined)[] | null)[] = [];
  /** Open orders per chunk. */
  #open: number[] = [];
  #size = 0;

  /** Snapshot support (snapshot/engine-snapshot.ts): every field, the private ones included. */
  exportFields(): LiveOrdersFields {
    return [this.#chunks, this.#open, this.#size];
  }

  static importFields(fields: LiveOrdersFields): LiveOrders {
    const live = new LiveOrders();
    [live.#chunks, live.#open, live.#size] = fields;
    return live;
  }

  get size(): number {
    return this.#size;
  }

  get(orderId: number): Order | undefined {
    const i = orderId - 1;
    if (!(i >= 0)) return undefined;
    const chunk = this.#chunks[i >>> CHUNK_BITS];
    return chunk ? chunk[i & MASK] : undefined;
  }

  /** Adds the order with the next id (ids arrive in increasing order). */
  add(order: Order): void {
    const i = order.orderId - 1;
    const k = i >>> CHUNK_BITS;
    while (this.#chunks.length <= k) {
      this.#chunks.push(new Array<Order | undefined>(CHUNK).fill(undefined));
      this.#open.push(0);
    }
    const chunk = this.#chunks[k];
    if (!chunk) throw new Error(`order ${order.orderId} added to a retired chunk`);
    chunk[i & MASK] = order;
    this.#open[k] = (this.#open[k] as number) + 1;
    this.#size += 1;
  }

  /** Removes the open order with this id; returns whether there was one. */
  delete(orderId: number): boolean {
    const i = orderId - 1;
    const k = i >>> CHUNK_BITS;
    const chunk = this.#chunks[k];
    if (!chunk || chunk[i & MASK] === undefined) return false;
    chunk[i & MASK] = undefined;
    const open = (this.#open[k] as number) - 1;
    this.#open[k] = open;
    this.#size -= 1;
    // Retire a fully closed chunk, unless new ids may still land in it (the last chunk).
    if (open === 0 && k < this.#chunks.length - 1) this.#chunks[k] = null;
    return true;
  }

  /**
   * The open orders `keep` accepts, by increasing orderId. A plain loop rather than `values()`:
   * cancel-all runs it on every re-quote of a replay's synthetic book, where a generator's
   * per-slot resume cost dominated the whole backtest.
   */
  filter(keep: (order: Order) => boolean): Order[] {
    const out: Order[] = [];
    const chunks = this.#chunks;
    for (let k = 0; k < chunks.length; k++) {
      const chunk = chunks[k];
      if (!chunk || this.#open[k] === 0) continue;
      for (let j = 0; j < CHUNK; j++) {
        const order = chunk[j];
        if (order !== undefined && keep(order)) out.push(order);
      }
    }
    return out;
  }

  /** Open orders by increasing orderId. */
  *values(): IterableIterator<Order> {
    for (const chunk of this.#chunks) {
      if (!chunk) continue;
      for (const order of chunk) if (order !== undefined) yield order;
    }
  }
}
