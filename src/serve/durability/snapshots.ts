/**
 * Snapshots of a served exchange beside its journal (`exsim serve --journal FILE`): they bound
 * the restart time, the journal stays the truth.
 *
 * A snapshot is the served state between two requests: the engine (Engine.exportSnapshot), the
 * market-data histories (MarketHistory.exportFields), a served replay's own state
 * (Replay.exportState: clock, tape positions, market stats, book mirrors, fill-model queues and
 * streams) and the facade's counters and the host's notes (facade-lines.ts), with what it covers: the journal's fingerprint and start, the byte
 * offset and command count it was taken at, a SHA-256 of the journal's last bytes before that
 * offset, the simulated time the journal had reached, and the engine's state hash.
 *
 * Files: `FILE.snapshot` (the newest) and `FILE.snapshot.prev` (the one before), all 0600 (they
 * hold the secrets of keys registered while serving: owner-only-files.ts). A snapshot is
 * written to a fresh `FILE.snapshot.tmp`, fdatasynced, then the newest is renamed to `.prev` and the new
 * one into place (and the folder fsynced): a kill -9 at any point leaves at least one complete
 * snapshot, or none and the journal. The journal itself is fdatasynced before a snapshot is
 * taken, so no snapshot covers bytes that could be lost.
 *
 * Restore: the newest snapshot that matches (same fingerprint and start, written by the same
 * build of the engine and history code, its offset inside the
 * journal at a line boundary, the same bytes before it, an intact payload) is read into the
 * freshly set-up backend, and the engine's state hash must equal the recorded one; otherwise a
 * warning goes to stderr and the next one is tried, then a full replay (the backend is put back
 * to its setup state first). Then only the journal lines after the offset are replayed.
 *
 * A replay's state is read back last, once the engine verified: its tapes are read on (through
 * the parser, nothing replayed) to the snapshot's positions, which cannot be undone. The journal
 * gets a p line with the replay's time and tape position right before each snapshot, so a full
 * replay passes the same point.
 *
 * Layout: one JSON line (SnapshotMeta), then the payload: engine bytes, histories bytes
 * (v8.serialize), replay bytes (v8.serialize; none for the static market), facade JSON,
 * lengths in the meta.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fdatasyncSync, fsyncSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serialize, deserialize } from 'node:v8';
import type { EngineBackend } from '../../api-facade/index.ts';
import { Replay, type ReplayState } from '../../sim/index.ts';
import { InputError } from '../../backtest/index.ts';
import type { FacadeLine } from './facade-lines.ts';
import { narrowPathToOwner, OWNER_ONLY } from './owner-only-files.ts';
import type { RestoreStart, WriteAheadLog } from './write-ahead-log.ts';

/** Commands between two snapshots by default (`serve --snapshot-every`; 0: only at a clean stop). */
export const DEFAULT_SNAPSHOT_EVERY = 200_000;
/** Journal bytes before a snapshot's offset whose SHA-256 it records (tells a rewritten journal from the one it covers). */
const TAIL_BYTES = 4096;

export interface SnapshotMeta {
  readonly exsim: 'serve-snapshot';
  readonly version: 1;
  readonly fingerprint: string;
  readonly journalStart: number;
  /** SHA-256 of the code whose state it holds (codeFingerprint): another build's snapshot is not read. */
  readonly code: string;
  /** Journal bytes covered (the first line after the snapshot starts here). */
  readonly offset: number;
  readonly commands: number;
  /** SHA-256 of the journal's TAIL_BYTES before `offset`. */
  readonly tail: string;
  /** Simulated time of the journal's last time line before `offset` (null: none). */
  readonly time: number | null;
  readonly stateHash: string;
  readonly engineBytes: number;
  readonly historyBytes: number;
  /** Replay.exportState (v8.serialize), served replays only (0 bytes otherwise). */
  readonly replayBytes: number;
  readonly facadeBytes: number;
  /** SHA-256 of the payload. */
  readonly payload: string;
}

/**
 * What a snapshot captures and restores: the static market's engine backend or a served replay
 * and, once serving, the facade's full line (FacadeLines.full).
 */
export interface SnapshotSubject {
  readonly backend: EngineBackend | Replay;
  facade: (() => FacadeLine) | null;
}

export interface SnapshotWritten {
  readonly path: string;
  readonly bytes: number;
  readonly commands: number;
  /** Wall ms to capture, hash and write it (the serving thread is busy that long). */
  readonly ms: number;
}

export function snapshotPaths(journalPath: string): { readonly newest: string; readonly previous: string; readonly temp: string } {
  return { newest: `${journalPath}.snapshot`, previous: `${journalPath}.snapshot.prev`, temp: `${journalPath}.snapshot.tmp` };
}

let code: string | null = null;

/**
 * SHA-256 of the sources whose state a snapshot holds (src/engine, src/data/history, src/sim): a
 * snapshot written by another build of them may name fields this one does not have, and is
 * skipped rather than trusted (the journal replays on any build).
 */
export function codeFingerprint(): string {
  if (code !== null) return code;
  const hash = createHash('sha256');
  // Labelled as they were when this file sat in src/cli (`../engine`, ...), so the fingerprint of the same sources stays the same.
  for (const folder of ['../engine', '../data/history', '../sim']) {
    const root = fileURLToPath(new URL(`../${folder}`, import.meta.url));
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((name) => name.endsWith('.ts')).sort();
    for (const name of files) hash.update(`${folder}/${name}\n`).update(readFileSync(join(root, name)));
  }
  return (code = hash.digest('hex'));
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function journalTail(fd: number, offset: number): string {
  const length = Math.min(TAIL_BYTES, offset);
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const n = readSync(fd, buffer, read, length - read, offset - length + read);
    if (n === 0) break;
    read += n;
  }
  return read === length ? sha256(buffer) : '';
}

function captureParts(subject: SnapshotSubject): { engine: Buffer; history: Buffer; replay: Buffer; facade: Buffer } {
  const backend = subject.backend;
  const engine = backend.engine.exportSnapshot();
  const history = serialize(backend.engine.symbolNames().map((symbol) => [symbol, backend.history(symbol).exportFields()]));
  const replay = backend instanceof Replay ? serialize(backend.exportState()) : Buffer.alloc(0);
  const facade = Buffer.from(subject.facade === null ? 'null' : JSON.stringify(subject.facade()));
  return { engine, history, replay, facade };
}

/**
 * Writes a snapshot of `subject` covering everything `journal` holds now (what is pending is
 * written and the journal fdatasynced first). Synchronous: the serving thread does nothing else
 * meanwhile, so the state is the one between two requests.
 */
export function writeSnapshot(journal: WriteAheadLog, subject: SnapshotSubject, stateHash?: string): SnapshotWritten {
  const started = performance.now(); // determinism-ok: how long the serving thread spent on it, reported only
  const backend = subject.backend;
  // A replay's place on the tape, journaled where the snapshot is taken: a full replay of the
  // journal passes the same point (a request may have run while the tape was read on).
  if (backend instanceof Replay) journal.position(backend.now, backend.stats.tapeTrades);
  journal.syncNow();
  const parts = captureParts(subject);
  const payload = Buffer.concat([parts.engine, parts.history, parts.replay, parts.facade]);
  const offset = journal.size;
  const meta: SnapshotMeta = {
    exsim: 'serve-snapshot',
    version: 1,
    fingerprint: journal.header.fingerprint,
    journalStart: journal.header.start,
    code: codeFingerprint(),
    offset,
    commands: journal.commands,
    tail: journalTail(journal.fd, offset),
    time: journal.lastTime,
    stateHash: stateHash ?? subject.backend.engine.stateHash(),
    engineBytes: parts.engine.length,
    historyBytes: parts.history.length,
    replayBytes: parts.replay.length,
    facadeBytes: parts.facade.length,
    payload: sha256(payload),
  };
  const paths = snapshotPaths(journal.path);
  // Created 0600 (owner-only-files.ts), never reused: a crash's leftover keeps whatever mode it had.
  rmSync(paths.temp, { force: true });
  const fd = openSync(paths.temp, 'wx', OWNER_ONLY);
  let bytes = 0;
  try {
    bytes += writeSync(fd, `${JSON.stringify(meta)}\n`);
    bytes += writeSync(fd, payload);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (existsSync(paths.newest)) {
    // An older build wrote its snapshots readable by all: the one kept as `.prev` is narrowed.
    narrowPathToOwner(paths.newest);
    renameSync(paths.newest, paths.previous);
  }
  renameSync(paths.temp, paths.newest);
  syncFolder(dirname(journal.path));
  return { path: paths.newest, bytes, commands: meta.commands, ms: performance.now() - started }; // determinism-ok: reported only
}

function syncFolder(folder: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a folder: the renames are then as durable as the OS makes them.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

interface Candidate {
  readonly path: string;
  readonly meta: SnapshotMeta;
  readonly payload: Buffer;
}

/** Why a snapshot file does not fit the journal (null: it fits), reading it. */
function readCandidate(path: string, journal: WriteAheadLog): Candidate | string {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch (error) {
    return `unreadable (${error instanceof Error ? error.message : String(error)})`;
  }
  const newline = file.indexOf(0x0a);
  let meta: SnapshotMeta;
  try {
    meta = JSON.parse(file.subarray(0, newline < 0 ? file.length : newline).toString('utf8')) as SnapshotMeta;
  } catch {
    return 'not a snapshot (its first line is not JSON)';
  }
  if (meta.exsim !== 'serve-snapshot' || meta.version !== 1) return 'not an exsim serve snapshot (version 1)';
  if (meta.fingerprint !== journal.header.fingerprint || meta.journalStart !== journal.header.start) return 'it belongs to another journal';
  if (meta.code !== codeFingerprint()) return 'it was written by another build of exsim (the journal is replayed instead)';
  if (!(Number.isSafeInteger(meta.offset) && meta.offset > 0 && meta.offset <= journal.size)) return `it covers ${meta.offset} bytes, the journal has ${journal.size}`;
  const before = Buffer.alloc(1);
  readSync(journal.fd, before, 0, 1, meta.offset - 1);
  if (before[0] !== 0x0a) return `its offset ${meta.offset} is not at a line boundary of the journal`;
  if (journalTail(journal.fd, meta.offset) !== meta.tail) return 'the journal bytes before its offset are not the ones it covered';
  const payload = file.subarray(newline + 1);
  if (payload.length !== meta.engineBytes + meta.historyBytes + meta.replayBytes + meta.facadeBytes || sha256(payload) !== meta.payload) return 'its payload is damaged';
  return { path, meta, payload };
}

export interface SnapshotRestore {
  /** Where the journal replay starts (null: from the beginning). */
  readonly start: RestoreStart | null;
  /** The snapshot used, for the start-up line. */
  readonly used: { readonly path: string; readonly commands: number } | null;
}

/**
 * Reads the newest snapshot that fits `journal` into `subject.backend` (see the header); warns
 * on stderr about each one that does not. The backend must be freshly set up (nothing of the
 * journal applied yet).
 */
export async function restoreSnapshot(journal: WriteAheadLog, subject: SnapshotSubject, setupTime: number, warn: (line: string) => void = (line) => console.error(line)): Promise<SnapshotRestore> {
  const paths = snapshotPaths(journal.path);
  // The setup state, to go back to if a snapshot reads in but does not verify.
  let setup: ReturnType<typeof captureParts> | null = null;
  // Newest first (the previous one is older by construction); the previous one is read only if the newest fails.
  for (const path of [paths.newest, paths.previous]) {
    if (!existsSync(path)) continue;
    const candidate = readCandidate(path, journal);
    if (typeof candidate === 'string') {
      warn(`exsim: journal snapshot ${path} ignored: ${candidate}`);
      continue;
    }
    setup ??= captureParts(subject);
    const { meta, payload } = candidate;
    try {
      importParts(subject, payload.subarray(0, meta.engineBytes), payload.subarray(meta.engineBytes, meta.engineBytes + meta.historyBytes));
      const hash = subject.backend.engine.stateHash();
      if (hash !== meta.stateHash) throw new Error(`the state read back has hash ${hash.slice(0, 12)}, the snapshot recorded ${meta.stateHash.slice(0, 12)}`);
      const replayAt = meta.engineBytes + meta.historyBytes;
      const facadeText = payload.subarray(replayAt + meta.replayBytes).toString('utf8');
      const facade = JSON.parse(facadeText) as FacadeLine | null;
      const backend = subject.backend;
      if (backend instanceof Replay) {
        // Last, once the engine verified: reading the tape on to the snapshot's place cannot be undone.
        const state = deserialize(payload.subarray(replayAt, replayAt + meta.replayBytes)) as ReplayState;
        try {
          await backend.importState(state);
        } catch (error) {
          throw new InputError(`--journal ${journal.path}: the snapshot ${candidate.path} verified but its tape position cannot be reached (${error instanceof Error ? error.message : String(error)}); move the snapshot files away to replay the whole journal`);
        }
      } else if (meta.time !== null && meta.time > setupTime) {
        // Not through `backend.now`: a paced backend would jump to the wall clock's time.
        backend.advanceTo(meta.time);
      }
      return { start: { offset: meta.offset, commands: meta.commands, now: meta.time, facade }, used: { path: candidate.path, commands: meta.commands } };
    } catch (error) {
      if (error instanceof InputError) throw error;
      warn(`exsim: journal snapshot ${candidate.path} ignored: ${error instanceof Error ? error.message : String(error)}`);
      importParts(subject, setup.engine, setup.history);
    }
  }
  return { start: null, used: null };
}

function importParts(subject: SnapshotSubject, engine: Uint8Array, history: Uint8Array): void {
  const backend = subject.backend;
  backend.engine.importSnapshot(engine);
  const histories = deserialize(history) as [string, unknown[]][];
  for (const [symbol, fields] of histories) backend.history(symbol).importFields(fields);
}

/**
 * Takes a snapshot every `every` commands (0: never on the way) and at a clean stop, unless the
 * newest snapshot already holds every command (a restart that served none: what follows it is
 * a few clock and checkpoint lines).
 */
export class SnapshotSchedule {
  readonly #journal: WriteAheadLog;
  readonly #subject: SnapshotSubject;
  readonly #every: number;
  readonly #log: (written: SnapshotWritten) => void;
  #lastAt: number;
  /** Commands the newest snapshot holds (-1: none known). */
  #covered: number;

  constructor(journal: WriteAheadLog, subject: SnapshotSubject, every: number, log: (written: SnapshotWritten) => void, restoredFrom: number | null = null) {
    this.#journal = journal;
    this.#subject = subject;
    this.#every = every;
    this.#log = log;
    this.#lastAt = journal.commands;
    this.#covered = restoredFrom ?? -1;
  }

  /** At a clean stop: a snapshot, unless the newest holds every command already. */
  takeAtStop(stateHash: string): SnapshotWritten | null {
    return this.#covered === this.#journal.commands ? null : this.take(stateHash);
  }

  /** After a request's lines are written: a snapshot when `every` commands passed since the last. */
  maybeTake(): void {
    if (this.#every <= 0 || this.#journal.commands - this.#lastAt < this.#every) return;
    this.take();
  }

  take(stateHash?: string): SnapshotWritten | null {
    this.#lastAt = this.#journal.commands;
    try {
      const written = writeSnapshot(this.#journal, this.#subject, stateHash);
      this.#covered = written.commands;
      this.#log(written);
      return written;
    } catch (error) {
      // A snapshot is an optimisation: failing to write one never stops the server.
      console.error(`exsim: journal snapshot not written: ${error instanceof Error ? error.message : String(error)}`);
      rmSync(snapshotPaths(this.#journal.path).temp, { force: true });
      return null;
    }
  }
}
