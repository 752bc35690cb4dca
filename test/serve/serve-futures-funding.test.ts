/**
 * `exsim serve --data D --futures btcusdt:4h` where D holds the sample day's spot BTCUSDT trades
 * and a USDⓈ-M fundingRate dump whose rows (00:00 and 04:00 UTC, 4 h intervals) are what the
 * served perpetual funds at: at the warm-up's end (04:00, manual clock) GET /fapi/v1/fundingRate
 * serves the recorded 04:00 row, premiumIndex shows its rate and the next 4 h funding time (08:00)
 * with the 4 h interest, fundingInfo lists the 4 h symbol, and the banner names the dump.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { spawnServe } from './spawn-serve.ts';
import { SAMPLE_DIR } from '../../src/data/sample.ts';

let child: ChildProcessWithoutNullStreams | undefined;
const dir = mkdtempSync(join(tmpdir(), 'exsim-serve-fut-funding-'));
afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const T = Date.UTC(2024, 0, 1);
const H = 3_600_000;

function writeFolder(): void {
  const spot = join(dir, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.zip');
  mkdirSync(dirname(spot), { recursive: true });
  copyFileSync(join(SAMPLE_DIR, 'BTCUSDT-trades-2024-01-01.zip'), spot);
  const funding = join(dir, 'futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2024-01.csv');
  mkdirSync(dirname(funding), { recursive: true });
  writeFileSync(funding, `calc_time,funding_interval_hours,last_funding_rate\n${T},4,0.00037409\n${T + 4 * H},4,-0.00002500\n`);
}

function startServer(): Promise<{ url: string; out: () => string }> {
  const served = spawnServe(['--port', '0', '--data', dir, '--clock', 'manual', '--futures', 'btcusdt:4h']);
  child = served.child;
  return served.ready;
}

test('the served perpetual funds at the recorded rows; its 4 h interval shows on premiumIndex and fundingInfo', async () => {
  writeFolder();
  const { url, out } = await startServer();
  expect(out()).toContain("funding: futures/um fundingRate dumps: 1 file, 2 fundings in the window (recorded times and rates; the futures model's rate every 4 h outside them))");
  const get = async (path: string) => (await fetch(`${url}${path}`)).json();
  // The perpetual lists at the day's first spot print (after 00:00): the 04:00 row is its first.
  expect(await get('/fapi/v1/fundingRate?symbol=BTCUSDT')).toEqual([expect.objectContaining({ symbol: 'BTCUSDT', fundingTime: T + 4 * H, fundingRate: '-0.00002500' })]);
  expect(await get('/fapi/v1/premiumIndex?symbol=BTCUSDT')).toMatchObject({ lastFundingRate: '-0.00002500', interestRate: '0.00005000', nextFundingTime: T + 8 * H });
  expect(await get('/fapi/v1/fundingInfo')).toEqual([{ symbol: 'BTCUSDT', adjustedFundingRateCap: '0.02500000', adjustedFundingRateFloor: '-0.02500000', fundingIntervalHours: 4, disclaimer: false }]);
});
