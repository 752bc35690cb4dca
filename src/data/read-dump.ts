/**
 * The loop shared by every loader of a DumpSchema (trades, aggTrades, klines, the CSV depth kinds):
 * open each file in order, feed its chunks to one DumpParser (so ordering checks span files) and
 * hand out the batches a builder completed after each chunk. Nothing is read ahead of the consumer
 * beyond a chunk (a cache part), so memory stays bounded however long the data is.
 *
 * With the columnar cache (tape-cache.ts) a file read before is not parsed: its stored rows go
 * into the same builder (so the batches are the same, batch for batch) and the parser's ordering
 * checks continue from the entry's last row; a file read for the first time is parsed with its
 * rows kept on the way, and the entry written once the file was read whole.
 */
import type { UnitScale } from './tape.ts';
import type { DumpSchema } from './dump-schema.ts';
import { DumpParser, type ParseCounts, type ParseOrdering, type RowSink } from './dump-parser.ts';
import { CorruptCacheEntry, feedRows, tapeCache, type CacheEntry, type CacheEntryWriter, type EntryKey, type PartReader, type TapeCache } from './tape-cache.ts';
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
  counts: ParseCounts = { restampedRows: 0 },
  cache: TapeCache | null = tapeCache(),
): AsyncGenerator<B> {
  const tee = new CacheTee(builder);
  const parser = new DumpParser(schema, scale, tee, counts);
  const values = new Float64Array(schema.columns.length);
  // The next file's entry is looked up (its source hashed the first time) while this one is read.
  const lookup = (file: DumpFileRef): Promise<Lookup | null> => (cache === null ? Promise.resolve(null) : findEntry(cache, file, schema, scale));
  let pending = files.length > 0 ? lookup(files[0]!) : null;
  for (let k = 0; k < files.length; k++) {
    const file = files[k]!;
    const found = await pending!;
    pending = k + 1 < files.length ? lookup(files[k + 1]!) : null;
    pending?.catch(() => {});
    const start = parser.ordering;
    // Rows of this file the builder already has from a cache entry that then proved corrupt.
    let fed = 0;
    if (found?.entry != null && cache !== null && fitsAfter(found.entry, start, schema)) {
      const entry = found.entry;
      const name = file.path + entry.nameSuffix;
      builder.beginFile?.(name);
      try {
        for (let part = await found.parts!.next(); part !== null; part = await found.parts!.next()) {
          for (let lo = 0; lo < part.length; lo += DEFAULT_BATCH_ROWS) {
            const hi = Math.min(part.length, lo + DEFAULT_BATCH_ROWS);
            feedRows(builder, entry.columns, part, lo, hi, values);
            fed = hi;
            yield* builder.takeReady();
          }
        }
        parser.continueAfter({ time: entry.lastTime, id: entry.lastId, file: name });
        counts.restampedRows += entry.restampedRows;
        continue;
      } catch (error) {
        if (!(error instanceof CorruptCacheEntry)) throw error;
        // Not the bytes written: drop the entry, parse the file (its rows already given skipped) and keep it anew.
        await cache.remove(found.key.key);
      }
    }
    const writer = found === null || cache === null ? null : cache.writer(found.key, schema);
    if (writer !== null) cache!.onBuild?.(file.path);
    tee.writer = writer;
    tee.skip = fed;
    const restampedBefore = counts.restampedRows;
    let name = '';
    let whole = false;
    try {
      const opened = await openDumpFile(file.path);
      name = opened.name;
      parser.beginFile(opened.name, expectedColumns(file.parsed));
      if (fed === 0) builder.beginFile?.(opened.name);
      for await (const chunk of opened.chunks) {
        parser.feed(chunk);
        yield* builder.takeReady();
      }
      parser.endFile();
      // An empty dump file is a broken download or export, not a quiet day: say so.
      if (parser.rowsInCurrentFile === 0) throw new DataFormatError(opened.name, 0, undefined, `no rows: an empty ${schema.kind} file`);
      whole = true;
      yield* builder.takeReady();
    } finally {
      tee.writer = null;
      tee.skip = 0;
      // A read abandoned or failed half way keeps nothing.
      if (writer !== null && !whole) await writer.abandon();
    }
    if (writer !== null) {
      // A file whose first rows were judged against the previous file's last one (restamped to it) is not what it gives on its own.
      if (parser.minTimeInCurrentFile >= start.time && name.startsWith(file.path)) {
        await writer.commit({ nameSuffix: name.slice(file.path.length), minTime: parser.minTimeInCurrentFile, ordering: parser.ordering, restampedRows: counts.restampedRows - restampedBefore });
      } else await writer.abandon();
    }
  }
  const last = builder.flush();
  if (last !== undefined) yield last;
}

interface Lookup {
  readonly key: EntryKey;
  readonly entry: CacheEntry | null;
  /** The entry's parts, already being read. */
  readonly parts: PartReader | null;
}

/** Whether the cache holds `file` read through `schema` at `scale` (a description and its parts in place; their bytes are checked when read). */
export async function isCached(cache: TapeCache, file: DumpFileRef, schema: DumpSchema, scale: UnitScale): Promise<boolean> {
  const key = await cache.keyOf(file.path, schema, scale, expectedColumns(file.parsed)).catch(() => null);
  return key !== null && (await cache.open(key.key)) !== null;
}

async function findEntry(cache: TapeCache, file: DumpFileRef, schema: DumpSchema, scale: UnitScale): Promise<Lookup | null> {
  // A file that cannot be looked at is the parser's to report.
  const key = await cache.keyOf(file.path, schema, scale, expectedColumns(file.parsed)).catch(() => null);
  if (key === null) return null;
  const entry = await cache.open(key.key);
  return { key, entry, parts: entry === null ? null : cache.openParts(entry) };
}

/**
 * Whether an entry's rows are what the parser would give after `ordering`: its first rows not
 * before the previous file's last time (else they would be restamped or refused there), a strictly
 * increasing time past it, its first id after the last. Otherwise the file is parsed, which says
 * what is wrong with file, line and column, or restamps as the format allows.
 */
function fitsAfter(entry: CacheEntry, ordering: ParseOrdering, schema: DumpSchema): boolean {
  if (!(entry.minTime >= ordering.time)) return false;
  if (schema.strictlyIncreasingTime && entry.minTime === ordering.time) return false;
  return schema.idColumn < 0 || entry.firstId > ordering.id;
}

/** The parser's sink: hands rows to the cache entry being written, then to the reader's builder (past the first `skip`). */
class CacheTee implements RowSink {
  writer: CacheEntryWriter | null = null;
  skip = 0;

  constructor(private readonly inner: RowSink) {}

  row(values: Float64Array): void {
    this.writer?.add(values);
    if (this.skip > 0) this.skip--;
    else this.inner.row(values);
  }
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
