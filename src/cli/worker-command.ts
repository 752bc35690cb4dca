/**
 * `exsim worker --queue redis://HOST:PORT[/DB] [--concurrency N] [--data DIR] [--lock-duration MS] [--tape-rows N] [--parallel-gc]`
 *
 * Runs queued sweep backtests (src/backtest/queue/queue-worker.ts) until stopped, one log line per
 * job. Ctrl-C (or SIGTERM) lets the running backtests finish, then exits; a second Ctrl-C exits at
 * once (the running jobs go back to the queue when their locks run out).
 *
 * Garbage collection: a worker turns off V8's GC helper threads (`--no-parallel-scavenge`,
 * `--no-concurrent-marking`) unless told `--parallel-gc`. A backtest allocates fast; alone on a
 * machine, the collector's helper threads borrow an idle core (a lone backtest used ~1.2 cores on
 * the 2-core bench machine), but a worker is meant to share the machine with other workers (one
 * per core, or --concurrency threads), and there the helpers fight them for the cores. 8
 * backtests of 6 h on 2 worker processes (2026-11-26, sweep-queue bench): with the helpers
 * 1.50-1.64x over 1 worker, without parallel scavenge 1.63-1.92x (measured before the backtests
 * got faster), without both 1.65-1.84x (median 1.78x); 1 worker takes the same either way. It changes no
 * result, only who does the GC work. The flags are set at start, before the backtest threads
 * exist (V8 reads them per collection; a thread's heap is set up with them).
 */
import { setFlagsFromString } from 'node:v8';
import { InputError, parseQueueUrl, startQueueWorker } from '../backtest/index.ts';

export interface WorkerCommandOptions {
  queue: string;
  concurrency: string;
  data?: string;
  lockDuration: string;
  tapeRows: string;
  parallelGc?: boolean;
}

function integerOption(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!(Number.isInteger(n) && n >= min && n <= max)) throw new InputError(`--${name} must be an integer ${min}..${max}, got "${text}"`);
  return n;
}

export async function workerCommand(options: WorkerCommandOptions, print: (line: string) => void = console.log): Promise<void> {
  const url = parseQueueUrl(options.queue);
  const concurrency = integerOption('concurrency', options.concurrency, 1, 256);
  const lockDurationMs = integerOption('lock-duration', options.lockDuration, 500, 3_600_000);
  const tapeRows = integerOption('tape-rows', options.tapeRows, 0, 2_000_000_000);
  // Before the backtest threads start (see the header).
  if (options.parallelGc !== true) {
    setFlagsFromString('--no-parallel-scavenge');
    setFlagsFromString('--no-concurrent-marking');
  }
  const worker = await startQueueWorker({ url, concurrency, lockDurationMs, tapeRows, log: print, ...(options.data === undefined ? {} : { data: options.data }) });
  let stopping = false;
  const stop = (): void => {
    if (stopping) process.exit(130);
    stopping = true;
    print(`worker ${worker.name} stopping: finishing the running backtests (Ctrl-C again to quit now)`);
    void worker.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
