/**
 * Streams depth files (Tardis incremental_book_L2, book_snapshot_25/5, book_ticker; Binance
 * futures bookTicker) as DepthBatch objects in engine units, one kind per read:
 *
 *   const depth = readDepth('data/BTCUSDT', { scale, kind: 'tardis:incremental_book_L2' });
 *   for await (const batch of depth) { ... }
 *   depth.skippedUpdates // updates before a file's first snapshot, which no book could take
 *
 * Batches hold whole messages (depth-batch-builder.ts); times never run backwards within a file
 * or across the files of the read (the parser checks, as for trades).
 */
import type { DepthBatch } from './depth-tape.ts';
import type { DepthRowSink } from './depth-batch-builder.ts';
import { DEPTH_KINDS, type DepthKind } from './depth-kinds.ts';
import { resolveDumpFiles, type DumpSource } from './dump-sources.ts';
import { checkBatchSize, DEFAULT_BATCH_ROWS, readDump } from './read-dump.ts';
import type { UnitScale } from './tape.ts';

export interface ReadDepthOptions {
  readonly scale: UnitScale;
  readonly kind: DepthKind;
  /** Which symbol, when a folder holds several. */
  readonly symbol?: string | undefined;
  readonly batchSize?: number;
}

/** Depth batches; iterate once per read (each iteration reads the files again). */
export interface DepthStream extends AsyncIterable<DepthBatch> {
  /** incremental_book_L2 updates skipped so far because their file's first snapshot had not come yet. */
  readonly skippedUpdates: number;
}

export function readDepth(source: DumpSource, options: ReadDepthOptions): DepthStream {
  return new DepthRead(source, options);
}

class DepthRead implements DepthStream {
  private sink: DepthRowSink | undefined;

  constructor(
    private readonly source: DumpSource,
    private readonly options: ReadDepthOptions,
  ) {}

  get skippedUpdates(): number {
    return this.sink?.skippedRows ?? 0;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<DepthBatch> {
    const { scale, kind, symbol } = this.options;
    const size = checkBatchSize(this.options.batchSize ?? DEFAULT_BATCH_ROWS);
    const info = DEPTH_KINDS.find((d) => d.kind === kind);
    if (info === undefined) throw new RangeError(`not a depth kind: ${kind}`);
    const files = await resolveDumpFiles(this.source, { kind, symbol });
    const sink = info.sink(size, scale);
    this.sink = sink;
    yield* readDump(files, info.schema, scale, sink);
  }
}
