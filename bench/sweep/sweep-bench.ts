/**
 * Sweep scaling: the same parameter grid of grid-strategy backtests (4 combinations of spread ×
 * size on the bundled sample, `hours` hours of BTCUSDT each) on 1 worker thread, then on
 * `workers` (default: the machine's parallelism). Reports each wall time, backtests per second
 * and the speed-up; checks that both runs produced the same journal hashes (parallelism must
 * not change results). Each worker reads the sample itself; there is no shared dataset yet.
 */
import { availableParallelism } from 'node:os';
import { parseTime } from '../../src/backtest/parse-time.ts';
import { isSweepFailure, parseSweep, runSweep, type SweepOutcome } from '../../src/backtest/sweep.ts';

export interface SweepBenchResult {
  readonly backtests: number;
  readonly hours: number;
  readonly workers: number;
  readonly serialMs: number;
  readonly parallelMs: number;
  readonly speedup: number;
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
  return {
    backtests: grid.length,
    hours: options.hours,
    workers: parallel.workers,
    serialMs: serial.wallMs,
    parallelMs: parallel.wallMs,
    speedup: serial.wallMs / parallel.wallMs,
    sameHashes: JSON.stringify(serial.rows.map(journalOf)) === JSON.stringify(parallel.rows.map(journalOf)),
  };
}

const journalOf = (row: SweepOutcome): string => (isSweepFailure(row) ? `failed: ${row.error}` : row.journalSha256);

export function sweepTable(r: SweepBenchResult): string {
  const rows = [
    ['workers', 'backtests', 'wall s', 'backtests/s'],
    ['1', String(r.backtests), (r.serialMs / 1000).toFixed(2), ((r.backtests * 1000) / r.serialMs).toFixed(2)],
    [String(r.workers), String(r.backtests), (r.parallelMs / 1000).toFixed(2), ((r.backtests * 1000) / r.parallelMs).toFixed(2)],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const lines = rows.map((row) => row.map((c, i) => c.padStart(widths[i]!)).join('  '));
  return [`sweep scaling (grid strategy, ${r.hours} h of the sample each)`, ...lines, `speed-up ${r.speedup.toFixed(2)}x on ${r.workers} workers; same journal hashes: ${r.sameHashes}`].join('\n');
}

export function sweepJsonLine(r: SweepBenchResult): string {
  return JSON.stringify({ bench: 'sweep', ...r, serialMs: Math.round(r.serialMs), parallelMs: Math.round(r.parallelMs), speedup: Number(r.speedup.toFixed(3)) });
}
