/**
 * A futures/um print off the contract's grid (data from before a tick change read under today's
 * rules: BTCUSDT's tick is 0.10, step 0.001) is put on it, price to the nearest tick (half up),
 * quantity to the nearest step (at least one), and summary.json's `futures.prints` counts them, so
 * the run says its prints are not all the venue's as printed.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import type { StrategyContext } from '../../src/backtest/strategy.ts';
import { SAMPLE_DIR } from '../../src/data/sample.ts';

const T = Date.UTC(2024, 0, 1);
const HOUR_MS = 3_600_000;
const dir = mkdtempSync(join(tmpdir(), 'exsim-fut-grid-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('off-grid prints are put on the 0.10 tick and 0.001 step, and counted in futures.prints', async () => {
  const spot = join(dir, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.zip');
  mkdirSync(dirname(spot), { recursive: true });
  copyFileSync(join(SAMPLE_DIR, 'BTCUSDT-trades-2024-01-01.zip'), spot);
  const um = join(dir, 'futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv');
  mkdirSync(dirname(um), { recursive: true });
  writeFileSync(
    um,
    'id,price,qty,quote_qty,time,is_buyer_maker\n' +
      `1,42350.15,0.010,423.5015,${T + 1_000},false\n` + // price half a tick over: up to 42350.2
      `2,42351.00,0.0004,16.9404,${T + 2_000},true\n` + // below one step: one step
      `3,42352.00,0.020,847.04,${T + 3_000},false\n`, // on the grid: as it is
  );
  let trades: { price: string; qty: string; quoteQty: string }[] = [];
  const result = await runBacktest({
    data: dir,
    from: T * 1000,
    to: (T + HOUR_MS) * 1000,
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
        trades = await ctx.client.get('/fapi/v1/trades', { symbol: 'BTCUSDT', limit: 10 });
      },
    },
  });
  expect(result.futures!.prints).toBe('futures/um trades dumps: 1 file; 2 prints put on the contract grid (tick 0.1, step 0.001)');
  expect(trades.map(({ price, qty, quoteQty }) => ({ price, qty, quoteQty }))).toEqual([
    { price: '42350.2', qty: '0.010', quoteQty: '423.50200000' },
    { price: '42351.0', qty: '0.001', quoteQty: '42.35100000' },
    { price: '42352.0', qty: '0.020', quoteQty: '847.04000000' },
  ]);
});
