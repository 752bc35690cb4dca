/**
 * The USDⓈ-M user data stream (futures facts §7): in process through the hub, and over a real
 * HTTP server and WebSocket at /ws/<futures listenKey>, with signed HTTP requests (fetch). The
 * spot stream of the same account shows nothing of the futures world, and the reverse.
 */
import { afterEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { ExsimHttpServer } from '../../../src/api-facade/transport/http-server.ts';
import { signHmacSha256 } from '../../../src/api-facade/signing/hmac-sha256.ts';
import { DEMO_KEY, DEMO_SECRET } from '../fixture.ts';
import { futuresTradingFixture, fund, mark, quote, T0_MS } from './futures-fixture.ts';

describe('futures user stream events (in process)', () => {
  test('transfer, leverage, a short filled, a resting order canceled', () => {
    const f = futuresTradingFixture();
    mark(f, '50000');
    quote(f);
    const fut: Record<string, any>[] = [];
    const spot: Record<string, any>[] = [];
    f.ctx.futuresUserStream.subscribe(1, (e) => fut.push(e));
    f.ctx.userStream.subscribe(1, (e) => spot.push(e));
    fund(f.demo, '1000');
    f.demo.post('/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 10 });
    f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.01' });
    f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '49000' });
    f.demo.delete('/fapi/v1/allOpenOrders', { symbol: 'BTCUSDT' });

    expect(fut.map((e) => (e['e'] === 'ORDER_TRADE_UPDATE' ? `${e['e']} ${e['o'].x}` : e['e'] === 'ACCOUNT_UPDATE' ? `${e['e']} ${e['a'].m}` : e['e']))).toEqual([
      'ACCOUNT_UPDATE DEPOSIT',
      'ACCOUNT_CONFIG_UPDATE',
      'ORDER_TRADE_UPDATE NEW',
      'ACCOUNT_UPDATE ORDER',
      'ORDER_TRADE_UPDATE TRADE',
      'TRADE_LITE',
      'ORDER_TRADE_UPDATE NEW',
      'ORDER_TRADE_UPDATE CANCELED',
    ]);
    expect(fut[0]).toEqual({ e: 'ACCOUNT_UPDATE', E: T0_MS, T: T0_MS, a: { m: 'DEPOSIT', B: [{ a: 'USDT', wb: '1000.00000000', cw: '1000.00000000', bc: '1000.00000000' }], P: [] } });
    expect(fut[1]).toEqual({ e: 'ACCOUNT_CONFIG_UPDATE', E: T0_MS, T: T0_MS, ac: { s: 'BTCUSDT', l: 10 } });
    // 1000 − commission 0.24995 (0.0005 × 499.90); short 0.01 at 49 990, uPnL −0.01 × (50 000 − 49 990).
    expect(fut[3]!["a"]).toEqual({
      m: 'ORDER',
      B: [{ a: 'USDT', wb: '999.75005000', cw: '999.75005000', bc: '0.00000000' }],
      P: [{ s: 'BTCUSDT', pa: '-0.010', ep: '49990.0', bep: '49940.03498200', cr: '0.00000000', up: '-0.10000000', mt: 'cross', iw: '0.00000000', ps: 'BOTH' }],
    });
    expect(fut[4]).toEqual({
      e: 'ORDER_TRADE_UPDATE',
      E: T0_MS,
      T: T0_MS,
      o: {
        s: 'BTCUSDT', c: 'exsim2o5', S: 'SELL', o: 'MARKET', f: 'GTC', q: '0.010', p: '0', ap: '49990.0', sp: '0', x: 'TRADE', X: 'FILLED', i: 5,
        l: '0.010', z: '0.010', L: '49990.0', N: 'USDT', n: '0.24995000', T: T0_MS, t: 1, b: '0.00000000', a: '0.00000000', m: false, R: false,
        wt: 'CONTRACT_PRICE', ot: 'MARKET', ps: 'BOTH', cp: false, rp: '0.00000000', pP: false, si: 0, ss: 0, V: 'NONE', pm: 'NONE', gtd: 0, er: 0,
      },
    });
    expect(fut[5]).toEqual({ e: 'TRADE_LITE', E: T0_MS, T: T0_MS, s: 'BTCUSDT', q: '0.010', p: '0', m: false, c: 'exsim2o5', S: 'SELL', L: '49990.0', l: '0.010', t: 1, i: 5 });
    // The resting bid's notional (0.01 × 49 000) while it is open.
    expect(fut[6]!["o"]).toMatchObject({ x: 'NEW', b: '490.00000000', p: '49000.0' });
    // No commission, no N/n.
    expect("N" in fut[7]!["o"]).toBe(false);

    // Spot: the transfer's USDT leg only, never a um: asset or a futures order.
    expect(spot).toEqual([
      { e: 'balanceUpdate', E: T0_MS, a: 'USDT', d: '-1000.00000000', T: T0_MS },
      { e: 'outboundAccountPosition', E: T0_MS, u: T0_MS, B: [{ a: 'USDT', f: '99000.00000000', l: '0.00000000' }] },
    ]);
  });
});

const servers: ExsimHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('over HTTP and WebSocket', () => {
  test('signed /fapi requests over HTTP; the futures key streams ORDER_TRADE_UPDATE', async () => {
    const f = futuresTradingFixture();
    mark(f, '50000');
    quote(f);
    fund(f.demo, '1000');
    const server = new ExsimHttpServer(f.ctx, {});
    servers.push(server);
    const base = await server.listen(0);
    const signed = async (method: string, path: string, params: string) => {
      const query = `${params}&timestamp=${T0_MS}`;
      const res = await fetch(`${base}${path}?${query}&signature=${signHmacSha256(DEMO_SECRET, query)}`, { method, headers: { 'X-MBX-APIKEY': DEMO_KEY } });
      return { status: res.status, headers: res.headers, json: (await res.json()) as any };
    };
    const keyRes = await fetch(`${base}/fapi/v1/listenKey`, { method: 'POST', headers: { 'X-MBX-APIKEY': DEMO_KEY } });
    const listenKey = ((await keyRes.json()) as { listenKey: string }).listenKey;

    const ws = new WebSocket(`${base.replace('http:', 'ws:')}/ws/${listenKey}`);
    const messages: any[] = [];
    ws.on('message', (d) => messages.push(JSON.parse(String(d))));
    await new Promise((r) => ws.on('open', r));

    const placed = await signed('POST', '/fapi/v1/order', 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.01&price=49000');
    expect(placed.status).toBe(200);
    expect(placed.json).toMatchObject({ orderId: 5, status: 'NEW', price: '49000.0', origQty: '0.010' });
    expect(placed.headers.get('x-mbx-order-count-1m')).toBe('1');
    expect(placed.headers.get('x-mbx-order-count-10s')).toBe('1');
    const refused = await signed('POST', '/fapi/v1/order', 'symbol=BTCUSDT&side=BUY&type=TAKE_PROFIT_MARKET&quantity=0.01');
    expect([refused.status, refused.json]).toEqual([400, { code: -4120, msg: 'Order type not supported for this endpoint. Please use the Algo Order API endpoints instead.' }]);
    const risk = await signed('GET', '/fapi/v2/account', 'recvWindow=5000');
    expect(risk.json).toMatchObject({ totalWalletBalance: '1000.00000000', totalOpenOrderInitialMargin: expect.any(String), multiAssetsMargin: false });
    expect(risk.headers.get('x-mbx-used-weight-1m')).toBe('6'); // listenKey 1 + order 0 + order 0 + account 5

    for (let i = 0; i < 200 && messages.length < 1; i++) await new Promise((r) => setTimeout(r, 5));
    expect(messages[0]).toMatchObject({ e: 'ORDER_TRADE_UPDATE', o: { s: 'BTCUSDT', x: 'NEW', i: 5, p: '49000.0' } });
    ws.close();
  });
});
