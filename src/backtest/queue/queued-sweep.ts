/**
 * A sweep over the queue, the submitter's side: every combination of the grid becomes one job
 * (sweep-job.ts), jobs already finished are reused, the others are added, and the results come
 * back through the queue's event stream as workers finish them, in grid order, as the same
 * `SweepResult` the local sweep returns (so sweep.json is written by the same code).
 *
 *   resolve window + symbols ─> fingerprint the data, read the strategy ─> job ids
 *     ─> completed? reuse │ failed? retry │ waiting/active? wait for it │ unknown? add
 *     ─> completed / failed events (plus a slow poll of the states, in case an event was missed)
 *
 * A job that failed (a worker refused it, or it stalled too often) is a failure row with the
 * reason. An abort (Ctrl-C) takes the sweep's waiting jobs off the queue; running ones finish on
 * their workers and stay for the next submission.
 */
import type { QueueEvents } from 'bullmq';
import type { BacktestRequest } from '../backtest-request.ts';
import { InputError } from '../input-error.ts';
import { resolveSweepMarket, sweepRuns, type SweepOutcome, type SweepResult } from '../sweep.ts';
import { fingerprintData } from '../../data/index.ts';
import { openRedis, QUEUE_NAME, queueConnection } from './queue-connection.ts';
import { readStrategySource } from './strategy-source.ts';
import { fingerprintedPerpetuals, JOB_FORMAT, JOB_OPTIONS, sweepJobId, type QueuedRun, type SweepJob } from './sweep-job.ts';

export interface QueuedSweepProgress {
  readonly done: number;
  readonly total: number;
  readonly outcome: SweepOutcome;
  /** Finished before this submission: taken from the queue, not run. */
  readonly reused: boolean;
}

export interface QueuedSweepOptions {
  /** `redis://HOST:PORT[/DB]` (checked by parseQueueUrl). */
  readonly url: string;
  /** After the jobs are on the queue: how many were added, reused, or already waiting or running. */
  readonly onQueued?: (counts: { added: number; reused: number; pending: number; total: number }) => void;
  readonly onProgress?: (progress: QueuedSweepProgress) => void;
  /** Aborting takes the sweep's waiting jobs off the queue and rejects with an InputError. */
  readonly signal?: AbortSignal;
  /** How often the job states are polled besides the events, ms. */
  readonly pollMs?: number;
  /**
   * Each run's report folder under this folder (--sweep-reports), written by the worker that
   * runs it (a path on its machine). The folder is part of the job: a run asked with reports is
   * a different job from the same run without.
   */
  readonly reportsRoot?: string;
}

export interface QueuedSweepResult extends SweepResult {
  /** Results found finished on the queue. */
  readonly reused: number;
}

/** Status calls go out in chunks of this many (pipelined by the client, one round trip each). */
const CHUNK = 500;

export async function runQueuedSweep(request: BacktestRequest, grid: readonly Record<string, string>[], options: QueuedSweepOptions): Promise<QueuedSweepResult> {
  const { symbols, from, to } = await resolveSweepMarket(request);
  const { sharedTapes: _shared, strategy: spec, ...plain } = request;
  const runs = sweepRuns({ ...plain, strategy: spec, from, to, symbols }, grid, options.reportsRoot).map(({ strategy: _spec, ...run }) => run as QueuedRun);
  const strategy = await readStrategySource(spec);
  const data = await fingerprintData(request.data, symbols, from, to, fingerprintedPerpetuals({ symbols, futures: request.futures }));
  const jobs = runs.map((run) => ({ format: JOB_FORMAT, run, strategy, data }) satisfies SweepJob);
  const ids = jobs.map(sweepJobId);
  const slots = new Map<string, number[]>();
  ids.forEach((id, i) => slots.set(id, [...(slots.get(id) ?? []), i]));

  const redis = await openRedis(options.url);
  const [connection, { Job, Queue, QueueEvents }] = await Promise.all([queueConnection(options.url), import('bullmq')]);
  const queue = new Queue<SweepJob, SweepOutcome>(QUEUE_NAME, { connection });
  let events: QueueEvents | null = null;
  let poll: NodeJS.Timeout | null = null;
  const started = performance.now(); // determinism-ok: the sweep's wall time, for the user, never in sweep.json
  try {
    await queue.waitUntilReady();
    // Events from here on: anything that finishes after this point is heard, what finished before is found by its state.
    const last = await redis.xrevrange(queue.keys.events!, '+', '-', 'COUNT', 1);
    events = new QueueEvents(QUEUE_NAME, { connection, lastEventId: last[0]?.[0] ?? '0-0' });
    await events.waitUntilReady();

    const rows: (SweepOutcome | undefined)[] = new Array(jobs.length);
    let done = 0;
    let reused = 0;
    let heard = false;
    let finish: () => void = () => {};
    const allDone = new Promise<void>((resolve) => (finish = resolve));
    const settle = (id: string, outcome: (index: number) => SweepOutcome, fromBefore: boolean): void => {
      const at = slots.get(id);
      if (at === undefined || rows[at[0]!] !== undefined) return;
      heard = true;
      for (const i of at) {
        rows[i] = outcome(i);
        done++;
        if (fromBefore) reused++;
        options.onProgress?.({ done, total: jobs.length, outcome: rows[i]!, reused: fromBefore });
      }
      if (done === jobs.length) finish();
    };
    const failure = (reason: string) => (i: number): SweepOutcome => ({ params: runs[i]!.params, error: reason });
    /** Takes a finished job's result (or failure) from the queue. */
    const settleFinished = async (id: string, state: 'completed' | 'failed', fromBefore: boolean): Promise<void> => {
      const job = await Job.fromId<SweepJob, SweepOutcome>(queue, id);
      if (job === undefined) return;
      if (state === 'completed') settle(id, () => job.returnvalue, fromBefore);
      else settle(id, failure(job.failedReason), fromBefore);
    };
    events.on('completed', ({ jobId, returnvalue }) => settle(jobId, () => returnvalue as unknown as SweepOutcome, false));
    events.on('failed', ({ jobId, failedReason }) => settle(jobId, failure(failedReason), false));

    // What is on the queue already: reuse finished results, retry failed jobs, wait for pending ones, add the rest.
    const distinct = [...slots.keys()];
    const toAdd: string[] = [];
    let pending = 0;
    let retried = 0;
    for (let lo = 0; lo < distinct.length; lo += CHUNK) {
      const chunk = distinct.slice(lo, lo + CHUNK);
      const states = await Promise.all(chunk.map((id) => queue.getJobState(id)));
      await Promise.all(
        chunk.map(async (id, k) => {
          const state = states[k]!;
          if (state === 'unknown') toAdd.push(id);
          else if (state === 'completed') await settleFinished(id, 'completed', true);
          else if (state === 'failed') {
            // A refusal or a stall is about a worker, not the run: try it again.
            await (await Job.fromId(queue, id))?.retry('failed');
            retried++;
          } else pending++;
        }),
      );
    }
    toAdd.sort((a, b) => slots.get(a)![0]! - slots.get(b)![0]!);
    for (let lo = 0; lo < toAdd.length; lo += CHUNK) {
      await queue.addBulk(toAdd.slice(lo, lo + CHUNK).map((id) => ({ name: 'backtest', data: jobs[slots.get(id)![0]!]!, opts: { ...JOB_OPTIONS, jobId: id } })));
    }
    options.onQueued?.({ added: toAdd.length + retried, reused, pending, total: jobs.length });

    // The events carry the results; the poll only catches one that was missed (a trimmed stream, a
    // reconnect), and only asks Redis after a quiet interval.
    poll = setInterval(() => {
      if (heard) {
        heard = false;
        return;
      }
      void (async () => {
        const open = distinct.filter((id) => rows[slots.get(id)![0]!] === undefined);
        for (let lo = 0; lo < open.length; lo += CHUNK) {
          const chunk = open.slice(lo, lo + CHUNK);
          const states = await Promise.all(chunk.map((id) => queue.getJobState(id)));
          await Promise.all(
            chunk.map((id, k) => {
              const state = states[k];
              return state === 'completed' || state === 'failed' ? settleFinished(id, state, false) : null;
            }),
          );
        }
      })().catch(() => {});
    }, options.pollMs ?? 2000); // determinism-ok: polling a remote queue, not the simulation
    if (done === jobs.length) finish();

    await new Promise<void>((resolve, reject) => {
      void allDone.then(resolve);
      if (options.signal !== undefined) {
        if (options.signal.aborted) reject(new Error('aborted'));
        options.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      }
    }).catch(async () => {
      const open = distinct.filter((id) => rows[slots.get(id)![0]!] === undefined);
      let removed = 0;
      let running = 0;
      for (const id of open) {
        const state = await queue.getJobState(id);
        if (state === 'waiting' || state === 'delayed' || state === 'prioritized') removed += await queue.remove(id);
        else if (state === 'active') running++;
      }
      throw new InputError(`interrupted: took ${removed} waiting backtests off the queue${running > 0 ? `; ${running} running ones finish on their workers and stay on the queue for the next submission` : ''}`);
    });
    const wallMs = performance.now() - started; // determinism-ok: as above
    return { varied: Object.keys(grid[0] ?? {}), rows: rows as SweepOutcome[], workers: 0, wallMs, reused };
  } finally {
    if (poll !== null) clearInterval(poll);
    await events?.close();
    await queue.close();
    redis.disconnect();
  }
}
