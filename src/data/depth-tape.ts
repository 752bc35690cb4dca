/**
 * Recorded order-book depth as the rest of exsim sees it: columnar batches of level updates of
 * one symbol, in time order, amounts in engine units (price = decimal × 10^quotePrecision, qty =
 * decimal × 10^basePrecision) and times in µs since the epoch. Every depth source (Tardis
 * incremental_book_L2 and book snapshots, L1 book tickers, exsim's own recordings, the generated
 * L2 market) is turned into this one shape; the replay turns each message into one engine
 * command that sets the recorded book.
 *
 * Rows and messages:
 * - a row sets one level: `qty` is the level's new total size at `price` on its side (0 removes
 *   the level); it is never a delta;
 * - a message is a run of rows that happened at once (one exchange event): it starts at a row
 *   flagged MESSAGE_START and runs to the row before the next one; all its rows share `time`;
 * - a message whose first row is also flagged CLEAR replaces the book: both sides are emptied
 *   before its rows are applied (a snapshot, an L1 quote, a resynchronisation after a gap);
 * - a batch holds whole messages: it is cut only where a message starts (a message is never
 *   split across two batches, so its end is the next MESSAGE_START row or the batch's end).
 *
 * Times never go backwards within a source; at one µs a replay applies trades before depth, so
 * a print and the update that reflects it do not reduce a queue twice.
 */

/** A batch of consecutive depth rows of one symbol. Entry i of every column is row i. */
export interface DepthBatch {
  readonly length: number;
  /** µs since the epoch: the exchange's timestamp of the message (simulated time). */
  readonly time: Float64Array;
  /** Quote units. */
  readonly price: Float64Array;
  /** Base units: the level's new total size; 0 removes the level. */
  readonly qty: Float64Array;
  /** DEPTH_ASK, DEPTH_MESSAGE_START, DEPTH_CLEAR bits. */
  readonly flags: Uint8Array;
}

/** The row is an ask level (else a bid level). */
export const DEPTH_ASK = 1;
/** The row is the first of a message. */
export const DEPTH_MESSAGE_START = 2;
/** Set on a message's first row (with DEPTH_MESSAGE_START): the message replaces the whole book. */
export const DEPTH_CLEAR = 4;

/** How fine a depth source is, finest first: full L2 updates, periodic top-N snapshots, best bid/ask only. */
export type DepthGranularity = 'L2' | 'snapshots' | 'L1';

/**
 * What a symbol's recorded book is made of, as the headline and summary.json `market.book` name it:
 * e.g. `{ granularity: 'L2', label: 'recorded L2 (tardis incremental_book_L2)' }`.
 */
export interface DepthSourceInfo {
  readonly granularity: DepthGranularity;
  readonly label: string;
}

/** Depth batches from any source: an async stream (files) or an array (tests, generators). */
export type DepthSource = AsyncIterable<DepthBatch> | Iterable<DepthBatch>;
