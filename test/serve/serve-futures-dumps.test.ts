/**
 * `exsim serve --data D --futures BTCUSDT` where D holds USDⓈ-M futures dumps beside the spot ones
 * (data.binance.vision's layout, the same file names under spot/ and futures/um/): the served
 * perpetual's prints are the futures/um file's, as GET /fapi/v1/trades shows them, and the start
 * banner says where they come from. Spot: the sample day's BTCUSDT trades; the futures file is a
 * small CSV written here. Manual clock, standing at the warm-up's end (04:00 UTC).
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { spawnServe } from './spawn-serve.ts';
import { SAMPLE_DIR } from '../../src/data/sample.ts';

let child: ChildProcessWithoutNullStreams | undefined;
const dir = mkdtempSync(join(tmpdir(), 'exsim-serve-fut-dumps-'));
afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const T = Date.UTC(2024, 0, 1);

function writeFolder(): void {
  const spot = join(dir, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.zip');
  mkdirSync(dirname(spot), { recursive: true });
  copyFileSync(join(SAMPLE_DIR, 'BTCUSDT-trades-2024-01-01.zip'), spot);
  const um = join(dir, 'futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv');
  mkdirSync(dirname(um), { recursive: true });
  // Three prints before the warm-up's end, one after it (not served yet).
  writeFileSync(
    um,
    'id,price,qty,quote_qty,time,is_buyer_maker\n' +
      `5001,42350.10,0.010,423.501,${T + 1_000},false\n` +
      `5002,42351.00,0.250,10587.75,${T + 3_600_000},true\n` +
      `5003,42360.50,1.000,42360.5,${T + 14_000_000},false\n` +
      `5004,42372.30,0.004,169.4892,${T + 15_000_000},true\n`,
  );
}

function startServer(): Promise<{ url: string; out: () => string }> {
  const served = spawnServe(['--port', '0', '--data', dir, '--clock', 'manual', '--futures', 'BTCUSDT']);
  child = served.child;
  return served.ready;
}

test('GET /fapi/v1/trades serves the futures/um prints up to the served now', async () => {
  writeFolder();
  const { url, out } = await startServer();
  expect(out()).toContain("futures: BTCUSDT traded through /fapi (BTCUSDT prints from futures/um trades dumps: 1 file; the mark each second: the futures model: index (the last spot price) × (1 + seeded premium); funding: the futures model's rate every 8 h)");
  const trades = (await (await fetch(`${url}/fapi/v1/trades?symbol=BTCUSDT&limit=10`)).json()) as { price: string; qty: string; time: number; isBuyerMaker: boolean }[];
  // Prices with the 0.10 tick's one decimal, as /fapi formats them.
  expect(trades.map(({ price, qty, time, isBuyerMaker }) => ({ price, qty, time, isBuyerMaker }))).toEqual([
    { price: '42350.1', qty: '0.010', time: T + 1_000, isBuyerMaker: false },
    { price: '42351.0', qty: '0.250', time: T + 3_600_000, isBuyerMaker: true },
    { price: '42360.5', qty: '1.000', time: T + 14_000_000, isBuyerMaker: false },
  ]);
}, 60_000);
