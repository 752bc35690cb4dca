/**
 * A backtest over recorded depth (a generated Tardis L2 day): the recorded book is the book the
 * strategy sees and takes from (REST depth shows it, a MARKET order walks its levels at their
 * recorded sizes, nothing synthetic on top), the summary names it, and the run is the same
 * every time.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import type { StrategyContext } from '../../src/backtest/strategy.ts';
import { runBacktestRequest, parseBacktestRequest } from '../../src/backtest/backtest-request.ts';
import { writeSyntheticL2Days } from '../../src/data/synthetic/write-l2-days.ts';

const DAY = Date.UTC(2024, 0, 1) * 1000;
let dir = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'exsim-l2-bt-'));
  await writeSyntheticL2Days(dir, {
    symbol: 'BTCUSDT',
    seed: 7,
    scale: { quotePrecision: 8, basePrecision: 8 },
    tickSize: 1_000_000,
    stepSize: 1_000,
    startPrice: 4_200_000_000_000,
    startTime: DAY,
    endTime: DAY + 86_400_000_000,
    tradesPerDay: 20_000,
    depthRowsPerDay: 200_000,
    dailyVolatility: 0.02,
    medianQty: 80_000,
    firstTradeId: 900_000,
  });
}, 60_000);

test('the strategy sees the recorded book and its MARKET order walks the recorded levels, price by price', async () => {
  const seen: { asks: string[][]; fills: { price: string; qty: string }[] }[] = [];
  const result = await runBacktest({
    data: dir,
    from: DAY,
    to: DAY + 3_600_000_000,
    strategy: {
      name: 'walker',
      path: 'inline',
      params: {},
      balances: undefined,
      fees: undefined,
      bnbDiscount: undefined,
      description: 'takes three levels once',
      run: async (ctx: StrategyContext) => {
        await ctx.clock.sleep(600_000);
        const book = await ctx.client.get<{ asks: string[][] }>('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5 });
        // Enough to take the first two levels whole and part of the third.
        const qty = Number(book.asks[0]![1]) + Number(book.asks[1]![1]) + Number(book.asks[2]![1]) / 2;
        const order = await ctx.client.post<{ fills: { price: string; qty: string }[] }>('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: qty.toFixed(5) });
        seen.push({ asks: book.asks, fills: order.fills });
      },
    },
  });
  expect(result.books).toEqual({ BTCUSDT: 'recorded L2 (tardis incremental_book_L2)' });
  expect(result.replayStats.depthMessages).toBeGreaterThan(1000);
  const [{ asks, fills }] = seen as [{ asks: string[][]; fills: { price: string; qty: string }[] }];
  expect(fills.map((f) => f.price)).toEqual([asks[0]![0], asks[1]![0], asks[2]![0]]);
  expect(fills.slice(0, 2).map((f) => f.qty)).toEqual([asks[0]![1], asks[1]![1]]);
  // The fills are trades with the market (no maker account), at the taker fee.
  expect(result.fills.every((f) => !f.isMaker)).toBe(true);
});

test('summary.json names the recorded book and counts its messages; the same run gives the same journal hash', async () => {
  const request = parseBacktestRequest('grid', { data: dir, from: '2024-01-01T00:00', to: '2024-01-01T02:00', fillModel: 'queue', latency: 'none', seed: '1' });
  const a = await runBacktestRequest(request, null, () => {}, false, () => {});
  const b = await runBacktestRequest(request, null, () => {}, false, () => {});
  expect(a.summary.market.book).toBe('recorded L2 (tardis incremental_book_L2)');
  expect(a.summary.market.source).toBe('trades');
  expect(a.summary.market.depth!['BTCUSDT']!.messages).toBe(a.result.replayStats.depthMessages);
  expect(a.summary.journal.sha256).toBe(b.summary.journal.sha256);
});

test("ctx.stream's diff depth over the recorded book rebuilds, by Binance's recipe, exactly the book REST shows", async () => {
  let rebuilt: { bids: string[][]; asks: string[][] } | null = null;
  let rest: { bids: string[][]; asks: string[][] } | null = null;
  let events = 0;
  await runBacktest({
    data: dir,
    from: DAY,
    to: DAY + 600_000_000,
    strategy: {
      name: 'local-book',
      path: 'inline',
      params: {},
      balances: undefined,
      fees: undefined,
      bnbDiscount: undefined,
      description: 'keeps a local book from the diff stream',
      run: async (ctx: StrategyContext) => {
        const buffered: { U: number; u: number; b: [string, string][]; a: [string, string][] }[] = [];
        ctx.stream('btcusdt@depth@100ms', (m) => {
          buffered.push(m as (typeof buffered)[number]);
          events++;
        });
        await ctx.clock.sleep(1_000);
        const snapshot = await ctx.client.get<{ lastUpdateId: number; bids: [string, string][]; asks: [string, string][] }>('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5000 });
        await ctx.clock.sleep(120_000);
        const bids = new Map(snapshot.bids);
        const asks = new Map(snapshot.asks);
        let last = snapshot.lastUpdateId;
        for (const e of buffered) {
          if (e.u <= snapshot.lastUpdateId) continue;
          if (e.U > last + 1) throw new Error(`a gap in the diff stream: U ${e.U} after ${last}`);
          for (const [p, q] of e.b) if (Number(q) === 0) bids.delete(p); else bids.set(p, q);
          for (const [p, q] of e.a) if (Number(q) === 0) asks.delete(p); else asks.set(p, q);
          last = e.u;
        }
        const sorted = (m: Map<string, string>, desc: boolean) => [...m].sort((x, y) => (desc ? Number(y[0]) - Number(x[0]) : Number(x[0]) - Number(y[0])));
        rebuilt = { bids: sorted(bids, true), asks: sorted(asks, false) };
        rest = await ctx.client.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5000 });
      },
    },
  });
  expect(events).toBeGreaterThan(300);
  expect(rebuilt!.bids.length).toBeGreaterThan(100);
  expect(rebuilt).toEqual({ bids: rest!.bids, asks: rest!.asks });
});
