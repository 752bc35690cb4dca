/**
 * Parameter sweeps: `--sweep 'spread=0.001,0.002;size=0.01,0.02'` is the grid of every
 * combination (here 4), each one backtest with the same data, seed and window, run on a pool of
 * worker threads (piscina: a maintained pool with a task queue, so N backtests share W threads
 * and each thread keeps its loaded modules between tasks). The main thread loads the window's
 * tapes once into shared memory and every worker replays those bytes (above
 * SHARED_TAPE_MAX_ROWS rows, each worker streams the data itself instead, to bound memory);
 * the rows come back in grid order whatever order the workers finish in, so the table and
 * sweep.json are the same on every run. Each row carries its journal hash: the same
 * combination gives the same hash as a single `exsim backtest` of it.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { BacktestRequest } from './backtest-request.ts';
import { InputError } from './input-error.ts';
import { chooseSymbols, loadSharedTapes, openMarketData, resolveWindow } from './market-data.ts';

export const MAX_SWEEP_RUNS = 1000;

export interface SweepRow {
  readonly params: Readonly<Record<string, string>>;
  readonly pnl: string;
  readonly return: number | null;
  readonly maxDrawdown: string;
  readonly sharpe: number | null;
  readonly fills: number;
  readonly fees: string;
  readonly orders: number;
  readonly journalSha256: string;
}

export interface SweepResult {
  readonly varied: readonly string[];
  readonly rows: readonly SweepRow[];
  readonly workers: number;
  /** Wall-clock time of the whole sweep (for the user and the bench; not in sweep.json). */
  readonly wallMs: number;
}

/** The grid: every combination, the first parameter varying slowest. */
export function parseSweep(text: string): Record<string, string>[] {
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
  if (grid.length > MAX_SWEEP_RUNS) throw new InputError(`--sweep makes ${grid.length} backtests; at most ${MAX_SWEEP_RUNS}`);
  return grid;
}

export interface SweepOptions {
  /** Worker threads; default: the machine's available parallelism. */
  readonly workers?: number;
}

export async function runSweep(request: BacktestRequest, grid: readonly Record<string, string>[], options: SweepOptions = {}): Promise<SweepResult> {
  const workers = Math.max(1, Math.min(options.workers ?? availableParallelism(), grid.length));
  const data = openMarketData(request.data);
  const symbols = chooseSymbols(data, request.symbols);
  const { from, to } = await resolveWindow(data, symbols, request.from, request.to);
  const sharedTapes = await loadSharedTapes(data, symbols, from, to);
  const shared: BacktestRequest = sharedTapes === null ? request : { ...request, from, to, sharedTapes };
  const pool = new Piscina({
    filename: new URL('./sweep-worker.mjs', import.meta.url).href,
    minThreads: workers,
    maxThreads: workers,
    // One backtest at a time per thread: they are CPU-bound.
    concurrentTasksPerWorker: 1,
  });
  const started = performance.now(); // determinism-ok: the sweep's wall time, reported to the user, never in sweep.json
  try {
    const rows = (await Promise.all(grid.map((params) => pool.run({ ...shared, params: { ...request.params, ...params } } satisfies BacktestRequest)))) as SweepRow[];
    const wallMs = performance.now() - started; // determinism-ok: as above
    return { varied: Object.keys(grid[0] ?? {}), rows, workers, wallMs };
  } catch (error) {
    // A worker's InputError arrives as a plain Error: keep its one-line message.
    throw new InputError(error instanceof Error ? error.message : String(error));
  } finally {
    await pool.destroy();
  }
}

/** The results as an aligned text table, one row per combination. */
export function sweepTable(sweep: SweepResult): string[] {
  const header = [...sweep.varied, 'pnl', 'return', 'max drawdown', 'sharpe', 'fills', 'fees', 'journal'];
  const rows = sweep.rows.map((r) => [
    ...sweep.varied.map((k) => r.params[k] ?? ''),
    r.pnl,
    String(r.return ?? '-'),
    r.maxDrawdown,
    String(r.sharpe ?? '-'),
    String(r.fills),
    r.fees,
    r.journalSha256.slice(0, 12),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}
