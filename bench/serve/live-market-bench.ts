/**
 * What `npm start` serves, as a streaming client sees it (issue 23: a market that lives between
 * trades): `exsim serve --data sample` started as a child process (realtime clock, the served
 * sample generated first if the cache has none), one combined-stream connection to
 * `btcusdt@trade/btcusdt@depth@100ms/btcusdt@bookTicker` for `--duration` seconds of wall time
 * (default 30) once the server answers, then: trades a second, bookTicker events a second, the
 * share of 100 ms windows that carried a diff-depth event, and U/u breaks (must be 0).
 * Targets: >= 5 trades/s, >= 5 bookTicker events/s, a diff-depth change in most 100 ms windows.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import WebSocket from 'ws';
import { untilServing } from './bench-children.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface LiveMarketResult {
  readonly seconds: number;
  readonly tradesPerSec: number;
  readonly bookTickerPerSec: number;
  /** Diff-depth events over the 100 ms windows of the run. */
  readonly depthWindowShare: number;
  readonly uBreaks: number;
}

export async function runLiveMarketBench(options: { duration: number; log: (m: string) => void }): Promise<LiveMarketResult> {
  const port = 18_000 + (process.pid % 1000);
  options.log(`live-market: exsim serve --data sample on port ${port}...`);
  const child = spawn(process.execPath, [join(ROOT, 'bin/exsim.js'), 'serve', '--data', 'sample', '--port', String(port)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await untilServing(child);
    options.log(`live-market: streaming for ${options.duration} s...`);
    const ws = new WebSocket(`ws://127.0.0.1:${port}/stream?streams=btcusdt@trade/btcusdt@depth@100ms/btcusdt@bookTicker`);
    let trades = 0;
    let tickers = 0;
    let depth = 0;
    let breaks = 0;
    let lastU: number | null = null;
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const started = performance.now(); // determinism-ok: a bench's stopwatch
    ws.on('message', (raw: Buffer) => {
      const { stream, data } = JSON.parse(raw.toString()) as { stream: string; data: { U: number; u: number } };
      if (stream.endsWith('@trade')) trades++;
      else if (stream.endsWith('@bookTicker')) tickers++;
      else {
        depth++;
        if (lastU !== null && data.U !== lastU + 1) breaks++;
        lastU = data.u;
      }
    });
    await new Promise((resolve) => setTimeout(resolve, options.duration * 1000)); // determinism-ok: the bench's run length
    const seconds = (performance.now() - started) / 1000; // determinism-ok: as above
    ws.close();
    return { seconds, tradesPerSec: trades / seconds, bookTickerPerSec: tickers / seconds, depthWindowShare: depth / (seconds * 10), uBreaks: breaks };
  } finally {
    child.kill('SIGTERM');
  }
}

export function liveMarketTable(r: LiveMarketResult): string {
  return [
    `the served sample market (npm start) as a streaming client sees it for ${r.seconds.toFixed(1)} s of wall time (realtime clock; targets: >= 5 trades/s, >= 5 bookTicker/s, a depth change in most 100 ms windows, no U/u break)`,
    `serve/live-market  trades/s ${r.tradesPerSec.toFixed(2)}  bookTicker/s ${r.bookTickerPerSec.toFixed(2)}  100 ms windows with a diff-depth event ${(100 * r.depthWindowShare).toFixed(1)}%  U/u breaks ${r.uBreaks}`,
  ].join('\n');
}

export function liveMarketJsonLine(r: LiveMarketResult): string {
  return JSON.stringify({ name: 'serve/live-market', seconds: Number(r.seconds.toFixed(2)), tradesPerSec: Number(r.tradesPerSec.toFixed(2)), bookTickerPerSec: Number(r.bookTickerPerSec.toFixed(2)), depthWindowShare: Number(r.depthWindowShare.toFixed(3)), uBreaks: r.uBreaks });
}
