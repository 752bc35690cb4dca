/**
 * Sweeps over the queue: 8 grid-strategy backtests (`hours` hours of the bundled BTCUSDT sample
 * each) submitted to a BullMQ queue on a real redis-server (started on a free loopback port for
 * the bench) and run by 1, then 2 `exsim worker` processes (1 thread each), for two grids:
 *
 * - even (rows `sweep/queue/1-worker`, `sweep/queue/2-workers`): spread × size, 8 runs of about
 *   the same work, so the rows measure the queue (hand-out, trips, two processes sharing the
 *   machine), not the grid.
 * - uneven (rows `...-uneven`): spread × size × levels=2,3. A levels=3 run does about 20% more
 *   work, and in grid order the levels alternate, so with 2 workers taking jobs as they free up
 *   every levels=3 run lands on the same worker and the other idles at the end: the tail a
 *   user's small sweep of unequal runs pays (list scheduling without knowing the runs' cost; it
 *   shrinks as the number of runs per worker grows).
 *
 * - `seconds`: wall time of the submission, from reading the data and strategy to the last result.
 * - `overheadMsPerJob`: what a job costs besides its backtest: (wall × workers − the time the
 *   workers spent in the backtests, as each measures it around the run) / 8. It holds the
 *   submission (fingerprint, strategy, job ids, adds), hand-out, the workers' data check, the
 *   results' trip back and any time a worker sits idle at the end while the other finishes
 *   (`tailIdleMsPerJob` is that part: the idle time after each worker's last job, per job).
 * - `vsInProcessMsPerJob`: (wall × workers − the same 8 backtests run one after another in this
 *   process) / 8: the same, plus any difference in backtest speed between this process and a
 *   worker's thread (noisy on a loaded machine; can be negative).
 * - `speedup` (2 workers): 1-worker seconds / 2-worker seconds, same grid.
 *
 * Workers run as `exsim worker` starts them by default (without V8's GC helper threads: see
 * src/cli/worker-command.ts).
 * Each worker runs one warm-up job (another seed) first, as a long-running worker would have, so
 * neither side pays thread start-up, first compilation and the first read of the window in the
 * timed part. The setups run in interleaved rounds (`--runs`, best of each), so a machine whose
 * load drifts slows them alike. Every queued run must give the in-process rows exactly (`sameRows`).
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

const GRIDS = {
  even: 'spread=0.0005,0.00075,0.001,0.00125;size=0.01,0.02',
  uneven: 'spread=0.0005,0.001;size=0.01,0.02;levels=2,3',
} as const;
type GridName = keyof typeof GRIDS;
const EXSIM = fileURLToPath(new URL('../../bin/exsim.js', import.meta.url));

export interface SweepQueueRow {
  readonly name: string;
  readonly grid: GridName;
  readonly workers: number;
  readonly jobs: number;
  readonly hours: number;
  readonly seconds: number;
  readonly overheadMsPerJob: number;
  readonly tailIdleMsPerJob: number;
  readonly vsInProcessMsPerJob: number;
  readonly inProcessSeconds: number;
  readonly speedup: number | null;
  readonly sameRows: boolean;
}

export interface SweepQueueBenchResult {
  readonly rows: readonly SweepQueueRow[];
}

interface WorkerProcess {
  readonly child: ChildProcess;
  /** Seconds each finished backtest took inside the worker, from its log (cleared by the caller). */
  readonly runSeconds: number[];
  /** performance.now() of its last finished backtest (the bench's clock). */
  lastDoneAt: number;
}

/** Starts an `exsim worker` and resolves once it is ready. */
function startWorker(url: string): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [EXSIM, 'worker', '--queue', url], { stdio: ['ignore', 'pipe', 'inherit'] });
  const worker: WorkerProcess = { child, runSeconds: [], lastDoneAt: 0 };
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      for (const match of chunk.toString().matchAll(/^done .*\((\d+\.\d+) s\)$/gm)) {
        worker.runSeconds.push(Number(match[1]));
        worker.lastDoneAt = performance.now(); // determinism-ok: a benchmark's wall clock
      }
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
  const grids = (Object.keys(GRIDS) as GridName[]).map((name) => {
    const grid = parseSweep(GRIDS[name]);
    return { name, grid, runs: sweepRuns(request, grid), inProcessMs: Infinity, expected: [] as SweepOutcome[] };
  });

  const redis = await startRedisServer();
  // One database per worker count, so the 1-worker and the 2-worker setups never take each other's jobs.
  const setups = [1, 2].map((workers) => ({ workers, url: `${redis.url}/${workers}`, processes: [] as WorkerProcess[] }));
  const queues = await Promise.all(setups.map(async (setup) => new Queue(QUEUE_NAME, { connection: await queueConnection(setup.url) })));
  const best = new Map<string, { wallMs: number; overheadMs: number; tailIdleMs: number; sameRows: boolean }>();
  try {
    options.log('sweep-queue: starting 1 + 2 exsim worker processes, one warm-up job each...');
    for (const setup of setups) setup.processes = await Promise.all(Array.from({ length: setup.workers }, () => startWorker(setup.url)));
    for (const setup of setups) {
      await runQueuedSweep({ ...request, seed: 'warm-up' }, parseSweep(`levels=${Array.from({ length: setup.workers }, (_, i) => i + 2).join(',')}`), { url: setup.url });
    }
    await sweepTask({ ...grids[0]!.runs[0]!, seed: 'warm-up' });
    // Interleaved rounds (best of each): a loaded machine slows all setups alike.
    for (let round = 1; round <= options.runs; round++) {
      for (const g of grids) {
        options.log(`sweep-queue: round ${round}/${options.runs}, ${g.name} grid: ${g.runs.length} backtests of ${options.hours} h in this process, then over the queue on 1 and on 2 workers...`);
        const inProcessStart = performance.now(); // determinism-ok: a benchmark's wall clock
        const expected: SweepOutcome[] = [];
        for (const run of g.runs) expected.push(await sweepTask(run));
        g.inProcessMs = Math.min(g.inProcessMs, performance.now() - inProcessStart); // determinism-ok: as above
        g.expected = expected;
        for (const [i, setup] of setups.entries()) {
          await queues[i]!.obliterate({ force: true }); // no reuse: every round runs the 8 jobs
          for (const p of setup.processes) p.runSeconds.length = 0;
          const started = performance.now(); // determinism-ok: as above
          const sweep = await runQueuedSweep(request, g.grid, { url: setup.url });
          const ended = performance.now(); // determinism-ok: as above
          const wallMs = ended - started;
          const backtestMs = setup.processes.reduce((sum, p) => sum + p.runSeconds.reduce((x, y) => x + y, 0), 0) * 1000;
          // Each worker's wait, after its last job of this sweep, for the last job of all to finish.
          const lastOfAll = Math.max(...setup.processes.map((p) => p.lastDoneAt));
          const tailIdleMs = setup.processes.reduce((sum, p) => sum + lastOfAll - Math.max(p.lastDoneAt, started), 0);
          const key = `${g.name}/${setup.workers}`;
          const previous = best.get(key);
          const sameRows = JSON.stringify(sweep.rows) === JSON.stringify(expected) && (previous?.sameRows ?? true);
          if (previous === undefined || wallMs < previous.wallMs) best.set(key, { wallMs, overheadMs: wallMs * setup.workers - backtestMs, tailIdleMs, sameRows });
          else previous.sameRows = sameRows;
        }
      }
    }
  } finally {
    await stopWorkers(setups.flatMap((s) => s.processes.map((p) => p.child)));
    await Promise.all(queues.map((q) => q.close()));
    await redis.stop();
  }
  const rows = grids.flatMap((g) =>
    setups.map((setup): SweepQueueRow => {
      const measured = best.get(`${g.name}/${setup.workers}`)!;
      const suffix = g.name === 'even' ? '' : `-${g.name}`;
      return {
        name: `sweep/queue/${setup.workers === 1 ? '1-worker' : `${setup.workers}-workers`}${suffix}`,
        grid: g.name,
        workers: setup.workers,
        jobs: g.runs.length,
        hours: options.hours,
        seconds: measured.wallMs / 1000,
        overheadMsPerJob: measured.overheadMs / g.runs.length,
        tailIdleMsPerJob: measured.tailIdleMs / g.runs.length,
        vsInProcessMsPerJob: (measured.wallMs * setup.workers - g.inProcessMs) / g.runs.length,
        inProcessSeconds: g.inProcessMs / 1000,
        speedup: setup.workers === 1 ? null : best.get(`${g.name}/1`)!.wallMs / measured.wallMs,
        sameRows: measured.sameRows,
      };
    }),
  );
  return { rows };
}

export function sweepQueueTable(r: SweepQueueBenchResult): string {
  const table = [['row', 'grid', 'workers', 'backtests', 'wall s', 'overhead ms/job', 'of it tail idle', 'vs in-process ms/job', 'speed-up', 'same rows']];
  for (const row of r.rows) {
    if (row.workers === 1) table.push([`in process, serial`, row.grid, '-', String(row.jobs), row.inProcessSeconds.toFixed(2), '-', '-', '-', '-', '-']);
    table.push([
      row.name,
      row.grid,
      String(row.workers),
      String(row.jobs),
      row.seconds.toFixed(2),
      row.overheadMsPerJob.toFixed(0),
      row.tailIdleMsPerJob.toFixed(0),
      row.vsInProcessMsPerJob.toFixed(0),
      row.speedup === null ? '-' : `${row.speedup.toFixed(2)}x`,
      String(row.sameRows),
    ]);
  }
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const lines = table.map((row) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
  return [
    `sweeps over a BullMQ queue on redis-server (grid strategy, ${r.rows[0]?.hours ?? 0} h of the sample each; 1 thread per worker process)`,
    `even: ${GRIDS.even} (runs of about equal work); uneven: ${GRIDS.uneven} (levels=3 runs do more, and alternate in grid order)`,
    ...lines,
  ].join('\n');
}

export function sweepQueueJsonLines(r: SweepQueueBenchResult): string[] {
  return r.rows.map((row) =>
    JSON.stringify({
      bench: row.name,
      grid: GRIDS[row.grid],
      workers: row.workers,
      jobs: row.jobs,
      hours: row.hours,
      seconds: Number(row.seconds.toFixed(3)),
      overheadMsPerJob: Number(row.overheadMsPerJob.toFixed(1)),
      tailIdleMsPerJob: Number(row.tailIdleMsPerJob.toFixed(1)),
      vsInProcessMsPerJob: Number(row.vsInProcessMsPerJob.toFixed(1)),
      ...(row.speedup === null ? {} : { speedup: Number(row.speedup.toFixed(3)) }),
      inProcessSeconds: Number(row.inProcessSeconds.toFixed(3)),
      sameRows: row.sameRows,
    }),
  );
}
