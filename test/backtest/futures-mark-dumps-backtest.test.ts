/**
 * Recorded marks in a backtest: a folder with the sample day's spot BTCUSDT trades and USDⓈ-M
 * mark price klines `futures/um/daily/markPriceKlines/BTCUSDT/1m/BTCUSDT-1m-2024-01-01.zip`
 * (written here, ten minutes from 00:00): the perpetual's mark each second walks each bar (open at
 * second 0, the nearer extreme at 20, the other at 40, the close from 59), so a 125x short is
 * liquidated in the minute where the recorded mark spiked, not where the model's went; summary.json
 * `futures.marks` names the dump. The mark-klines file is not taken for trade klines (no prints).
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
const T = Date.UTC(2024, 0, 1);
const MIN = 60_000;

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

// Ten one-minute mark bars, open and close 42000.00, high 42010.00, low 41990.00, except minute 5:
// the mark spiked to 42900.00 (low 41990.00 first, the nearer extreme).
const bar = (m: number, high: string) => `${T + m * MIN},42000.00,${high},41990.00,42000.00,0,${T + m * MIN + 59_999},0,60,0,0,0`;
const MARK_CSV =
  'open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore\n' +
  Array.from({ length: 10 }, (_, m) => bar(m, m === 5 ? '42900.00' : '42010.00')).join('\n') +
  '\n';

function folder(withMarks = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'exsim-fut-marks-'));
  dirs.push(dir);
  const spot = join(dir, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.zip');
  mkdirSync(dirname(spot), { recursive: true });
  copyFileSync(join(SAMPLE_DIR, 'BTCUSDT-trades-2024-01-01.zip'), spot);
  if (!withMarks) return dir;
  const marks = join(dir, 'futures/um/daily/markPriceKlines/BTCUSDT/1m/BTCUSDT-1m-2024-01-01.zip');
  mkdirSync(dirname(marks), { recursive: true });
  writeFileSync(marks, zipSingleFile('BTCUSDT-1m-2024-01-01.csv', Buffer.from(MARK_CSV)));
  return dir;
}

interface Row {
  [key: string]: string | number;
}

async function thinShort(data: string) {
  const seen: { premium: Row; before: Row; liquidations: Row[]; klines: unknown[][] } = { premium: {}, before: {}, liquidations: [], klines: [] };
  const result = await runBacktest({
    data,
    from: FROM,
    to: FROM + 10 * MIN * 1000,
    futures: ['BTCUSDT'],
    strategy: {
      name: 'thin-short',
      path: 'inline',
      params: {},
      balances: undefined,
      fees: undefined,
      bnbDiscount: undefined,
      description: 'thin-short',
      futures: undefined,
      run: async (ctx: StrategyContext) => {
        await ctx.client.post('/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '60' });
        await ctx.client.post('/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 125 });
        await ctx.clock.sleep(60_000);
        await ctx.client.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.1' });
        // 00:02:10: bar 2 walks 42000 → 41990 over seconds 0..20, so 42000 − 10 × 10 / 20 = 41995.
        await ctx.clock.sleep(T + 2 * MIN + 10_000 - ctx.clock.now());
        seen.premium = await ctx.client.get<Row>('/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' });
        seen.before = (await ctx.client.get<Row[]>('/fapi/v3/positionRisk', { symbol: 'BTCUSDT' }))[0]!;
        await ctx.clock.sleep(T + 9 * MIN - ctx.clock.now());
        seen.liquidations = await ctx.client.get<Row[]>('/fapi/v1/forceOrders', { symbol: 'BTCUSDT' });
        seen.klines = [
          ...(await ctx.client.get<unknown[][]>('/fapi/v1/markPriceKlines', { symbol: 'BTCUSDT', interval: '1m', startTime: T + 5 * MIN, limit: 1 })),
          ...(await ctx.client.get<unknown[][]>('/fapi/v1/markPriceKlines', { symbol: 'BTCUSDT', interval: '5m', startTime: T + 5 * MIN, limit: 1 })),
        ];
      },
    },
  });
  return { seen, result };
}

test('a 125x short is liquidated at the second the recorded mark passes its liquidation price', async () => {
  const { seen, result } = await thinShort(folder());
  expect(seen.premium['markPrice']).toBe('41995.00000000');
  expect(seen.before).toMatchObject({ positionAmt: '-0.100', liquidationPrice: '42365.85841630' });
  // Minute 5 rises from 41990 at 00:05:20 to 42900 at 00:05:40, 45.5 a second: 42354.00 at
  // 00:05:28 is still below the liquidation price 42365.86, 42399.50 at 00:05:29 is above it.
  expect(seen.liquidations.map((o) => o['updateTime'])).toEqual([T + 5 * MIN + 29_000]);
  // GET /fapi/v1/markPriceKlines at 00:09:00: minute 5 as recorded; the 5 m bar from 00:05 up to
  // now (its close the mark of 00:09:00, bar 9's open).
  expect(seen.klines.map((k) => k.slice(0, 5))).toEqual([
    [T + 5 * MIN, '42000.00000000', '42900.00000000', '41990.00000000', '42000.00000000'],
    [T + 5 * MIN, '42000.00000000', '42900.00000000', '41990.00000000', '42000.00000000'],
  ]);
  expect(result.futures!.marks).toBe(
    'futures/um markPriceKlines 1m dumps: 1 file, 10 minutes in the window (each minute open → nearer extreme → other extreme → close at seconds 0, 20, 40, 59; the futures model: index (the last spot price) × (1 + seeded premium) in minutes without a bar)',
  );
  expect(result.futures!.prints).toBe('derived from the spot tape: each spot print at spot price × (1 + premium) on the contract tick, its quantity on the contract step (at least one step)');
});

test("without the mark dump the model's mark does not reach the short's liquidation price in those minutes", async () => {
  const { seen, result } = await thinShort(folder(false));
  expect(seen.liquidations).toEqual([]);
  expect(result.futures!.marks).toBe('the futures model: index (the last spot price) × (1 + seeded premium)');
});
