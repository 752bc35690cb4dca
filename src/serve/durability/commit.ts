/**
 * The write-ahead log once the facade exists (restore.ts has what comes before): the facade's
 * counters put back, the commit points (before an HTTP or WebSocket answer, after a control-plane
 * request), snapshots on their schedule, the tick, and the clean close.
 *
 * Determinism: the tick (position lines and, under `batch`, the fdatasync) is the only host
 * timer here; what the log holds depends only on the requests.
 */
import type { ExchangeContext } from '../../api-facade/index.ts';
import { FacadeLines } from './facade-lines.ts';
import type { HostNotes } from './host-notes.ts';
import type { RestoredServing } from './restore.ts';
import { SnapshotSchedule, type SnapshotWritten } from './snapshots.ts';
import { DEFAULT_FSYNC_BATCH_MS, type WriteAheadLog } from './write-ahead-log.ts';

export interface AttachedLog {
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

/** Puts back the facade's counters and the host's notes, and starts the tick; see the header. */
export function attachWriteAheadLog(log: WriteAheadLog, ctx: ExchangeContext, notes: HostNotes, serving: RestoredServing, fsyncMs = DEFAULT_FSYNC_BATCH_MS, snapshotOptions?: SnapshotOptions): AttachedLog {
  const lines = new FacadeLines(ctx, notes);
  if (serving.restored.facade !== null) lines.restore(serving.restored.facade);
  lines.change(); // what the restore itself touched is in the log already
  let schedule: SnapshotSchedule | null = null;
  if (snapshotOptions !== undefined) {
    serving.snapshots.facade = () => lines.full();
    schedule = new SnapshotSchedule(log, serving.snapshots, snapshotOptions.every, snapshotOptions.log ?? (() => {}), serving.snapshotUsed?.commands ?? null);
  }
  const backend = serving.backend;
  // The log's content does not depend on this tick: it writes what requests already changed.
  const tick = setInterval(() => { // determinism-ok: the log's tick (fdatasync under `batch`, the clock's position)
    // Market fills between requests lower unfilled order counts: logged here if no request did.
    log.facade(lines.change(), () => lines.full());
    log.position(backend.now, serving.position());
    log.commit();
    if (log.policy === 'batch' && log.unsynced) log.sync().catch((error: unknown) => console.error(`exsim: journal fdatasync failed: ${String(error)}`));
  }, fsyncMs);
  tick.unref();
  return {
    beforeAnswer: () => {
      log.facade(lines.change(), () => lines.full());
      const committed = log.commit();
      // Between two requests, with this one's lines written: the state a snapshot must hold.
      schedule?.maybeTake();
      return committed;
    },
    commitControl: () => {
      log.facade(lines.change(), () => lines.full());
      log.position(backend.now, serving.position());
      return log.commit();
    },
    async close() {
      clearInterval(tick);
      log.facade(lines.change(), () => lines.full());
      log.position(backend.now, serving.position());
      const hash = serving.stateHash();
      log.checkpoint(hash);
      schedule?.takeAtStop(hash);
      await log.close();
      return hash;
    },
  };
}
