/**
 * A futures backtest's `ctx.stream` takes the USDⓈ-M streams as /fstream serves them: the
 * perpetual's mark each simulated second (the engine's, as GET /fapi/v1/premiumIndex shows it at
 * the same instant), and its book (`{ market: 'futures' }`) on the contract's 0.10 tick. The sample
 * day is 2024-01-01 (BTCUSDT); the strategy listens for 3 simulated seconds from 00:01:00.
 */
import { expect, test } from 'vitest';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import type { StrategyContext } from '../../src/backtest/strategy.ts';

const FROM = Date.UTC(2024, 0, 1) * 1000;

test('ctx.stream: btcusdt@markPrice@1s each second with the engine mark; btcusdt@depth5 of the perpetual', async () => {
  const marks: Record<string, unknown>[] = [];
  const books: { e: string; b: [string, string][] }[] = [];
  let premium: Record<string, unknown> = {};
  let refused = '';
  await runBacktest({
    data: 'sample',
    from: FROM,
    to: FROM + 120_000_000,
    strategy: {
      name: 'listen',
      path: 'inline',
      params: {},
      balances: undefined,
      fees: undefined,
      bnbDiscount: undefined,
      description: 'listen',
      futures: ['BTCUSDT'],
      run: async (ctx: StrategyContext) => {
        await ctx.clock.sleep(60_000);
        const stopMarks = ctx.stream('btcusdt@markPrice@1s', (m) => marks.push(m as Record<string, unknown>));
        const stopBooks = ctx.stream('btcusdt@depth5', (m) => books.push(m as { e: string; b: [string, string][] }), { market: 'futures' });
        try {
          ctx.stream('btcusdt@depth5@1000ms', () => undefined, { market: 'futures' });
        } catch (error) {
          refused = (error as Error).message;
        }
        await ctx.clock.sleep(3000);
        premium = await ctx.client.get<Record<string, unknown>>('/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' });
        stopMarks();
        stopBooks();
      },
    },
  });
  const at = Date.UTC(2024, 0, 1, 0, 1);
  expect(marks.map((m) => (m['E'] as number) - at)).toEqual([1000, 2000, 3000]);
  expect(marks.at(-1)!['p']).toBe(premium['markPrice']);
  expect(marks.at(-1)!['i']).toBe(premium['indexPrice']);
  expect(books.length).toBe(12); // every 250 ms for 3 s
  expect(books[0]!.e).toBe('depthUpdate');
  expect(books[0]!.b[0]![0]).toMatch(/^\d+\.\d$/);
  expect(refused).toBe('"btcusdt@depth5@1000ms" is not a USDⓈ-M stream (e.g. btcusdt@markPrice@1s, btcusdt@depth@100ms of a traded perpetual) of this backtest nor a live listen key');
});
