/**
 * The depth reader of the CSV kinds (Tardis incremental_book_L2, book snapshots, book_ticker;
 * Binance futures bookTicker): each file parsed through the kind's schema (one DumpParser across
 * the files, so time is checked in order across them), its rows turned into messages by the
 * kind's row sink.
 */
import type { DepthRowSink } from './depth-batch-builder.ts';
import type { DepthReadOptions, DepthStream } from './depth-stream.ts';
import type { DepthBatch } from './depth-tape.ts';
import type { DumpSchema } from './dump-schema.ts';
import type { DumpFileRef } from './dump-sources.ts';
import { clearReadNotes, emptyReadNotes } from './read-notes.ts';
import { checkBatchSize, DEFAULT_BATCH_ROWS, readDump } from './read-dump.ts';
import type { UnitScale } from './tape.ts';

export class CsvDepthRead implements DepthStream {
  readonly notes = emptyReadNotes();
  private sink: DepthRowSink | undefined;

  constructor(
    private readonly files: () => Promise<readonly DumpFileRef[]>,
    private readonly schema: DumpSchema,
    private readonly sinkOf: (size: number, scale: UnitScale) => DepthRowSink,
    private readonly options: DepthReadOptions,
  ) {}

  get skippedUpdates(): number {
    return this.sink?.skippedRows ?? 0;
  }

  get bookCounts(): undefined {
    return undefined;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<DepthBatch> {
    clearReadNotes(this.notes);
    const { scale } = this.options;
    const sink = this.sinkOf(checkBatchSize(this.options.batchSize ?? DEFAULT_BATCH_ROWS), scale);
    this.sink = sink;
    yield* readDump(await this.files(), this.schema, scale, sink, this.notes);
  }
}
