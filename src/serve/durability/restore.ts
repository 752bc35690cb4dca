/**
 * Before a served exchange answers anything: its write-ahead log opened for its identity, and
 * what the log holds replayed into the freshly built backend (from the newest snapshot that fits,
 * snapshots.ts). serve.ts calls, in order:
 *   1. `openWriteAheadLog` before building the backend (an existing log's start wins, a foreign
 *      one is refused),
 *   2. `replayWriteAheadLog` once the backend is set up (its setup commands applied), before the
 *      facade exists: returns the backend wrapped so every command the facade applies is logged,
 *   3. `attachWriteAheadLog` (commit.ts) once the facade exists.
 */
import { readFileSync } from 'node:fs';
import type { EngineBackend, MarketBackend } from '../../api-facade/index.ts';
import { fingerprintData, openMarketData } from '../../data/index.ts';
import type { EngineCommand } from '../../engine/index.ts';
import type { Replay } from '../../sim/index.ts';
import { LoggedBackend, type TapePosition } from '../backends/logged-backend.ts';
import { restoreSnapshot, type SnapshotSubject } from './snapshots.ts';
import { identityFingerprint, WriteAheadLog, type FsyncPolicy, type LogTarget, type RestoreResult, type RestoreStart } from './write-ahead-log.ts';

/** What identifies a served exchange (a log of another identity is refused), and the log's settings. */
export interface WriteAheadLogOptions {
  readonly journal: string;
  readonly fsync?: FsyncPolicy;
  /** fdatasync period under `batch`, ms. */
  readonly fsyncMs?: number;
  readonly data?: string;
  readonly seed?: string;
  readonly accounts?: string;
  readonly faults?: unknown;
  /** Where a served replay starts (serve --from): part of its identity (the warm-up differs). */
  readonly from?: string;
}

/** Opens (or creates) the log for this server's identity; `wallStart` is the simulated start of a new one. */
export async function openWriteAheadLog(options: WriteAheadLogOptions, wallStart: number): Promise<WriteAheadLog> {
  const seed = options.seed ?? '1';
  let data: unknown = 'static sample market';
  if (options.data !== undefined) {
    const market = openMarketData(options.data);
    data = (await fingerprintData(options.data, market.config.symbols.map((s) => s.symbol), 0, Number.MAX_SAFE_INTEGER)).sha256;
  }
  const accounts = options.accounts === undefined ? 'demo' : readFileSync(options.accounts, 'utf8');
  // --from joins the identity only when given, so logs written before it existed still open.
  const identity = { data, seed, accounts, faults: options.faults ?? null, ...(options.from === undefined ? {} : { from: options.from }) };
  const describe = `data ${options.data ?? 'none (static sample market)'}${options.from === undefined ? '' : ` from ${options.from}`}, seed ${seed}, accounts ${options.accounts ?? 'demo'}, faults ${JSON.stringify(options.faults ?? null)}`;
  return WriteAheadLog.open(options.journal, { fingerprint: identityFingerprint(identity), describe }, wallStart, options.fsync ?? 'batch');
}

export type LoggedBackendKind = { readonly replay: Replay } | { readonly engine: EngineBackend; readonly start: number };

export interface RestoredServing {
  readonly backend: LoggedBackend;
  readonly restored: RestoreResult;
  /** The tape position now (replays). */
  readonly position: TapePosition;
  /** The engine's state hash now. */
  readonly stateHash: () => string;
  /** What snapshots capture (snapshots.ts). */
  readonly snapshots: SnapshotSubject;
  /** The snapshot the restore started from, if any. */
  readonly snapshotUsed: { readonly path: string; readonly commands: number } | null;
}

/** Replays the log into the freshly set-up backend; returns it wrapped for logging. */
export async function replayWriteAheadLog(log: WriteAheadLog, kind: LoggedBackendKind): Promise<RestoredServing> {
  let target: LogTarget;
  let position: TapePosition;
  let inner: MarketBackend;
  let snapshots: SnapshotSubject;
  let from: RestoreStart | null = null;
  let snapshotUsed: RestoredServing['snapshotUsed'] = null;
  if ('replay' in kind) {
    const replay = kind.replay;
    inner = replay;
    snapshots = { backend: replay, facade: null };
    if (log.existing) {
      const snapshot = await restoreSnapshot(log, snapshots, replay.now);
      from = snapshot.start;
      snapshotUsed = snapshot.used;
    }
    position = () => replay.stats.tapeTrades;
    target = {
      advance: (time, prints) =>
        time > replay.now || (prints !== undefined && prints > replay.stats.tapeTrades) ? replay.runUntil(time, prints ?? Infinity) : undefined,
      // Replay.apply stamps `time` itself: the logged one is the same.
      apply: (command) => void replay.apply(command),
      stateHash: () => replay.engine.stateHash(),
    };
  } else {
    const backend = kind.engine;
    inner = backend;
    let now = kind.start;
    snapshots = { backend, facade: null };
    if (log.existing) {
      const snapshot = await restoreSnapshot(log, snapshots, kind.start);
      from = snapshot.start;
      snapshotUsed = snapshot.used;
      if (from?.now != null && from.now > now) now = from.now;
    }
    position = () => undefined;
    target = {
      // Not through `backend.now`: a paced backend would jump to the wall clock's time.
      advance: (time) => {
        if (time !== now) backend.advanceTo(time);
        now = time;
      },
      apply: (command) => void backend.applyRaw(command as EngineCommand),
      stateHash: () => backend.engine.stateHash(),
    };
  }
  const restored = log.existing ? await log.restore(target, from) : { commands: 0, now: null, facade: null, checkpoints: 0, droppedBytes: 0 };
  return { backend: new LoggedBackend(inner, log, position), restored, position, stateHash: target.stateHash, snapshots, snapshotUsed };
}
