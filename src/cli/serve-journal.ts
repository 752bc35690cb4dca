/**
 * The write-ahead journal of `exsim serve --journal FILE`: what a served exchange must keep so a
 * restart (after a clean stop or a kill -9) serves the same exchange, and the restore.
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
 *   {"f":{...FacadeState}}                              the facade's counters a request changed (those keys only)
 *   {"p":[µs,<tape prints>]}                            the clock moved with no command (written on the tick)
 *   {"h":"<engine state hash>","k":<commands>}          a checkpoint (on close): restore verifies it
 * A kill -9 can leave the last line torn: restore drops it and truncates the file there.
 *
 * Durability (the fsync policy): every line of a request is written (write(2)) before its answer
 * is sent, so a process crash loses nothing acknowledged. `always` also fdatasyncs before
 * answering (one fdatasync per group of requests handled meanwhile: group commit); `batch` (the
 * default) fdatasyncs on a timer every `batchMs` (an OS crash or power cut loses at most that
 * much); `none` leaves it to the OS.
 */
import { closeSync, fdatasync, fdatasyncSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { FacadeStateMerger, type FacadeCommand, type FacadeState } from '../api-facade/index.ts';
import { InputError } from '../backtest/index.ts';

export type FsyncPolicy = 'always' | 'batch' | 'none';
export const FSYNC_POLICIES: readonly FsyncPolicy[] = ['always', 'batch', 'none'];
export const DEFAULT_FSYNC_BATCH_MS = 50;

export interface JournalHeader {
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
export interface JournalTarget {
  /** Moves the simulated clock to `time`, replaying the tape up to `tapePrints` prints (replays). */
  advance(time: number, tapePrints: number | undefined): Promise<void> | void;
  /** Applies a journaled command (stamped with the current simulated time, its `time`). */
  apply(command: FacadeCommand & { readonly time: number }): void;
  stateHash(): string;
}

export interface RestoreResult {
  readonly commands: number;
  /** Simulated time the journal ends at (the clock resumes here); null: it holds no time yet. */
  readonly now: number | null;
  /** The facade's counters as last journaled, or null. */
  readonly facade: FacadeState | null;
  /** Checkpoints verified against the engine's state hash. */
  readonly checkpoints: number;
  /** Bytes of a torn last line dropped. */
  readonly droppedBytes: number;
}

/** The fingerprint of a served exchange's identity (see JournalHeader). */
export function journalFingerprint(identity: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex');
}

const READ_CHUNK = 8 << 20;

export class ServeJournal {
  readonly path: string;
  readonly header: JournalHeader;
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
  #lastPosition = '';
  #closed = false;

  private constructor(path: string, fd: number, header: JournalHeader, policy: FsyncPolicy, existingBytes: number, existing: boolean) {
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
  static open(path: string, identity: { fingerprint: string; describe: string }, start: number, policy: FsyncPolicy = 'batch'): ServeJournal {
    // O_APPEND: every write lands at the end whatever was read (reads are positional).
    const fd = openSync(path, 'a+');
    try {
      let size = fstatSync(fd).size;
      // A header torn by a kill at the very first write: nothing was journaled yet.
      if (size > 0 && lastNewline(fd, size) < 0 && readFirstLine(fd).startsWith('{"exsim":"serve-journal"')) {
        ftruncateSync(fd, 0);
        size = 0;
      }
      if (size === 0) {
        const header: JournalHeader = { exsim: 'serve-journal', version: 1, fingerprint: identity.fingerprint, start, describe: identity.describe };
        writeSync(fd, `${JSON.stringify(header)}\n`);
        fdatasyncSync(fd);
        return new ServeJournal(path, fd, header, policy, 0, false);
      }
      const first = readFirstLine(fd);
      let header: JournalHeader;
      try {
        header = JSON.parse(first) as JournalHeader;
      } catch {
        throw new InputError(`--journal ${path} is not an exsim serve journal (its first line is not a journal header)`);
      }
      if (header.exsim !== 'serve-journal' || header.version !== 1) throw new InputError(`--journal ${path} is not an exsim serve journal (version 1)`);
      if (header.fingerprint !== identity.fingerprint) {
        throw new InputError(`--journal ${path} belongs to another exchange (${header.describe}); this one is ${identity.describe}: use another file`);
      }
      const whole = lastNewline(fd, size) + 1;
      if (whole < size) ftruncateSync(fd, whole);
      const journal = new ServeJournal(path, fd, header, policy, whole, true);
      journal.#dropped = size - whole;
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

  /** Replays the journal's entries into `target` (before serving). Throws an InputError on a line that does not replay. */
  async restore(target: JournalTarget): Promise<RestoreResult> {
    let now: number | null = null;
    let checkpoints = 0;
    let lineNumber = 0;
    const facadeChanges = new FacadeStateMerger();
    for (const line of readLines(this.#fd, this.#existingBytes)) {
      if (++lineNumber === 1) continue; // the header
      let entry: { c?: FacadeCommand & { time: number }; n?: number; f?: FacadeState; p?: [number, number | null]; h?: string; k?: number };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        throw new InputError(`--journal ${this.path}:${lineNumber}: not a journal line`);
      }
      if (entry.c !== undefined) {
        const time = entry.c.time;
        const pending = target.advance(time, entry.n);
        if (pending !== undefined) await pending;
        now = time;
        target.apply(entry.c);
        this.#commands++;
      } else if (entry.f !== undefined) {
        facadeChanges.merge(entry.f);
      } else if (entry.p !== undefined) {
        const pending = target.advance(entry.p[0], entry.p[1] ?? undefined);
        if (pending !== undefined) await pending;
        now = entry.p[0];
        this.#lastPosition = JSON.stringify(entry.p);
      } else if (entry.h !== undefined) {
        const hash = target.stateHash();
        if (hash !== entry.h) throw new InputError(`--journal ${this.path}:${lineNumber}: the restored state (hash ${hash.slice(0, 12)}) is not the journaled one (${entry.h.slice(0, 12)}) after ${entry.k} commands`);
        checkpoints++;
      }
    }
    const facade = facadeChanges.result();
    if (facade !== null) this.#lastFaultDraws = facade.faultDraws;
    return { commands: this.#commands, now, facade, checkpoints, droppedBytes: this.#dropped };
  }

  /** Journals a command the facade applied at simulated `time` (`tapePrints`: replays). */
  command(command: FacadeCommand, time: number, tapePrints: number | undefined): void {
    // The command's keys, then time: restore strips time back off.
    const stamped = Object.assign({}, command) as Record<string, unknown>;
    stamped['time'] = time;
    this.#pending.push(tapePrints === undefined ? `{"c":${JSON.stringify(stamped)}}\n` : `{"c":${JSON.stringify(stamped)},"n":${tapePrints}}\n`);
    this.#commands++;
  }

  /** Journals what changed in the facade's counters (captureFacadeChanges), if anything did. */
  facade(change: FacadeState): void {
    if (change.weight.length === 0 && change.orders.length === 0 && change.keyed.length === 0 && change.faultDraws === this.#lastFaultDraws) return;
    this.#lastFaultDraws = change.faultDraws;
    this.#pending.push(`{"f":${JSON.stringify(change)}}\n`);
  }

  /** Journals the clock's position if it moved since the last one (the tick, and close). */
  position(time: number, tapePrints: number | undefined): void {
    const text = JSON.stringify([time, tapePrints ?? null]);
    if (text === this.#lastPosition) return;
    this.#lastPosition = text;
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
    if (this.policy !== 'always' || !this.#unsynced) return this.#syncing ?? undefined;
    return this.sync();
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
    writeSync(this.#fd, text, null, 'utf8');
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

/** The lines of the first `bytes` bytes of the file (which end with a newline), read in chunks. */
function* readLines(fd: number, bytes: number): Generator<string> {
  const buffer = Buffer.alloc(READ_CHUNK);
  let position = 0;
  let carry: Buffer = Buffer.alloc(0);
  while (position < bytes) {
    const read = readSync(fd, buffer, 0, Math.min(buffer.length, bytes - position), position);
    if (read === 0) break;
    position += read;
    // Decode only up to the chunk's last newline, so no UTF-8 sequence is split.
    const last = buffer.subarray(0, read).lastIndexOf(0x0a);
    if (last < 0) {
      carry = Buffer.concat([carry, buffer.subarray(0, read)]);
      continue;
    }
    const text = carry.length === 0 ? buffer.toString('utf8', 0, last + 1) : Buffer.concat([carry, buffer.subarray(0, last + 1)]).toString('utf8');
    carry = Buffer.from(buffer.subarray(last + 1, read));
    let from = 0;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', from)) {
      if (at > from) yield text.slice(from, at);
      from = at + 1;
    }
  }
}
