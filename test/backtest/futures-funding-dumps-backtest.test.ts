/**
 * Recorded funding in a backtest: a folder laid out as data.binance.vision does, the sample day's
 * spot BTCUSDT trades (2024-01-01) beside a USDⓈ-M fundingRate dump
 * `futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2024-01.zip` (header
 * calc_time,funding_interval_hours,last_funding_rate, written here): the short held over the day
 * settles at the recorded times with the recorded rates, /fapi/v1/fundingRate serves them, and
 * summary.json's `futures.funding` names the dump. The mark is the model's either way (the rates
 * alone change), so the amounts compare with futures-backtest.test.ts's.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import type { StrategyContext } from '../../src/backtest/strategy.ts';
import { SAMPLE_DIR } from '../../src/data/sample.ts';
import { zipSingleFile } from '../../src/data/synthetic/zip-writer.ts';

const FROM = Date.UTC(2024, 0, 1) * 1000;
const DAY = 86_400_000_000;
const H = 3_600_000;
const T = Date.UTC(2024, 0, 1);

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

// Four fundings of January 2024 as Binance records them (ms times, 8 h, 8-decimal rates); the last
// is the next day's, after the window.
const FUNDING_CSV =
  'calc_time,funding_interval_hours,last_funding_rate\n' +
  `${T},8,0.00037409\n` +
  `${T + 8 * H},8,-0.00012000\n` +
  `${T + 16 * H},8,0.00020000\n` +
  `${T + 24 * H},8,0.00010000\n`;

function folder(withFunding: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'exsim-fut-funding-'));
  dirs.push(dir);
  const spot = join(dir, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.zip');
  mkdirSync(dirname(spot), { recursive: true });
  copyFileSync(join(SAMPLE_DIR, 'BTCUSDT-trades-2024-01-01.zip'), spot);
  if (withFunding) {
    const path = join(dir, 'futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2024-01.zip');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, zipSingleFile('BTCUSDT-fundingRate-2024-01.csv', Buffer.from(FUNDING_CSV)));
  }
  return dir;
}

interface Row {
  [key: string]: string | number;
}

async function holdShort(data: string) {
  const seen: { income: Row[]; rates: Row[]; premium: Row } = { income: [], rates: [], premium: {} };
  const result = await runBacktest({
    data,
    from: FROM,
    to: FROM + DAY,
    futures: ['BTCUSDT'],
    strategy: {
      name: 'hold-short',
      path: 'inline',
      params: {},
      balances: undefined,
      fees: undefined,
      bnbDiscount: undefined,
      description: 'hold-short',
      futures: undefined,
      run: async (ctx: StrategyContext) => {
        await ctx.client.post('/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '2000' });
        await ctx.client.post('/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 5 });
        await ctx.clock.sleep(60_000);
        await ctx.client.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.1' });
        await ctx.clock.sleep(DAY / 1000 - 120_000);
        seen.income = await ctx.client.get<Row[]>('/fapi/v1/income', { incomeType: 'FUNDING_FEE', startTime: FROM / 1000, limit: 100 });
        seen.rates = await ctx.client.get<Row[]>('/fapi/v1/fundingRate', { symbol: 'BTCUSDT', startTime: FROM / 1000 });
        seen.premium = await ctx.client.get<Row>('/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' });
      },
    },
  });
  return { seen, result };
}

test('with a fundingRate dump the short settles the recorded rates at the recorded times', async () => {
  const { seen, result } = await holdShort(folder(true));
  // 08:00: rate −0.00012, the short pays 0.1 × 42313.05775668 × 0.00012 = 0.50775669307…
  // (rounded down as every funding amount: −0.50775670); 16:00: rate 0.0002, it receives
  // 0.1 × 43841.03969264 × 0.0002 = 0.87682079385…, rounded down to 0.87682079. The model gave
  // 0.42313057 and 0.43841039 at the same marks (the last test).
  expect(seen.income.map((r) => [r['time'], r['income']])).toEqual([
    [T + 8 * H, '-0.50775670'],
    [T + 16 * H, '0.87682079'],
  ]);
  // The perpetual lists at the day's first spot print (after 00:00), so history starts at 08:00.
  expect(seen.rates.map((r) => [r['fundingTime'], r['fundingRate'], r['markPrice']])).toEqual([
    [T + 8 * H, '-0.00012000', '42313.05775668'],
    [T + 16 * H, '0.00020000', '43841.03969264'],
  ]);
  // After 16:00 the last funding was recorded: premiumIndex shows its rate, not a look at the next.
  expect(seen.premium).toMatchObject({ lastFundingRate: '0.00020000', interestRate: '0.00010000', nextFundingTime: T + 24 * H });
  // 00:00, 08:00 and 16:00 lie in the window [00:00, 24:00); the next day's row does not.
  expect(result.futures!.funding).toBe("futures/um fundingRate dumps: 1 file, 3 fundings in the window (recorded times and rates; the futures model's rate every 8 h outside them)");
  expect(result.futures!.symbols[0]).toMatchObject({ fundings: 2 });
});

test('without the dump the model funds as before (futures-backtest.test.ts literals)', async () => {
  const { seen, result } = await holdShort(folder(false));
  expect(seen.income.map((r) => [r['time'], r['income']])).toEqual([
    [T + 8 * H, '0.42313057'],
    [T + 16 * H, '0.43841039'],
  ]);
  expect(result.futures!.funding).toBe("the futures model's rate every 8 h");
});
