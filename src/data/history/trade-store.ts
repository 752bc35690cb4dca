/**
 * The retained tape of one symbol: trades in columns (id, price, qty, quoteQty, time as float64,
 * flags as a byte: 41 bytes a trade), in fixed-size chunks so appending never copies and
 * retention drops whole chunks. Positions (0 .. length-1) index the retained trades oldest
 * first; they shift when a chunk is dropped, so they are only valid within one query.
 */
import { timeBound } from './time-bound.ts';
import type { TapeTrade } from '../tape.ts';
import { BEST_MATCH, BUYER_MAKER } from '../tape.ts';
import { addTrade, CLOSE, COUNT, LAST_ID, LAST_QTY, LAST_TIME } from './bar-row.ts';

const CHUNK_SHIFT = 14;
const CHUNK_SIZE = 1 << CHUNK_SHIFT;
const CHUNK_MASK = CHUNK_SIZE - 1;

interface TradeChunk {
  readonly id: Float64Array;
  readonly price: Float64Array;
  readonly qty: Float64Array;
  readonly quote: Float64Array;
  readonly time: Float64Array;
  readonly flags: Uint8Array;
}

function newChunk(): TradeChunk {
  return {
    id: new Float64Array(CHUNK_SIZE),
    price: new Float64Array(CHUNK_SIZE),
    qty: new Float64Array(CHUNK_SIZE),
    quote: new Float64Array(CHUNK_SIZE),
    time: new Float64Array(CHUNK_SIZE),
    flags: new Uint8Array(CHUNK_SIZE),
  };
}

export class TradeStore {
  #chunks: TradeChunk[] = [];
  #length = 0;
  // The chunk being filled, cached so an append is six stores and no lookup.
  #current: TradeChunk | null = null;
  #pos = CHUNK_SIZE;
  /** Trades before this time may have been dropped (-Infinity: none were). */
  #horizon = -Infinity;

  /** @param retention µs of trades kept behind the newest one (Infinity keeps all). */
  constructor(readonly retention: number) {}

  /** Snapshot support (MarketHistory.exportFields): plain data and typed arrays only. */
  exportFields(): unknown[] {
    return [this.retention, this.#chunks, this.#length, this.#current, this.#pos, this.#horizon];
  }

  static importFields(fields: unknown[]): TradeStore {
    const store = new TradeStore(fields[0] as number);
    store.#chunks = fields[1] as TradeChunk[];
    store.#length = fields[2] as number;
    store.#current = fields[3] as TradeChunk | null;
    store.#pos = fields[4] as number;
    store.#horizon = fields[5] as number;
    return store;
  }

  get length(): number {
    return this.#length;
  }

  get horizon(): number {
    return this.#horizon;
  }

  append(id: number, price: number, qty: number, quote: number, time: number, flags: number): void {
    if (this.#pos === CHUNK_SIZE) this.#startChunk(time);
    const c = this.#current!;
    const p = this.#pos;
    c.id[p] = id;
    c.price[p] = price;
    c.qty[p] = qty;
    c.quote[p] = quote;
    c.time[p] = time;
    c.flags[p] = flags;
    this.#pos = p + 1;
    this.#length += 1;
  }

  #startChunk(newest: number): void {
    if (this.retention !== Infinity) {
      // Every chunk is full here; drop from the front those whose newest trade is out of reach.
      while (this.#chunks.length > 0) {
        const last = this.#chunks[0]!.time[CHUNK_SIZE - 1]!;
        if (last >= newest - this.retention) break;
        this.#chunks.shift();
        this.#length -= CHUNK_SIZE;
        // Trades at exactly `last` may continue in the next chunk: only later times are whole.
        this.#horizon = last + 1;
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

  id(i: number): number {
    return this.#chunks[i >>> CHUNK_SHIFT]!.id[i & CHUNK_MASK]!;
  }

  /** Trade i as the shared tape shape (the API's market trade). */
  at(i: number): TapeTrade {
    const c = this.#chunks[i >>> CHUNK_SHIFT]!;
    const k = i & CHUNK_MASK;
    const flags = c.flags[k]!;
    return {
      id: c.id[k]!,
      price: c.price[k]!,
      qty: c.qty[k]!,
      quoteQty: c.quote[k]!,
      time: c.time[k]!,
      isBuyerMaker: (flags & BUYER_MAKER) !== 0,
      isBestMatch: (flags & BEST_MATCH) !== 0,
    };
  }

  /** Position of the first trade at or after `time` (length when none). */
  lowerBoundTime(time: number): number {
    return timeBound(this.#length, this.#timeAt, time, false);
  }

  /** Position of the first trade after `time`: trades [0, result) are visible at `time`. */
  upperBoundTime(time: number): number {
    return timeBound(this.#length, this.#timeAt, time, true);
  }

  /** Position of the first trade with id >= `id`. */
  lowerBoundId(id: number): number {
    let lo = 0;
    let hi = this.#length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.id(mid) < id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Folds every trade with time in [from, to) into the accumulator `acc`. */
  mergeRange(from: number, to: number, acc: Float64Array): void {
    const n = this.#length;
    for (let i = this.lowerBoundTime(from); i < n; i++) {
      const c = this.#chunks[i >>> CHUNK_SHIFT]!;
      const k = i & CHUNK_MASK;
      const time = c.time[k]!;
      if (time >= to) break;
      addTrade(acc, 0, c.price[k]!, c.qty[k]!, c.quote[k]!, time, c.id[k]!, (c.flags[k]! & BUYER_MAKER) === 0);
    }
  }

  /** Writes the last trade with time in [from, to) into `out` (CLOSE, LAST_*); false if none. */
  lastIn(from: number, to: number, out: Float64Array): boolean {
    const i = this.lowerBoundTime(to) - 1;
    if (i < 0 || this.time(i) < from) return false;
    const c = this.#chunks[i >>> CHUNK_SHIFT]!;
    const k = i & CHUNK_MASK;
    out[CLOSE] = c.price[k]!;
    out[LAST_QTY] = c.qty[k]!;
    out[LAST_TIME] = c.time[k]!;
    out[LAST_ID] = c.id[k]!;
    out[COUNT] = 1;
    return true;
  }
}
