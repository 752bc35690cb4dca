/**
 * The research helpers in a real backtest on the bundled sample: ctx.bars gives the closed bars
 * GET /api/v3/klines lists (not the forming one), ctx.symbol the rules, ctx.orders typed orders,
 * ctx.tag the reasons trades.csv shows; trades.csv has one row per round trip and summary.json's
 * round-trip statistics add up its rows; the holding benchmark has its own Sharpe and drawdown.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import { afterAll, expect, test } from 'vitest';
import { runBacktestRequest } from '../../src/backtest/backtest-request.ts';
import { parseTime } from '../../src/backtest/parse-time.ts';

const dir = mkdtempSync(join(tmpdir(), 'exsim-research-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** µs of a report time (2024-01-01T00:05:00.123456Z). */
const micros = (time: string): number => Date.parse(`${time.slice(0, 19)}Z`) * 1000 + Number(time.slice(20, 26));

const request = (strategy: string, to = '2024-01-01T03:00') => ({ strategy, data: 'sample', from: parseTime('2024-01-01', 'from'), to: parseTime(to, 'to'), fillModel: 'queue' as const, latency: 'none', seed: '1', params: {} });

test('bars, rules and typed orders as a strategy sees them', async () => {
  const file = join(dir, 'probe.ts');
  writeFileSync(
    file,
    `import type { StrategyContext } from 'exsim';
export default async function probe(ctx: StrategyContext) {
  await ctx.clock.sleepUntil(Date.UTC(2024, 0, 1, 0, 10) + 500);
  const bars = ctx.bars('BTCUSDT', '1m', 5);
  const rest = await ctx.client.get<unknown[][]>('/api/v3/klines', { symbol: 'BTCUSDT', interval: '1m', limit: 6 });
  ctx.log(JSON.stringify({ bars, rest }));
  const rules = ctx.symbol('BTCUSDT');
  ctx.log(JSON.stringify({ tick: rules.tickSize, step: rules.stepSize, minNotional: rules.minNotional }));
  const order = await ctx.orders.market('BTCUSDT', 'BUY', '0.01');
  ctx.tag(order.clientOrderId, 'probe, "quoted"');
  ctx.log(JSON.stringify(order));
  const resting = await ctx.orders.limit('BTCUSDT', 'BUY', '0.001', rules.roundPrice(Number(order.avgPrice) * 0.9, 'down'), { postOnly: true });
  const open = await ctx.orders.open('BTCUSDT');
  const canceled = await ctx.orders.cancel('BTCUSDT', resting.orderId);
  const after = await ctx.orders.get('BTCUSDT', resting.orderId);
  ctx.log(JSON.stringify({ resting, open: open.map((o) => o.orderId), canceled: canceled.status, after: after.status, clientOrderId: canceled.clientOrderId === resting.clientOrderId }));
  const sell = await ctx.orders.market('BTCUSDT', 'SELL', rules.roundQty(Number(order.executedQty) * 0.999));
  ctx.tag(sell.orderId, 'exit');
}
`,
  );
  const out = join(dir, 'probe');
  const { result } = await runBacktestRequest(request(file, '2024-01-01T00:20'), out);
  const { bars, rest } = JSON.parse(result.log[0]!.slice(result.log[0]!.indexOf(' ') + 1)) as { bars: Record<string, unknown>[]; rest: unknown[][] };
  expect(bars).toHaveLength(5);
  expect(bars.map((b) => b.openTime)).toEqual([5, 6, 7, 8, 9].map((m) => Date.UTC(2024, 0, 1, 0, m)));
  // The five closed bars are REST's first five; its sixth is the bar still forming at 00:10:00.5.
  expect(rest[5]![0]).toBe(Date.UTC(2024, 0, 1, 0, 10));
  expect(bars.map((b) => [b.openTime, b.open, b.high, b.low, b.close, b.volume, b.closeTime, b.quoteVolume, b.trades])).toEqual(rest.slice(0, 5).map((k) => k.slice(0, 9)));
  expect(JSON.parse(result.log[1]!.slice(result.log[1]!.indexOf(' ') + 1))).toEqual({ tick: '0.01', step: '0.00001', minNotional: '5' });
  const order = JSON.parse(result.log[2]!.slice(result.log[2]!.indexOf(' ') + 1));
  expect(order).toMatchObject({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', status: 'FILLED', executedQty: '0.01000000' });
  const filled = order.fills.reduce((s: Decimal, f: { qty: string }) => s.add(f.qty), new Decimal(0));
  expect(filled.toFixed(8)).toBe('0.01000000');
  expect(new Decimal(order.avgPrice).toFixed(8)).toBe(new Decimal(order.cummulativeQuoteQty).div(order.executedQty).toDecimalPlaces(8).toFixed(8));
  const limit = JSON.parse(result.log[3]!.slice(result.log[3]!.indexOf(' ') + 1));
  expect(limit.resting).toMatchObject({ type: 'LIMIT_MAKER', status: 'NEW', executedQty: '0.00000000', avgPrice: null, fills: [] });
  expect(limit).toMatchObject({ open: [limit.resting.orderId], canceled: 'CANCELED', after: 'CANCELED', clientOrderId: true });
  // The round trip the probe made, with its tags: by client order id (a comma and quotes: RFC 4180) and by orderId.
  const trades = readFileSync(join(out, 'trades.csv'), 'utf8').trim().split('\n');
  expect(trades).toHaveLength(2);
  const sellId = order.orderId + 2;
  expect(trades[1]!.endsWith(`,${order.orderId},${order.clientOrderId},${sellId},exsim0o${sellId},"probe, ""quoted""",exit`)).toBe(true);
}, 60_000);

test("the quick start's round trips: trades.csv, the summary computed from it, the reasons", async () => {
  const out = join(dir, 'quick');
  const { summary, result } = await runBacktestRequest(request('examples/quick-start-strategy.ts'), out);
  const lines = readFileSync(join(out, 'trades.csv'), 'utf8').trim().split('\n');
  expect(lines[0]).toBe('symbol,side,entryTime,exitTime,durationSeconds,quantity,entryPrice,exitPrice,quoteAsset,pnl,fees,entryOrderId,entryClientOrderId,exitOrderId,exitClientOrderId,entryReason,exitReason');
  const rows = lines.slice(1).map((l) => l.split(','));
  const t = summary.metrics.trades;
  expect(rows.length).toBe(t.roundTrips);
  expect(rows.length).toBeGreaterThan(1);
  for (const row of rows) {
    expect(row.slice(0, 2)).toEqual(['BTCUSDT', 'long']);
    expect(Number(row[4])).toBe((micros(row[3]!) - micros(row[2]!)) / 1e6);
    expect(row[5]).toBe('0.01000000');
    expect(row[8]).toBe('USDT');
    expect(row.slice(15)).toEqual(['cross-up', 'cross-down']);
  }
  // The statistics are the rows' (USDT is the valuation asset: no conversion).
  const pnls = rows.map((r) => new Decimal(r[9]!));
  expect(t.totalPnl).toBe(pnls.reduce((s, p) => s.add(p), new Decimal(0)).toFixed(8));
  expect(t.wins).toBe(pnls.filter((p) => p.gt(0)).length);
  expect(t.bestPnl).toBe(Decimal.max(...pnls).toFixed(8));
  // Each trip's PnL: what the sell brought, less what the buy cost, less the commissions (in the quote).
  const [first] = rows;
  const exit = new Decimal(first![7]!).mul('0.00999'); // 0.01 bought less the 0.1% BTC commission, sold
  const entry = new Decimal(first![6]!).mul('0.01');
  expect(new Decimal(first![9]!).sub(exit.sub(entry).sub(new Decimal(first![7]!).mul('0.00000999'))).abs().lte('0.00000002')).toBe(true);

  // The holding benchmark judged as the strategy is, from the same samples (worked out here with plain numbers).
  const hold = result.recorder.equity.map((s) => s.hold!.toNumber());
  const returns = hold.slice(1).map((h, i) => h / hold[i]! - 1);
  const mean = returns.reduce((s, r) => s + r, 0) / returns.length;
  const sd = Math.sqrt(returns.reduce((s, r) => s + (r - mean) ** 2, 0) / (returns.length - 1));
  expect(summary.metrics.benchmarks.hold.sharpeAnnualised).toBeCloseTo((mean / sd) * Math.sqrt(525_600), 2);
  let peak = -Infinity;
  let worst = 0;
  for (const h of hold) {
    peak = Math.max(peak, h);
    worst = Math.max(worst, (peak - h) / peak);
  }
  expect(summary.metrics.benchmarks.hold.maxDrawdown.fraction).toBeCloseTo(worst, 6);
}, 60_000);

test("the README's quick start is examples/quick-start-strategy.ts, the file this suite runs", () => {
  const block = /## Quick start[\s\S]*?```ts\n([\s\S]*?)```/.exec(readFileSync('README.md', 'utf8'))![1]!;
  const example = readFileSync('examples/quick-start-strategy.ts', 'utf8');
  expect(block.slice(block.indexOf('import'))).toBe(example.slice(example.indexOf('import')));
});
