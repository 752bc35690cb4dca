/**
 * Aggregate trades, formed as trades are recorded: a trade joins the newest aggregate when it has
 * the same time, the same price and the same taker side (isBuyerMaker); otherwise it opens a new
 * one. That is Binance's "same taker order, same price, same time" as far as a tape can tell
 * (a tape does not name the taker order). Aggregate ids count from 0 in the order aggregates are
 * formed, so the id of the aggregate at position i is `evicted + i`.
 *
 * An aggregate's trades all share its time T, so at any asOf >= T it is complete: growing the
 * newest aggregate in place never shows a query anything stamped after its asOf.
 */
import { timeBound } from './time-bound.ts';
import type { AggTrade } from '../tape.ts';
import { BEST_MATCH, BUYER_MAKER } from '../tape.ts';

// Bound locally for the per-trade path (module runners turn imported bindings into getters).
const MAKER_BIT = BUYER_MAKER;

const CHUNK_SHIFT = 14;
const CHUNK_SIZE = 1 << CHUNK_SHIFT;
const CHUNK_MASK = CHUNK_SIZE - 1;

interface AggChunk {
  readonly price: Float64Array;
  readonly qty: Float64Array;
  readonly first: Float64Array;
  readonly last: Float64Array;
  readonly time: Float64Array;
  readonly flags: Uint8Array;
}

function newChunk(): AggChunk {
  return {
    price: new Float64Array(CHUNK_SIZE),
    qty: new Float64Array(CHUNK_SIZE),
    first: new Float64Array(CHUNK_SIZE),
    last: new Float64Array(CHUNK_SIZE),
    time: new Float64Array(CHUNK_SIZE),
    flags: new Uint8Array(CHUNK_SIZE),
  };
}

export class AggTradeStore {
  #chunks: AggChunk[] = [];
  #length = 0;
  /** Aggregates dropped by retention: the id of position 0. */
  #evicted = 0;
  #current: AggChunk | null = null;
  #pos = CHUNK_SIZE;
  // The newest aggregate's key, held in fields so the common "extend" test reads no array.
  #lastTime = -1;
  #lastPrice = -1;
  #lastMaker = -1;

  /** @param retention µs of aggregates kept behind the newest one (Infinity keeps all). */
  constructor(readonly retention: number) {}

  /** Snapshot support (MarketHistory.exportFields): plain data and typed arrays only. */
  exportFields(): unknown[] {
    return [this.retention, this.#chunks, this.#length, this.#evicted, this.#current, this.#pos, this.#lastTime, this.#lastPrice, this.#lastMaker];
  }

  static importFields(fields: unknown[]): AggTradeStore {
    const store = new AggTradeStore(fields[0] as number);
    const f = fields as [number, AggChunk[], number, number, AggChunk | null, number, number, number, number];
    [, store.#chunks, store.#length, store.#evicted, store.#current, store.#pos, store.#lastTime, store.#lastPrice, store.#lastMaker] = f;
    return store;
  }

  get length(): number {
    return this.#length;
  }

  /** Id of the oldest retained aggregate. */
  get firstId(): number {
    return this.#evicted;
  }

  add(id: number, price: number, qty: number, time: number, flags: number): void {
    const maker = flags & MAKER_BIT;
    if (time === this.#lastTime && price === this.#lastPrice && maker === this.#lastMaker) {
      const c = this.#current!;
      const p = this.#pos - 1;
      const sum = c.qty[p]! + qty;
      // A sum past 2^53 would stop being exact: open a new aggregate instead (never in practice).
      if (sum <= Number.MAX_SAFE_INTEGER) {
        c.qty[p] = sum;
        c.last[p] = id;
        return;
      }
    }
    if (this.#pos === CHUNK_SIZE) this.#startChunk(time);
    const c = this.#current!;
    const p = this.#pos;
    c.price[p] = price;
    c.qty[p] = qty;
    c.first[p] = id;
    c.last[p] = id;
    c.time[p] = time;
    c.flags[p] = flags;
    this.#pos = p + 1;
    this.#length += 1;
    this.#lastTime = time;
    this.#lastPrice = price;
    this.#lastMaker = maker;
  }

  #startChunk(newest: number): void {
    if (this.retention !== Infinity) {
      while (this.#chunks.length > 0) {
        if (this.#chunks[0]!.time[CHUNK_SIZE - 1]! >= newest - this.retention) break;
        this.#chunks.shift();
        this.#length -= CHUNK_SIZE;
        this.#evicted += CHUNK_SIZE;
      }
    }
    this.#current = newChunk();
    this.#chunks.push(this.#current);
    this.#pos = 0;
  }

  readonly #timeAt = (i: number): number => this.time(i);

  time(i: number): number {
    return this.#chunks[i >>> CHUNK_SHIFT]!.time[i & CHUNK_MASK]!;
  }

  at(i: number): AggTrade {
    const c = this.#chunks[i >>> CHUNK_SHIFT]!;
    const k = i & CHUNK_MASK;
    const flags = c.flags[k]!;
    return {
      a: this.#evicted + i,
      p: c.price[k]!,
      q: c.qty[k]!,
      f: c.first[k]!,
      l: c.last[k]!,
      T: c.time[k]!,
      m: (flags & BUYER_MAKER) !== 0,
      M: (flags & BEST_MATCH) !== 0,
    };
  }

  /** Position of aggregate id `id`, clamped to [0, length]. */
  positionOf(id: number): number {
    return Math.min(Math.max(id - this.#evicted, 0), this.#length);
  }

  lowerBoundTime(time: number): number {
    return timeBound(this.#length, this.#timeAt, time, false);
  }

  upperBoundTime(time: number): number {
    return timeBound(this.#length, this.#timeAt, time, true);
  }
}
