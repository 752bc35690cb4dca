/**
 * The served exchange (`exsim serve`): the facade (src/api-facade) over a live backend on a
 * paced clock, durable, steerable. A product with invariants of its own:
 * - Durability: every command a request causes is in the write-ahead log before its answer
 *   leaves; replaying the log into the same setup gives the same engine state hash; the log is
 *   append-only and only a torn last line is ever cut; a snapshot is used only when it verifies.
 * - Time: the exchange sees simulated time only. Real time enters through the wall clock
 *   (`systemWallClock`, read by the pacing, the client clock rule and the control plane's window
 *   of failed authentications), the replay pacer's and the log's ticks, and nowhere else (each
 *   line marked `determinism-ok`).
 * - The control plane steers the simulation (clock, accounts), never the exchange's rules.
 *
 * Rooms: `serve.ts` (the wiring), `backends/` (static market, served replay and its pacer, the
 * logged wrapper), `durability/` (write-ahead log, restore, commit points, snapshots, facade lines
 * and host notes), `control/` (the control plane), `client-clock.ts`, `accounts-file.ts`,
 * `wall-clock.ts`, `live-pacer.ts`. The command line (src/cli) only parses arguments into
 * `ServeOptions`.
 */
export { serve, type ServeHandle, type ServeOptions } from './serve.ts';
export { PacedBackend } from './backends/paced-backend.ts';
export { DEFAULT_WARM_UP_US } from './backends/replay-backend.ts';
export { LoggedBackend } from './backends/logged-backend.ts';
export { ClientClock, pacedClientTime, replayClientTime } from './client-clock.ts';
export { loadServedAccounts, servedAccountsFrom, type ServedAccounts } from './accounts-file.ts';
export { ServeControl, type ClockView, type ControlRequest, type ControlResponse, type ServeControlOptions } from './control/control-plane.ts';
export { DEFAULT_FSYNC_BATCH_MS, FACADE_SNAPSHOT_EVERY, FSYNC_POLICIES, WriteAheadLog, type FsyncPolicy, type LogHeader } from './durability/write-ahead-log.ts';
export { openWriteAheadLog, replayWriteAheadLog, type RestoredServing, type WriteAheadLogOptions } from './durability/restore.ts';
export { attachWriteAheadLog, type AttachedLog } from './durability/commit.ts';
export { DEFAULT_SNAPSHOT_EVERY, snapshotPaths, type SnapshotWritten } from './durability/snapshots.ts';
export { HostNotes } from './durability/host-notes.ts';
export { FacadeLineMerger, FacadeLines, type FacadeLine } from './durability/facade-lines.ts';
export { systemWallClock } from './wall-clock.ts';
export { startLivePacer, type LivePacer, type LivePacerOptions } from './live-pacer.ts';
