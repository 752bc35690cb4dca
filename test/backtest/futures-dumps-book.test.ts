/**
 * A perpetual's recorded book: a folder with Tardis.dev `binance-futures` incremental_book_L2 for
 * BTCUSDT (USDⓈ-M by its name's exchange) gives `um:BTCUSDT` that book instead of the synthetic
 * one, as GET /fapi/v1/depth shows it, and the spot symbol keeps its own (synthetic) book.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import type { StrategyContext } from '../../src/backtest/strategy.ts';
import { SAMPLE_DIR } from '../../src/data/sample.ts';

const T = Date.UTC(2024, 0, 1);
const dir = mkdtempSync(join(tmpdir(), 'exsim-fut-book-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

test("Tardis binance-futures L2 is the perpetual's book; /fapi/v1/depth shows its levels", async () => {
  const spot = join(dir, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.zip');
  mkdirSync(dirname(spot), { recursive: true });
  copyFileSync(join(SAMPLE_DIR, 'BTCUSDT-trades-2024-01-01.zip'), spot);
  write('futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', `id,price,qty,quote_qty,time,is_buyer_maker\n1,42350.1,0.010,423.501,${T + 1_000},false\n`);
  const us = (ms: number) => ms * 1000;
  write(
    'tardis/binance-futures_incremental_book_L2_2024-01-01_BTCUSDT.csv',
    'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount\n' +
      `binance-futures,BTCUSDT,${us(T)},${us(T) + 100},true,bid,42349.0,1.5\n` +
      `binance-futures,BTCUSDT,${us(T)},${us(T) + 100},true,bid,42348.5,2\n` +
      `binance-futures,BTCUSDT,${us(T)},${us(T) + 100},true,ask,42351.0,0.75\n` +
      `binance-futures,BTCUSDT,${us(T)},${us(T) + 100},true,ask,42352.0,3\n` +
      // An update half a minute in: the best bid grows.
      `binance-futures,BTCUSDT,${us(T + 30_000)},${us(T + 30_000) + 100},false,bid,42349.0,2.25\n`,
  );
  let depth: { bids: string[][]; asks: string[][] } = { bids: [], asks: [] };
  const result = await runBacktest({
    data: dir,
    from: T * 1000,
    to: (T + 3_600_000) * 1000,
    futures: ['BTCUSDT'],
    strategy: {
      name: 'look',
      path: 'inline',
      params: {},
      balances: undefined,
      fees: undefined,
      bnbDiscount: undefined,
      description: 'look',
      futures: ['BTCUSDT'],
      run: async (ctx: StrategyContext) => {
        await ctx.clock.sleep(60_000);
        depth = await ctx.client.get('/fapi/v1/depth', { symbol: 'BTCUSDT', limit: 5 });
      },
    },
  });
  expect(depth.bids).toEqual([
    ['42349.0', '2.250'],
    ['42348.5', '2.000'],
  ]);
  expect(depth.asks).toEqual([
    ['42351.0', '0.750'],
    ['42352.0', '3.000'],
  ]);
  expect(result.books).toEqual({ BTCUSDT: expect.stringMatching(/^synthetic /), 'um:BTCUSDT': 'recorded L2 (tardis incremental_book_L2)' });
  expect(result.futures!.prints).toBe('futures/um trades dumps: 1 file');
});
