/**
 * One queued backtest: the run as the command line asked for it (window and symbols resolved),
 * the strategy's source and the data's fingerprint. Its job id is a hash of all of that (and of
 * exsim's version), so the same run submitted again is the same job: BullMQ keeps a finished job
 * and its result, and a resubmitted sweep reuses it instead of running it again.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { JobsOptions } from 'bullmq';
import type { BacktestRequest } from '../backtest-request.ts';
import type { DataFingerprint } from '../../data/index.ts';
import type { StrategySource } from './strategy-source.ts';

/** Bumped when a job's shape changes: a worker refuses a format it does not read. */
export const JOB_FORMAT = 1;

const EXSIM_VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** A backtest request as it crosses machines: plain JSON, the window resolved, no strategy path. */
export type QueuedRun = Omit<BacktestRequest, 'strategy' | 'sharedTapes'> & { readonly from: number; readonly to: number; readonly symbols: readonly string[] };

export interface SweepJob {
  readonly format: typeof JOB_FORMAT;
  readonly run: QueuedRun;
  readonly strategy: StrategySource;
  readonly data: DataFingerprint;
}

/**
 * Each run once (attempts 1: a strategy that throws fails the same way every time; its error is
 * the job's result), kept after it finishes so a resubmission finds it.
 */
export const JOB_OPTIONS: JobsOptions = { attempts: 1, removeOnComplete: false, removeOnFail: false };

/** JSON with every object's keys sorted: the same run hashes the same whatever order its fields were built in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * The job id: a hash of everything the result depends on. The data's label (`data`) is left out,
 * its fingerprint is in; so is every other field of the request, including ones added later.
 */
export function sweepJobId(job: SweepJob): string {
  const { data: _label, ...run } = job.run;
  return createHash('sha256').update(canonicalJson({ format: job.format, exsim: EXSIM_VERSION, run, strategy: job.strategy.sha256, data: job.data.sha256 })).digest('hex');
}

/**
 * The perpetuals whose futures/um files a job's data fingerprint counts: every replayed spot
 * symbol's, not only those `--futures` names, since a strategy module's own `futures` export is
 * not known where the job is made (the strategy is only read by the worker) and a perpetual
 * needs its spot symbol in the replay. Submitter and worker both use this, so they agree; a
 * spot-only run over a folder with futures files only loses reuse when those files change.
 */
export function fingerprintedPerpetuals(run: { readonly symbols: readonly string[]; readonly futures?: readonly string[] | undefined }): string[] {
  // A `futures` entry may carry its funding interval (`BTCUSDT:4h`): the name is before the colon.
  return [...new Set([...run.symbols, ...(run.futures ?? []).map((f) => f.split(':')[0]!.toUpperCase())])];
}

/** `k=v,k2=v2`: a run's parameters in a log line. */
export function paramsText(params: Readonly<Record<string, string>>): string {
  return Object.entries(params).map(([k, v]) => `${k}=${v}`).join(',') || '(defaults)';
}
