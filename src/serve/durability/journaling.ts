/**
 * `exsim serve --journal`: the journal wired into a served exchange (serve-journal.ts has the
 * file and the restore). serve.ts calls, in order:
 *   1. `openServeJournal` before building the backend (an existing journal's start wins, a
 *      foreign one is refused),
 *   2. `restoreJournal` once the backend is set up (its setup commands applied), before the
 *      facade exists: replays the journal and returns the backend wrapped so every command the
 *      facade applies is journaled,
 *   3. `attachJournal` once the facade exists: puts back its counters, and gives the HTTP
 *      server its commit point and the serve adapter its tick and its close.
 *
 * Determinism: the tick (position lines and, under `batch`, the fdatasync) is the only host
 * timer, here in the serve adapter; what the journal holds depends only on the requests.
 */
import { captureFacadeChanges, captureFacadeState, restoreFacadeState, type ExchangeContext, type FacadeCommand, type MarketBackend, type EngineBackend } from '../../api-facade/index.ts';
import type { EngineCommand, EngineEvent, OrderFilledByMarket } from '../../engine/index.ts';
import type { Replay } from '../../sim/index.ts';
import type { MarketHistory } from '../../data/index.ts';
import { fingerprintData, openMarketData } from '../../backtest/index.ts';
import { readFileSync } from 'node:fs';
import { DEFAULT_FSYNC_BATCH_MS, journalFingerprint, ServeJournal, type FsyncPolicy, type JournalTarget, type RestoreResult } from './write-ahead-log.ts';
import { restoreSnapshot, SnapshotSchedule, type SnapshotSubject, type SnapshotWritten } from './snapshots.ts';

export interface JournalOptions {
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

/** Opens (or creates) the journal for this server's identity; `wallStart` is the simulated start of a new one. */
export async function openServeJournal(options: JournalOptions, wallStart: number): Promise<ServeJournal> {
  const seed = options.seed ?? '1';
  let data: unknown = 'static sample market';
  if (options.data !== undefined) {
    const market = openMarketData(options.data);
    data = (await fingerprintData(options.data, market.config.symbols.map((s) => s.symbol), 0, Number.MAX_SAFE_INTEGER)).sha256;
  }
  const accounts = options.accounts === undefined ? 'demo' : readFileSync(options.accounts, 'utf8');
  // --from joins the identity only when given, so journals written before it existed still open.
  const identity = { data, seed, accounts, faults: options.faults ?? null, ...(options.from === undefined ? {} : { from: options.from }) };
  const describe = `data ${options.data ?? 'none (static sample market)'}${options.from === undefined ? '' : ` from ${options.from}`}, seed ${seed}, accounts ${options.accounts ?? 'demo'}, faults ${JSON.stringify(options.faults ?? null)}`;
  return ServeJournal.open(options.journal, { fingerprint: journalFingerprint(identity), describe }, wallStart, options.fsync ?? 'batch');
}

/** How far a replay has come (tape prints replayed); undefined for a bare engine. */
type TapePosition = () => number | undefined;

/** A backend that journals every command the facade applies, with the time and tape position it ran at. */
export class JournaledBackend implements MarketBackend {
  readonly #inner: MarketBackend;
  readonly #journal: ServeJournal;
  readonly #position: TapePosition;
  onMarketFill?: (listener: (event: OrderFilledByMarket) => void) => void;
  onMarketEvents?: (listener: (events: readonly EngineEvent[]) => void) => void;

  constructor(inner: MarketBackend, journal: ServeJournal, position: TapePosition) {
    this.#inner = inner;
    this.#journal = journal;
    this.#position = position;
    // Present exactly when the inner backend has them (ExchangeContext looks).
    if (inner.onMarketFill !== undefined) this.onMarketFill = (listener) => inner.onMarketFill!(listener);
    if (inner.onMarketEvents !== undefined) this.onMarketEvents = (listener) => inner.onMarketEvents!(listener);
  }

  get engine(): MarketBackend['engine'] {
    return this.#inner.engine;
  }

  get now(): number {
    return this.#inner.now;
  }

  apply(command: FacadeCommand): readonly EngineEvent[] {
    const time = this.#inner.now;
    const events = this.#inner.apply(command);
    this.#journal.command(command, time, this.#position());
    return events;
  }

  history(symbol: string): MarketHistory {
    return this.#inner.history(symbol);
  }
}

export type JournalBackendKind = { readonly replay: Replay } | { readonly engine: EngineBackend; readonly start: number };

export interface RestoredServing {
  readonly backend: JournaledBackend;
  readonly restored: RestoreResult;
  /** The tape position now (replays). */
  readonly position: TapePosition;
  /** The engine's state hash now. */
  readonly stateHash: () => string;
  /** What snapshots capture (serve-snapshot.ts). */
  readonly snapshots: SnapshotSubject | null;
  /** The snapshot the restore started from, if any. */
  readonly snapshotUsed: { readonly path: string; readonly commands: number } | null;
}

/** Replays the journal into the freshly set-up backend; returns it wrapped for journaling. */
export async function restoreJournal(journal: ServeJournal, kind: JournalBackendKind): Promise<RestoredServing> {
  let target: JournalTarget;
  let position: TapePosition;
  let inner: MarketBackend;
  let snapshots: SnapshotSubject | null = null;
  let from: Parameters<ServeJournal['restore']>[1] = null;
  let snapshotUsed: RestoredServing['snapshotUsed'] = null;
  if ('replay' in kind) {
    const replay = kind.replay;
    inner = replay;
    snapshots = { backend: replay, ctx: null };
    if (journal.existing) {
      const snapshot = await restoreSnapshot(journal, snapshots, replay.now);
      from = snapshot.start;
      snapshotUsed = snapshot.used;
    }
    position = () => replay.stats.tapeTrades;
    target = {
      advance: (time, prints) =>
        time > replay.now || (prints !== undefined && prints > replay.stats.tapeTrades) ? replay.runUntil(time, prints ?? Infinity) : undefined,
      // Replay.apply stamps `time` itself: the journaled one is the same.
      apply: (command) => void replay.apply(command),
      stateHash: () => replay.engine.stateHash(),
    };
  } else {
    const backend = kind.engine;
    inner = backend;
    let now = kind.start;
    snapshots = { backend, ctx: null };
    if (journal.existing) {
      const snapshot = await restoreSnapshot(journal, snapshots, kind.start);
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
  const restored = journal.existing ? await journal.restore(target, from) : { commands: 0, now: null, facade: null, checkpoints: 0, droppedBytes: 0 };
  return { backend: new JournaledBackend(inner, journal, position), restored, position, stateHash: target.stateHash, snapshots, snapshotUsed };
}

export interface AttachedJournal {
  /** The HTTP server's commit point (HttpServerOptions.beforeAnswer). */
  readonly beforeAnswer: () => Promise<void> | undefined;
  /** The control plane's: the same, plus the clock's position (it may have moved with no command). */
  readonly commitControl: () => Promise<void> | undefined;
  /** Writes the position and a checkpoint, syncs and closes; returns the engine's state hash. */
  close(): Promise<string>;
}

export interface SnapshotOptions {
  /** Commands between two snapshots (0: only at a clean stop). */
  readonly every: number;
  /** Told about each snapshot written. */
  readonly log?: (written: SnapshotWritten) => void;
}

/** Puts back the facade's counters and starts the tick; see the header. */
export function attachJournal(journal: ServeJournal, ctx: ExchangeContext, serving: RestoredServing, fsyncMs = DEFAULT_FSYNC_BATCH_MS, snapshotOptions?: SnapshotOptions): AttachedJournal {
  if (serving.restored.facade !== null) restoreFacadeState(ctx, serving.restored.facade);
  captureFacadeChanges(ctx); // what the restore itself touched is in the journal already
  let schedule: SnapshotSchedule | null = null;
  if (serving.snapshots !== null && snapshotOptions !== undefined) {
    serving.snapshots.ctx = ctx;
    schedule = new SnapshotSchedule(journal, serving.snapshots, snapshotOptions.every, snapshotOptions.log ?? (() => {}), serving.snapshotUsed?.commands ?? null);
  }
  const backend = serving.backend;
  // determinism-ok: the serve adapter's journal tick (fdatasync under `batch`, the clock's position); the journal's content does not depend on it
  const tick = setInterval(() => {
    // Market fills between requests lower unfilled order counts: journaled here if no request did.
    journal.facade(captureFacadeChanges(ctx), () => captureFacadeState(ctx));
    journal.position(backend.now, serving.position());
    journal.commit();
    if (journal.policy === 'batch' && journal.unsynced) journal.sync().catch((error: unknown) => console.error(`exsim: journal fdatasync failed: ${String(error)}`));
  }, fsyncMs);
  tick.unref();
  return {
    beforeAnswer: () => {
      journal.facade(captureFacadeChanges(ctx), () => captureFacadeState(ctx));
      const committed = journal.commit();
      // Between two requests, with this one's lines written: the state a snapshot must hold.
      schedule?.maybeTake();
      return committed;
    },
    commitControl: () => {
      journal.facade(captureFacadeChanges(ctx), () => captureFacadeState(ctx));
      journal.position(backend.now, serving.position());
      return journal.commit();
    },
    async close() {
      clearInterval(tick);
      journal.facade(captureFacadeChanges(ctx), () => captureFacadeState(ctx));
      journal.position(backend.now, serving.position());
      const hash = serving.stateHash();
      journal.checkpoint(hash);
      schedule?.takeAtStop(hash);
      await journal.close();
      return hash;
    },
  };
}
