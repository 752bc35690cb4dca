/**
 * A read of depth files as the rest of exsim consumes it, whatever the kind's reader (a CSV
 * schema and row sink, or a recording's local-book recipe): batches of whole messages
 * (depth-tape.ts), and what the read noticed besides them.
 */
import type { DepthBatch } from './depth-tape.ts';
import type { DumpFileRef } from './dump-sources.ts';
import type { ReadNotes } from './read-notes.ts';
import type { LocalBookCounts } from './recording/local-book-sync.ts';
import type { UnitScale } from './tape.ts';

/** Depth batches; iterate once per read (each iteration reads the files again and starts its notes afresh). */
export interface DepthStream extends AsyncIterable<DepthBatch> {
  /** incremental_book_L2 updates skipped so far because their file's first snapshot had not come yet. */
  readonly skippedUpdates: number;
  /** Gaps and warnings (recordings), rows restamped (Tardis), filled in as the stream is read. */
  readonly notes: ReadNotes;
  /**
   * Recordings: what Binance's local-book recipe did (events applied, stale events dropped,
   * snapshots used, skipped or too old), once the read has ended; undefined for other kinds.
   */
  readonly bookCounts: LocalBookCounts | undefined;
}

export interface DepthReadOptions {
  readonly scale: UnitScale;
  /** Which symbol, when the files do not say (a recording named outside the scheme). */
  readonly symbol?: string | undefined;
  readonly batchSize?: number | undefined;
  /**
   * The window the consumer cuts the depth to (depth-window.ts): only the gaps touching it are
   * noted, and a reader that can tell when the book up to its end is settled stops there (a
   * recording's does, so the gaps it reports at the window's end do not depend on how far its
   * batches read ahead).
   */
  readonly window?: { readonly from: number; readonly to: number } | undefined;
}

/** A depth kind's reader over `files` (resolved when the read starts, in read order). */
export type DepthReader = (files: () => Promise<readonly DumpFileRef[]>, options: DepthReadOptions) => DepthStream;
