/**
 * Tardis incremental_book_L2 rows as depth messages (docs.tardis.dev FAQ, "How to reconstruct
 * the order book from incremental_book_L2"):
 * - rows of one exchange message share `local_timestamp`: a message starts where
 *   `local_timestamp` or `timestamp` changes (a message's rows share the simulated time), or
 *   `is_snapshot` flips;
 * - a run of `is_snapshot=true` rows after updates is a new book (a day's first rows, a
 *   reconnection): its first message is CLEAR;
 * - updates before a file's first snapshot have no book to apply to: they are skipped and
 *   counted. Each daily file starts with a snapshot, so the rule is per file: a day whose file
 *   lacks one is never built on the previous day's book.
 * `amount` is the level's new total (0 removes it), as DepthBatch rows are.
 */
import { DEPTH_ASK, DEPTH_CLEAR, DEPTH_MESSAGE_START } from './depth-tape.ts';
import { DepthRowSink } from './depth-batch-builder.ts';
import { TARDIS_LOCAL_TIMESTAMP, TARDIS_TIMESTAMP } from './tardis-schema.ts';

const IS_SNAPSHOT = 4;
const SIDE = 5;
const PRICE = 6;
const AMOUNT = 7;

export class TardisL2Rows extends DepthRowSink {
  private skipped = 0;
  /** Whether the current file's first snapshot has been seen. */
  private started = false;
  private atFileStart = true;
  private lastTime = Number.NaN;
  private lastLocal = Number.NaN;
  private lastSnapshot = false;

  override get skippedRows(): number {
    return this.skipped;
  }

  override beginFile(): void {
    this.started = false;
    this.atFileStart = true;
  }

  /** The same as `row` for rows [from, to) of the schema's columns (a cache entry's replay: 20M rows a day, no row assembled). */
  rows(columns: readonly (Float64Array | Uint8Array | undefined)[], from: number, to: number): void {
    const snapshots = columns[IS_SNAPSHOT] as Uint8Array;
    const sides = columns[SIDE] as Uint8Array;
    const times = columns[TARDIS_TIMESTAMP] as Float64Array;
    const locals = columns[TARDIS_LOCAL_TIMESTAMP] as Float64Array;
    const prices = columns[PRICE] as Float64Array;
    const amounts = columns[AMOUNT] as Float64Array;
    for (let i = from; i < to; i++) this.#take(snapshots[i] === 1, sides[i] === 1, times[i]!, locals[i]!, prices[i]!, amounts[i]!);
  }

  row(values: Float64Array): void {
    this.#take(values[IS_SNAPSHOT] === 1, values[SIDE] === 1, values[TARDIS_TIMESTAMP]!, values[TARDIS_LOCAL_TIMESTAMP]!, values[PRICE]!, values[AMOUNT]!);
  }

  #take(snapshot: boolean, ask: boolean, time: number, local: number, price: number, amount: number): void {
    if (!snapshot && !this.started) {
      this.skipped++;
      return;
    }
    let flags = ask ? DEPTH_ASK : 0;
    if (this.atFileStart || time !== this.lastTime || local !== this.lastLocal || snapshot !== this.lastSnapshot) {
      flags |= DEPTH_MESSAGE_START;
      if (snapshot && (this.atFileStart || !this.lastSnapshot)) flags |= DEPTH_CLEAR;
      this.atFileStart = false;
      this.lastTime = time;
      this.lastLocal = local;
      this.lastSnapshot = snapshot;
    }
    this.started = true;
    this.out.push(time, price, amount, flags);
  }
}
