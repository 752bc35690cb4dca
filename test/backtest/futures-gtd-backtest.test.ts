/**
 * A GTD order in a backtest: the futures clock's SetMarkPrice every simulated second expires it
 * at its goodTillDate (to the second), and the replay forgets it (its book mirror is re-read), so
 * later prints through its price fill nothing. The sample day's contract trades near 41 956 at
 * 00:01 and first reaches 42 200 around 01:00 (klines): a GTC SELL at 42 200 fills, the GTD one
 * placed with it (due 700 s later) expired before.
 */
import { expect, test } from 'vitest';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import type { StrategyContext } from '../../src/backtest/strategy.ts';

const FROM = Date.UTC(2024, 0, 1) * 1000;
const HOUR = 3_600_000_000;

test('a GTD SELL expires at its due second; the GTC beside it fills when the price comes', async () => {
  const seen: { placedAt: number; gtd: Record<string, unknown>; gtc: Record<string, unknown> } = { placedAt: 0, gtd: {}, gtc: {} };
  await runBacktest({
    data: 'sample',
    from: FROM,
    to: FROM + 2 * HOUR,
    strategy: {
      name: 'gtd',
      path: 'inline',
      params: {},
      balances: undefined,
      fees: undefined,
      bnbDiscount: undefined,
      description: 'gtd',
      futures: ['BTCUSDT'],
      run: async (ctx: StrategyContext) => {
        await ctx.client.post('/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '1000' });
        await ctx.clock.sleep(60_000);
        seen.placedAt = (await ctx.client.get<{ serverTime: number }>('/fapi/v1/time')).serverTime;
        const order = { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.01', price: '42200' };
        const gtd = await ctx.client.post<{ orderId: number }>('/fapi/v1/order', { ...order, timeInForce: 'GTD', goodTillDate: String(seen.placedAt + 700_123) });
        const gtc = await ctx.client.post<{ orderId: number }>('/fapi/v1/order', { ...order, timeInForce: 'GTC' });
        await ctx.clock.sleep(2 * 3_600_000 - 120_000);
        seen.gtd = await ctx.client.get('/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(gtd.orderId) });
        seen.gtc = await ctx.client.get('/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(gtc.orderId) });
      },
    },
  });
  const due = Math.floor((seen.placedAt + 700_123) / 1000) * 1000;
  expect(seen.placedAt).toBe(FROM / 1000 + 60_000);
  expect(seen.gtd).toMatchObject({ status: 'EXPIRED', timeInForce: 'GTD', goodTillDate: due, executedQty: '0.000', updateTime: due });
  expect(seen.gtc).toMatchObject({ status: 'FILLED', timeInForce: 'GTC', executedQty: '0.010' });
  expect(Number(seen.gtc['updateTime'])).toBeGreaterThan(due);
});
