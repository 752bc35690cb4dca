/**
 * The market exists from the first instant of a backtest (issue 11): on the sample day, whose
 * first print is 4 s after midnight, a MARKET order sent at 00:00:00.000000 fills at once against
 * the synthetic book anchored at the first print's price, stamped with the window's first µs.
 */
import { expect, test } from 'vitest';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import type { StrategyContext } from '../../src/backtest/strategy.ts';

test('a MARKET order at the window’s first µs fills against a two-sided book', async () => {
  const seen: Record<string, unknown>[] = [];
  const from = Date.UTC(2024, 0, 1) * 1000;
  const result = await runBacktest({
    data: 'sample',
    from,
    to: from + 60_000_000,
    strategy: {
      name: 'first-instant',
      path: 'inline',
      params: {},
      balances: undefined,
      fees: undefined,
      bnbDiscount: undefined,
      description: 'buys at the first µs',
      run: async (ctx: StrategyContext) => {
        const book = await ctx.client.get<{ bids: string[][]; asks: string[][] }>('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5 });
        // Smaller than the best level's least size (half a target of 0.01 BTC, less 25% jitter): one fill.
        const order = await ctx.client.post<Record<string, unknown>>('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.003' });
        seen.push({ now: ctx.clock.now(), bids: book.bids.length, asks: book.asks.length, bestAsk: book.asks[0]?.[0] }, order);
      },
    },
  });
  const [before, order] = seen as [Record<string, unknown>, { status: string; transactTime: number; fills: { price: string }[] }];
  expect(before).toMatchObject({ now: from / 1000, bids: 5, asks: 5 });
  expect(order.status).toBe('FILLED');
  expect(order.transactTime).toBe(from / 1000);
  expect(order.fills[0]!.price).toBe(before['bestAsk']);
  expect(result.fills).toHaveLength(1);
});

test('--book off: no synthetic book, so the same MARKET order finds nothing to take; the summary says so', async () => {
  const from = Date.UTC(2024, 0, 1) * 1000;
  let status = '';
  const result = await runBacktest({
    data: 'sample',
    from,
    to: from + 60_000_000,
    book: null,
    strategy: {
      name: 'first-instant',
      path: 'inline',
      params: {},
      balances: undefined,
      fees: undefined,
      bnbDiscount: undefined,
      description: 'buys at the first µs',
      run: async (ctx: StrategyContext) => {
        const order = await ctx.client.post<{ status: string }>('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '50000', quantity: '0.01' });
        status = order.status;
      },
    },
  });
  expect(status).toBe('EXPIRED');
  expect(result.syntheticBook).toBe('off');
  expect(result.fills).toHaveLength(0);
});
