/**
 * `--futures BTCUSDT` over a folder laid out as data.binance.vision does, spot and USDⓈ-M futures
 * dumps side by side with the same file names: the perpetual trades on the futures/um prints
 * (summary.json `futures.prints` says so), the spot tape is the spot file's alone, and a folder
 * without futures/um files derives the prints from spot as before. Spot: the sample day's
 * BTCUSDT trades (2024-01-01); the futures files are small CSVs written here.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import type { StrategyContext } from '../../src/backtest/strategy.ts';
import { SAMPLE_DIR } from '../../src/data/sample.ts';

const FROM = Date.UTC(2024, 0, 1) * 1000;
const HOUR = 3_600_000_000;
const T = Date.UTC(2024, 0, 1);

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A folder with the sample's spot BTCUSDT trades under spot/ and `futures` files (path → text) beside them. */
function folder(futures: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'exsim-fut-dumps-'));
  dirs.push(dir);
  const spot = join(dir, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.zip');
  mkdirSync(dirname(spot), { recursive: true });
  copyFileSync(join(SAMPLE_DIR, 'BTCUSDT-trades-2024-01-01.zip'), spot);
  for (const [path, text] of Object.entries(futures)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

// Four USDⓈ-M prints in the first hour, on the contract's 0.10 tick and 0.001 step, ms times, with
// the header row Binance's futures dumps have. Prices sit above spot's (~42 300) like a premium.
const UM_TRADES =
  'id,price,qty,quote_qty,time,is_buyer_maker\n' +
  `5001,42350.10,0.010,423.501,${T + 1_000},false\n` +
  `5002,42351.00,0.250,10587.75,${T + 600_000},true\n` +
  `5003,42360.50,1.000,42360.5,${T + 1_800_000},false\n` +
  `5004,42372.30,0.004,169.4892,${T + 3_540_000},true\n`;

const UM_AGG_TRADES =
  'agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker\n' +
  `901,42340.00,0.500,1,3,${T + 2_000},true\n` +
  `902,42345.60,0.020,4,4,${T + 2_400_000},false\n`;

interface Trade {
  id: number;
  price: string;
  qty: string;
  time: number;
  isBuyerMaker: boolean;
}

async function run(data: string, futures: string[] = ['BTCUSDT']) {
  const seen: { trades: Trade[] } = { trades: [] };
  const result = await runBacktest({
    data,
    from: FROM,
    to: FROM + HOUR,
    futures,
    strategy: {
      name: 'look',
      path: 'inline',
      params: {},
      balances: undefined,
      fees: undefined,
      bnbDiscount: undefined,
      description: 'look',
      futures,
      run: async (ctx: StrategyContext) => {
        await ctx.clock.sleep(HOUR / 1000 - 1_000);
        if (futures.length > 0) seen.trades = await ctx.client.get<Trade[]>('/fapi/v1/trades', { symbol: 'BTCUSDT', limit: 10 });
      },
    },
  });
  return { result, trades: seen.trades };
}

test('with futures/um trades dumps the perpetual trades on them: /fapi/v1/trades shows the four prints, summary.json names the files', async () => {
  const { result, trades } = await run(folder({ 'futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv': UM_TRADES }));
  expect(result.futures!.prints).toBe('futures/um trades dumps: 1 file');
  // The engine numbers the prints (as for spot dumps); prices (shown with the 0.10 tick's one
  // decimal, as /fapi formats them), quantities, times and sides are the file's.
  expect(trades.map(({ price, qty, time, isBuyerMaker }) => ({ price, qty, time, isBuyerMaker }))).toEqual([
    { price: '42350.1', qty: '0.010', time: T + 1_000, isBuyerMaker: false },
    { price: '42351.0', qty: '0.250', time: T + 600_000, isBuyerMaker: true },
    { price: '42360.5', qty: '1.000', time: T + 1_800_000, isBuyerMaker: false },
    { price: '42372.3', qty: '0.004', time: T + 3_540_000, isBuyerMaker: true },
  ]);
  expect(result.sources).toEqual({ BTCUSDT: 'trades' });
  // The sample hour's 1 849 spot prints and the four perpetual prints.
  expect(result.replayStats.prints).toBe(1853);
});

test('without futures/um trades, aggTrades are the next finest: one print per aggregate', async () => {
  const { result, trades } = await run(folder({ 'futures/um/daily/aggTrades/BTCUSDT/BTCUSDT-aggTrades-2024-01-01.csv': UM_AGG_TRADES }));
  expect(result.futures!.prints).toBe('futures/um aggTrades dumps: 1 file');
  expect(trades.map(({ price, qty, time }) => ({ price, qty, time }))).toEqual([
    { price: '42340.0', qty: '0.500', time: T + 2_000 },
    { price: '42345.6', qty: '0.020', time: T + 2_400_000 },
  ]);
});

test('with only futures/um klines, the finest interval is walked into prints on the contract grid', async () => {
  const header = 'open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore\n';
  const bars = [0, 1, 2].map((i) => `${T + i * 60_000},42300.0,42310.5,42290.1,42305.2,1.200,${T + i * 60_000 + 59_999},50766.2,12,0.600,25383.1,0\n`).join('');
  const { result, trades } = await run(folder({ 'futures/um/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2024-01-01.csv': header + bars }));
  expect(result.futures!.prints).toBe('futures/um klines 1m dumps: 1 file');
  // The last bar's path ends at its close, on the 0.10 tick.
  expect(trades.at(-1)!.price).toBe('42305.2');
  expect(trades.every((t) => /^\d+\.\d$/.test(t.price) && t.time < T + 180_000)).toBe(true);
});

test('a folder without futures/um files derives the prints from the spot tape, as summary.json says', async () => {
  const { result, trades } = await run(folder({}));
  expect(result.futures!.prints).toBe(
    'derived from the spot tape: each spot print at spot price × (1 + premium) on the contract tick, its quantity on the contract step (at least one step)',
  );
  expect(trades).toHaveLength(10);
});

test('a spot-only run over the mixed folder replays exactly what the spot-only folder does', async () => {
  const mixed = await run(folder({ 'futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv': UM_TRADES }), []);
  const plain = await run(folder({}), []);
  // The sample's first hour of spot BTCUSDT prints, in both.
  expect(mixed.result.replayStats.prints).toBe(1849);
  expect(plain.result.replayStats.prints).toBe(1849);
  expect(mixed.result.futures).toBeNull();
});
