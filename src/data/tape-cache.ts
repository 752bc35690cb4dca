/**
 * The columnar tape cache: every data file read through a DumpSchema (Binance trades, aggTrades,
 * klines and bookTicker dumps; Tardis trades, incremental_book_L2, snapshots and quotes) is kept,
 * after its first read, as the rows the parser accepted, column by column in Arrow IPC files
 * (arrow-columns.ts), so later reads skip unzipping and parsing: a file read and typed-array views.
 * The zip/CSV stays the source of truth: an entry is keyed by the SHA-256 of the source file's
 * bytes, the schema, the unit scale, the columns the file's name fixes and this format's version,
 * so a changed file, another precision or another parser version is simply another entry.
 *
 * What an entry holds is the rows of the file as the parser accepts them read on its own (times in
 * µs, Tardis rows restamped within the file), and what the parser's checks across files need: the
 * earliest time before restamping, the first and last id and time. A reader replays an entry into
 * the same row sink the parser would have fed, so batches, messages and counts come out the same,
 * batch for batch; an entry whose first rows would be judged against the previous file (restamped
 * or refused at the boundary) is not used, and the file is parsed instead (read-dump.ts).
 *
 * Layout, under `exsimCacheDir()/tapes` (served-sample.ts: `$EXSIM_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/exsim`, else `~/.cache/exsim`):
 *   <key>.json           what the entry holds and the SHA-256 of each part (written last: no .json, no entry)
 *   <key>.<n>.arrow      part n: up to PART_ROWS rows, one Arrow record batch
 *   sources/<hash>.json  a source file's SHA-256 by path, size, modification time and inode, so a
 *                        file is hashed once per version, not on every run
 * Every file is written under a temporary name and renamed, so a run killed half way leaves no
 * entry a later run would trust; a part whose bytes do not hash to the recorded SHA-256 (a disk
 * error, a truncated copy) makes the reader drop the entry and parse the file again.
 *
 * Off with `EXSIM_TAPE_CACHE=off`; files smaller than `minBytes` (default 4 MiB: a parse of that
 * takes well under a second) are not cached.
 */
import { createHash, webcrypto } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { decodeColumns, encodeColumns, type NumberColumn } from './arrow-columns.ts';
import { ColumnType, type DumpSchema } from './dump-schema.ts';
import type { ParseOrdering, RowSink } from './dump-parser.ts';
import { exsimCacheDir } from './served-sample.ts';
import type { UnitScale } from './tape.ts';

/** Bumped whenever what the parser accepts, or how an entry is laid out, changes. */
export const TAPE_CACHE_FORMAT = 1;
/** Rows per part: ~22 MB of trades, read whole and hashed on the thread pool while the previous part replays. */
export const PART_ROWS = 1 << 19;
const DEFAULT_MIN_BYTES = 4 << 20;

export interface TapeCacheOptions {
  readonly dir: string;
  /** Source files smaller than this are not cached. Default 4 MiB. */
  readonly minBytes?: number;
}

/** What `<key>.json` says. */
export interface CacheEntry {
  readonly format: number;
  readonly key: string;
  readonly sourceSha256: string;
  /** What the parser names the file after its path (`/BTCUSDT-trades-2024-01-01.csv` inside a zip, else ''). */
  readonly nameSuffix: string;
  readonly rows: number;
  /** Earliest row time before restamping, first id (NaN without an id column), last time and id after the file. */
  readonly minTime: number;
  readonly firstId: number;
  readonly lastTime: number;
  readonly lastId: number;
  /** Rows restamped inside the file (schema.maxStepBack). */
  readonly restampedRows: number;
  /** Schema column indices stored, in part column order. */
  readonly columns: readonly number[];
  readonly parts: readonly { readonly rows: number; readonly bytes: number; readonly sha256: string }[];
}

export interface EntryKey {
  readonly key: string;
  readonly sourceSha256: string;
}

/** Thrown by `readParts` when a part is missing or its bytes are not what the entry recorded. */
export class CorruptCacheEntry extends Error {}

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

async function digestHex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  // webcrypto's digest runs on libuv's thread pool: hashing a part overlaps the replay of the previous one.
  return Buffer.from(await webcrypto.subtle.digest('SHA-256', bytes)).toString('hex');
}

/** Columns of `schema` an entry stores: all but the ones read as nothing (Expected texts, Ignored tails). */
export function storedColumns(schema: DumpSchema): number[] {
  return schema.columns.flatMap((c, i) => (c.type === ColumnType.Expected || c.type === ColumnType.Ignored ? [] : [i]));
}

const isByteColumn = (schema: DumpSchema, index: number): boolean => {
  const type = schema.columns[index]!.type;
  return type === ColumnType.Boolean || type === ColumnType.Choice;
};

export class TapeCache {
  readonly dir: string;
  readonly minBytes: number;
  /** Called once per file converted (the command line says so once). */
  onBuild: ((source: string) => void) | undefined;
  readonly #sourceHashes = new Map<string, Promise<string>>();

  constructor(options: TapeCacheOptions) {
    this.dir = options.dir;
    this.minBytes = options.minBytes ?? DEFAULT_MIN_BYTES;
  }

  /** The entry key of `path` read through `schema` at `scale` (with the Expected columns its name fixes), or null for a file too small to cache. */
  async keyOf(path: string, schema: DumpSchema, scale: UnitScale, expected: readonly (string | undefined)[]): Promise<EntryKey | null> {
    const info = await stat(path);
    if (info.size < this.minBytes) return null;
    const source = await this.sourceSha256(path, info);
    const reader = { kind: schema.kind, columns: schema.columns.map((c) => [c.name, c.type, c.choices ?? null]), required: schema.required, timeColumn: schema.timeColumn, strict: schema.strictlyIncreasingTime, maxStepBack: schema.maxStepBack ?? 0, idColumn: schema.idColumn };
    return { key: sha256Hex(JSON.stringify({ format: TAPE_CACHE_FORMAT, source, reader, scale: [scale.quotePrecision, scale.basePrecision], expected: expected.map((e) => e ?? null) })), sourceSha256: source };
  }

  /** The entry under `key` if it is complete (every part present at its recorded size), else null. */
  async open(key: string): Promise<CacheEntry | null> {
    let entry: CacheEntry;
    try {
      entry = JSON.parse(await readFile(this.#entryPath(key), 'utf8')) as CacheEntry;
    } catch {
      return null;
    }
    if (entry.format !== TAPE_CACHE_FORMAT || entry.key !== key || !Array.isArray(entry.parts) || entry.parts.reduce((n, p) => n + p.rows, 0) !== entry.rows) {
      await this.remove(key);
      return null;
    }
    for (let i = 0; i < entry.parts.length; i++) {
      const size = (await stat(this.#partPath(key, i)).catch(() => null))?.size;
      if (size !== entry.parts[i]!.bytes) {
        await this.remove(key);
        return null;
      }
    }
    return entry;
  }

  /**
   * The entry's parts in order, each read whole, checked against its SHA-256 and decoded. Reading
   * starts at once (the caller opens the next file's entry while it replays this one) and stays
   * one part ahead of the caller. `next` throws CorruptCacheEntry.
   */
  openParts(entry: CacheEntry): PartReader {
    return new PartReader(entry, (i) => this.#partPath(entry.key, i));
  }

  /** Starts an entry for the file `key` names; rows go in with `add`, `commit` writes it. */
  writer(key: EntryKey, schema: DumpSchema): CacheEntryWriter {
    return new CacheEntryWriter(this, key, schema);
  }

  async remove(key: string): Promise<void> {
    let parts = 0;
    try {
      parts = (JSON.parse(await readFile(this.#entryPath(key), 'utf8')) as CacheEntry).parts.length;
    } catch {
      // No readable description: remove what a writer may have left under the usual names.
    }
    await rm(this.#entryPath(key), { force: true });
    for (let i = 0; i < Math.max(parts, 1); i++) await rm(this.#partPath(key, i), { force: true });
  }

  /** @internal CacheEntryWriter's: writes part `index` (temporary name, then renamed). */
  async writePart(key: string, index: number, bytes: Uint8Array): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    await writeAtomically(this.#partPath(key, index), bytes);
    return createHash('sha256').update(bytes).digest('hex');
  }

  /** @internal CacheEntryWriter's: makes the entry visible. */
  async writeEntry(entry: CacheEntry): Promise<void> {
    await writeAtomically(this.#entryPath(entry.key), JSON.stringify(entry));
  }

  #entryPath(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  #partPath(key: string, index: number): string {
    return join(this.dir, `${key}.${index}.arrow`);
  }

  /** The SHA-256 of a source file, remembered by path, size, modification time and inode (here and on disk). */
  sourceSha256(path: string, info: { size: number; mtimeMs: number; ino: number }): Promise<string> {
    const absolute = resolve(path);
    const id = `${absolute}\0${info.size}\0${info.mtimeMs}\0${info.ino}`;
    let known = this.#sourceHashes.get(id);
    if (known === undefined) {
      known = this.#hashSource(absolute, id);
      this.#sourceHashes.set(id, known);
      known.catch(() => this.#sourceHashes.delete(id));
    }
    return known;
  }

  async #hashSource(path: string, id: string): Promise<string> {
    const memo = join(this.dir, 'sources', `${sha256Hex(path)}.json`);
    const kept = await readFile(memo, 'utf8').then((text) => JSON.parse(text) as { id: string; sha256: string }).catch(() => null);
    if (kept !== null && kept.id === id && /^[0-9a-f]{64}$/.test(kept.sha256)) return kept.sha256;
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
    const sha256 = hash.digest('hex');
    await mkdir(join(this.dir, 'sources'), { recursive: true });
    await writeAtomically(memo, JSON.stringify({ id, sha256 }));
    return sha256;
  }
}

async function writeAtomically(path: string, data: string | Uint8Array): Promise<void> {
  // determinism-ok: a temporary name unique to this process (pid) and call; the content is what is deterministic.
  const temp = `${path}.${process.pid}.${(tempCounter = (tempCounter + 1) % 1e9)}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
let tempCounter = 0;

/**
 * Collects a file's rows as the parser accepts them (`add`, from the row sink in front of the
 * reader's own) into columns, writing each full part as it goes, and the entry at `commit`.
 */
export class CacheEntryWriter {
  readonly #columns: readonly number[];
  readonly #bytes: readonly boolean[];
  #part: NumberColumn[];
  #n = 0;
  #rows = 0;
  #firstId = Number.NaN;
  readonly #parts: { rows: number; bytes: number; sha256: string }[] = [];
  readonly #writes: Promise<void>[] = [];
  #failed = false;

  constructor(
    private readonly cache: TapeCache,
    private readonly entryKey: EntryKey,
    private readonly schema: DumpSchema,
  ) {
    this.#columns = storedColumns(schema);
    this.#bytes = this.#columns.map((i) => isByteColumn(schema, i));
    this.#part = this.#allocate();
  }

  add(values: Float64Array): void {
    if (this.#rows === 0 && this.schema.idColumn >= 0) this.#firstId = values[this.schema.idColumn]!;
    const n = this.#n;
    const columns = this.#columns;
    const part = this.#part;
    for (let c = 0; c < columns.length; c++) part[c]![n] = values[columns[c]!]!;
    this.#n = n + 1;
    this.#rows++;
    if (this.#n === PART_ROWS) this.#flush();
  }

  /** Writes what is left and the entry; `file` is what the parser knew at the file's end. A failed write leaves no entry (the data was read all the same). */
  async commit(file: { nameSuffix: string; minTime: number; ordering: ParseOrdering; restampedRows: number }): Promise<boolean> {
    if (this.#n > 0) this.#flush();
    try {
      await Promise.all(this.#writes);
      if (this.#failed) throw new Error('a part was not written');
      await this.cache.writeEntry({
        format: TAPE_CACHE_FORMAT,
        key: this.entryKey.key,
        sourceSha256: this.entryKey.sourceSha256,
        nameSuffix: file.nameSuffix,
        rows: this.#rows,
        minTime: file.minTime,
        firstId: this.#firstId,
        lastTime: file.ordering.time,
        lastId: file.ordering.id,
        restampedRows: file.restampedRows,
        columns: this.#columns,
        parts: this.#parts,
      });
      return true;
    } catch {
      await this.cache.remove(this.entryKey.key).catch(() => {});
      return false;
    }
  }

  /** Drops what was written (the read failed, or the file turned out to depend on the one before it). */
  async abandon(): Promise<void> {
    await Promise.allSettled(this.#writes);
    await this.cache.remove(this.entryKey.key).catch(() => {});
  }

  #flush(): void {
    const index = this.#parts.length;
    const rows = this.#n;
    const slot = { rows, bytes: 0, sha256: '' };
    this.#parts.push(slot);
    const bytes = encodeColumns(this.#columns.map(String), this.#part, rows);
    slot.bytes = bytes.length;
    this.#writes.push(
      this.cache.writePart(this.entryKey.key, index, bytes).then(
        (sha256) => void (slot.sha256 = sha256),
        () => void (this.#failed = true),
      ),
    );
    this.#part = this.#allocate();
    this.#n = 0;
  }

  #allocate(): NumberColumn[] {
    return this.#bytes.map((byte) => (byte ? new Uint8Array(PART_ROWS) : new Float64Array(PART_ROWS)));
  }
}

/** One decoded part: its columns by schema column index (undefined where the schema's column is not stored). */
export interface StoredPart {
  readonly length: number;
  readonly bySchemaColumn: readonly (NumberColumn | undefined)[];
}

export class PartReader {
  #next: Promise<StoredPart> | null;
  #index = 0;

  constructor(
    private readonly entry: CacheEntry,
    private readonly pathOf: (index: number) => string,
  ) {
    this.#next = this.#ahead();
  }

  /** The next part, or null after the last. */
  async next(): Promise<StoredPart | null> {
    const current = this.#next;
    if (current === null) return null;
    const part = await current;
    this.#next = this.#ahead();
    return part;
  }

  #ahead(): Promise<StoredPart> | null {
    if (this.#index >= this.entry.parts.length) return null;
    const loading = this.#load(this.#index++);
    // A part read ahead that nobody awaits (the entry dropped) must not become an unhandled rejection.
    loading.catch(() => {});
    return loading;
  }

  async #load(i: number): Promise<StoredPart> {
    const { entry } = this;
    const part = entry.parts[i]!;
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = await readFile(this.pathOf(i));
    } catch (error) {
      throw new CorruptCacheEntry(`part ${i}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (bytes.length !== part.bytes || (await digestHex(bytes)) !== part.sha256) throw new CorruptCacheEntry(`part ${i} is not the bytes written`);
    try {
      const decoded = decodeColumns(bytes, entry.columns.map(String));
      if (decoded.length !== part.rows) throw new Error(`${decoded.length} rows, expected ${part.rows}`);
      const bySchemaColumn: (NumberColumn | undefined)[] = [];
      entry.columns.forEach((schemaColumn, c) => (bySchemaColumn[schemaColumn] = decoded.columns[c]));
      return { length: decoded.length, bySchemaColumn };
    } catch (error) {
      throw new CorruptCacheEntry(`part ${i}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/**
 * Replays stored rows [from, to) into a row sink: through its `rows` when it takes columns whole,
 * else row by row with `values` laid out as the parser's (columns not stored stay 0).
 */
export function feedRows(sink: RowSink, columns: readonly number[], part: StoredPart, from: number, to: number, values: Float64Array): void {
  if (sink.rows !== undefined) {
    sink.rows(part.bySchemaColumn, from, to);
    return;
  }
  // Float and byte columns apart, so each loop reads one array type.
  const floats = columns.filter((i) => part.bySchemaColumn[i] instanceof Float64Array);
  const bytes = columns.filter((i) => part.bySchemaColumn[i] instanceof Uint8Array);
  const floatColumns = floats.map((i) => part.bySchemaColumn[i] as Float64Array);
  const byteColumns = bytes.map((i) => part.bySchemaColumn[i] as Uint8Array);
  for (let r = from; r < to; r++) {
    for (let c = 0; c < floats.length; c++) values[floats[c]!] = floatColumns[c]![r]!;
    for (let c = 0; c < bytes.length; c++) values[bytes[c]!] = byteColumns[c]![r]!;
    sink.row(values);
  }
}

let configured: TapeCache | null | undefined;

/** The cache readers use: the one set with `setTapeCache`, else the default (off with EXSIM_TAPE_CACHE=off). */
export function tapeCache(): TapeCache | null {
  if (configured === undefined) configured = process.env['EXSIM_TAPE_CACHE'] === 'off' ? null : new TapeCache({ dir: join(exsimCacheDir(), 'tapes') });
  return configured;
}

/** Replaces the cache readers use (null: none; undefined: the default again). Tests, and the command line's listener. */
export function setTapeCache(cache: TapeCache | null | undefined): void {
  configured = cache;
}
