/**
 * One symbol's tape as the replay's merge reads it: the current columnar batch and a position in
 * it, pulling the next batch from the source only when this one is used up, so at most one batch
 * per symbol is alive whatever the tape's length. Sources may be async (the dump loaders) or
 * sync (an in-memory array, a generator).
 */
import type { TradeBatch } from '../data/tape.ts';

export type TapeSource = AsyncIterable<TradeBatch> | Iterable<TradeBatch>;

export class TapeCursor {
  batch: TradeBatch | null = null;
  /** Next row of `batch` to replay. */
  row = 0;
  done = false;
  /** Time of the last trade replayed from this tape (µs): a tape must not run backwards. */
  lastTime = -Infinity;
  readonly #iterator: AsyncIterator<TradeBatch> | Iterator<TradeBatch>;
  /** Rows of the batches before `batch` (read once per batch, never per row). */
  #before = 0;

  constructor(
    readonly symbol: string,
    /** The tape's position in the replay's list: breaks ties at one µs. */
    readonly index: number,
    source: TapeSource,
  ) {
    this.#iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  }

  /** Time of the trade at the cursor; only valid while `batch` is set. */
  get time(): number {
    return (this.batch as TradeBatch).time[this.row] as number;
  }

  /** Makes `batch` hold at least one unread row, or sets `done`. */
  async load(): Promise<void> {
    while (!this.done && (this.batch === null || this.row >= this.batch.length)) {
      const next = await this.#iterator.next();
      if (next.done === true) {
        this.done = true;
        this.batch = null;
      } else {
        if (this.batch !== null) this.#before += this.batch.length;
        this.batch = next.value;
        this.row = 0;
      }
    }
  }

  /** Trades of this tape consumed so far (replayed or skipped). */
  get consumed(): number {
    return this.#before + this.row;
  }

  /**
   * Moves on to `consumed` trades without replaying the ones passed (a snapshot's tape position:
   * the source is read through, so a wrapped tape's own state follows as if they had been).
   */
  async skipTo(consumed: number): Promise<void> {
    if (consumed < this.consumed) throw new RangeError(`tape ${this.symbol}: cannot go back from ${this.consumed} to ${consumed} trades`);
    while (this.consumed < consumed) {
      await this.load();
      if (this.batch === null) throw new RangeError(`tape ${this.symbol} ends before ${consumed} trades`);
      this.row += Math.min(this.batch.length - this.row, consumed - this.consumed);
    }
  }
}
