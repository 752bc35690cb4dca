/**
 * Sweep scaling: the same parameter grid of grid-strategy backtests (4 combinations of spread ×
 * size on the bundled sample, `hours` hours of BTCUSDT each) on 1 worker thread, then on
 * `workers` (default: the machine's parallelism). Reports each wall time, backtests per second
 * and the speed-up; checks that both runs produced the same journal hashes (parallelism must
 * not change results). Twice: with fresh threads (a sweep as one `exsim backtest --sweep` runs it:
 * every thread starts tsx, loads the modules and warms its code up during the first runs), and
 * on warm pools (each pool ran the grid's first run once before, untimed: as a walk-forward's
 * windows after the first, or a queue worker's jobs, run).
 */
import { availableParallelism } from 'node:os';
import { parseTime } from '../../src/backtest/parse-time.ts';
import { createSweepPool, isSweepFailure, parseSweep, runSweep, type SweepOutcome, type SweepResult } from '../../src/backtest/sweep.ts';

export interface SweepBenchResult {
  readonly backtests: number;
  readonly hours: number;
  readonly workers: number;
  readonly serialMs: number;
  readonly parallelMs: number;
  readonly speedup: number;
  /** The same on pools whose threads ran once before. */
  readonly warmSerialMs: number;
  readonly warmParallelMs: number;
  readonly warmSpeedup: number;
  readonly sameHashes: boolean;
}

export async function runSweepBench(options: { hours: number; workers?: number; log: (m: string) => void }): Promise<SweepBenchResult> {
  const grid = parseSweep('spread=0.0005,0.001;size=0.01,0.02');
  const request = {
    strategy: 'grid',
    data: 'sample',
    from: parseTime('2024-01-01', 'from'),
    to: parseTime('2024-01-01', 'from') + options.hours * 3_600_000_000,
    fillModel: 'queue' as const,
    latency: 'none',
    seed: '1',
    params: {},
  };
  const workers = options.workers ?? availableParallelism();
  options.log(`sweep: ${grid.length} backtests of ${options.hours} h on 1 worker...`);
  const serial = await runSweep(request, grid, { workers: 1 });
  options.log(`sweep: the same on ${workers} workers...`);
  const parallel = await runSweep(request, grid, { workers });
  const warm = async (threads: number): Promise<SweepResult> => {
    const pool = createSweepPool(threads);
    try {
      // Every thread runs the first combination once (untimed): started, modules loaded, code warm.
      await runSweep(request, Array.from({ length: threads }, () => grid[0]!), { pool });
      return await runSweep(request, grid, { pool });
    } finally {
      await pool.destroy();
    }
  };
  options.log(`sweep: on a warm pool of 1 thread...`);
  const warmSerial = await warm(1);
  options.log(`sweep: on a warm pool of ${workers} threads...`);
  const warmParallel = await warm(workers);
  const hashes = [serial, parallel, warmSerial, warmParallel].map((r) => JSON.stringify(r.rows.map(journalOf)));
  return {
    backtests: grid.length,
    hours: options.hours,
    workers: parallel.workers,
    serialMs: serial.wallMs,
    parallelMs: parallel.wallMs,
    speedup: serial.wallMs / parallel.wallMs,
    warmSerialMs: warmSerial.wallMs,
    warmParallelMs: warmParallel.wallMs,
    warmSpeedup: warmSerial.wallMs / warmParallel.wallMs,
    sameHashes: hashes.every((h) => h === hashes[0]),
  };
}

const journalOf = (row: SweepOutcome): string => (isSweepFailure(row) ? `failed: ${row.error}` : row.journalSha256);

export function sweepTable(r: SweepBenchResult): string {
  const rows = [
    ['threads', 'workers', 'backtests', 'wall s', 'backtests/s'],
    ['fresh', '1', String(r.backtests), (r.serialMs / 1000).toFixed(2), ((r.backtests * 1000) / r.serialMs).toFixed(2)],
    ['fresh', String(r.workers), String(r.backtests), (r.parallelMs / 1000).toFixed(2), ((r.backtests * 1000) / r.parallelMs).toFixed(2)],
    ['warm', '1', String(r.backtests), (r.warmSerialMs / 1000).toFixed(2), ((r.backtests * 1000) / r.warmSerialMs).toFixed(2)],
    ['warm', String(r.workers), String(r.backtests), (r.warmParallelMs / 1000).toFixed(2), ((r.backtests * 1000) / r.warmParallelMs).toFixed(2)],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const lines = rows.map((row) => row.map((c, i) => c.padStart(widths[i]!)).join('  '));
  return [`sweep scaling (grid strategy, ${r.hours} h of the sample each)`, ...lines, `speed-up ${r.speedup.toFixed(2)}x on ${r.workers} fresh workers, ${r.warmSpeedup.toFixed(2)}x on warm ones; same journal hashes: ${r.sameHashes}`].join('\n');
}

export function sweepJsonLine(r: SweepBenchResult): string {
  return JSON.stringify({
    bench: 'sweep',
    ...r,
    serialMs: Math.round(r.serialMs),
    parallelMs: Math.round(r.parallelMs),
    speedup: Number(r.speedup.toFixed(3)),
    warmSerialMs: Math.round(r.warmSerialMs),
    warmParallelMs: Math.round(r.warmParallelMs),
    warmSpeedup: Number(r.warmSpeedup.toFixed(3)),
  });
}
