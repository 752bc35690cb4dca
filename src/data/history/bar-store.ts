/**
 * One resolution of closed bars (1s, 1m, ...): rows packed BAR_FIELDS apart in fixed-size
 * Float64Array chunks, in increasing open time, only for periods that had trades (empty periods
 * cost nothing; klines fill them in at query time). Retention drops whole chunks from the front,
 * so pushing stays O(1) and nothing is ever copied.
 */
import { BAR_FIELDS, OPEN_TIME } from './bar-row.ts';

const CHUNK_SHIFT = 12;
const CHUNK_ROWS = 1 << CHUNK_SHIFT;
const CHUNK_MASK = CHUNK_ROWS - 1;

export class BarStore {
  #chunks: Float64Array[] = [];
  #length = 0;
  /** Every bar opening before this time was evicted; -Infinity while nothing was. */
  #horizon = -Infinity;

  /**
   * @param width bar width in µs
   * @param retention µs of bars kept behind the newest one (Infinity keeps everything)
   */
  constructor(
    readonly width: number,
    readonly retention: number,
  ) {}

  get length(): number {
    return this.#length;
  }

  /** Snapshot support (MarketHistory.exportFields): plain data and typed arrays only. */
  exportFields(): unknown[] {
    return [this.width, this.retention, this.#chunks, this.#length, this.#horizon];
  }

  static importFields(fields: unknown[]): BarStore {
    const store = new BarStore(fields[0] as number, fields[1] as number);
    store.#chunks = fields[2] as Float64Array[];
    store.#length = fields[3] as number;
    store.#horizon = fields[4] as number;
    return store;
  }

  /** Earliest time from which this store holds every bar (-Infinity: it never dropped one). */
  get horizon(): number {
    return this.#horizon;
  }

  /** Copies bar `src[s..]` in as the newest row. */
  push(src: Float64Array, s: number): void {
    const i = this.#length;
    if ((i & CHUNK_MASK) === 0) {
      this.#evict(src[s + OPEN_TIME]!);
      this.#chunks.push(new Float64Array(CHUNK_ROWS * BAR_FIELDS));
    }
    const n = this.#length;
    const chunk = this.#chunks[n >>> CHUNK_SHIFT]!;
    chunk.set(src.subarray(s, s + BAR_FIELDS), (n & CHUNK_MASK) * BAR_FIELDS);
    this.#length = n + 1;
  }

  /** Drops full chunks whose newest bar ended more than `retention` before `newest`. */
  #evict(newest: number): void {
    if (this.retention === Infinity) return;
    while (this.#chunks.length > 0) {
      const first = this.#chunks[0]!;
      const lastOpen = first[(CHUNK_ROWS - 1) * BAR_FIELDS + OPEN_TIME]!;
      if (lastOpen + this.width > newest - this.retention) return;
      this.#chunks.shift();
      this.#length -= CHUNK_ROWS;
      this.#horizon = lastOpen + this.width;
    }
  }

  /** The chunk holding row i; the row starts at `offsetOf(i)` in it. */
  chunkOf(i: number): Float64Array {
    return this.#chunks[i >>> CHUNK_SHIFT]!;
  }

  offsetOf(i: number): number {
    return (i & CHUNK_MASK) * BAR_FIELDS;
  }

  openTime(i: number): number {
    return this.#chunks[i >>> CHUNK_SHIFT]![(i & CHUNK_MASK) * BAR_FIELDS + OPEN_TIME]!;
  }

  /** Index of the first row opening at or after `time` (length when none). */
  lowerBound(time: number): number {
    let lo = 0;
    let hi = this.#length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.openTime(mid) < time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
