/**
 * The write-ahead log of `exsim serve --journal FILE`: what a served exchange must keep so a
 * restart (after a clean stop or a kill -9) serves the same exchange, and the restore. (The
 * command line and the file's header keep the older word "journal"; in the code a journal is the
 * engine's `{seq, command, events}` lines, engine/journal-line.ts.)
 *
 * The served state is a pure function of its inputs: the identity (data, seed, market config,
 * accounts, faults), the simulated start, and, in order, every command the facade sent to the
 * engine, each with the simulated time it ran at and, over a replay, how many tape prints had
 * been replayed before it. So the journal holds those inputs, not the state: replaying them
 * rebuilds the engine (balances, open orders, order and trade history), the replay (tape
 * position, fill model, histories) and the clock exactly. The facade's own counters (rate-limit
 * windows, fault draws) are not inputs the engine sees: each request that changed them appends
 * their new value.
 *
 * Format: plain JSON lines, append-only, never truncated except for a torn last line.
 *   line 1   {"exsim":"serve-journal","version":1,"fingerprint":"<sha256>","start":<µs>,"describe":"..."}
 *   {"c":{...command,"time":µs},"n":<tape prints>}   a command the facade applied ("n": replays only)
 *   {"f":{...FacadeLine}}                               the facade's counters a request changed (those keys only; facade-lines.ts)
 *   {"F":{...FacadeLine}}                               all of them, every FACADE_SNAPSHOT_EVERY f lines
 *   {"p":[µs,<tape prints>]}                            the clock moved with no command (written on the tick)
 *   {"h":"<engine state hash>","k":<commands>}          a checkpoint (on close): a restore ending on it verifies it
 * A kill -9 can leave the last line torn: restore drops it and truncates the file there.
 *
 * Durability (the fsync policy): every line of a request is written (write(2)) before its answer
 * is sent, so a process crash loses nothing acknowledged. `always` also fdatasyncs before
 * answering (one fdatasync per group of requests handled meanwhile: group commit); `batch` (the
 * default) fdatasyncs on a timer every `batchMs` (an OS crash or power cut loses at most that
 * much); `none` leaves it to the OS.
 */
import { isAscii } from 'node:buffer';
import { closeSync, fdatasync, fdatasyncSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { FacadeCommand } from '../../api-facade/index.ts';
import { InputError } from '../../backtest/index.ts';
import { FacadeLineMerger, isEmptyFacadeLine, type FacadeLine } from './facade-lines.ts';
import { narrowToOwner, OWNER_ONLY } from './owner-only-files.ts';

export type FsyncPolicy = 'always' | 'batch' | 'none';
export const FSYNC_POLICIES: readonly FsyncPolicy[] = ['always', 'batch', 'none'];
export const DEFAULT_FSYNC_BATCH_MS = 50;

export interface LogHeader {
  readonly exsim: 'serve-journal';
  readonly version: 1;
  /** SHA-256 of the identity: data, seed, market config, accounts, faults. */
  readonly fingerprint: string;
  /** Simulated start (µs): the setup commands run at it. */
  readonly start: number;
  /** The identity in words, for the refusal message. */
  readonly describe: string;
}

/** What restoring replays into: the backend as the serve adapter built it, before it serves. */
export interface LogTarget {
  /** Moves the simulated clock to `time`, replaying the tape up to `tapePrints` prints (replays). */
  advance(time: number, tapePrints: number | undefined): Promise<void> | void;
  /** Applies a journaled command (stamped with the current simulated time, its `time`). */
  apply(command: FacadeCommand & { readonly time: number }): void;
  stateHash(): string;
}

/** Where a restore starts when a snapshot (snapshots.ts) covers the journal's beginning. */
export interface RestoreStart {
  /** Byte offset of the first line after the snapshot (a line boundary). */
  readonly offset: number;
  /** Commands the snapshot covers. */
  readonly commands: number;
  /** Simulated time of the journal's last time line before the offset. */
  readonly now: number | null;
  /** The facade's counters at the snapshot: f lines after it merge on top (an F line after it replaces them). */
  readonly facade: FacadeLine | null;
}

export interface RestoreResult {
  readonly commands: number;
  /** Simulated time the journal ends at (the clock resumes here); null: it holds no time yet. */
  readonly now: number | null;
  /** The facade's counters as last journaled, or null. */
  readonly facade: FacadeLine | null;
  /** Checkpoints verified against the engine's state hash (the last, if nothing followed it). */
  readonly checkpoints: number;
  /** Bytes of a torn last line dropped. */
  readonly droppedBytes: number;
}

/** The fingerprint of a served exchange's identity (see LogHeader). */
export function identityFingerprint(identity: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex');
}

const READ_CHUNK = 8 << 20;
/** f lines between two full F lines: restore parses only the last F and the f lines after it. */
export const FACADE_SNAPSHOT_EVERY = 10_000;

export class WriteAheadLog {
  readonly path: string;
  readonly header: LogHeader;
  readonly policy: FsyncPolicy;
  readonly #fd: number;
  /** Byte length of the whole lines already in the file (restore reads up to here). */
  readonly #existingBytes: number;
  readonly #existing: boolean;
  #pending: string[] = [];
  #commands = 0;
  #unsynced = false;
  #syncing: Promise<void> | null = null;
  #lastFaultDraws = 0;
  #sinceFull = 0;
  #lastPosition = '';
  #closed = false;
  /** Bytes in the file (whole lines written so far). */
  #size = 0;
  /** Simulated time of the last command or position line (what a restore resumes at). */
  #lastTime: number | null = null;

  private constructor(path: string, fd: number, header: LogHeader, policy: FsyncPolicy, existingBytes: number, existing: boolean) {
    this.path = path;
    this.#fd = fd;
    this.header = header;
    this.policy = policy;
    this.#existingBytes = existingBytes;
    this.#existing = existing;
  }

  /**
   * Opens `path` for appending. A new (or empty) file gets a header for `identity` started at
   * `start`; an existing one must carry the same fingerprint (else a one-line InputError) and
   * its own start wins. A torn last line (no newline) is cut off.
   */
  static open(path: string, identity: { fingerprint: string; describe: string }, start: number, policy: FsyncPolicy = 'batch'): WriteAheadLog {
    // O_APPEND: every write lands at the end whatever was read (reads are positional).
    // 0600: it holds the HMAC secrets of keys registered while serving, like the accounts file
    // (owner-only-files.ts); one an older build or a user left wider is narrowed.
    const fd = openSync(path, 'a+', OWNER_ONLY);
    try {
      narrowToOwner(fd);
      let size = fstatSync(fd).size;
      // A header torn by a kill at the very first write: nothing was journaled yet.
      if (size > 0 && lastNewline(fd, size) < 0 && readFirstLine(fd).startsWith('{"exsim":"serve-journal"')) {
        ftruncateSync(fd, 0);
        size = 0;
      }
      if (size === 0) {
        const header: LogHeader = { exsim: 'serve-journal', version: 1, fingerprint: identity.fingerprint, start, describe: identity.describe };
        const written = writeSync(fd, `${JSON.stringify(header)}\n`);
        fdatasyncSync(fd);
        const journal = new WriteAheadLog(path, fd, header, policy, 0, false);
        journal.#size = written;
        return journal;
      }
      const first = readFirstLine(fd);
      let header: LogHeader;
      try {
        header = JSON.parse(first) as LogHeader;
      } catch {
        throw new InputError(`--journal ${path} is not an exsim serve journal (its first line is not a journal header)`);
      }
      if (header.exsim !== 'serve-journal' || header.version !== 1) throw new InputError(`--journal ${path} is not an exsim serve journal (version 1)`);
      if (header.fingerprint !== identity.fingerprint) {
        throw new InputError(`--journal ${path} belongs to another exchange (${header.describe}); this one is ${identity.describe}: use another file`);
      }
      const whole = lastNewline(fd, size) + 1;
      if (whole < size) ftruncateSync(fd, whole);
      const journal = new WriteAheadLog(path, fd, header, policy, whole, true);
      journal.#dropped = size - whole;
      journal.#size = whole;
      return journal;
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  #dropped = 0;

  /** Whether the file held a journal before this start (restore it). */
  get existing(): boolean {
    return this.#existing;
  }

  /** Commands journaled (restored ones included). */
  get commands(): number {
    return this.#commands;
  }

  /** Bytes of whole lines in the file (what a snapshot taken now covers, once committed). */
  get size(): number {
    return this.#size;
  }

  /** Simulated time of the last command or position line journaled (null: none yet). */
  get lastTime(): number | null {
    return this.#lastTime;
  }

  /** The file descriptor, for reading (snapshots check the journal bytes they cover). */
  get fd(): number {
    return this.#fd;
  }

  /** fdatasyncs what was written, now (a snapshot must never cover journal bytes not on disk). */
  syncNow(): void {
    if (this.#pending.length > 0) this.#write();
    fdatasyncSync(this.#fd);
  }

  /**
   * Replays the journal's entries into `target` (before serving), from the start or, with
   * `from`, from the first line a snapshot does not cover. Throws an InputError on a line that
   * does not replay.
   */
  async restore(target: LogTarget, from: RestoreStart | null = null): Promise<RestoreResult> {
    let now: number | null = from?.now ?? null;
    this.#commands = from?.commands ?? 0;
    let fullFacadeSeen = false;
    let checkpoints = 0;
    let checkpoint: { hash: string; commands: number; lineNumber: number } | null = null;
    let lineNumber = 0;
    // Only the last full facade line (F) and the changes (f) after it matter: their bytes are
    // skipped here and read again at the end ([facadeFrom, facadeTo) of the file).
    let facadeFrom = -1;
    let facadeTo = -1;
    let changesSince = 0;
    // After a snapshot, line numbers in messages count from its offset.
    const where = (line: number): string => (from === null ? `${this.path}:${line}` : `${this.path} (line ${line} after byte ${from.offset})`);
    for (const span of readLineSpans(this.#fd, this.#existingBytes, from?.offset ?? 0)) {
      if (++lineNumber === 1 && from === null) continue; // the header
      const kind = span.buffer[span.start + 2]; // {"<kind>":
      if (kind === 0x66 || kind === 0x46) {
        // f, F
        if (kind === 0x46) fullFacadeSeen = true;
        if (kind === 0x46 || facadeFrom < 0) facadeFrom = span.offset;
        changesSince = kind === 0x46 ? 0 : changesSince + 1;
        facadeTo = span.offset + (span.end - span.start) + 1;
        continue;
      }
      const line = span.buffer.toString(span.ascii ? 'latin1' : 'utf8', span.start, span.end);
      let entry: { c?: FacadeCommand & { time: number }; n?: number; p?: [number, number | null]; h?: string; k?: number };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        throw new InputError(`--journal ${where(lineNumber)}: not a journal line`);
      }
      if (entry.c !== undefined) {
        checkpoint = null;
        const time = entry.c.time;
        const pending = target.advance(time, entry.n);
        if (pending !== undefined) await pending;
        now = time;
        target.apply(entry.c);
        this.#commands++;
      } else if (entry.p !== undefined) {
        checkpoint = null;
        const pending = target.advance(entry.p[0], entry.p[1] ?? undefined);
        if (pending !== undefined) await pending;
        now = entry.p[0];
        this.#lastPosition = JSON.stringify(entry.p);
      } else if (entry.h !== undefined) {
        checkpoint = { hash: entry.h, commands: entry.k ?? 0, lineNumber };
      }
    }
    // Only a checkpoint nothing changed after is verified (a restart after a clean stop): the
    // state hash walks every order ever placed, too slow to take at every stop in a long journal.
    if (checkpoint !== null) {
      const hash = target.stateHash();
      if (hash !== checkpoint.hash) {
        throw new InputError(`--journal ${where(checkpoint.lineNumber)}: the restored state (hash ${hash.slice(0, 12)}) is not the journaled one (${checkpoint.hash.slice(0, 12)}) after ${checkpoint.commands} commands`);
      }
      checkpoints++;
    }
    const merger = new FacadeLineMerger();
    if (from !== null && from.facade !== null && !fullFacadeSeen) merger.merge(from.facade);
    if (facadeFrom >= 0) {
      const buffer = Buffer.alloc(facadeTo - facadeFrom);
      readSync(this.#fd, buffer, 0, buffer.length, facadeFrom);
      for (const line of buffer.toString('utf8').split('\n')) {
        if (!(line.startsWith('{"f":') || line.startsWith('{"F":'))) continue;
        try {
          const parsed = JSON.parse(line) as { f?: FacadeLine; F?: FacadeLine };
          merger.merge((parsed.F ?? parsed.f)!);
        } catch {
          throw new InputError(`--journal ${this.path}: a facade line is not a journal line`);
        }
      }
    }
    this.#sinceFull = changesSince;
    const facade = merger.result();
    if (facade !== null) this.#lastFaultDraws = facade.faultDraws;
    this.#lastTime = now;
    return { commands: this.#commands, now, facade, checkpoints, droppedBytes: this.#dropped };
  }

  /** Journals a command the facade applied at simulated `time` (`tapePrints`: replays). */
  command(command: FacadeCommand, time: number, tapePrints: number | undefined): void {
    // The command's keys, then time: restore strips time back off.
    const stamped = Object.assign({}, command) as Record<string, unknown>;
    stamped['time'] = time;
    this.#pending.push(tapePrints === undefined ? `{"c":${JSON.stringify(stamped)}}\n` : `{"c":${JSON.stringify(stamped)},"n":${tapePrints}}\n`);
    this.#commands++;
    this.#lastTime = time;
  }

  /**
   * Journals what changed in the facade's counters (FacadeLines.change), if anything did; every
   * FACADE_SNAPSHOT_EVERY such lines, all of them (`full`) instead, so a restore reads a bounded tail.
   */
  facade(change: FacadeLine, full: () => FacadeLine): void {
    if (isEmptyFacadeLine(change, this.#lastFaultDraws)) return;
    this.#lastFaultDraws = change.faultDraws;
    if (++this.#sinceFull >= FACADE_SNAPSHOT_EVERY) {
      this.#sinceFull = 0;
      this.#pending.push(`{"F":${JSON.stringify(full())}}\n`);
    } else {
      this.#pending.push(`{"f":${JSON.stringify(change)}}\n`);
    }
  }

  /** Journals the clock's position if it moved since the last one (the tick, and close). */
  position(time: number, tapePrints: number | undefined): void {
    const text = JSON.stringify([time, tapePrints ?? null]);
    if (text === this.#lastPosition) return;
    this.#lastPosition = text;
    this.#lastTime = time;
    this.#pending.push(`{"p":${text}}\n`);
  }

  /** Journals a checkpoint: the engine's state hash after the commands so far. */
  checkpoint(stateHash: string): void {
    this.#pending.push(`{"h":"${stateHash}","k":${this.#commands}}\n`);
  }

  /**
   * The commit point before an answer leaves: writes what is pending. Under `always` returns a
   * promise that settles once it is on disk (one fdatasync for everything written meanwhile).
   */
  commit(): Promise<void> | undefined {
    if (this.#pending.length > 0) this.#write();
    // batch / none: written is enough (a fdatasync running on the tick does not hold the answer).
    if (this.policy !== 'always') return undefined;
    return this.#unsynced ? this.sync() : (this.#syncing ?? undefined);
  }

  /** fdatasyncs what was written (grouped: callers meanwhile share the next one). */
  sync(): Promise<void> {
    if (this.#syncing !== null) return this.#syncing.then(() => (this.#unsynced ? this.sync() : undefined));
    if (!this.#unsynced) return Promise.resolve();
    this.#unsynced = false;
    this.#syncing = new Promise<void>((resolve, reject) => {
      fdatasync(this.#fd, (error) => {
        this.#syncing = null;
        if (error === null) resolve();
        else reject(error);
      });
    });
    return this.#syncing;
  }

  /** Writes what is pending, fdatasyncs and closes the file. */
  async close(): Promise<void> {
    if (this.#closed) return;
    if (this.#pending.length > 0) this.#write();
    if (this.#syncing !== null) await this.#syncing.catch(() => undefined);
    this.#closed = true;
    fdatasyncSync(this.#fd);
    closeSync(this.#fd);
  }

  #write(): void {
    const text = this.#pending.length === 1 ? this.#pending[0]! : this.#pending.join('');
    this.#pending = [];
    this.#size += writeSync(this.#fd, text, null, 'utf8');
    this.#unsynced = true;
  }

  /** Something written is not fdatasynced yet (the batch timer's question). */
  get unsynced(): boolean {
    return this.#unsynced;
  }
}

function readFirstLine(fd: number): string {
  const buffer = Buffer.alloc(64 * 1024);
  const read = readSync(fd, buffer, 0, buffer.length, 0);
  const end = buffer.subarray(0, read).indexOf(0x0a);
  return buffer.subarray(0, end < 0 ? read : end).toString('utf8');
}

/** Offset of the file's last newline (-1: none). */
function lastNewline(fd: number, size: number): number {
  const buffer = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - buffer.length);
    const read = readSync(fd, buffer, 0, end - start, start);
    const at = buffer.subarray(0, read).lastIndexOf(0x0a);
    if (at >= 0) return start + at;
    end = start;
  }
  return -1;
}

/** One line of the file: its bytes in `buffer` [start, end) (no newline), its file offset, and whether its chunk is ASCII. */
interface LineSpan {
  buffer: Buffer;
  start: number;
  end: number;
  offset: number;
  ascii: boolean;
}

/**
 * The lines of the first `bytes` bytes of the file (which end with a newline), read in chunks
 * and found with Buffer.indexOf; nothing is decoded here (the caller decodes what it needs). One
 * span object is reused: read it before asking for the next.
 */
function* readLineSpans(fd: number, bytes: number, from = 0): Generator<LineSpan> {
  let buffer = Buffer.alloc(READ_CHUNK);
  const span: LineSpan = { buffer, start: 0, end: 0, offset: 0, ascii: true };
  let filled = 0; // bytes in buffer
  let bufferOffset = from; // file offset of buffer[0]
  while (bufferOffset + filled < bytes) {
    if (filled === buffer.length) {
      // One line longer than the buffer: grow it.
      const bigger = Buffer.alloc(buffer.length * 2);
      buffer.copy(bigger, 0, 0, filled);
      buffer = bigger;
    }
    const read = readSync(fd, buffer, filled, Math.min(buffer.length - filled, bytes - bufferOffset - filled), bufferOffset + filled);
    if (read === 0) break;
    filled += read;
    const last = buffer.lastIndexOf(0x0a, filled - 1);
    if (last < 0) continue;
    span.buffer = buffer;
    span.ascii = isAscii(buffer.subarray(0, last + 1));
    let from = 0;
    while (from <= last) {
      const at = buffer.indexOf(0x0a, from);
      if (at > from) {
        span.start = from;
        span.end = at;
        span.offset = bufferOffset + from;
        yield span;
      }
      from = at + 1;
    }
    // The unfinished line moves to the front.
    buffer.copy(buffer, 0, last + 1, filled);
    bufferOffset += last + 1;
    filled -= last + 1;
  }
}
