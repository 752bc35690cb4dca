/**
 * The loop shared by the trades, aggTrades and klines loaders: open each file in order, feed its
 * chunks to one DumpParser (so ordering checks span files) and hand out the batches a builder
 * completed after each chunk. Nothing is read ahead of the consumer, so memory stays at about one
 * chunk plus one batch however long the data is.
 */
import type { UnitScale } from './tape.ts';
import type { DumpSchema } from './dump-schema.ts';
import { DumpParser, type ParseCounts, type RowSink } from './dump-parser.ts';
import { openDumpFile } from './open-dump-file.ts';
import { DataFormatError } from './data-format-error.ts';
import type { DumpFileRef } from './dump-sources.ts';
import { isTardisFileName, type DataFileName } from './data-file-name.ts';

export interface BatchBuilder<B> extends RowSink {
  /** Batches completed since the last call. */
  takeReady(): B[];
  /** The partial last batch, if it has rows. */
  flush(): B | undefined;
  /** A new file starts (builders whose rows depend on the file's start: a book starts at each file's snapshot). */
  beginFile?(name: string): void;
}

/** What the Expected columns of a file must hold, by column: a Tardis file's exchange and symbol, as its name says. */
export function expectedColumns(name: DataFileName | null): (string | undefined)[] {
  return name !== null && isTardisFileName(name) ? [name.exchange, name.symbol] : [];
}

export async function* readDump<B>(
  files: readonly DumpFileRef[],
  schema: DumpSchema,
  scale: UnitScale,
  builder: BatchBuilder<B>,
  counts?: ParseCounts,
): AsyncGenerator<B> {
  const parser = new DumpParser(schema, scale, builder, counts);
  for (const file of files) {
    const opened = await openDumpFile(file.path);
    parser.beginFile(opened.name, expectedColumns(file.parsed));
    builder.beginFile?.(opened.name);
    for await (const chunk of opened.chunks) {
      parser.feed(chunk);
      yield* builder.takeReady();
    }
    parser.endFile();
    // An empty dump file is a broken download or export, not a quiet day: say so.
    if (parser.rowsInCurrentFile === 0) throw new DataFormatError(opened.name, 0, undefined, `no rows: an empty ${schema.kind} file`);
    yield* builder.takeReady();
  }
  const last = builder.flush();
  if (last !== undefined) yield last;
}

/** Reads one whole file through `parser` (already holding its sink); returns the file's name in messages. */
export async function parseDumpFile(parser: DumpParser, path: string, name: DataFileName | null = null): Promise<string> {
  const opened = await openDumpFile(path);
  parser.beginFile(opened.name, expectedColumns(name));
  for await (const chunk of opened.chunks) parser.feed(chunk);
  parser.endFile();
  return opened.name;
}

/** Rows per batch unless the caller chooses: big enough to amortise, small enough for cache. */
export const DEFAULT_BATCH_ROWS = 65_536;

export function checkBatchSize(size: number): number {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`batchSize must be a positive integer, got ${size}`);
  return size;
}
