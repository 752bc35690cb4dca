/**
 * USDC-margined perpetuals end to end (issue 28 names "USDT and USDC margin assets"): a USDC
 * transfer into the futures wallet, a LIMIT and a MARKET order on BTCUSDC, and what every answer
 * and event shows of them: balance and account rows per margin asset, positionRisk marginAsset,
 * income and commission in USDC, ORDER_TRADE_UPDATE N, ACCOUNT_UPDATE B.
 *
 * With multi-assets mode off (the only mode built), Binance keeps each margin asset's wallet
 * apart: a USDC-margined contract is margined by the USDC wallet alone, a USDT one by the USDT
 * wallet, so the USDT and USDC positions are two cross pools (Binance's multi-assets mode FAQ: in
 * single-asset mode "USDT and USDC can only be used as margin for their own contracts"). The
 * account totals are the USDT asset's only (the v2/v3 account docs: "only for USDT asset").
 *
 * Numbers: demo funds 1 000 USDC and 500 USDT; rests a BTCUSDC bid 0.01 at 49 000 (order IM
 * 490 / 20 = 24.5); buys 0.01 BTCUSDC at market (takes 50 010; taker 0.0005 × 500.10 = 0.25005
 * USDC); sells 0.002 BTCUSDT at market (takes 49 990; 0.0005 × 99.98 = 0.04999 USDT). Marks 50 000.
 */
import { describe, expect, test } from 'vitest';
import { T0_MS, type FuturesTradingFixture } from './futures-fixture.ts';
import { markOf, usdcFixture } from './futures-usdc-fixture.ts';

function traded(): { f: FuturesTradingFixture; events: Record<string, any>[] } {
  const f = usdcFixture();
  const events: Record<string, any>[] = [];
  f.ctx.futuresUserStream.subscribe(1, (e) => events.push(e as Record<string, any>));
  const ok = (r: { status: number; body: string }): void => {
    if (r.status !== 200) throw new Error(r.body);
  };
  ok(f.demo.post('/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDC', amount: '1000' }));
  ok(f.demo.post('/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '500' }));
  ok(f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDC', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '49000' }));
  ok(f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDC', side: 'BUY', type: 'MARKET', quantity: '0.01' }));
  ok(f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.002' }));
  return { f, events };
}

const USDT_ROW = { asset: 'USDT', balance: '499.95001000', crossWalletBalance: '499.95001000', crossUnPnl: '-0.02000000', availableBalance: '494.93001000', maxWithdrawAmount: '494.93001000' };
// 999.74995 − 0.1 uPnL − 25 position IM (500 / 20) − 24.5 open-order IM.
const USDC_ROW = { asset: 'USDC', balance: '999.74995000', crossWalletBalance: '999.74995000', crossUnPnl: '-0.10000000', availableBalance: '950.14995000', maxWithdrawAmount: '950.14995000' };

describe('USDC-margined perpetual', () => {
  test('exchangeInfo lists BTCUSDC with USDC as quote and margin asset, and USDC among the margin assets', () => {
    const f = usdcFixture();
    const info = f.demo.get('/fapi/v1/exchangeInfo').json as { assets: unknown[]; symbols: Record<string, unknown>[] };
    expect(info.assets).toEqual([
      { asset: 'USDT', marginAvailable: true, autoAssetExchange: '-10000' },
      { asset: 'USDC', marginAvailable: true, autoAssetExchange: '-10000' },
    ]);
    expect(info.symbols.find((s) => s['symbol'] === 'BTCUSDC')).toMatchObject({ pair: 'BTCUSDC', baseAsset: 'BTC', quoteAsset: 'USDC', marginAsset: 'USDC', contractType: 'PERPETUAL' });
  });

  test('the transfer moves spot USDC into the USDC futures wallet, with its history row', () => {
    const { f, events } = traded();
    expect(events[0]).toEqual({ e: 'ACCOUNT_UPDATE', E: T0_MS, T: T0_MS, a: { m: 'DEPOSIT', B: [{ a: 'USDC', wb: '1000.00000000', cw: '1000.00000000', bc: '1000.00000000' }], P: [] } });
    const spot = (f.demo.get('/api/v3/account').json as { balances: { asset: string; free: string }[] }).balances;
    expect(spot.find((b) => b.asset === 'USDC')).toEqual({ asset: 'USDC', free: '99000.00000000', locked: '0.00000000' });
    expect(f.demo.get('/sapi/v1/futures/transfer', { asset: 'USDC', startTime: 0 }).json).toEqual({
      rows: [{ asset: 'USDC', tranId: 3, amount: '1000.00000000', type: '1', timestamp: T0_MS, status: 'CONFIRMED' }],
      total: 1,
    });
  });

  test('balance v2 and v3 show a row per margin asset', () => {
    const { f } = traded();
    for (const path of ['/fapi/v2/balance', '/fapi/v3/balance']) {
      const rows = f.demo.get(path).json as Record<string, unknown>[];
      expect(rows.map((r) => r['asset'])).toEqual(['USDT', 'USDC']);
      expect(rows[0]).toMatchObject(USDT_ROW);
      expect(rows[1]).toMatchObject(USDC_ROW);
    }
  });

  test('account v3: the USDC asset row has its own margins; the totals are the USDT asset\'s only', () => {
    const { f } = traded();
    const account = f.demo.get('/fapi/v3/account').json as Record<string, any>;
    expect(account['assets'][1]).toEqual({
      asset: 'USDC', walletBalance: '999.74995000', unrealizedProfit: '-0.10000000', marginBalance: '999.64995000', maintMargin: '2.00000000',
      initialMargin: '49.50000000', positionInitialMargin: '25.00000000', openOrderInitialMargin: '24.50000000', crossWalletBalance: '999.74995000',
      crossUnPnl: '-0.10000000', availableBalance: '950.14995000', maxWithdrawAmount: '950.14995000', updateTime: T0_MS,
    });
    expect(account).toMatchObject({ totalWalletBalance: '499.95001000', totalInitialMargin: '5.00000000', availableBalance: '494.93001000' });
  });

  test('positionRisk names each position\'s margin asset; the USDC position\'s liquidation price ignores the USDT wallet', () => {
    const { f } = traded();
    const rows = f.demo.get('/fapi/v3/positionRisk').json as Record<string, unknown>[];
    expect(rows.map((r) => [r['symbol'], r['marginAsset'], r['positionAmt'], r['entryPrice']])).toEqual([
      ['BTCUSDT', 'USDT', '-0.002', '49990.0'],
      ['BTCUSDC', 'USDC', '0.010', '50010.0'],
    ]);
    // The short 0.002 BTCUSDT is liquidated by the USDT wallet alone: (499.95001 + 0.002 × 49 990) / (0.002 × 1.004).
    expect(rows[0]!['liquidationPrice']).toBe('298769.92529500');
  });

  test('income and userTrades book the BTCUSDC commission in USDC', () => {
    const { f } = traded();
    expect(f.demo.get('/fapi/v1/income', { symbol: 'BTCUSDC' }).json).toEqual([
      { symbol: 'BTCUSDC', incomeType: 'COMMISSION', income: '-0.25005000', asset: 'USDC', info: '', time: T0_MS, tranId: 5, tradeId: '1' },
    ]);
    expect(f.demo.get('/fapi/v1/userTrades', { symbol: 'BTCUSDC' }).json).toEqual([
      { buyer: true, commission: '0.25005000', commissionAsset: 'USDC', id: 1, maker: false, orderId: 4, price: '50010.0', qty: '0.010', quoteQty: '500.10000000', realizedPnl: '0.00000000', side: 'BUY', positionSide: 'BOTH', symbol: 'BTCUSDC', time: T0_MS },
    ]);
  });

  test('ORDER_TRADE_UPDATE charges the fee in USDC (N) and ACCOUNT_UPDATE carries the USDC wallet (B)', () => {
    const { events } = traded();
    const fill = events.find((e) => e['e'] === 'ORDER_TRADE_UPDATE' && e['o'].s === 'BTCUSDC' && e['o'].x === 'TRADE')!;
    expect(fill['o']).toMatchObject({ N: 'USDC', n: '0.25005000', l: '0.010', L: '50010.0', X: 'FILLED' });
    const update = events.find((e) => e['e'] === 'ACCOUNT_UPDATE' && e['a'].m === 'ORDER' && e['a'].P[0].s === 'BTCUSDC')!;
    expect(update['a']).toEqual({
      m: 'ORDER',
      B: [{ a: 'USDC', wb: '999.74995000', cw: '999.74995000', bc: '0.00000000' }],
      P: [{ s: 'BTCUSDC', pa: '0.010', ep: '50010.0', bep: '50060.03501800', cr: '0.00000000', up: '-0.10000000', mt: 'cross', iw: '0.00000000', ps: 'BOTH' }],
    });
  });

  test('two cross pools: a BTCUSDC order is margined by USDC alone, and a BTCUSDC loss leaves the USDT row as it was', () => {
    const { f } = traded();
    // 0.4 × 49 000 / 20 = 980 USDC of margin: more than the 950.14995 USDC available, less than USDC and USDT together.
    const r = f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDC', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.4', price: '49000' });
    expect([r.status, r.json]).toEqual([400, { code: -2019, msg: 'Margin is insufficient.' }]);
    markOf(f, 'BTCUSDC', 49_000);
    const rows = f.demo.get('/fapi/v2/balance').json as Record<string, unknown>[];
    expect(rows[0]).toMatchObject(USDT_ROW);
    // uPnL 0.01 × (49 000 − 50 010) = −10.1; position IM 490 / 20 = 24.5.
    expect(rows[1]).toMatchObject({ asset: 'USDC', crossUnPnl: '-10.10000000', availableBalance: '940.64995000' });
    // Nor can USDT leave for spot beyond the USDT wallet's own max withdraw.
    const out = f.demo.post('/sapi/v1/asset/transfer', { type: 'UMFUTURE_MAIN', asset: 'USDT', amount: '495' });
    expect([out.status, out.json]).toEqual([400, { code: -5013, msg: 'Asset transfer failed: insufficient balance' }]);
  });

  test('a USDC liquidation is the USDC pool\'s alone: the USDT wallet neither saves it nor pays for it', () => {
    const f = usdcFixture();
    f.demo.post('/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDC', amount: '1000' });
    f.demo.post('/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '5000' });
    f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDC', side: 'BUY', type: 'MARKET', quantity: '0.3' });
    f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
    // 0.3 BTCUSDC bought at 50 010 on 1 000 USDC: liquidated near 46 889, though 5 000 USDT sit beside it.
    const before = f.demo.get('/fapi/v3/positionRisk').json as Record<string, unknown>[];
    expect(before.map((r) => [r['symbol'], r['liquidationPrice']])).toEqual([
      ['BTCUSDT', '0.0'],
      ['BTCUSDC', '46889.22858097'],
    ]);
    markOf(f, 'BTCUSDC', 46_800);
    const forced = f.demo.get('/fapi/v1/forceOrders').json as Record<string, unknown>[];
    expect(forced.map((o) => [o['symbol'], o['side'], o['executedQty']])).toEqual([['BTCUSDC', 'SELL', '0.300']]);
    const after = f.demo.get('/fapi/v3/positionRisk').json as Record<string, unknown>[];
    expect(after.map((r) => [r['symbol'], r['positionAmt']])).toEqual([['BTCUSDT', '0.010']]);
    const rows = f.demo.get('/fapi/v2/balance').json as Record<string, unknown>[];
    expect(rows.map((r) => [r['asset'], r['balance']])).toEqual([
      ['USDT', '4999.74995000'],
      ['USDC', '0.00000000'],
    ]);
  });
});
