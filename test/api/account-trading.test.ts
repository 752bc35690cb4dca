import { describe, expect, test } from 'vitest';
import { makeFixture, seedBook, T0, T0_MS } from './fixture.ts';

const LIMIT_BUY = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '49000' } as const;

describe('account endpoints', () => {
  test('account shows balances at the asset precision; omitZeroBalances drops empty ones', () => {
    const f = makeFixture();
    const body = f.demo.get('/api/v3/account').json as any;
    expect(body.balances[0]).toEqual({ asset: 'BTC', free: '1.00000000', locked: '0.00000000' });
    expect(body.uid).toBe(1_000_001);
    expect(body.updateTime).toBe(T0_MS);
    const mm = f.maker.get('/api/v3/account', { omitZeroBalances: true }).json as any;
    expect(mm.balances.map((b: any) => b.asset)).toEqual(['BTC', 'ETH', 'USDT']);
    expect(f.demo.get('/api/v3/account', { omitZeroBalances: 'yes' }).json).toEqual({ code: -1130, msg: "Data sent for parameter 'omitZeroBalances' is not valid." });
  });

  test('GET order by orderId or origClientOrderId; -2013 unknown; -2039 mismatch; -1102 neither', () => {
    const f = makeFixture();
    const placed = f.demo.post('/api/v3/order', { ...LIMIT_BUY, newClientOrderId: 'my-order-1' }).json as any;
    const byId = f.demo.get('/api/v3/order', { symbol: 'BTCUSDT', orderId: placed.orderId }).json as any;
    expect(byId).toMatchObject({ symbol: 'BTCUSDT', orderId: placed.orderId, clientOrderId: 'my-order-1', price: '49000.00000000', origQty: '0.10000000', status: 'NEW', isWorking: true });
    expect(f.demo.get('/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'my-order-1' }).json).toEqual(byId);
    const unknown = f.demo.get('/api/v3/order', { symbol: 'BTCUSDT', orderId: 999 });
    expect([unknown.status, unknown.json]).toEqual([400, { code: -2013, msg: 'Order does not exist.' }]);
    const mismatch = f.demo.get('/api/v3/order', { symbol: 'BTCUSDT', orderId: placed.orderId, origClientOrderId: 'other' });
    expect([mismatch.status, mismatch.json]).toEqual([400, { code: -2039, msg: 'Client order ID is not correct for this order ID.' }]);
    expect(f.demo.get('/api/v3/order', { symbol: 'BTCUSDT' }).json).toEqual({ code: -1102, msg: "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!" });
    expect(f.demo.get('/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: '' }).json).toEqual({ code: -1119, msg: 'Original client order ID was empty.' });
    // Another account cannot see it.
    expect(f.maker.get('/api/v3/order', { symbol: 'BTCUSDT', orderId: placed.orderId }).json).toEqual({ code: -2013, msg: 'Order does not exist.' });
  });

  test('openOrders by symbol (weight 6) and for all symbols (weight 80)', () => {
    const f = makeFixture();
    f.demo.post('/api/v3/order', LIMIT_BUY);
    const one = f.demo.get('/api/v3/openOrders', { symbol: 'BTCUSDT' });
    expect((one.json as any[]).map((o) => o.status)).toEqual(['NEW']);
    const before = Number(one.headers['X-MBX-USED-WEIGHT-1M']);
    const all = f.demo.get('/api/v3/openOrders');
    expect(Number(all.headers['X-MBX-USED-WEIGHT-1M']) - before).toBe(80);
    expect(f.demo.get('/api/v3/openOrders', { symbol: 'XXX' }).json).toEqual({ code: -1121, msg: 'Invalid symbol.' });
  });

  test('allOrders: orderId, limit and the 24 h span rule (-1127)', () => {
    const f = makeFixture();
    for (let i = 0; i < 3; i++) f.demo.post('/api/v3/order', LIMIT_BUY);
    const ids = (r: any) => (r.json as any[]).map((o) => o.orderId);
    expect(ids(f.demo.get('/api/v3/allOrders', { symbol: 'BTCUSDT' }))).toEqual([1, 2, 3]);
    expect(ids(f.demo.get('/api/v3/allOrders', { symbol: 'BTCUSDT', orderId: 2 }))).toEqual([2, 3]);
    expect(ids(f.demo.get('/api/v3/allOrders', { symbol: 'BTCUSDT', limit: 2 }))).toEqual([2, 3]);
    const span = f.demo.get('/api/v3/allOrders', { symbol: 'BTCUSDT', startTime: T0_MS - 86_400_001, endTime: T0_MS });
    expect([span.status, span.json]).toEqual([400, { code: -1127, msg: 'More than 24 hours between startTime and endTime.' }]);
  });

  test('myTrades after a fill; weight 5 with orderId; fromId with startTime is -1128', () => {
    const f = makeFixture();
    seedBook(f);
    const placed = f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '50010' }).json as any;
    expect(placed.status).toBe('FILLED');
    const trades = f.demo.get('/api/v3/myTrades', { symbol: 'BTCUSDT' });
    expect(trades.json).toEqual([
      {
        symbol: 'BTCUSDT', id: 1, orderId: placed.orderId, orderListId: -1, price: '50010.00000000', qty: '0.10000000', quoteQty: '5001.00000000',
        commission: '0.00010000', commissionAsset: 'BTC', time: T0_MS, isBuyer: true, isMaker: false, isBestMatch: true,
      },
    ]);
    const before = Number(trades.headers['X-MBX-USED-WEIGHT-1M']);
    const byOrder = f.demo.get('/api/v3/myTrades', { symbol: 'BTCUSDT', orderId: placed.orderId });
    expect(Number(byOrder.headers['X-MBX-USED-WEIGHT-1M']) - before).toBe(5);
    expect(f.demo.get('/api/v3/myTrades', { symbol: 'BTCUSDT', fromId: 1, startTime: T0_MS }).json).toEqual({ code: -1128, msg: 'Combination of optional parameters invalid.' });
  });

  test("myTrades answers exactly the spec's supported parameter combinations; every other is -1128", () => {
    const f = makeFixture();
    const values = { orderId: 1, startTime: T0_MS - 1000, endTime: T0_MS, fromId: 1 };
    const names = Object.keys(values) as (keyof typeof values)[];
    const supported = ['', 'orderId', 'startTime', 'endTime', 'fromId', 'startTime+endTime', 'orderId+fromId'];
    const answered: string[] = [];
    for (let mask = 0; mask < 1 << names.length; mask++) {
      const sent = names.filter((_, i) => (mask & (1 << i)) !== 0);
      const r = f.demo.get('/api/v3/myTrades', { symbol: 'BTCUSDT', ...Object.fromEntries(sent.map((n) => [n, values[n]])) });
      if (r.status === 200) answered.push(sent.join('+'));
      else expect(r.json, sent.join('+')).toEqual({ code: -1128, msg: 'Combination of optional parameters invalid.' });
    }
    expect(answered.sort()).toEqual([...supported].sort());
  });

  test('rateLimit/order shows the unfilled order count; a first fill lowers it', () => {
    const f = makeFixture();
    seedBook(f);
    f.demo.post('/api/v3/order', LIMIT_BUY);
    const counts = () => (f.demo.get('/api/v3/rateLimit/order').json as any[]).map((r) => r.count);
    expect(counts()).toEqual([1, 1]);
    f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '50010' });
    expect(counts()).toEqual([1, 1]); // +1 placed, -1 first fill
    expect((f.demo.get('/api/v3/rateLimit/order').json as any[])[0]).toEqual({ rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 100, count: 1 });
  });
});

describe('trading endpoints', () => {
  test('POST order LIMIT GTC rests: FULL response, order-count headers, weight 1 (the seed spec)', () => {
    const f = makeFixture();
    const r = f.demo.post('/api/v3/order', LIMIT_BUY);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      symbol: 'BTCUSDT', orderId: 1, orderListId: -1, clientOrderId: expect.any(String), transactTime: T0_MS, price: '49000.00000000', origQty: '0.10000000',
      executedQty: '0.00000000', origQuoteOrderQty: '0.00000000', cummulativeQuoteQty: '0.00000000', status: 'NEW', timeInForce: 'GTC', type: 'LIMIT',
      side: 'BUY', workingTime: T0_MS, selfTradePreventionMode: 'EXPIRE_MAKER', fills: [],
    });
    expect(r.headers['X-MBX-ORDER-COUNT-10S']).toBe('1');
    expect(r.headers['X-MBX-ORDER-COUNT-1D']).toBe('1');
    expect(r.headers['X-MBX-USED-WEIGHT-1M']).toBe('1');
  });

  test('MARKET by quoteOrderQty fills against the book with fills; LIMIT_MAKER defaults to ACK', () => {
    const f = makeFixture();
    seedBook(f);
    f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.01', price: '50010' }); // a last price for NOTIONAL
    const m = f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: '1000' }).json as any;
    expect(m).toMatchObject({ type: 'MARKET', status: 'FILLED', executedQty: '0.01999000', origQuoteOrderQty: '1000.00000000' });
    expect(m.fills).toEqual([{ price: '50010.00000000', qty: '0.01999000', commission: '0.00001999', commissionAsset: 'BTC', tradeId: 2 }]);
    const maker = f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT_MAKER', quantity: '0.01', price: '51000' }).json as any;
    expect(Object.keys(maker)).toEqual(['symbol', 'orderId', 'orderListId', 'clientOrderId', 'transactTime']);
  });

  test('POST order errors: engine refusals, param rules, unsupported features; failed orders pay weight 1', () => {
    const f = makeFixture();
    seedBook(f);
    const take = f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT_MAKER', quantity: '0.01', price: '50010' });
    expect([take.status, take.json]).toEqual([400, { code: -2010, msg: 'Order would immediately match and take.' }]);
    expect(take.headers['X-MBX-USED-WEIGHT-1M']).toBe('1');
    expect(take.headers['X-MBX-ORDER-COUNT-10S']).toBeUndefined();
    const funds = f.demo.post('/api/v3/order', { ...LIMIT_BUY, quantity: '10' });
    expect(funds.json).toEqual({ code: -2010, msg: 'Account has insufficient balance for requested action.' });
    const tick = f.demo.post('/api/v3/order', { ...LIMIT_BUY, price: '49000.001' });
    expect(tick.json).toEqual({ code: -1013, msg: 'Filter failure: PRICE_FILTER' });
    expect(f.demo.post('/api/v3/order', { ...LIMIT_BUY, price: '49000.000000001' }).json).toEqual({ code: -1111, msg: "Parameter 'price' has too much precision." });
    const { timeInForce: _tif, ...noTif } = LIMIT_BUY;
    expect(f.demo.post('/api/v3/order', noTif).json).toEqual({ code: -1102, msg: "Mandatory parameter 'timeInForce' was not sent, was empty/null, or malformed." });
    expect(f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1', timeInForce: 'GTC' }).json).toEqual({
      code: -1106, msg: "Parameter 'timeInForce' sent when not required.",
    });
    expect(f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET' }).json).toEqual({
      code: -1102, msg: "Param 'quantity' or 'quoteOrderQty' must be sent, but both were empty/null!",
    });
    expect(f.demo.post('/api/v3/order', { ...LIMIT_BUY, side: 'HOLD' }).json).toEqual({ code: -1117, msg: 'Invalid side.' });
    expect(f.demo.post('/api/v3/order', { ...LIMIT_BUY, stopPrice: '48000' }).json).toEqual({ code: -1106, msg: "Parameter 'stopPrice' sent when not required." });
    expect(f.demo.get('/api/v3/openOrders').json).toEqual([]);
  });

  test('POST order/test validates without placing; computeCommissionRates (weight 20)', () => {
    const f = makeFixture();
    const r = f.demo.post('/api/v3/order/test', LIMIT_BUY);
    expect([r.status, r.json]).toEqual([200, {}]);
    expect(f.demo.get('/api/v3/openOrders').json).toEqual([]);
    const rates = f.demo.post('/api/v3/order/test', { ...LIMIT_BUY, computeCommissionRates: true });
    expect(rates.json).toEqual({
      standardCommissionForOrder: { maker: '0.00100000', taker: '0.00100000' },
      specialCommissionForOrder: { maker: '0.00000000', taker: '0.00000000' },
      taxCommissionForOrder: { maker: '0.00000000', taker: '0.00000000' },
      discount: { enabledForAccount: false, enabledForSymbol: true, discountAsset: 'BNB', discount: '0.25000000' },
    });
    expect(Number(rates.headers['X-MBX-USED-WEIGHT-1M']) - Number(r.headers['X-MBX-USED-WEIGHT-1M'])).toBe(80 + 20); // openOrders without symbol, then order/test with rates
  });

  test('POST order/test refuses what placement would refuse (filters, book rules) but not a lack of funds', () => {
    const f = makeFixture();
    seedBook(f);
    const hash = f.backend.engine.stateHash();
    const tick = f.demo.post('/api/v3/order/test', { ...LIMIT_BUY, price: '49000.001' });
    expect([tick.status, tick.json]).toEqual([400, { code: -1013, msg: 'Filter failure: PRICE_FILTER' }]);
    const notional = f.demo.post('/api/v3/order/test', { ...LIMIT_BUY, quantity: '0.00001', price: '49000' });
    expect(notional.json).toEqual({ code: -1013, msg: 'Filter failure: NOTIONAL' });
    const take = f.demo.post('/api/v3/order/test', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT_MAKER', quantity: '0.1', price: '50010' });
    expect([take.status, take.json]).toEqual([400, { code: -2010, msg: 'Order would immediately match and take.' }]);
    f.demo.post('/api/v3/order', { ...LIMIT_BUY, newClientOrderId: 'mine' });
    const hashWithOrder = f.backend.engine.stateHash();
    expect(f.demo.post('/api/v3/order/test', { ...LIMIT_BUY, newClientOrderId: 'mine' }).json).toEqual({ code: -2010, msg: 'Duplicate order sent.' });
    // A test order never reaches the matching engine, so the balance is not checked.
    expect(f.demo.post('/api/v3/order/test', { ...LIMIT_BUY, quantity: '100' }).json).toEqual({});
    expect(f.backend.engine.stateHash()).toBe(hashWithOrder);
    expect(hashWithOrder).not.toBe(hash);
  });

  test('DELETE order: cancel response; -2011 unknown; -1145 bad restriction; -2011 restriction not met', () => {
    const f = makeFixture();
    const placed = f.demo.post('/api/v3/order', { ...LIMIT_BUY, newClientOrderId: 'buy-1' }).json as any;
    const bad = f.demo.delete('/api/v3/order', { symbol: 'BTCUSDT', orderId: placed.orderId, cancelRestrictions: 'ONLY_OLD' });
    expect([bad.status, bad.json]).toEqual([400, { code: -1145, msg: 'Invalid cancelRestrictions' }]);
    const restricted = f.demo.delete('/api/v3/order', { symbol: 'BTCUSDT', orderId: placed.orderId, cancelRestrictions: 'ONLY_PARTIALLY_FILLED' });
    expect(restricted.json).toEqual({ code: -2011, msg: 'Order was not canceled due to cancel restrictions.' });
    const r = f.demo.delete('/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'buy-1', newClientOrderId: 'cancel-1' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      symbol: 'BTCUSDT', origClientOrderId: 'buy-1', orderId: placed.orderId, orderListId: -1, clientOrderId: 'cancel-1', transactTime: T0_MS,
      price: '49000.00000000', origQty: '0.10000000', executedQty: '0.00000000', origQuoteOrderQty: '0.00000000', cummulativeQuoteQty: '0.00000000',
      status: 'CANCELED', timeInForce: 'GTC', type: 'LIMIT', side: 'BUY', selfTradePreventionMode: 'EXPIRE_MAKER',
    });
    const again = f.demo.delete('/api/v3/order', { symbol: 'BTCUSDT', orderId: placed.orderId });
    expect([again.status, again.json]).toEqual([400, { code: -2011, msg: 'Unknown order sent.' }]);
    expect(f.demo.delete('/api/v3/order', { symbol: 'BTCUSDT', orderId: 77 }).json).toEqual({ code: -2011, msg: 'Unknown order sent.' });
  });

  test('DELETE openOrders cancels every open order of the symbol; nothing open is -2011', () => {
    const f = makeFixture();
    f.demo.post('/api/v3/order', LIMIT_BUY);
    f.demo.post('/api/v3/order', LIMIT_BUY);
    const r = f.demo.delete('/api/v3/openOrders', { symbol: 'BTCUSDT' });
    expect((r.json as any[]).map((o) => [o.orderId, o.status])).toEqual([[1, 'CANCELED'], [2, 'CANCELED']]);
    expect(f.demo.delete('/api/v3/openOrders', { symbol: 'BTCUSDT' }).json).toEqual({ code: -2011, msg: 'Unknown order sent.' });
  });
});

describe('user data stream keys', () => {
  test('POST opens a key (API key only), PUT extends it, DELETE closes it; 60 min expiry on simulated time', () => {
    const f = makeFixture();
    const key = (f.demo.post('/api/v3/userDataStream').json as any).listenKey as string;
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    f.backend.advanceTo(T0 + 59 * 60_000_000);
    expect(f.demo.put('/api/v3/userDataStream', { listenKey: key }).json).toEqual({});
    f.backend.advanceTo(T0 + 118 * 60_000_000);
    expect(f.demo.put('/api/v3/userDataStream', { listenKey: key }).json).toEqual({}); // 59 min after the keepalive
    f.backend.advanceTo(T0 + 178 * 60_000_000);
    const expired = f.demo.put('/api/v3/userDataStream', { listenKey: key });
    expect([expired.status, expired.json]).toEqual([400, { code: -1125, msg: 'This listenKey does not exist.' }]);
    const fresh = (f.demo.post('/api/v3/userDataStream').json as any).listenKey as string;
    expect(fresh).not.toBe(key);
    expect(f.demo.delete('/api/v3/userDataStream', { listenKey: fresh }).json).toEqual({});
    expect(f.demo.delete('/api/v3/userDataStream', { listenKey: fresh }).json).toEqual({ code: -1125, msg: 'This listenKey does not exist.' });
  });
});
