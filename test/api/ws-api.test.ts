/**
 * The WebSocket API at /ws-api/v3 through a real `ws` client against the HTTP server (port 0):
 * every method family answers what its REST endpoint answers for the same state, with Binance's
 * envelope, rateLimits, signing, errors, session logon and user data subscriptions.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { ExsimHttpServer, type HttpServerOptions } from '../../src/api-facade/transport/http-server.ts';
import { DEMO_KEY, DEMO_SECRET, MM_KEY, MM_SECRET, makeFixture, raw, seedBook, T0, T0_MS, type Fixture } from './fixture.ts';
import { ed25519Pair, rsaPair, until, WsApiTestClient, type Signer } from './ws-api-client.ts';

const servers: ExsimHttpServer[] = [];
const clients: WsApiTestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const DEMO: Signer = { apiKey: DEMO_KEY, hmacSecret: DEMO_SECRET };
const MAKER: Signer = { apiKey: MM_KEY, hmacSecret: MM_SECRET };

async function start(options: HttpServerOptions = {}, query = ''): Promise<{ f: Fixture; client: WsApiTestClient; url: string; server: ExsimHttpServer }> {
  const f = makeFixture();
  seedBook(f);
  f.maker.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' });
  const server = new ExsimHttpServer(f.ctx, options);
  servers.push(server);
  const url = `${(await server.listen(0)).replace('http:', 'ws:')}/ws-api/v3${query}`;
  const client = await WsApiTestClient.open(url);
  clients.push(client);
  return { f, client, url, server };
}

/** REST's JSON for the same request (signed as the demo account when `signed`). */
function rest(f: Fixture, method: string, path: string, params: Record<string, string | number> = {}, signed = false): any {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  const signedQuery = signed ? `${query}${query === '' ? '' : '&'}timestamp=${T0_MS}` : query;
  const r = raw(f, method, path, signedQuery, signed ? { key: DEMO_KEY, secret: DEMO_SECRET } : {});
  return r.json;
}

describe('market data methods answer what REST answers', () => {
  test.each([
    ['ping', '/api/v3/ping', {}],
    ['time', '/api/v3/time', {}],
    ['exchangeInfo', '/api/v3/exchangeInfo', { symbol: 'BTCUSDT' }],
    ['depth', '/api/v3/depth', { symbol: 'BTCUSDT', limit: 5 }],
    ['trades.recent', '/api/v3/trades', { symbol: 'BTCUSDT', limit: 10 }],
    ['trades.historical', '/api/v3/historicalTrades', { symbol: 'BTCUSDT', fromId: 0 }],
    ['trades.aggregate', '/api/v3/aggTrades', { symbol: 'BTCUSDT' }],
    ['klines', '/api/v3/klines', { symbol: 'BTCUSDT', interval: '1m' }],
    ['uiKlines', '/api/v3/uiKlines', { symbol: 'BTCUSDT', interval: '1h' }],
    ['avgPrice', '/api/v3/avgPrice', { symbol: 'BTCUSDT' }],
    ['ticker.24hr', '/api/v3/ticker/24hr', { symbol: 'BTCUSDT' }],
    ['ticker.price', '/api/v3/ticker/price', { symbol: 'BTCUSDT' }],
    ['ticker.book', '/api/v3/ticker/bookTicker', { symbol: 'BTCUSDT' }],
    ['ticker.tradingDay', '/api/v3/ticker/tradingDay', { symbol: 'BTCUSDT' }],
    ['ticker', '/api/v3/ticker', { symbol: 'BTCUSDT', windowSize: '1h' }],
  ] as const)('%s', async (method, path, params) => {
    const { f, client } = await start();
    const answer = await client.call(method, params, `id-${method}`);
    expect(answer.id).toBe(`id-${method}`);
    expect(answer.status).toBe(200);
    expect(answer.result).toEqual(rest(f, 'GET', path, params));
    expect(Object.keys(answer)).toEqual(['id', 'status', 'result', 'rateLimits']);
  });

  test('a list parameter is a JSON array; a `v3/` method prefix is allowed; integer and null ids are echoed', async () => {
    const { f, client } = await start();
    const both = await client.call('v3/ticker.price', { symbols: ['BTCUSDT', 'ETHBTC'] }, 7);
    expect(both).toMatchObject({ id: 7, status: 200 });
    expect(both.result).toEqual(rest(f, 'GET', '/api/v3/ticker/price', { symbols: '["BTCUSDT","ETHBTC"]' }));
    expect(await client.call('ping', undefined, null)).toMatchObject({ id: null, status: 200, result: {} });
  });
});

describe('rateLimits', () => {
  test('REQUEST_WEIGHT counted in the IP limiter REST uses; ORDERS on order methods; hidden on request', async () => {
    const { f, client } = await start();
    // Connecting cost 2; depth limit 5 costs 5 (the REST row's weight).
    const first = await client.call('depth', { symbol: 'BTCUSDT', limit: 5 });
    expect(first.rateLimits).toEqual([{ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000, count: 2 + 5 }]);
    const used = f.ctx.weightLimiter.usage('127.0.0.1', f.ctx.now()).find((u) => u.limit.rateLimitType === 'REQUEST_WEIGHT')!.used;
    expect(used).toBe(7);
    const placed = await client.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '40000', timestamp: T0_MS }, DEMO);
    expect(placed.rateLimits).toEqual([
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 100, count: 1 },
      { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: 200000, count: 1 },
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000, count: 8 },
    ]);
    const hidden = await client.call('time', { returnRateLimits: false });
    expect(hidden).toEqual({ id: hidden.id, status: 200, result: { serverTime: T0_MS } });
  });

  test('returnRateLimits=false in the URL hides them unless a request asks', async () => {
    const { client } = await start({}, '?returnRateLimits=false');
    expect(Object.keys(await client.call('time'))).toEqual(['id', 'status', 'result']);
    expect((await client.call('time', { returnRateLimits: true })).rateLimits).toHaveLength(1);
  });

  test('timeUnit=MICROSECOND in the URL gives µs times', async () => {
    const { client } = await start({}, '?timeUnit=MICROSECOND');
    expect((await client.call('time')).result).toEqual({ serverTime: T0 });
  });
});

describe('trading and account methods share REST state and answers', () => {
  test('order.place, order.status, openOrders.status, order.cancel, allOrders, myTrades, account.*', async () => {
    const { f, client } = await start();
    const placed = await client.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '40000', timestamp: T0_MS }, DEMO);
    expect(placed.status).toBe(200);
    expect(placed.result).toMatchObject({ symbol: 'BTCUSDT', status: 'NEW', price: '40000.00000000', origQty: '0.01000000', transactTime: T0_MS });
    const orderId = placed.result.orderId;
    // The order REST sees is the one the WebSocket API placed.
    const status = await client.signed('order.status', { symbol: 'BTCUSDT', orderId, timestamp: T0_MS }, DEMO);
    expect(status.result).toEqual(rest(f, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId }, true));
    const open = await client.signed('openOrders.status', { symbol: 'BTCUSDT', timestamp: T0_MS }, DEMO);
    expect(open.result).toEqual(rest(f, 'GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' }, true));
    expect(open.result.map((o: any) => o.orderId)).toEqual([orderId]);

    for (const [method, path, params] of [
      ['account.status', '/api/v3/account', {}],
      ['account.commission', '/api/v3/account/commission', { symbol: 'BTCUSDT' }],
      ['account.rateLimits.orders', '/api/v3/rateLimit/order', {}],
      ['allOrders', '/api/v3/allOrders', { symbol: 'BTCUSDT' }],
      ['myTrades', '/api/v3/myTrades', { symbol: 'BTCUSDT' }],
      ['allOrderLists', '/api/v3/allOrderList', {}],
      ['openOrderLists.status', '/api/v3/openOrderList', {}],
    ] as const) {
      const answer = await client.signed(method, { ...params, timestamp: T0_MS }, DEMO);
      expect(answer.status, method).toBe(200);
      expect(answer.result, method).toEqual(rest(f, 'GET', path, params, true));
    }

    const canceled = await client.signed('order.cancel', { symbol: 'BTCUSDT', orderId, timestamp: T0_MS }, DEMO);
    expect(canceled.result).toMatchObject({ orderId, status: 'CANCELED' });
    expect(rest(f, 'GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' }, true)).toEqual([]);
  });

  test('order.test, cancelReplace, amend.keepPriority, openOrders.cancelAll', async () => {
    const { client } = await start();
    const ts = { timestamp: T0_MS };
    expect((await client.signed('order.test', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '40000', ...ts }, DEMO)).result).toEqual({});
    const placed = (await client.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.04', price: '40000', ...ts }, DEMO)).result;
    const amended = await client.signed('order.amend.keepPriority', { symbol: 'BTCUSDT', orderId: placed.orderId, newQty: '0.02', ...ts }, DEMO);
    expect(amended.result.amendedOrder).toMatchObject({ orderId: placed.orderId, qty: '0.02000000' });
    const replaced = await client.signed(
      'order.cancelReplace',
      { symbol: 'BTCUSDT', cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: placed.orderId, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '41000', ...ts },
      DEMO,
    );
    expect(replaced.result).toMatchObject({ cancelResult: 'SUCCESS', newOrderResult: 'SUCCESS', newOrderResponse: { price: '41000.00000000' } });
    const all = await client.signed('openOrders.cancelAll', { symbol: 'BTCUSDT', ...ts }, DEMO);
    expect(all.result).toHaveLength(1);
    expect(all.result[0]).toMatchObject({ status: 'CANCELED', price: '41000.00000000' });
  });

  test('order lists: place.oco, place.oto, place.otoco, status, cancel, the deprecated orderList.place', async () => {
    const { f, client } = await start();
    const ts = { timestamp: T0_MS };
    const oco = await client.signed(
      'orderList.place.oco',
      { symbol: 'BTCUSDT', side: 'SELL', quantity: '0.1', aboveType: 'LIMIT_MAKER', abovePrice: '52000', belowType: 'STOP_LOSS_LIMIT', belowPrice: '47000', belowStopPrice: '47500', belowTimeInForce: 'GTC', ...ts },
      DEMO,
    );
    expect(oco.error).toBeUndefined();
    expect(oco.result).toMatchObject({ contingencyType: 'OCO', listStatusType: 'EXEC_STARTED' });
    const status = await client.signed('orderList.status', { orderListId: oco.result.orderListId, ...ts }, DEMO);
    expect(status.result).toEqual(rest(f, 'GET', '/api/v3/orderList', { orderListId: oco.result.orderListId }, true));
    const oto = await client.signed(
      'orderList.place.oto',
      { symbol: 'BTCUSDT', workingType: 'LIMIT', workingSide: 'BUY', workingPrice: '40000', workingQuantity: '0.01', workingTimeInForce: 'GTC', pendingType: 'LIMIT_MAKER', pendingSide: 'SELL', pendingPrice: '52000', pendingQuantity: '0.01', ...ts },
      DEMO,
    );
    expect(oto.result).toMatchObject({ contingencyType: 'OTO' });
    const otoco = await client.signed(
      'orderList.place.otoco',
      {
        symbol: 'BTCUSDT', workingType: 'LIMIT', workingSide: 'BUY', workingPrice: '40000', workingQuantity: '0.1', workingTimeInForce: 'GTC',
        pendingSide: 'SELL', pendingQuantity: '0.1', pendingAboveType: 'LIMIT_MAKER', pendingAbovePrice: '52000', pendingBelowType: 'STOP_LOSS_LIMIT', pendingBelowPrice: '47000', pendingBelowStopPrice: '47500', pendingBelowTimeInForce: 'GTC', ...ts,
      },
      DEMO,
    );
    expect(otoco.error).toBeUndefined();
    expect(otoco.result).toMatchObject({ contingencyType: 'OTO' });
    expect(otoco.result.orders).toHaveLength(3);
    const legacy = await client.signed('orderList.place', { symbol: 'BTCUSDT', side: 'SELL', quantity: '0.1', price: '52000', stopPrice: '47500', stopLimitPrice: '47000', stopLimitTimeInForce: 'GTC', ...ts }, DEMO);
    expect(legacy.result).toMatchObject({ contingencyType: 'OCO' });
    const canceled = await client.signed('orderList.cancel', { symbol: 'BTCUSDT', orderListId: oco.result.orderListId, ...ts }, DEMO);
    expect(canceled.result).toMatchObject({ orderListId: oco.result.orderListId, listOrderStatus: 'ALL_DONE' });
  });
});

describe('signing', () => {
  test('HMAC (hex of either case), RSA and Ed25519 keys sign the sorted parameters', async () => {
    const { f, client } = await start();
    const ed = ed25519Pair();
    const rsa = rsaPair();
    f.ctx.apiKeys.add({ apiKey: 'ed-key', keyType: 'ED25519', publicKey: ed.publicKey, accountId: 1 });
    f.ctx.apiKeys.add({ apiKey: 'rsa-key', keyType: 'RSA', publicKey: rsa.publicKey, accountId: 1 });
    const params = { symbol: 'BTCUSDT', timestamp: T0_MS };
    for (const signer of [DEMO, { apiKey: 'ed-key', privateKey: ed.privateKey, keyType: 'ED25519' } as const, { apiKey: 'rsa-key', privateKey: rsa.privateKey, keyType: 'RSA' } as const]) {
      const answer = await client.signed('openOrders.status', params, signer);
      expect(answer.status, signer.apiKey).toBe(200);
    }
    const { signParams } = await import('./ws-api-client.ts');
    const upper = signParams(params, DEMO);
    expect((await client.call('openOrders.status', { ...upper, signature: String(upper['signature']).toUpperCase() })).status).toBe(200);
  });

  test('the percent-encoded payload the official SDKs sign is accepted too', async () => {
    const { client } = await start();
    const { signHmacSha256 } = await import('../../src/api-facade/signing/hmac-sha256.ts');
    const base = { apiKey: DEMO_KEY, origClientOrderId: 'my order/1', symbol: 'BTCUSDT', timestamp: T0_MS };
    const plain = `apiKey=${DEMO_KEY}&origClientOrderId=my order/1&symbol=BTCUSDT&timestamp=${T0_MS}`;
    const encoded = `apiKey=${DEMO_KEY}&origClientOrderId=${encodeURIComponent('my order/1')}&symbol=BTCUSDT&timestamp=${T0_MS}`;
    // Past the signature, the order is unknown (-2013): both forms authenticate; anything else is -1022.
    for (const payload of [plain, encoded]) {
      expect((await client.call('order.status', { ...base, signature: signHmacSha256(DEMO_SECRET, payload) })).error.code).toBe(-2013);
    }
    expect((await client.call('order.status', { ...base, signature: signHmacSha256(DEMO_SECRET, `${plain}&x=1`) })).error.code).toBe(-1022);
  });
});

describe('errors carry Binance codes, with the id', () => {
  test('not JSON, not a request, unknown method', async () => {
    const { client } = await start();
    expect(await client.sendRaw('{oops', null)).toMatchObject({ id: null, status: 400, error: { code: -1135, msg: 'Invalid JSON Request' } });
    expect(await client.sendRaw(JSON.stringify({ id: 'x', method: 5 }), 'x')).toMatchObject({ id: 'x', status: 400, error: { code: -1135 } });
    expect(await client.call('order.fly', {}, 'u')).toMatchObject({ id: 'u', status: 400, error: { code: -1000, msg: 'Unknown method: order.fly' } });
    expect(await client.call('time', { returnRateLimits: 'maybe' }, 'r')).toMatchObject({ id: 'r', status: 400, error: { code: -1130 } });
  });

  test('bad parameters: REST’s -11xx answers', async () => {
    const { client } = await start();
    expect((await client.call('depth', {})).error).toEqual({ code: -1102, msg: "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed." });
    expect((await client.call('depth', { symbol: 'BTCUSDT', limit: -1 })).error.code).toBe(-1100);
    expect((await client.call('depth', { symbol: 'NOPE' })).error).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    expect((await client.call('klines', { symbol: 'BTCUSDT', interval: '7m' })).error.code).toBe(-1120);
  });

  test('authentication: no apiKey, unknown key, bad signature, stale timestamp, insufficient balance', async () => {
    const { client } = await start();
    const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '40000', timestamp: T0_MS };
    expect((await client.call('order.place', order)).error).toEqual({ code: -1102, msg: "Mandatory parameter 'apiKey' was not sent, was empty/null, or malformed." });
    expect((await client.call('order.place', { ...order, apiKey: DEMO_KEY })).error).toEqual({ code: -1102, msg: "Mandatory parameter 'signature' was not sent, was empty/null, or malformed." });
    expect(await client.call('order.place', { ...order, apiKey: 'A'.repeat(64), signature: 'ab' })).toMatchObject({ status: 401, error: { code: -2015 } });
    expect(await client.call('order.place', { ...order, apiKey: DEMO_KEY, signature: '00'.repeat(32) })).toMatchObject({ status: 400, error: { code: -1022, msg: 'Signature for this request is not valid.' } });
    expect(await client.signed('order.place', { ...order, timestamp: T0_MS - 60_000 }, DEMO)).toMatchObject({ status: 400, error: { code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' } });
    expect(await client.signed('order.place', { ...order, quantity: '3' }, DEMO)).toMatchObject({ status: 400, error: { code: -2010, msg: 'Account has insufficient balance for requested action.' } });
    // Nothing of that reached the book.
    expect((await client.signed('openOrders.status', { timestamp: T0_MS }, DEMO)).result).toEqual([]);
  });

  test('over the IP weight: 429 -1003 with data {serverTime, retryAfter}, then 418 and the connection closed', async () => {
    const f = makeFixture({ rateLimits: [{ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 10 }, { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: 1000 }] });
    const server = new ExsimHttpServer(f.ctx);
    servers.push(server);
    const client = await WsApiTestClient.open(`${(await server.listen(0)).replace('http:', 'ws:')}/ws-api/v3`);
    clients.push(client);
    let answer: any;
    for (let i = 0; i < 10; i++) answer = await client.call('ping');
    expect(answer.status).toBe(429);
    expect(answer.error).toMatchObject({ code: -1003, data: { serverTime: T0_MS, retryAfter: T0_MS + 60_000 } });
    // Keeping on after 429s bans the IP (418), and a banned connection is closed.
    expect((await client.call('ping')).status).toBe(429);
    const banned = await client.call('ping');
    expect(banned).toMatchObject({ status: 418, error: { code: -1003, msg: expect.stringContaining('IP banned until') } });
    expect(banned.error.data.retryAfter).toBeGreaterThan(T0_MS + 60_000);
    expect(await client.closed).toBe(1008);
  });
});

describe('session logon (Ed25519) and user data subscriptions', () => {
  async function logon(f: Fixture, client: WsApiTestClient) {
    const ed = ed25519Pair();
    f.ctx.apiKeys.add({ apiKey: 'ed-key', keyType: 'ED25519', publicKey: ed.publicKey, accountId: 1 });
    return client.signed('session.logon', { timestamp: T0_MS }, { apiKey: 'ed-key', privateKey: ed.privateKey, keyType: 'ED25519' });
  }

  test('logon, then requests need no apiKey/signature; status; logout', async () => {
    const { f, client } = await start();
    const before = await client.call('session.status');
    expect(before.result).toEqual({ apiKey: null, authorizedSince: null, connectedSince: T0_MS, returnRateLimits: true, serverTime: T0_MS, userDataStream: false });
    const logged = await logon(f, client);
    expect(logged.result).toEqual({ apiKey: 'ed-key', authorizedSince: T0_MS, connectedSince: T0_MS, returnRateLimits: true, serverTime: T0_MS, userDataStream: false });
    const placed = await client.call('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '40000', timestamp: T0_MS });
    expect(placed.status).toBe(200);
    expect(rest(f, 'GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' }, true).map((o: any) => o.orderId)).toEqual([placed.result.orderId]);
    // The timestamp is still required.
    expect((await client.call('account.status', {})).error.code).toBe(-1102);
    expect((await client.call('session.logout')).result).toMatchObject({ apiKey: null, authorizedSince: null });
    expect((await client.call('account.status', { timestamp: T0_MS })).error.code).toBe(-1102);
  });

  test('logon with an HMAC key is refused (-2015); a revoked session key is refused and forgotten', async () => {
    const { f, client } = await start();
    expect(await client.signed('session.logon', { timestamp: T0_MS }, DEMO)).toMatchObject({ status: 401, error: { code: -2015 } });
    await logon(f, client);
    f.ctx.apiKeys.remove('ed-key');
    expect(await client.call('account.status', { timestamp: T0_MS })).toMatchObject({ status: 401, error: { code: -2015 } });
    expect((await client.call('session.status')).result.apiKey).toBeNull();
  });

  test('userDataStream.subscribe needs a logon; events arrive wrapped for an order placed over REST', async () => {
    const { f, client } = await start();
    expect(await client.call('userDataStream.subscribe')).toMatchObject({ status: 401, error: { code: -1002 } });
    await logon(f, client);
    expect((await client.call('userDataStream.subscribe')).result).toEqual({ subscriptionId: 0 });
    expect(await client.call('userDataStream.subscribe')).toMatchObject({ status: 400, error: { code: -2035 } });
    expect((await client.call('session.status')).result.userDataStream).toBe(true);
    f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '49000' });
    await until(() => client.events.length === 2);
    expect(client.events[0]).toMatchObject({ subscriptionId: 0, event: { e: 'executionReport', s: 'BTCUSDT', x: 'NEW', q: '0.10000000', p: '49000.00000000', E: T0_MS } });
    expect(client.events[1]).toMatchObject({ subscriptionId: 0, event: { e: 'outboundAccountPosition' } });
    // Another account's orders are not delivered.
    f.maker.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '60000' });
    expect((await client.call('ping')).status).toBe(200);
    expect(client.events).toHaveLength(2);
    // Logout ends the logon subscription with eventStreamTerminated.
    await client.call('session.logout');
    await until(() => client.events.length === 3);
    expect(client.events[2]).toEqual({ subscriptionId: 0, event: { e: 'eventStreamTerminated', E: T0_MS } });
  });

  test('userDataStream.subscribe.signature for two accounts; events of an order placed over the same connection follow its answer; unsubscribe', async () => {
    const { client } = await start();
    const a = await client.signed('userDataStream.subscribe.signature', { timestamp: T0_MS }, DEMO);
    const b = await client.signed('userDataStream.subscribe.signature', { timestamp: T0_MS }, MAKER);
    expect([a.result, b.result]).toEqual([{ subscriptionId: 0 }, { subscriptionId: 1 }]);
    const placed = await client.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '40000', timestamp: T0_MS }, DEMO);
    await until(() => client.events.length === 2);
    const answerAt = client.frames.findIndex((fr) => fr.id === placed.id);
    expect(client.frames.indexOf(client.events[0])).toBeGreaterThan(answerAt);
    expect(client.events[0]).toMatchObject({ subscriptionId: 0, event: { e: 'executionReport', i: placed.result.orderId } });
    expect((await client.call('session.subscriptions')).result).toEqual([{ subscriptionId: 0 }, { subscriptionId: 1 }]);
    expect((await client.call('userDataStream.unsubscribe', { subscriptionId: 1 })).result).toEqual({});
    expect(await client.call('userDataStream.unsubscribe', { subscriptionId: 1 })).toMatchObject({ status: 400, error: { code: -2036 } });
    expect((await client.call('userDataStream.unsubscribe')).result).toEqual({});
    expect((await client.call('session.status')).result.userDataStream).toBe(false);
  });
});

describe('connection rules', () => {
  test('an unknown time unit is refused at the upgrade with 400', async () => {
    const { url } = await start();
    const { default: WebSocket } = await import('ws');
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${url}?timeUnit=NANOSECOND`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => undefined);
    });
    expect(status).toBe(400);
  });

  test('connection attempts per IP and frame size are bounded', async () => {
    const { url } = await start({ wsApiLimits: { attemptsPerIp: 2, maxPayloadBytes: 256 } });
    const second = await WsApiTestClient.open(url);
    clients.push(second);
    await expect(WsApiTestClient.open(url)).rejects.toThrow(/429/);
    second.ws.send(JSON.stringify({ id: 1, method: 'ping', params: { pad: 'x'.repeat(300) } }));
    expect(await second.closed).toBe(1009);
  });

  test('closing the server sends serverShutdown as a connection event, then closes with 1001', async () => {
    const { client, server } = await start();
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    expect(await client.closed).toBe(1001);
    expect(client.frames).toEqual([{ event: { e: 'serverShutdown', E: T0_MS } }]);
  });

  test('messages per second of simulated time are bounded (1008)', async () => {
    const { client } = await start({ wsApiLimits: { messagesPerSecond: 3 } });
    for (let i = 0; i < 4; i++) client.ws.send(JSON.stringify({ id: i, method: 'ping' }));
    expect(await client.closed).toBe(1008);
  });
});
