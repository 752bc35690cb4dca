/**
 * One symbol's depth tape as the replay's merge reads it: the current DepthBatch and a position
 * in it. Batches hold whole messages (src/data/depth-tape.ts), so a message runs from a
 * DEPTH_MESSAGE_START row to the next one or to the batch's end. Like TapeCursor, at most one
 * batch is alive.
 */
import { DEPTH_ASK, DEPTH_CLEAR, DEPTH_MESSAGE_START, type DepthBatch, type DepthSource } from '../data/index.ts';

/** A message, handed to the replay (its arrays are fresh: the engine command keeps them). */
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
  readonly #iterator: AsyncIterator<DepthBatch> | Iterator<DepthBatch>;

  constructor(
    readonly symbol: string,
    /** Breaks ties at one µs after every trade tape (trades first, then depth). */
    readonly rank: number,
    source: DepthSource,
  ) {
    this.#iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  }

  /** Time of the next message; valid while a batch has an unread row. */
  get time(): number {
    return (this.batch as DepthBatch).time[this.row]!;
  }

  /** True when `batch` has no unread row. */
  get exhausted(): boolean {
    return this.batch === null || this.row >= this.batch.length;
  }

  /** Reads the next batch when this one is used up; at the end of the tape, `done`. */
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
   * The next message if it is stamped at most `bound` (and, at `bound`, the caller's tie rule
   * allows it: `atBound`), else null (also when the batch is used up: load, then ask again).
   */
  next(bound: number, atBound: boolean): DepthMessage | null {
    const batch = this.batch;
    if (batch === null || this.row >= batch.length) return null;
    const { time, flags, price, qty } = batch;
    const first = this.row;
    const t = time[first]!;
    if (t > bound || (t === bound && !atBound)) return null;
    if ((flags[first]! & DEPTH_MESSAGE_START) === 0 && this.consumed > 0) {
      throw new Error(`depth of ${this.symbol}: a row at ${t} µs continues no message`);
    }
    if (t < this.lastTime) throw new Error(`depth of ${this.symbol}: a message at ${t} µs is before the previous one (${this.lastTime} µs)`);
    const n = batch.length;
    // Plain arrays, pushed: small typed arrays cost more to make than these.
    const bids: number[] = [];
    const asks: number[] = [];
    let end = first;
    do {
      if ((flags[end]! & DEPTH_ASK) !== 0) asks.push(price[end]!, qty[end]!);
      else bids.push(price[end]!, qty[end]!);
      end++;
    } while (end < n && (flags[end]! & DEPTH_MESSAGE_START) === 0);
    this.row = end;
    this.consumed++;
    this.lastTime = t;
    return { time: t, clear: (flags[first]! & DEPTH_CLEAR) !== 0, bids, asks };
  }

  /**
   * Moves on past `consumed` messages without applying them (a snapshot's tape position). The
   * book they built is in the engine's snapshot.
   */
  async skipTo(consumed: number): Promise<void> {
    if (consumed < this.consumed) throw new RangeError(`depth of ${this.symbol}: cannot go back from ${this.consumed} to ${consumed} messages`);
    while (this.consumed < consumed) {
      if (this.exhausted) await this.load();
      if (this.done) throw new RangeError(`depth of ${this.symbol} ends before ${consumed} messages`);
      this.next(Infinity, true);
    }
  }
}
