/**
 * `exsim worker --queue redis://HOST:PORT[/DB] [--concurrency N] [--data DIR] [--lock-duration MS] [--tape-rows N] [--parallel-scavenge]`
 *
 * Runs queued sweep backtests (src/backtest/queue/queue-worker.ts) until stopped, one log line per
 * job. Ctrl-C (or SIGTERM) lets the running backtests finish, then exits; a second Ctrl-C exits at
 * once (the running jobs go back to the queue when their locks run out).
 *
 * Garbage collection: a worker turns off V8's parallel scavenge (`--no-parallel-scavenge`) unless
 * told `--parallel-scavenge`. A backtest allocates fast; alone on a machine, the scavenger's
 * helper threads borrow an idle core (a lone backtest used ~1.2 cores on the 2-core bench
 * machine), but a worker is meant to share the machine with other workers (one per core, or
 * --concurrency threads), and there the helpers fight them for the cores: 8 backtests on 2
 * worker processes took 2.55-2.63 s with them and 2.09-2.22 s without, while 1 worker took the
 * same either way (3.9-4.5 s). It changes no result, only who does the GC work.
 */
import { setFlagsFromString } from 'node:v8';
import { InputError, parseQueueUrl, startQueueWorker } from '../backtest/index.ts';

export interface WorkerCommandOptions {
  queue: string;
  concurrency: string;
  data?: string;
  lockDuration: string;
  tapeRows: string;
  parallelScavenge?: boolean;
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
  // Before the backtest threads start (V8 reads the flag at every scavenge; see the header).
  if (options.parallelScavenge !== true) setFlagsFromString('--no-parallel-scavenge');
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
