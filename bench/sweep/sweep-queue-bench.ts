/**
 * Sweeps over the queue: 8 grid-strategy backtests (spread × size × levels, `hours` hours of the
 * bundled BTCUSDT sample each) submitted to a BullMQ queue on a real redis-server (started on a
 * free loopback port for the bench) and run by 1, then 2 `exsim worker` processes (1 thread each).
 *
 * - `seconds`: wall time of the submission, from reading the data and strategy to the last result.
 * - `overheadMsPerJob`: what the queue costs a job, as measured: (wall × workers − the time the
 *   workers spent in the backtests, as each measures it around the run) / 8. It holds the
 *   submission (fingerprint, strategy, job ids, adds), hand-out, the workers' data check, the
 *   results' trip back and, with 2 workers, any time one sits idle at the end while the other
 *   finishes.
 * - `vsInProcessMsPerJob`: (wall × workers − the same 8 backtests run one after another in this
 *   process) / 8: the same, plus any difference in backtest speed between this process and a
 *   worker's thread (noisy on a loaded machine; can be negative).
 * - `speedup` (2 workers): 1-worker seconds / 2-worker seconds.
 *
 * Each worker runs one warm-up job (another seed) first, as a long-running worker would have, so
 * neither side pays thread start-up and first compilation in the timed part. The three setups run
 * in interleaved rounds (`--runs`, best of each), so a machine whose load drifts slows them alike.
 * Every queued run must give the in-process rows exactly (`sameRows`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { parseTime } from '../../src/backtest/parse-time.ts';
import { QUEUE_NAME, queueConnection } from '../../src/backtest/queue/queue-connection.ts';
import { runQueuedSweep } from '../../src/backtest/queue/queued-sweep.ts';
import { sweepTask } from '../../src/backtest/sweep-task.ts';
import { parseSweep, sweepRuns, type SweepOutcome } from '../../src/backtest/sweep.ts';
import type { BacktestRequest } from '../../src/backtest/backtest-request.ts';
import { REDIS_SERVER, startRedisServer } from '../../test/support/redis-server.ts';

const GRID = 'spread=0.0005,0.001;size=0.01,0.02;levels=2,3';
const EXSIM = fileURLToPath(new URL('../../bin/exsim.js', import.meta.url));

export interface SweepQueueRow {
  readonly name: 'sweep/queue/1-worker' | 'sweep/queue/2-workers';
  readonly workers: number;
  readonly jobs: number;
  readonly hours: number;
  readonly seconds: number;
  readonly overheadMsPerJob: number;
  readonly vsInProcessMsPerJob: number;
  readonly speedup: number | null;
  readonly sameRows: boolean;
}

export interface SweepQueueBenchResult {
  readonly inProcessSeconds: number;
  readonly rows: readonly SweepQueueRow[];
}

interface WorkerProcess {
  readonly child: ChildProcess;
  /** Seconds each finished backtest took inside the worker, from its log (cleared by the caller). */
  readonly runSeconds: number[];
}

/** Starts an `exsim worker` and resolves once it is ready. */
function startWorker(url: string): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [EXSIM, 'worker', '--queue', url], { stdio: ['ignore', 'pipe', 'inherit'] });
  const worker: WorkerProcess = { child, runSeconds: [] };
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      for (const match of chunk.toString().matchAll(/^done .*\((\d+\.\d+) s\)$/gm)) worker.runSeconds.push(Number(match[1]));
      if (/ready/.test(output)) resolve(worker);
    });
    child.once('exit', (code) => reject(new Error(`exsim worker exited (${code}) before it was ready: ${output}`)));
  });
}

async function stopWorkers(workers: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map((w) => {
      if (w.exitCode !== null) return null;
      const exited = new Promise((resolve) => w.once('exit', resolve));
      w.kill('SIGKILL');
      return exited;
    }),
  );
}

export async function runSweepQueueBench(options: { hours: number; runs: number; log: (m: string) => void }): Promise<SweepQueueBenchResult> {
  if (REDIS_SERVER === null) throw new Error('the sweep-queue bench needs redis-server on PATH (apt-get install redis-server)');
  const from = parseTime('2024-01-01', 'from');
  const request: BacktestRequest = { strategy: 'grid', data: 'sample', from, to: from + options.hours * 3_600_000_000, symbols: ['BTCUSDT'], fillModel: 'queue', latency: 'none', seed: '1', params: {} };
  const grid = parseSweep(GRID);
  const runs = sweepRuns(request, grid);

  const redis = await startRedisServer();
  // One database per setup, so the 1-worker and the 2-worker setups never take each other's jobs.
  const setups = [1, 2].map((workers) => ({ workers, url: `${redis.url}/${workers}`, processes: [] as WorkerProcess[], best: Infinity, bestOverheadMs: Infinity, sameRows: true }));
  const queues = setups.map((setup) => new Queue(QUEUE_NAME, { connection: queueConnection(setup.url) }));
  let inProcessMs = Infinity;
  try {
    options.log('sweep-queue: starting 1 + 2 exsim worker processes, one warm-up job each...');
    for (const setup of setups) setup.processes = await Promise.all(Array.from({ length: setup.workers }, () => startWorker(setup.url)));
    for (const setup of setups) {
      await runQueuedSweep({ ...request, seed: 'warm-up' }, parseSweep(`levels=${Array.from({ length: setup.workers }, (_, i) => i + 2).join(',')}`), { url: setup.url });
    }
    await sweepTask({ ...runs[0]!, seed: 'warm-up' });
    // Interleaved rounds (best of each): a loaded machine slows all three alike.
    for (let round = 1; round <= options.runs; round++) {
      options.log(`sweep-queue: round ${round}/${options.runs}: ${runs.length} backtests of ${options.hours} h in this process, then over the queue on 1 and on 2 workers...`);
      const inProcessStart = performance.now(); // determinism-ok: a benchmark's wall clock
      const expected: SweepOutcome[] = [];
      for (const run of runs) expected.push(await sweepTask(run));
      inProcessMs = Math.min(inProcessMs, performance.now() - inProcessStart); // determinism-ok: as above
      for (const [i, setup] of setups.entries()) {
        await queues[i]!.obliterate({ force: true }); // no reuse: every round runs the 8 jobs
        for (const p of setup.processes) p.runSeconds.length = 0;
        const started = performance.now(); // determinism-ok: as above
        const sweep = await runQueuedSweep(request, grid, { url: setup.url });
        const wallMs = performance.now() - started; // determinism-ok: as above
        const backtestMs = setup.processes.reduce((sum, p) => sum + p.runSeconds.reduce((a, b) => a + b, 0), 0) * 1000;
        setup.best = Math.min(setup.best, wallMs);
        setup.bestOverheadMs = Math.min(setup.bestOverheadMs, wallMs * setup.workers - backtestMs);
        setup.sameRows &&= JSON.stringify(sweep.rows) === JSON.stringify(expected);
      }
    }
  } finally {
    await stopWorkers(setups.flatMap((s) => s.processes.map((p) => p.child)));
    await Promise.all(queues.map((q) => q.close()));
    await redis.stop();
  }
  const rows = setups.map(
    (setup): SweepQueueRow => ({
      name: setup.workers === 1 ? 'sweep/queue/1-worker' : 'sweep/queue/2-workers',
      workers: setup.workers,
      jobs: runs.length,
      hours: options.hours,
      seconds: setup.best / 1000,
      overheadMsPerJob: setup.bestOverheadMs / runs.length,
      vsInProcessMsPerJob: (setup.best * setup.workers - inProcessMs) / runs.length,
      speedup: setup.workers === 1 ? null : setups[0]!.best / setup.best,
      sameRows: setup.sameRows,
    }),
  );
  return { inProcessSeconds: inProcessMs / 1000, rows };
}

export function sweepQueueTable(r: SweepQueueBenchResult): string {
  const table = [
    ['row', 'workers', 'backtests', 'wall s', 'overhead ms/job', 'vs in-process ms/job', 'speed-up', 'same rows'],
    ['in process, serial', '-', String(r.rows[0]?.jobs ?? 0), r.inProcessSeconds.toFixed(2), '-', '-', '-', '-'],
    ...r.rows.map((row) => [
      row.name,
      String(row.workers),
      String(row.jobs),
      row.seconds.toFixed(2),
      row.overheadMsPerJob.toFixed(0),
      row.vsInProcessMsPerJob.toFixed(0),
      row.speedup === null ? '-' : `${row.speedup.toFixed(2)}x`,
      String(row.sameRows),
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const lines = table.map((row) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
  return [`sweeps over a BullMQ queue on redis-server (grid strategy, ${r.rows[0]?.hours ?? 0} h of the sample each; 1 thread per worker process)`, ...lines].join('\n');
}

export function sweepQueueJsonLines(r: SweepQueueBenchResult): string[] {
  return r.rows.map((row) =>
    JSON.stringify({
      bench: row.name,
      workers: row.workers,
      jobs: row.jobs,
      hours: row.hours,
      seconds: Number(row.seconds.toFixed(3)),
      overheadMsPerJob: Number(row.overheadMsPerJob.toFixed(1)),
      vsInProcessMsPerJob: Number(row.vsInProcessMsPerJob.toFixed(1)),
      ...(row.speedup === null ? {} : { speedup: Number(row.speedup.toFixed(3)) }),
      inProcessSeconds: Number(r.inProcessSeconds.toFixed(3)),
      sameRows: row.sameRows,
    }),
  );
}
