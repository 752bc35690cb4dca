/**
 * A sweep worker: pulls queued backtests (sweep-job.ts) and runs them with the local backtest code.
 *
 *   BullMQ Worker (main thread: job locks, renewals, stalled checks)
 *     └─ per job: the job's data fingerprint against this machine's data folder (refuse if they
 *        differ), the strategy's source to a content-addressed file, then the run on the same
 *        worker-thread pool and task the local sweep uses (sweep.ts: createSweepPool, runInPool)
 *
 * Like the local sweep, a worker reads a window's tapes once into shared memory and lends them to
 * every job over the same data, window and symbols (`SharedTapeCache`: the most recent windows,
 * up to `--tape-rows` prints in all, 20M by default), so a window is parsed once per worker, not
 * once per job. A month of BTCUSDT trades (~45M prints, ~1.9 GB) needs the bound raised; over it,
 * each job streams its own. The data check runs first, so a cached window is the fingerprinted data.
 *
 * The backtests run on worker threads, so the main thread stays free to renew job locks however
 * long a backtest takes. A worker killed mid-job stops renewing; once the lock runs out another
 * worker's stalled check puts the job back on the queue and it runs again from the start (a
 * backtest is deterministic: the result is the same). A refusal (other data, a format this worker
 * does not read) fails the job with the reason; a strategy that throws completes it with its error
 * as the result (runInPool), so neither is retried.
 */
import { hostname } from 'node:os';
import type { Job } from 'bullmq';
import { createSweepPool, isSweepFailure, runInPool, type SweepOutcome } from '../sweep.ts';
import { cacheWindow, loadSharedTapes, openMarketData, SHARED_TAPE_MAX_ROWS, type SharedTape } from '../market-data.ts';
import { dataDifference, fingerprintData } from '../../data/index.ts';
import { openRedis, QUEUE_NAME, queueConnection } from './queue-connection.ts';
import { materializeStrategy } from './strategy-source.ts';
import { fingerprintedPerpetuals, JOB_FORMAT, paramsText, type SweepJob } from './sweep-job.ts';

export interface QueueWorkerOptions {
  readonly url: string;
  /** Backtests at a time (worker threads). Default 1. */
  readonly concurrency?: number;
  /** This machine's data: `sample` or a folder. Default: the folder the job names (a shared mount). */
  readonly data?: string;
  /** How long a job's lock lasts without renewal, ms: a killed worker's job is taken up again about this much later. Default 30 s. */
  readonly lockDurationMs?: number;
  /** Prints the tape cache may hold in shared memory (default SHARED_TAPE_MAX_ROWS; 0: every job reads its own). */
  readonly tapeRows?: number;
  readonly log?: (line: string) => void;
}

export interface QueueWorker {
  readonly name: string;
  /** Finishes the running backtests, then disconnects. */
  close(): Promise<void>;
}

export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  const concurrency = options.concurrency ?? 1;
  const lockDuration = options.lockDurationMs ?? 30_000;
  const log = options.log ?? (() => {});
  const name = `${hostname()}:${process.pid}`;
  (await openRedis(options.url)).disconnect(); // an unreachable Redis is one clear error here
  const [connection, { UnrecoverableError, Worker }] = await Promise.all([queueConnection(options.url), import('bullmq')]);
  const pool = createSweepPool(concurrency);
  const tapes = new SharedTapeCache(options.tapeRows ?? SHARED_TAPE_MAX_ROWS);

  const runJob = async (job: Job<SweepJob, SweepOutcome>): Promise<SweepOutcome> => {
    const { format, run, strategy, data } = job.data;
    const tag = `${job.id!.slice(0, 12)} ${paramsText(run.params)}`;
    const refuse = (reason: string): never => {
      log(`refused ${tag}: ${reason}`);
      throw new UnrecoverableError(`worker ${name} refused the job: ${reason}`);
    };
    if (format !== JOB_FORMAT) refuse(`job format ${String(format)}, this worker reads format ${JOB_FORMAT} (run the same exsim version)`);
    const folder = options.data ?? run.data;
    const here = await fingerprintData(folder, run.symbols, run.from, run.to, fingerprintedPerpetuals(run)).catch((error: unknown) => refuse(`cannot read its data ${folder}: ${error instanceof Error ? error.message : String(error)}`));
    const difference = dataDifference(data, here);
    if (difference !== null) refuse(`its data (${folder}) is not the submitter's: ${difference}`);
    const spec = await materializeStrategy(strategy).catch((error: unknown) => refuse(error instanceof Error ? error.message : String(error)));
    // A window that cannot be read into memory: the run reads it itself (and reports what is wrong with it).
    const sharedTapes = await tapes.get(here.sha256, folder, run.symbols, run.from, run.to).catch(() => null);
    log(`start ${tag}`);
    const started = performance.now(); // determinism-ok: the job's wall time in the worker's log
    const outcome = await runInPool(pool, { ...run, strategy: spec, data: folder, ...(sharedTapes === null ? {} : { sharedTapes }) });
    const seconds = ((performance.now() - started) / 1000).toFixed(3); // determinism-ok: as above
    log(isSweepFailure(outcome) ? `failed ${tag}: ${outcome.error}` : `done ${tag}: pnl ${outcome.pnl}, journal ${outcome.journalSha256.slice(0, 12)} (${seconds} s)`);
    return outcome;
  };

  const worker = new Worker<SweepJob, SweepOutcome>(QUEUE_NAME, runJob, {
    connection,
    name,
    concurrency,
    lockDuration,
    // Look for stalled jobs (a killed worker's) as often as a lock lasts; let one be taken up a few times before it counts as failed.
    stalledInterval: lockDuration,
    maxStalledCount: 3,
  });
  worker.on('error', (error) => log(`queue error: ${error.message}`));
  await worker.waitUntilReady();
  log(`worker ${name} ready: queue ${options.url}, ${concurrency} thread${concurrency === 1 ? '' : 's'}, data ${options.data ?? '(as each job names it)'}`);
  return {
    name,
    close: async () => {
      await worker.close();
      await pool.destroy();
    },
  };
}

/**
 * Windows of tapes in shared memory, keyed by (data fingerprint, folder, symbols, window), the
 * most recently used last; the oldest go once the rows held pass the bound. A window too big to
 * share (loadSharedTapes' null), or one the columnar tape cache holds (cacheWindow), is remembered
 * as such: each of its jobs streams its own.
 */
export class SharedTapeCache {
  readonly #entries = new Map<string, { readonly tapes: Promise<SharedTape[] | null>; rows: number }>();
  readonly #maxRows: number;

  constructor(maxRows = SHARED_TAPE_MAX_ROWS) {
    this.#maxRows = maxRows;
  }

  get(fingerprint: string, folder: string, symbols: readonly string[], from: number, to: number): Promise<SharedTape[] | null> {
    const key = JSON.stringify([fingerprint, folder, symbols, from, to]);
    let entry = this.#entries.get(key);
    if (entry !== undefined) {
      this.#entries.delete(key); // move to the end: most recently used
      this.#entries.set(key, entry);
      return entry.tapes;
    }
    const data = openMarketData(folder);
    // A window the columnar tape cache holds is streamed by each job from it (no parse, nothing held here).
    const load = async (): Promise<SharedTape[] | null> => ((await cacheWindow(data, symbols, from, to)) ? null : loadSharedTapes(data, symbols, from, to, this.#maxRows));
    const created = { tapes: load(), rows: 0 };
    entry = created;
    this.#entries.set(key, entry);
    void created.tapes.then(
      (loaded) => {
        created.rows = (loaded ?? []).reduce((sum, t) => sum + t.batch.length, 0);
        this.#evict(key);
      },
      () => this.#entries.delete(key), // a failed read is not cached: the next job tries again
    );
    return created.tapes;
  }

  /** Drops the least recently used windows (never `keep`) while the rows held exceed the bound. */
  #evict(keep: string): void {
    let rows = 0;
    for (const entry of this.#entries.values()) rows += entry.rows;
    for (const [key, entry] of this.#entries) {
      if (rows <= this.#maxRows) break;
      if (key === keep) continue;
      this.#entries.delete(key);
      rows -= entry.rows;
    }
  }

  /** Windows held (loaded or loading). */
  get size(): number {
    return this.#entries.size;
  }
}
