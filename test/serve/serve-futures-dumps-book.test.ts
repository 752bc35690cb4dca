/**
 * `exsim serve --data D --futures BTCUSDT` where D holds Tardis.dev `binance-futures`
 * incremental_book_L2 for BTCUSDT: the served perpetual's book is that recorded book (GET
 * /fapi/v1/depth shows its levels as of the served now), not the synthetic one, and the start
 * banner names it. Spot: the sample day's BTCUSDT trades; prints derived from them (no futures
 * trades files). Manual clock, standing at the warm-up's end (04:00 UTC).
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { spawnServe } from './spawn-serve.ts';
import { SAMPLE_DIR } from '../../src/data/sample.ts';

let child: ChildProcessWithoutNullStreams | undefined;
const dir = mkdtempSync(join(tmpdir(), 'exsim-serve-fut-book-'));
afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const T = Date.UTC(2024, 0, 1);

function writeFolder(): void {
  const spot = join(dir, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.zip');
  mkdirSync(dirname(spot), { recursive: true });
  copyFileSync(join(SAMPLE_DIR, 'BTCUSDT-trades-2024-01-01.zip'), spot);
  const us = (ms: number) => ms * 1000;
  writeFileSync(
    join(dir, 'binance-futures_incremental_book_L2_2024-01-01_BTCUSDT.csv'),
    'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount\n' +
      `binance-futures,BTCUSDT,${us(T)},${us(T) + 100},true,bid,42349.0,1.5\n` +
      `binance-futures,BTCUSDT,${us(T)},${us(T) + 100},true,ask,42351.0,0.75\n` +
      // Before the served now (04:00): applied in the warm-up. After it: not yet.
      `binance-futures,BTCUSDT,${us(T + 3_600_000)},${us(T + 3_600_000) + 100},false,bid,42349.0,2.25\n` +
      `binance-futures,BTCUSDT,${us(T + 18_000_000)},${us(T + 18_000_000) + 100},false,ask,42351.0,9\n`,
  );
}

function startServer(): Promise<{ url: string; out: () => string }> {
  const served = spawnServe(['--port', '0', '--data', dir, '--clock', 'manual', '--futures', 'BTCUSDT']);
  child = served.child;
  return served.ready;
}

test('GET /fapi/v1/depth serves the recorded binance-futures book as of the served now', async () => {
  writeFolder();
  const { url, out } = await startServer();
  expect(out()).toContain('um:BTCUSDT: recorded L2 (tardis incremental_book_L2)');
  expect(out()).toContain("futures: BTCUSDT traded through /fapi (BTCUSDT prints derived from the spot tape; the mark each second: the futures model: index (the last spot price) × (1 + seeded premium); funding: the futures model's rate every 8 h)");
  const depth = (await (await fetch(`${url}/fapi/v1/depth?symbol=BTCUSDT&limit=5`)).json()) as { bids: string[][]; asks: string[][] };
  expect(depth.bids).toEqual([['42349.0', '2.250']]);
  expect(depth.asks).toEqual([['42351.0', '0.750']]);
}, 60_000);
