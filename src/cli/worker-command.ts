/**
 * `exsim worker --queue redis://HOST:PORT[/DB] [--concurrency N] [--data DIR] [--lock-duration MS] [--tape-rows N]`
 *
 * Runs queued sweep backtests (src/backtest/queue/queue-worker.ts) until stopped, one log line per
 * job. Ctrl-C (or SIGTERM) lets the running backtests finish, then exits; a second Ctrl-C exits at
 * once (the running jobs go back to the queue when their locks run out).
 */
import { InputError, parseQueueUrl, startQueueWorker } from '../backtest/index.ts';

export interface WorkerCommandOptions {
  queue: string;
  concurrency: string;
  data?: string;
  lockDuration: string;
  tapeRows: string;
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
