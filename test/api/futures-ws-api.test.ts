/**
 * Binance's USDⓈ-M futures WebSocket API at /ws-fapi/v1 through a real `ws` client against the
 * HTTP server (port 0): each method is its /fapi row (same validation, errors and answers), in
 * the spot WebSocket API's envelope ({id, status, result | error, rateLimits}), counted against
 * the futures limits (REQUEST_WEIGHT 2400/min per IP, ORDERS 300/10 s and 1200/min per account;
 * futures facts §1), signed with HMAC, RSA or Ed25519 keys, or on an Ed25519 session.
 */
import { afterEach, expect, test } from 'vitest';
import { ExsimHttpServer } from '../../src/api-facade/transport/http-server.ts';
import { DEMO_KEY, DEMO_SECRET } from './fixture.ts';
import { futuresTradingFixture, fund, mark, quote, T0_MS, type FuturesTradingFixture } from './futures-trading/futures-fixture.ts';
import { ed25519Pair, rsaPair, WsApiTestClient, type Signer } from './ws-api-client.ts';

const servers: ExsimHttpServer[] = [];
const clients: WsApiTestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const DEMO: Signer = { apiKey: DEMO_KEY, hmacSecret: DEMO_SECRET };

/** The futures market at a 50 000 mark, the maker's quotes (orders 1-4), 1000 USDT in the demo's futures wallet. */
async function start(path = '/ws-fapi/v1'): Promise<{ f: FuturesTradingFixture; client: WsApiTestClient; base: string }> {
  const f = futuresTradingFixture();
  mark(f, '50000');
  quote(f);
  fund(f.demo, '1000');
  const server = new ExsimHttpServer(f.ctx, {});
  servers.push(server);
  const base = (await server.listen(0)).replace('http:', 'ws:');
  const client = await WsApiTestClient.open(`${base}${path}`);
  clients.push(client);
  return { f, client, base };
}

const signedAt = (params: Record<string, unknown>): Record<string, unknown> => ({ ...params, timestamp: T0_MS });

test('order.place LIMIT, order.status, order.modify, order.cancel: the /fapi/v1/order answers, ORDERS windows on order methods', async () => {
  const { client } = await start();
  const placed = await client.signed('order.place', signedAt({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '49000' }), DEMO);
  expect(placed).toEqual({
    id: 1,
    status: 200,
    result: {
      clientOrderId: 'exsim2o5', cumQty: '0.000', cumQuote: '0.00000000', executedQty: '0.000', orderId: 5, avgPrice: '0.0', origQty: '0.010', price: '49000.0',
      reduceOnly: false, side: 'BUY', positionSide: 'BOTH', status: 'NEW', stopPrice: '0', closePosition: false, symbol: 'BTCUSDT', timeInForce: 'GTC', type: 'LIMIT',
      origType: 'LIMIT', updateTime: T0_MS, workingType: 'CONTRACT_PRICE', priceProtect: false, priceMatch: 'NONE', selfTradePreventionMode: 'NONE', goodTillDate: 0,
    },
    // The futures limits, in the order Binance's ws-fapi example lists them: ORDERS 10 s, ORDERS 1 min, then the IP's weight
    // (2: the connection's own weight; an order weighs 0 on the IP).
    rateLimits: [
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 300, count: 1 },
      { rateLimitType: 'ORDERS', interval: 'MINUTE', intervalNum: 1, limit: 1200, count: 1 },
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 2400, count: 2 },
    ],
  });

  const status = await client.signed('order.status', signedAt({ symbol: 'BTCUSDT', orderId: 5 }), DEMO);
  expect(status.result).toMatchObject({ orderId: 5, status: 'NEW', price: '49000.0', origQty: '0.010', time: T0_MS });
  // A query is not an order: only the weight window (1 more).
  expect(status.rateLimits).toEqual([{ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 2400, count: 3 }]);

  const modified = await client.signed('order.modify', signedAt({ symbol: 'BTCUSDT', orderId: 5, side: 'BUY', quantity: '0.02', price: '49500' }), DEMO);
  expect(modified.status).toBe(200);
  expect(modified.result).toMatchObject({ orderId: 5, status: 'NEW', price: '49500.0', origQty: '0.020', executedQty: '0.000' });
  expect(modified.rateLimits[1]).toEqual({ rateLimitType: 'ORDERS', interval: 'MINUTE', intervalNum: 1, limit: 1200, count: 2 });

  const canceled = await client.signed('order.cancel', signedAt({ symbol: 'BTCUSDT', orderId: 5 }), DEMO);
  expect(canceled.result).toMatchObject({ orderId: 5, status: 'CANCELED', price: '49500.0', origQty: '0.020' });
});

test('errors are the /fapi rows\' own, status 400 with {code, msg}', async () => {
  const { client } = await start();
  const cases: [string, Record<string, unknown>, number, string][] = [
    ['order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01' }, -1102, "Mandatory parameter 'price' was not sent, was empty/null, or malformed."],
    ['order.place', { symbol: 'BTCUSDT', side: 'BUY', positionSide: 'LONG', type: 'MARKET', quantity: '0.01' }, -4061, "Order's position side does not match user's setting."],
    ['order.cancel', { symbol: 'BTCUSDT', orderId: 999 }, -2011, 'Unknown order sent.'],
    ['order.status', { symbol: 'BTCUSDT', orderId: 999 }, -2013, 'Order does not exist.'],
    ['order.modify', { symbol: 'BTCUSDT', orderId: 999, side: 'BUY', quantity: '0.01', price: '49000' }, -2013, 'Order does not exist.'],
  ];
  for (const [method, params, code, msg] of cases) {
    const answer = await client.signed(method, signedAt(params), DEMO);
    expect([method, answer.status, answer.error]).toEqual([method, 400, { code, msg }]);
  }
  // The signature of another payload: -1022, whatever the order would have done.
  const forged = await client.call('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01', timestamp: T0_MS, apiKey: DEMO_KEY, signature: 'ab'.repeat(32) });
  expect([forged.status, forged.error]).toEqual([400, { code: -1022, msg: 'Signature for this request is not valid.' }]);
  // Spot's methods are not futures ones (ws-fapi has no exchangeInfo).
  const unknown = await client.call('exchangeInfo');
  expect([unknown.status, unknown.error]).toEqual([400, { code: -1000, msg: 'Unknown method: exchangeInfo' }]);
});

test('account and market methods: account.* on the v2 rows, v2/account.* on the v3 rows, depth and tickers on the engine book', async () => {
  const { client } = await start();
  // A resting buy at 49 000 (placed flat, so it reserves open-order margin), then a short of 0.01 at the maker's 49 990 bid.
  await client.signed('order.place', signedAt({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '49000' }), DEMO);
  await client.signed('order.place', signedAt({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.01' }), DEMO);

  const v1Position = (await client.signed('account.position', signedAt({ symbol: 'BTCUSDT' }), DEMO)).result;
  expect(v1Position).toEqual([
    {
      entryPrice: '49990.0', breakEvenPrice: '49940.03498200', marginType: 'cross', isAutoAddMargin: 'false', isolatedMargin: '0.00000000', leverage: '20',
      liquidationPrice: '149367.53486000', markPrice: '50000.0', maxNotionalValue: '70000000.00000000', positionAmt: '-0.010', notional: '-500.00000000',
      isolatedWallet: '0.00000000', symbol: 'BTCUSDT', unRealizedProfit: '-0.10000000', positionSide: 'BOTH', updateTime: T0_MS,
    },
  ]);
  const v2Position = (await client.signed('v2/account.position', signedAt({ symbol: 'BTCUSDT' }), DEMO)).result;
  // IM 25 (500 / 20) + the resting buy's 24.50 (490 / 20); MM 2 (0.4 % of 500).
  expect(v2Position).toMatchObject([{ symbol: 'BTCUSDT', positionAmt: '-0.010', initialMargin: '49.50000000', maintMargin: '2.00000000', positionInitialMargin: '25.00000000', openOrderInitialMargin: '24.50000000', bidNotional: '490.00000000' }]);

  // 1000 − taker commission 0.24995 (0.0005 × 499.90).
  const balance = { asset: 'USDT', balance: '999.75005000', crossWalletBalance: '999.75005000', crossUnPnl: '-0.10000000', availableBalance: '950.15005000', maxWithdrawAmount: '950.15005000' };
  expect((await client.signed('account.balance', signedAt({}), DEMO)).result).toMatchObject([balance]);
  expect((await client.signed('v2/account.balance', signedAt({}), DEMO)).result).toMatchObject([balance]);
  const account = (await client.signed('v2/account.status', signedAt({}), DEMO)).result;
  expect(account).toMatchObject({ totalWalletBalance: '999.75005000', totalMarginBalance: '999.65005000', totalInitialMargin: '49.50000000', availableBalance: '950.15005000' });
  const v1Account = (await client.signed('account.status', signedAt({}), DEMO)).result;
  expect(v1Account).toMatchObject({ canTrade: true, totalWalletBalance: '999.75005000' });

  const depth = await client.call('depth', { symbol: 'BTCUSDT', limit: 5 });
  expect(depth.result).toMatchObject({
    bids: [['49990.0', '0.990'], ['49980.0', '1.000'], ['49000.0', '0.010']],
    asks: [['50010.0', '1.000'], ['50020.0', '1.000']],
  });
  expect((await client.call('ticker.price', { symbol: 'BTCUSDT' })).result).toEqual({ symbol: 'BTCUSDT', price: '49990.0', time: T0_MS });
  expect((await client.call('ticker.book', { symbol: 'BTCUSDT' })).result).toMatchObject({ symbol: 'BTCUSDT', bidPrice: '49990.0', bidQty: '0.990', askPrice: '50010.0', askQty: '1.000' });
});

test('algoOrder.place and algoOrder.cancel are the /fapi/v1/algoOrder rows', async () => {
  const { client } = await start();
  const placed = await client.signed('algoOrder.place', signedAt({ symbol: 'BTCUSDT', side: 'SELL', algoType: 'CONDITIONAL', type: 'STOP_MARKET', quantity: '0.01', triggerPrice: '45000' }), DEMO);
  expect(placed.result).toMatchObject({ algoId: 1, algoType: 'CONDITIONAL', orderType: 'STOP_MARKET', algoStatus: 'NEW', triggerPrice: '45000.0', quantity: '0.010' });
  const canceled = await client.signed('algoOrder.cancel', signedAt({ algoId: 1 }), DEMO);
  expect(canceled.result).toMatchObject({ algoId: 1, code: '200', msg: 'success' });
});

test('listen key methods and an Ed25519 session: logon once, then unsigned requests; HMAC is refused for logon, RSA signs per request', async () => {
  const { f, client } = await start();
  const started = await client.call('userDataStream.start', { apiKey: DEMO_KEY });
  expect(started.result.listenKey).toMatch(/^[0-9a-f]{64}$/);
  expect((await client.call('userDataStream.ping', { apiKey: DEMO_KEY })).result).toEqual({ listenKey: started.result.listenKey });
  expect((await client.call('userDataStream.stop', { apiKey: DEMO_KEY })).result).toEqual({});

  const rsa = rsaPair();
  f.ctx.apiKeys.add({ apiKey: 'rsa-key', keyType: 'RSA', publicKey: rsa.publicKey, accountId: 1 });
  const viaRsa = await client.signed('account.balance', signedAt({}), { apiKey: 'rsa-key', privateKey: rsa.privateKey, keyType: 'RSA' });
  expect(viaRsa.status).toBe(200);

  // session.logon takes Ed25519 keys only (as on spot): an HMAC key is -2015.
  const hmacLogon = await client.signed('session.logon', signedAt({}), DEMO);
  expect([hmacLogon.status, hmacLogon.error]).toEqual([401, { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' }]);
  const ed = ed25519Pair();
  f.ctx.apiKeys.add({ apiKey: 'ed-key', keyType: 'ED25519', publicKey: ed.publicKey, accountId: 1 });
  const logon = await client.signed('session.logon', signedAt({}), { apiKey: 'ed-key', privateKey: ed.privateKey, keyType: 'ED25519' });
  expect(logon.result).toEqual({ apiKey: 'ed-key', authorizedSince: T0_MS, connectedSince: T0_MS, returnRateLimits: true, serverTime: T0_MS, userDataStream: false });
  // Logged on: no apiKey, no signature, only the timestamp.
  const placed = await client.call('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '49000', timestamp: T0_MS });
  expect(placed.result).toMatchObject({ orderId: 5, status: 'NEW' });
  expect((await client.call('session.logout')).result).toMatchObject({ apiKey: null, authorizedSince: null });
  const after = await client.call('order.status', { symbol: 'BTCUSDT', orderId: 5, timestamp: T0_MS });
  expect([after.status, after.error]).toEqual([400, { code: -1102, msg: "Mandatory parameter 'apiKey' was not sent, was empty/null, or malformed." }]);
});

test('the futures weight limit: past 2400 a request is 429 -1003 naming it; spot\'s WebSocket API on the same IP keeps its own budget', async () => {
  const { client, base } = await start();
  // depth limit=1000 weighs 20; with the connection's 2, 119 of them reach 2382 and the 120th would make 2402.
  for (let i = 0; i < 119; i++) expect((await client.call('depth', { symbol: 'BTCUSDT', limit: 1000 })).status).toBe(200);
  const over = await client.call('depth', { symbol: 'BTCUSDT', limit: 1000 });
  expect(over.status).toBe(429);
  expect(over.error).toMatchObject({
    code: -1003,
    msg: 'Too much request weight used; current limit is 2400 request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.',
  });
  // The refused request is counted too, as on REST.
  expect(over.rateLimits).toEqual([{ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 2400, count: 2402 }]);

  const spot = await WsApiTestClient.open(`${base}/ws-api/v3`);
  clients.push(spot);
  // 2 for the spot connection + 1 for ping, against spot's 6000.
  expect((await spot.call('ping')).rateLimits).toEqual([{ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000, count: 3 }]);
});
