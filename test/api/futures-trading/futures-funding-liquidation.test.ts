/**
 * What the futures model's commands (SetMarkPrice, SettleFunding: the replay applies them, the
 * test backend reports them like a replay) show through /fapi and the futures stream.
 * The demo is short 0.1 BTCUSDT at 49 990 with 1000 USDT at leverage 100 (commission 2.4995).
 * - Funding at rate 0.0001 on notional 0.1 × 50 000 = 5000: the short receives 0.5.
 * - Mark 59 700: uPnL −0.1 × (59 700 − 49 990) = −971, MM 0.1 × 59 700 × 0.004 = 23.88, margin
 *   balance 998.0005 − 971 = 27.0005: ratio 88% (> 80%): MARGIN_CALL.
 * - Mark 60 000: margin balance 998.0005 − 1001 < MM: liquidated at the bankruptcy price
 *   (998.0005 / 0.1 + 49 990 = 59 970.005), the whole wallet lost.
 */
import { describe, expect, test } from 'vitest';
import { futuresTradingFixture, fund, mark, quote, T0_MS } from './futures-fixture.ts';

describe('funding and liquidation through /fapi', () => {
  test('FUNDING_FEE income and ACCOUNT_UPDATE; MARGIN_CALL; the liquidation order and its REALIZED_PNL', () => {
    const f = futuresTradingFixture();
    mark(f, '50000');
    quote(f);
    fund(f.demo, '1000');
    f.demo.post('/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 100 });
    f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.1' });
    const stream: Record<string, any>[] = [];
    f.ctx.futuresUserStream.subscribe(1, (e) => stream.push(e));

    f.backend.market({ type: 'SettleFunding', time: f.backend.now, symbol: 'um:BTCUSDT', rate: 10_000 });
    expect(f.demo.get('/fapi/v1/income', { incomeType: 'FUNDING_FEE' }).json).toEqual([
      { symbol: 'BTCUSDT', incomeType: 'FUNDING_FEE', income: '0.50000000', asset: 'USDT', info: 'FUNDING_FEE', time: T0_MS, tranId: 6, tradeId: '' },
    ]);
    // Cross margin: only the wallet (B), no position (P).
    expect(stream).toEqual([{ e: 'ACCOUNT_UPDATE', E: T0_MS, T: T0_MS, a: { m: 'FUNDING_FEE', B: [{ a: 'USDT', wb: '998.00050000', cw: '998.00050000', bc: '0.00000000' }], P: [] } }]);

    stream.length = 0;
    mark(f, '59700');
    expect(stream).toEqual([
      {
        e: 'MARGIN_CALL',
        E: T0_MS,
        cw: '998.00050000',
        p: [{ s: 'BTCUSDT', ps: 'BOTH', pa: '-0.100', mt: 'CROSSED', iw: '0.00000000', mp: '59700.0', up: '-971.00000000', mm: '23.88000000' }],
      },
    ]);

    stream.length = 0;
    mark(f, '60000');
    expect(stream.map((e) => e['e'])).toEqual(['ORDER_TRADE_UPDATE', 'ACCOUNT_UPDATE']);
    expect(stream[0]!['o']).toMatchObject({ S: 'BUY', o: 'LIQUIDATION', ot: 'LIQUIDATION', x: 'CALCULATED', X: 'FILLED', q: '0.100', ap: '59970.00500000', rp: '-998.00050000', er: 5 });
    expect(String(stream[0]!['o'].c)).toMatch(/^autoclose-/);
    expect(stream[1]!['a']).toEqual({
      m: 'ORDER',
      B: [{ a: 'USDT', wb: '0.00000000', cw: '0.00000000', bc: '0.00000000' }],
      P: [{ s: 'BTCUSDT', pa: '0.000', ep: '0.0', bep: '0.0', cr: '-998.00050000', up: '0.00000000', mt: 'cross', iw: '0.00000000', ps: 'BOTH' }],
    });
    expect(f.demo.get('/fapi/v3/positionRisk').json).toEqual([]);
    expect((f.demo.get('/fapi/v1/income', { incomeType: 'REALIZED_PNL' }).json as { income: string; info: string }[]).map((r) => [r.income, r.info])).toEqual([['-998.00050000', 'LIQUIDATION']]);
    expect((f.demo.get('/fapi/v2/balance').json as { balance: string }[])[0]!.balance).toBe('0.00000000');
  });
});

describe('hedge mode', () => {
  test('LONG and SHORT positions apart; BOTH refused; reduceOnly refused', () => {
    const f = futuresTradingFixture();
    mark(f, '50000');
    quote(f);
    fund(f.demo, '1000');
    expect(f.demo.post('/fapi/v1/positionSide/dual', { dualSidePosition: 'true' }).json).toEqual({ code: 200, msg: 'success' });
    expect(f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' }).json).toEqual({ code: -4061, msg: "Order's position side does not match user's setting." });
    expect(f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01', positionSide: 'LONG', reduceOnly: 'true' }).json).toEqual({ code: -1106, msg: "Parameter 'reduceonly' sent when not required." });
    expect(f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01', positionSide: 'LONG' }).status).toBe(200);
    expect(f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.02', positionSide: 'SHORT' }).status).toBe(200);
    const rows = f.demo.get('/fapi/v3/positionRisk').json as { positionSide: string; positionAmt: string; entryPrice: string }[];
    expect(rows.map((r) => [r.positionSide, r.positionAmt, r.entryPrice])).toEqual([
      ['LONG', '0.010', '50010.0'],
      ['SHORT', '-0.020', '49990.0'],
    ]);
    const v2 = f.demo.get('/fapi/v2/positionRisk').json as { positionSide: string }[];
    expect(v2.map((r) => r.positionSide)).toEqual(['LONG', 'SHORT']);
    expect(f.demo.post('/fapi/v1/positionSide/dual', { dualSidePosition: 'false' }).json).toEqual({ code: -4068, msg: 'Position side cannot be changed if there exists position.' });
  });
});
