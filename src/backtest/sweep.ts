/**
 * Parameter sweeps: `--sweep 'spread=0.001,0.002;size=0.01,0.02'` is the grid of every
 * combination (here 4), each one backtest with the same data, seed and window, run on a pool of
 * worker threads (piscina: a maintained pool with a task queue, so N backtests share W threads
 * and each thread keeps its loaded modules between tasks). Data the columnar tape cache can hold
 * (trades or aggTrades files of a cacheable size: src/data/tape-cache.ts) is put there first and
 * each worker streams its window from it, with no parse and one cache part ahead, so memory per
 * worker does not grow with the window; other data (the sample, klines) is loaded once by the main
 * thread into shared memory and every worker replays those bytes (above SHARED_TAPE_MAX_ROWS
 * rows, each worker streams the data itself instead, to bound memory);
 * the rows come back in grid order whatever order the workers finish in, so the table and
 * sweep.json are the same on every run. Each row carries its journal hash: the same
 * combination gives the same hash as a single `exsim backtest` of it. A combination whose
 * backtest fails (the strategy throws) is a row with its error, not the end of the sweep.
 *
 * The same runs can go over a Redis queue instead (`queue/`): `sweepRuns` names them,
 * `runInPool` runs one on a pool as both paths do, and `sweepJson` writes what either returns.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import type { BacktestRequest } from './backtest-request.ts';
import type { EquityCurve } from './equity-curve.ts';
import type { LoadedStrategy } from './load-strategy.ts';
import { InputError } from './input-error.ts';
import { cacheWindow, chooseSymbols, loadSharedTapes, openMarketData, resolveWindow, type MarketData } from './market-data.ts';

export const MAX_SWEEP_RUNS = 1000;
/** Over a queue the runs are spread over many machines: a larger grid is fine. */
export const MAX_QUEUED_SWEEP_RUNS = 100_000;

export interface SweepRow {
  readonly params: Readonly<Record<string, string>>;
  readonly pnl: string;
  readonly return: number | null;
  /** PnL and return over holding the opening balances (what trading added). */
  readonly vsHold: string;
  readonly excessReturn: number | null;
  readonly maxDrawdown: string;
  /** Annualised from the per-minute returns (see metrics.ts). */
  readonly sharpe: number | null;
  readonly fills: number;
  readonly fees: string;
  readonly orders: number;
  readonly journalSha256: string;
}

/** A row with what walk-forward also needs of a run (sweep-task.ts `curve`): never written to sweep.json. */
export interface SweepRowWithCurve extends SweepRow {
  readonly holdReturn: number | null;
  readonly curve: EquityCurve;
}

/** A combination whose backtest failed: its parameters and the error, in place of its row. */
export interface SweepFailure {
  readonly params: Readonly<Record<string, string>>;
  readonly error: string;
}

export type SweepOutcome = SweepRow | SweepFailure;

export const isSweepFailure = (outcome: SweepOutcome): outcome is SweepFailure => 'error' in outcome;

export interface SweepResult {
  readonly varied: readonly string[];
  readonly rows: readonly SweepOutcome[];
  readonly workers: number;
  /** Wall-clock time of the whole sweep (for the user and the bench; not in sweep.json). */
  readonly wallMs: number;
}

/** The grid: every combination, the first parameter varying slowest. */
export function parseSweep(text: string, maxRuns = MAX_SWEEP_RUNS): Record<string, string>[] {
  const axes: [string, string[]][] = [];
  for (const part of text.split(';').map((p) => p.trim()).filter((p) => p !== '')) {
    const eq = part.indexOf('=');
    const values = eq <= 0 ? [] : part.slice(eq + 1).split(',').map((v) => v.trim()).filter((v) => v !== '');
    if (eq <= 0 || values.length === 0) throw new InputError(`--sweep must be name=v1,v2[;name2=v1,v2...], got "${part}"`);
    const name = part.slice(0, eq).trim();
    if (axes.some(([n]) => n === name)) throw new InputError(`--sweep names ${name} twice`);
    axes.push([name, values]);
  }
  if (axes.length === 0) throw new InputError('--sweep names no parameter');
  let grid: Record<string, string>[] = [{}];
  for (const [name, values] of axes) grid = grid.flatMap((combo) => values.map((v) => ({ ...combo, [name]: v })));
  if (grid.length > maxRuns) throw new InputError(`--sweep makes ${grid.length} backtests; at most ${maxRuns}`);
  return grid;
}

export interface SweepOptions {
  /** Each row also carries its run's equity curve and holding return (walk-forward's page). */
  readonly withCurves?: boolean;
  /** Worker threads; default: the machine's available parallelism. */
  readonly workers?: number;
  /** Each run's report folder under this folder (`runs/<runFolder>`); default none. */
  readonly reportsRoot?: string;
  /**
   * A pool of `createSweepPool` to run on, kept by the caller across sweeps (a walk-forward's
   * windows): its threads stay warm (modules loaded, code optimised) from one sweep to the next.
   * Default: a pool of `workers` threads for this sweep.
   */
  readonly pool?: Piscina;
}

/** A sweep's market: the data, the symbols and the window every run of it replays. */
export async function resolveSweepMarket(request: BacktestRequest): Promise<{ data: MarketData; symbols: string[]; from: number; to: number }> {
  const data = openMarketData(request.data);
  const symbols = chooseSymbols(data, request.symbols);
  const { from, to } = await resolveWindow(data, symbols, request.from, request.to);
  return { data, symbols, from, to };
}

/**
 * One request per combination of the grid: the command line's --param, then the combination.
 * With `reportsRoot` (--sweep-reports) each writes its report folder to `reportsRoot/<runFolder>`.
 */
export function sweepRuns(request: BacktestRequest, grid: readonly Record<string, string>[], reportsRoot?: string): BacktestRequest[] {
  return grid.map((params, i) => ({
    ...request,
    params: { ...request.params, ...params },
    ...(reportsRoot === undefined ? {} : { reportDir: join(reportsRoot, runFolder(i, params)) }),
  }));
}

/** Where run `index` of a sweep writes its report, under --out: `runs/003-spread=0.001,size=0.02`. */
export function runFolder(index: number, params: Readonly<Record<string, string>>): string {
  const name = Object.entries(params).map(([k, v]) => `${k}=${v}`).join(',').replace(/[^A-Za-z0-9._=,+-]/g, '_').slice(0, 120);
  return join('runs', `${String(index + 1).padStart(3, '0')}${name === '' ? '' : `-${name}`}`);
}

/** A pool of `threads` worker threads that each run one sweep backtest at a time (sweep-task.ts). */
export function createSweepPool(threads: number): Piscina {
  return new Piscina({
    filename: new URL('./sweep-worker.mjs', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    // One backtest at a time per thread: they are CPU-bound.
    concurrentTasksPerWorker: 1,
  });
}

/** Runs one backtest of a sweep on the pool: its row, or its failure (a worker's error arrives as a plain Error: keep its message). */
export function runInPool(pool: Piscina, run: BacktestRequest): Promise<SweepOutcome>;
export function runInPool(pool: Piscina, run: BacktestRequest & { readonly curve: true }): Promise<SweepRowWithCurve | SweepFailure>;
export function runInPool(pool: Piscina, run: BacktestRequest & { readonly curve?: boolean }): Promise<SweepOutcome> {
  return (pool.run(run) as Promise<SweepRow>).then(
    (row) => row,
    (error: unknown) => ({ params: run.params, error: error instanceof Error ? error.message : String(error) }),
  );
}

export async function runSweep(request: BacktestRequest, grid: readonly Record<string, string>[], options: SweepOptions = {}): Promise<SweepResult> {
  const workers = options.pool?.options.maxThreads ?? Math.max(1, Math.min(options.workers ?? availableParallelism(), grid.length));
  // Started first: the threads start (tsx, modules) while this one reads the data.
  const pool = options.pool ?? createSweepPool(workers);
  const started = performance.now(); // determinism-ok: the sweep's wall time, reported to the user, never in sweep.json
  try {
    const { data, symbols, from, to } = await resolveSweepMarket(request);
    // Data the columnar cache holds is streamed by each worker from it (no parse, nothing held in
    // shared memory: memory per worker stays one part ahead); other data is loaded once, shared.
    const sharedTapes = (await cacheWindow(data, symbols, from, to)) ? null : await loadSharedTapes(data, symbols, from, to);
    const shared: BacktestRequest = sharedTapes === null ? request : { ...request, from, to, sharedTapes };
    const runs = sweepRuns(shared, grid, options.reportsRoot).map((run) => (options.withCurves === true ? { ...run, curve: true } : run));
    const rows = await Promise.all(runs.map((run) => runInPool(pool, run)));
    const wallMs = performance.now() - started; // determinism-ok: as above
    return { varied: Object.keys(grid[0] ?? {}), rows, workers, wallMs };
  } finally {
    if (options.pool === undefined) await pool.destroy();
  }
}

/** sweep.json: the rows in grid order, whichever way they were run (worker threads or a queue). */
export function sweepJson(sweep: SweepResult): string {
  return `${JSON.stringify(sweep.rows, null, 2)}\n`;
}

/** The one line a sweep with failed backtests ends on (the command exits 1 after writing its results). */
export function sweepFailureMessage(sweep: SweepResult): string | null {
  const failed = sweep.rows.filter(isSweepFailure);
  if (failed.length === 0) return null;
  return `${failed.length} of ${sweep.rows.length} backtests failed; the first: ${failed[0]!.error}`;
}

/** The results as an aligned text table, one row per combination (a failed one: its error after its parameters). */
export function sweepTable(sweep: SweepResult): string[] {
  const header = [...sweep.varied, 'pnl', 'return', 'vs hold', 'excess return', 'max drawdown', 'sharpe (ann.)', 'fills', 'fees', 'journal'];
  const cells = sweep.rows.map((r) => [...sweep.varied.map((k) => r.params[k] ?? ''), ...(isSweepFailure(r) ? [] : sweepCells(r))]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const line = (row: readonly string[]) => row.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...sweep.rows.map((r, i) => (isSweepFailure(r) ? `${line(cells[i]!)}  failed: ${r.error}` : line(cells[i]!))),
  ];
}

function sweepCells(r: SweepRow): string[] {
  return [
    r.pnl,
    String(r.return ?? '-'),
    r.vsHold,
    String(r.excessReturn ?? '-'),
    r.maxDrawdown,
    String(r.sharpe ?? '-'),
    String(r.fills),
    r.fees,
    r.journalSha256.slice(0, 12),
  ];
}

/** Every parameter the sweep sets must be the strategy's (checked once, before any run; the message a single run gives). */
export function checkSweepParams(strategy: LoadedStrategy, runs: readonly BacktestRequest[]): void {
  for (const key of Object.keys(runs[0]?.params ?? {})) {
    if (!(key in strategy.params)) throw new InputError(`strategy ${strategy.name} has no parameter "${key}" (it has ${Object.keys(strategy.params).join(', ') || 'none'})`);
  }
}
