/**
 * The recording's files: per symbol and UTC day (of the receive time) one gzip file,
 * DIR/<SYMBOL>/exsim_recording_<YYYY-MM-DD>_<SYMBOL>[.<part>].gz (recording-file-name.ts), lines
 * as recording-format.ts writes them. A line of a new day closes the symbol's file and opens the
 * next day's (`onRotate`), at the line, so a day's file holds exactly that day's receive times.
 *
 * Safety: every `flushEveryMs` the gzip streams with new lines are sync-flushed to disk, so a
 * killed recorder loses at most that much and its file reads back up to the last flush (the
 * readers warn about the torn end); `close` ends every gzip member cleanly. A file is created
 * exclusively: a name already taken (an earlier run's) gets the next part number.
 */
import { createWriteStream, mkdirSync, openSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { constants, createGzip, type Gzip } from 'node:zlib';
import { formatRecordingFileName, formatRecordingLine, formatUtcMicros } from '../data/index.ts';

export interface RecordingWriterOptions {
  readonly out: string;
  readonly symbols: readonly string[];
  /** Sync-flush period, ms. */
  readonly flushEveryMs: number;
  /** A file was opened (the first of the run, or a new day's). */
  readonly onFile?: (symbol: string, path: string) => void;
  /** A symbol's lines moved to a new day's file (not called for the run's first files). */
  readonly onRotate?: (symbol: string) => void;
  /** Writing failed (disk full, folder removed): the recording cannot go on. */
  readonly onError: (error: Error) => void;
}

interface OpenFile {
  readonly path: string;
  readonly gzip: Gzip;
  readonly closed: Promise<void>;
  /** The next UTC midnight after the file's day, µs: lines from there go to the next file. */
  readonly dayEnd: number;
  dirty: boolean;
}

const DAY_US = 86_400_000_000;

export class RecordingWriter {
  readonly #options: RecordingWriterOptions;
  readonly #files = new Map<string, OpenFile>();
  readonly #closing = new Set<Promise<void>>();
  readonly #flushTimer: NodeJS.Timeout;
  #closed = false;

  constructor(options: RecordingWriterOptions) {
    this.#options = options;
    for (const symbol of options.symbols) mkdirSync(join(options.out, symbol), { recursive: true });
    this.#flushTimer = setInterval(() => this.#flush(), options.flushEveryMs); // determinism-ok: a live recorder flushes its files on the wall clock
    this.#flushTimer.unref();
  }

  /** One line of `symbol`'s file, received at `received` (µs). */
  write(symbol: string, received: number, message: string): void {
    if (this.#closed) return;
    const file = this.#fileFor(symbol, received);
    file.gzip.write(formatRecordingLine(received, message));
    file.dirty = true;
  }

  /** One line in every symbol's file (the recorder's notes). */
  writeAll(received: number, message: string): void {
    for (const symbol of this.#options.symbols) this.write(symbol, received, message);
  }

  /** Ends every file cleanly (a complete gzip member each) and resolves once they are on disk. */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      clearInterval(this.#flushTimer);
      for (const symbol of [...this.#files.keys()]) this.#end(symbol);
    }
    await Promise.all(this.#closing);
  }

  #fileFor(symbol: string, received: number): OpenFile {
    const open = this.#files.get(symbol);
    if (open !== undefined && received < open.dayEnd) return open;
    const rotated = open !== undefined;
    if (rotated) this.#end(symbol);
    const file = this.#open(symbol, received);
    this.#files.set(symbol, file);
    this.#options.onFile?.(symbol, file.path);
    if (rotated) this.#options.onRotate?.(symbol);
    return file;
  }

  #open(symbol: string, received: number): OpenFile {
    const dayStart = Math.floor(received / DAY_US) * DAY_US;
    const date = formatUtcMicros(dayStart).slice(0, 10);
    const { path, fd } = claim(join(this.#options.out, symbol), symbol, date);
    const gzip = createGzip();
    const stream: WriteStream = createWriteStream(path, { fd });
    const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()));
    const fail = (error: Error) => this.#options.onError(new Error(`${path}: ${error.message}`));
    gzip.on('error', fail);
    stream.on('error', fail);
    gzip.pipe(stream);
    return { path, gzip, closed, dayEnd: dayStart + DAY_US, dirty: false };
  }

  #end(symbol: string): void {
    const file = this.#files.get(symbol);
    if (file === undefined) return;
    this.#files.delete(symbol);
    file.gzip.end();
    const closed = file.closed.finally(() => this.#closing.delete(closed));
    this.#closing.add(closed);
  }

  #flush(): void {
    for (const file of this.#files.values()) {
      if (!file.dirty) continue;
      file.dirty = false;
      file.gzip.flush(constants.Z_SYNC_FLUSH);
    }
  }
}

/** Creates the day's file exclusively: part 1, else the first free part. */
function claim(dir: string, symbol: string, date: string): { path: string; fd: number } {
  for (let part = 1; ; part++) {
    const path = join(dir, formatRecordingFileName(symbol, date, part));
    try {
      return { path, fd: openSync(path, 'wx') };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
