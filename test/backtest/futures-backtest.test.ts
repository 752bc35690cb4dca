/**
 * USDⓈ-M futures in a backtest (issue 28): a strategy funds its futures wallet, shorts the
 * perpetual through /fapi, and the replay moves the mark each second and settles funding at
 * 08:00 and 16:00 UTC; a short held with too little margin is liquidated against the insurance
 * fund. The sample day is 2024-01-01 (BTCUSDT).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { headline, parseBacktestRequest, runBacktestRequest } from '../../src/backtest/backtest-request.ts';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import type { StrategyContext } from '../../src/backtest/strategy.ts';

const FROM = Date.UTC(2024, 0, 1) * 1000;
const DAY = 86_400_000_000;

function inline(name: string, run: (ctx: StrategyContext) => Promise<void>) {
  return { name, path: 'inline', params: {}, balances: undefined, fees: undefined, bnbDiscount: undefined, description: name, futures: ['BTCUSDT'], run };
}

interface Income {
  incomeType: string;
  income: string;
  time: number;
}

test('a short held all day pays or receives funding at 08:00 and 16:00, booked as FUNDING_FEE income at those instants', async () => {
  const seen: { income: Income[]; position: Record<string, string>; premium: Record<string, string | number> } = { income: [], position: {}, premium: {} };
  const result = await runBacktest({
    data: 'sample',
    from: FROM,
    to: FROM + DAY,
    strategy: inline('hold-short', async (ctx) => {
      await ctx.client.post('/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '2000' });
      await ctx.client.post('/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 5 });
      await ctx.clock.sleep(60_000);
      await ctx.client.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.1' });
      await ctx.clock.sleep(DAY / 1000 - 120_000);
      seen.income = await ctx.client.get<Income[]>('/fapi/v1/income', { incomeType: 'FUNDING_FEE', startTime: FROM / 1000, limit: 100 });
      seen.position = (await ctx.client.get<Record<string, string>[]>('/fapi/v3/positionRisk', { symbol: 'BTCUSDT' }))[0]!;
      seen.premium = await ctx.client.get<Record<string, string | number>>('/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' });
    }),
  });
  // Funding times of the day after the position opened (00:01): 08:00 and 16:00 UTC. The rate at
  // 08:00 is the model's 0.0001 (GET /fapi/v1/fundingRate), the mark 42313.05775668: the short
  // receives 0.1 × 42313.05775668 × 0.0001 = 0.4231305775668, rounded down to 0.42313057.
  expect(seen.income).toEqual([
    expect.objectContaining({ incomeType: 'FUNDING_FEE', income: '0.42313057', time: Date.UTC(2024, 0, 1, 8) }),
    expect.objectContaining({ incomeType: 'FUNDING_FEE', income: '0.43841039', time: Date.UTC(2024, 0, 1, 16) }),
  ]);
  expect(seen.position['positionAmt']).toBe('-0.100');
  // The position's mark is the futures model's, as /fapi/v1/premiumIndex serves it at the same instant.
  expect(seen.position['markPrice']).toBe(seen.premium['markPrice']);
  const futures = result.futures!;
  // Entry 41956.3 (the MARKET SELL's average); commission 4195.63 × 0.0005 taker = 2.097815.
  expect(futures.symbols[0]).toMatchObject({ symbol: 'BTCUSDT', positionAmt: '-0.100', entryPrice: '41956.3', commission: '-2.09781500', fundingReceived: '0.86154096', fundingPaid: '0.00000000', fundings: 2, liquidations: 0, makerCommissionRate: '0.00020000', takerCommissionRate: '0.00050000' });
  expect(futures.liquidations).toBe(0);
});

test('a 125x short on a thin wallet is liquidated when the mark rises: position closed, orders gone, the fund took the clearance', async () => {
  const seen: { before: Record<string, string>; after: Record<string, string>; open: unknown[] } = { before: {}, after: {}, open: [] };
  const result = await runBacktest({
    data: 'sample',
    from: FROM,
    to: FROM + DAY,
    strategy: inline('thin-short', async (ctx) => {
      await ctx.client.post('/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '60' });
      await ctx.client.post('/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 125 });
      await ctx.clock.sleep(60_000);
      await ctx.client.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.1' });
      // A resting BUY far below: the liquidation cancels it.
      await ctx.client.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '41000', quantity: '0.002', reduceOnly: 'true' });
      seen.before = (await ctx.client.get<Record<string, string>[]>('/fapi/v3/positionRisk', { symbol: 'BTCUSDT' }))[0]!;
      await ctx.clock.sleep(DAY / 1000 - 120_000);
      seen.after = (await ctx.client.get<Record<string, string>[]>('/fapi/v2/positionRisk', { symbol: 'BTCUSDT' }))[0]!;
      seen.open = await ctx.client.get<unknown[]>('/fapi/v1/openOrders', { symbol: 'BTCUSDT' });
    }),
  });
  expect(seen.before['positionAmt']).toBe('-0.100');
  expect(Number(seen.before['liquidationPrice'])).toBeGreaterThan(Number(seen.before['entryPrice']));
  expect(seen.after['positionAmt']).toBe('0.000');
  expect(seen.open).toEqual([]);
  const futures = result.futures!;
  expect(futures.liquidations).toBe(1);
  expect(futures.symbols[0]).toMatchObject({ positionAmt: '0.000', liquidations: 1 });
  expect(Number(futures.insuranceFund)).toBeGreaterThan(0);
  // The account's orders: the short's MARKET SELL (filled), the resting BUY the liquidation
  // expired, and the liquidation's own system close (a real order: BUY, FILLED).
  expect(result.orders.map((o) => [o.symbol, o.side, o.status])).toEqual([
    ['um:BTCUSDT', 'SELL', 'FILLED'],
    ['um:BTCUSDT', 'BUY', 'EXPIRED'],
    ['um:BTCUSDT', 'BUY', 'FILLED'],
  ]);
  expect(result.orders[2]!.clientOrderId).toMatch(/^autoclose-\d+$/);
});

test('exsim backtest short: the headline, summary.json and report.html show the futures section; trades.csv the short round trips', async () => {
  const out = mkdtempSync(join(tmpdir(), 'exsim-short-'));
  try {
    const request = parseBacktestRequest('short', { data: 'sample', fillModel: 'queue', latency: 'none', seed: '1' });
    const { summary } = await runBacktestRequest(request, out);
    const lines = headline(summary);
    expect(lines.find((l) => l.startsWith('  futures BTCUSDT:'))).toBe(
      '  futures BTCUSDT: position 0.000 (entry 0.0, mark 43896.21069448), unrealized 0.00000000, realized -22.94000000, commission -77.58752500, funding received 0.00000000 / paid 0.00000000 USDT (0 settlements), liquidations 0; fees maker 0.00020000, taker 0.00050000',
    );
    // The perpetual's fills are marked out against its own prints (every value was '-' before: no series for um:BTCUSDT).
    expect(lines.find((l) => l.startsWith('  markouts'))).toBe('  markouts (bps, volume-weighted): 1s 0.1692, 5s 0.3709, 30s 0.4904, 60s -1.1638, 300s -1.7735');
    const json = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { futures: { maxMarginUsed: string; symbols: unknown[] } };
    expect(json.futures.maxMarginUsed).toBe('444.28042528');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<h2>USDⓈ-M futures (USDT-margined)</h2>');
    expect(html).toContain('<td>-77.58752500</td>');
    const trades = readFileSync(join(out, 'trades.csv'), 'utf8').trim().split('\n');
    expect(trades).toHaveLength(37);
    // orders.csv and fills.csv format the perpetual's rows at its precisions (they printed '.4197570000000' before).
    expect(readFileSync(join(out, 'fills.csv'), 'utf8').split('\n')[1]).toBe('2024-01-01T00:20:00.000000Z,um:BTCUSDT,673,1,SELL,41975.70000000,0.05000000,2098.78500000,1.04939250,um:USDT,false,,');
    expect(readFileSync(join(out, 'orders.csv'), 'utf8').split('\n')[1]).toBe('1,exsim2o1,um:BTCUSDT,SELL,MARKET,GTC,0.00000000,0.05000000,0.05000000,2098.78500000,FILLED,2024-01-01T00:20:00.000000Z,2024-01-01T00:20:00.000000Z');
    expect(trades[1]).toMatch(/^um:BTCUSDT,short,2024-01-01T00:20:00.000000Z,2024-01-01T00:48:00.000000Z,1680,0.05000000,41975.70000000,42145.60000000,um:USDT,-10.59803250,2.10303250,1,exsim2o1,2,exsim2o2,stretch-above-band,stop-loss$/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
