/**
 * The command line's side of a queued sweep (`exsim backtest --sweep GRID --queue URL`): one
 * progress line on stderr per finished backtest, and Ctrl-C taking the sweep's waiting jobs off
 * the queue before the command exits.
 */
import { type BacktestRequest, isSweepFailure, parseQueueUrl, runQueuedSweep, type QueuedSweepResult, paramsText } from '../backtest/index.ts';

export async function submitQueuedSweep(
  request: BacktestRequest,
  grid: readonly Record<string, string>[],
  queue: string,
  progress: (line: string) => void = (line) => void process.stderr.write(`${line}\n`),
  reportsRoot?: string,
): Promise<QueuedSweepResult> {
  const url = parseQueueUrl(queue);
  const abort = new AbortController();
  const interrupt = (): void => {
    progress('interrupted: taking the waiting backtests off the queue...');
    abort.abort();
  };
  process.once('SIGINT', interrupt);
  try {
    return await runQueuedSweep(request, grid, {
      url,
      signal: abort.signal,
      ...(reportsRoot === undefined ? {} : { reportsRoot }),
      onQueued: ({ added, reused, pending, total }) => progress(`queued ${total} backtests on ${url}: ${added} added, ${reused} finished before, ${pending} already waiting or running`),
      onProgress: ({ done, total, outcome, reused }) => {
        const what = isSweepFailure(outcome) ? `failed: ${outcome.error}` : `pnl ${outcome.pnl}, journal ${outcome.journalSha256.slice(0, 12)}`;
        progress(`[${done}/${total}] ${paramsText(outcome.params)}: ${what}${reused ? ' (finished before)' : ''}`);
      },
    });
  } finally {
    process.removeListener('SIGINT', interrupt);
  }
}
