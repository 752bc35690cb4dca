/**
 * Every kind of depth file exsim reads, finest first: the order in which a symbol's depth source
 * is chosen (full L2 updates, then top-25 and top-5 snapshots, then best bid/ask quotes), with
 * its column layout, the sink that turns its rows into depth messages, and the name the summary
 * gives the book it makes.
 */
import type { DataKind } from './data-file-name.ts';
import type { DepthRowSink } from './depth-batch-builder.ts';
import type { DepthSourceInfo } from './depth-tape.ts';
import { BOOK_TICKER_SCHEMA, type DumpSchema } from './dump-schema.ts';
import { BINANCE_QUOTES, QuoteRows, TARDIS_QUOTES } from './quote-rows.ts';
import { SnapshotRows } from './snapshot-rows.ts';
import type { UnitScale } from './tape.ts';
import { TardisL2Rows } from './tardis-l2-rows.ts';
import { TARDIS_BOOK_TICKER_SCHEMA, TARDIS_L2_SCHEMA, TARDIS_SNAPSHOT_25_SCHEMA, TARDIS_SNAPSHOT_5_SCHEMA } from './tardis-schema.ts';

export type DepthKind = 'tardis:incremental_book_L2' | 'tardis:book_snapshot_25' | 'tardis:book_snapshot_5' | 'tardis:book_ticker' | 'bookTicker';

export interface DepthKindInfo extends DepthSourceInfo {
  readonly kind: DepthKind;
  readonly schema: DumpSchema;
  /** A fresh sink for one read (batches of about `size` rows). */
  sink(size: number, scale: UnitScale): DepthRowSink;
}

/** Finest first. */
export const DEPTH_KINDS: readonly DepthKindInfo[] = [
  { kind: 'tardis:incremental_book_L2', granularity: 'L2', label: 'recorded L2 (tardis incremental_book_L2)', schema: TARDIS_L2_SCHEMA, sink: (size) => new TardisL2Rows(size) },
  { kind: 'tardis:book_snapshot_25', granularity: 'snapshots', label: 'recorded snapshots (tardis book_snapshot_25)', schema: TARDIS_SNAPSHOT_25_SCHEMA, sink: (size, scale) => new SnapshotRows(size, 25, scale) },
  { kind: 'tardis:book_snapshot_5', granularity: 'snapshots', label: 'recorded snapshots (tardis book_snapshot_5)', schema: TARDIS_SNAPSHOT_5_SCHEMA, sink: (size, scale) => new SnapshotRows(size, 5, scale) },
  { kind: 'tardis:book_ticker', granularity: 'L1', label: 'recorded L1 (tardis book_ticker)', schema: TARDIS_BOOK_TICKER_SCHEMA, sink: (size, scale) => new QuoteRows(size, scale, TARDIS_QUOTES) },
  { kind: 'bookTicker', granularity: 'L1', label: 'recorded L1 (binance bookTicker)', schema: BOOK_TICKER_SCHEMA, sink: (size, scale) => new QuoteRows(size, scale, BINANCE_QUOTES) },
];

/** The depth kind's description, or undefined for a kind that is not depth (trades, klines...). */
export function depthKindInfo(kind: DataKind): DepthKindInfo | undefined {
  return DEPTH_KINDS.find((d) => d.kind === kind);
}

