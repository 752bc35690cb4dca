/**
 * Every kind of depth file exsim reads, finest first: the order in which a symbol's depth source
 * is chosen (full L2 updates: Tardis's, then exsim's recordings; top-25 and top-5 snapshots; best
 * bid/ask quotes), with its reader and the name the summary gives the book it makes. A CSV kind
 * also names its column layout and the sink that turns its rows into depth messages (what
 * `exsim data inspect` reads rows through); a recording has a reader of its own.
 */
import { CsvDepthRead } from './csv-depth-read.ts';
import { RECORDING_KIND, type DataKind } from './data-file-name.ts';
import type { DepthRowSink } from './depth-batch-builder.ts';
import type { DepthReader } from './depth-stream.ts';
import type { DepthGranularity, DepthSourceInfo } from './depth-tape.ts';
import { BOOK_TICKER_SCHEMA, type DumpSchema } from './dump-schema.ts';
import { BINANCE_QUOTES, QuoteRows, TARDIS_QUOTES } from './quote-rows.ts';
import { RecordingDepthRead } from './recording-depth-read.ts';
import { SnapshotRows } from './snapshot-rows.ts';
import type { UnitScale } from './tape.ts';
import { TardisL2Rows } from './tardis-l2-rows.ts';
import { TARDIS_BOOK_TICKER_SCHEMA, TARDIS_L2_SCHEMA, TARDIS_SNAPSHOT_25_SCHEMA, TARDIS_SNAPSHOT_5_SCHEMA } from './tardis-schema.ts';

/** An exsim recording of bookTicker quotes alone (its file name says only RECORDING_KIND: recording-book-kind.ts tells them apart). */
export const RECORDING_L1_KIND = 'exsim:recording:bookTicker';

export type DepthKind = 'tardis:incremental_book_L2' | typeof RECORDING_KIND | typeof RECORDING_L1_KIND | 'tardis:book_snapshot_25' | 'tardis:book_snapshot_5' | 'tardis:book_ticker' | 'bookTicker';

/** A CSV depth kind's layout and row sink. */
export interface CsvDepthFormat {
  readonly schema: DumpSchema;
  /** A fresh sink for one read (batches of about `size` rows). */
  sink(size: number, scale: UnitScale): DepthRowSink;
}

export interface DepthKindInfo extends DepthSourceInfo {
  readonly kind: DepthKind;
  /** A read of files of this kind as depth messages. */
  readonly read: DepthReader;
  /** CSV kinds: how rows are read; undefined for a kind with a reader of its own (recordings). */
  readonly csv?: CsvDepthFormat;
}

function csvKind(kind: DepthKind, granularity: DepthGranularity, label: string, schema: DumpSchema, sink: CsvDepthFormat['sink']): DepthKindInfo {
  return { kind, granularity, label, csv: { schema, sink }, read: (files, options) => new CsvDepthRead(files, schema, sink, options) };
}

/** Finest first. */
export const DEPTH_KINDS: readonly DepthKindInfo[] = [
  csvKind('tardis:incremental_book_L2', 'L2', 'recorded L2 (tardis incremental_book_L2)', TARDIS_L2_SCHEMA, (size) => new TardisL2Rows(size)),
  { kind: RECORDING_KIND, granularity: 'L2', label: 'recorded L2 (exsim recording)', read: (files, options) => new RecordingDepthRead(files, options) },
  csvKind('tardis:book_snapshot_25', 'snapshots', 'recorded snapshots (tardis book_snapshot_25)', TARDIS_SNAPSHOT_25_SCHEMA, (size, scale) => new SnapshotRows(size, 25, scale)),
  csvKind('tardis:book_snapshot_5', 'snapshots', 'recorded snapshots (tardis book_snapshot_5)', TARDIS_SNAPSHOT_5_SCHEMA, (size, scale) => new SnapshotRows(size, 5, scale)),
  csvKind('tardis:book_ticker', 'L1', 'recorded L1 (tardis book_ticker)', TARDIS_BOOK_TICKER_SCHEMA, (size, scale) => new QuoteRows(size, scale, TARDIS_QUOTES)),
  csvKind('bookTicker', 'L1', 'recorded L1 (binance bookTicker)', BOOK_TICKER_SCHEMA, (size, scale) => new QuoteRows(size, scale, BINANCE_QUOTES)),
  { kind: RECORDING_L1_KIND, granularity: 'L1', label: 'recorded L1 (exsim recording bookTicker)', read: (files, options) => new RecordingDepthRead(files, options, 'L1') },
];

/** The depth kind's description, or undefined for a kind that is not depth (trades, klines...). */
export function depthKindInfo(kind: DataKind | DepthKind): DepthKindInfo | undefined {
  return DEPTH_KINDS.find((d) => d.kind === kind);
}
