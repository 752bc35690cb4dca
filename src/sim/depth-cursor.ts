/**
 * One symbol's depth tape as the replay's merge reads it: the current DepthBatch, a position in
 * it, and the message being assembled. A message (rows from a DEPTH_MESSAGE_START row to the next;
 * src/data/depth-tape.ts) may run across two batches: it stays open until the row that starts the
 * next message, or the end of the tape, closes it. Like TapeCursor, at most one batch is alive.
 */
import { DEPTH_ASK, DEPTH_CLEAR, DEPTH_MESSAGE_START, type DepthBatch, type DepthSource } from '../data/index.ts';

/** A closed message, handed to the replay (its arrays are fresh: the engine command keeps them). */
export interface DepthMessage {
  readonly time: number;
  readonly clear: boolean;
  /** [price, qty, ...] in units. */
  readonly bids: number[];
  readonly asks: number[];
}

export class DepthCursor {
  batch: DepthBatch | null = null;
  row = 0;
  done = false;
  /** Time of the last message replayed (µs): a depth tape must not run backwards. */
  lastTime = -Infinity;
  /** Messages taken from this tape so far (a snapshot's position). */
  consumed = 0;
  // The message being read, when `open`.
  open = false;
  #time = 0;
  #clear = false;
  #bids: number[] = [];
  #asks: number[] = [];
  readonly #iterator: AsyncIterator<DepthBatch> | Iterator<DepthBatch>;

  constructor(
    readonly symbol: string,
    /** Breaks ties at one µs after every trade tape (trades first, then depth). */
    readonly rank: number,
    source: DepthSource,
  ) {
    this.#iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  }

  /** Time of the next message (the open one, or the one starting at `row`); valid while not done. */
  get time(): number {
    return this.open ? this.#time : (this.batch as DepthBatch).time[this.row]!;
  }

  /** True when `batch` has no unread row. */
  get exhausted(): boolean {
    return this.batch === null || this.row >= this.batch.length;
  }

  /** Reads the next batch when this one is used up; at the end of the tape, `done` (an open message is then complete). */
  async load(): Promise<void> {
    while (!this.done && this.exhausted) {
      const next = await this.#iterator.next();
      if (next.done === true) {
        this.done = true;
        this.batch = null;
      } else {
        this.batch = next.value;
        this.row = 0;
      }
    }
  }

  /**
   * The next complete message if its first row is stamped at most `bound` (and, at `bound`, the
   * caller's tie rule allows it: `atBound`), else null. Null with `exhausted` set means the batch
   * ran out (load, then ask again); an open message is finished by the next batch or the end.
   */
  next(bound: number, atBound: boolean): DepthMessage | null {
    const batch = this.batch;
    if (!this.open) {
      if (batch === null || this.row >= batch.length) return null;
      const t = batch.time[this.row]!;
      if (t > bound || (t === bound && !atBound)) return null;
      const flags = batch.flags[this.row]!;
      if ((flags & DEPTH_MESSAGE_START) === 0 && this.consumed > 0) {
        throw new Error(`depth of ${this.symbol}: a row at ${t} µs continues no message`);
      }
      this.open = true;
      this.#time = t;
      this.#clear = (flags & DEPTH_CLEAR) !== 0;
      this.#bids = [];
      this.#asks = [];
      this.#push(batch, this.row);
      this.row++;
    }
    if (batch !== null) {
      const { flags, price, qty } = batch;
      const n = batch.length;
      let row = this.row;
      const bids = this.#bids;
      const asks = this.#asks;
      while (row < n && (flags[row]! & DEPTH_MESSAGE_START) === 0) {
        if ((flags[row]! & DEPTH_ASK) !== 0) asks.push(price[row]!, qty[row]!);
        else bids.push(price[row]!, qty[row]!);
        row++;
      }
      this.row = row;
      // The batch ended inside the message: the next batch (or the end) says whether it goes on.
      if (row >= n && !this.done) return null;
    }
    return this.#close();
  }

  /** The open message at the end of the tape (after `load` set `done`). */
  finish(): DepthMessage | null {
    return this.open ? this.#close() : null;
  }

  #push(batch: DepthBatch, row: number): void {
    if ((batch.flags[row]! & DEPTH_ASK) !== 0) this.#asks.push(batch.price[row]!, batch.qty[row]!);
    else this.#bids.push(batch.price[row]!, batch.qty[row]!);
  }

  #close(): DepthMessage {
    this.open = false;
    this.consumed++;
    const time = this.#time;
    if (time < this.lastTime) throw new Error(`depth of ${this.symbol}: a message at ${time} µs is before the previous one (${this.lastTime} µs)`);
    this.lastTime = time;
    return { time, clear: this.#clear, bids: this.#bids, asks: this.#asks };
  }

  /**
   * Moves on past `consumed` messages without applying them (a snapshot's tape position). The
   * book they built is in the engine's snapshot.
   */
  async skipTo(consumed: number): Promise<void> {
    if (consumed < this.consumed) throw new RangeError(`depth of ${this.symbol}: cannot go back from ${this.consumed} to ${consumed} messages`);
    while (this.consumed < consumed) {
      if (this.exhausted) await this.load();
      const message = this.done ? this.finish() : this.next(Infinity, true);
      if (message === null && this.done) throw new RangeError(`depth of ${this.symbol} ends before ${consumed} messages`);
    }
  }
}
