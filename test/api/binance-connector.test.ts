/**
 * The official Node client (@binance/connector, unchanged) against the facade over HTTP on
 * 127.0.0.1 with an ephemeral port. The connector stamps `timestamp` with the host's wall
 * clock, so this test starts the simulation at the wall clock and moves simulated time to the
 * wall clock before each call: realtime pacing done by hand (the test may read the clock; the
 * facade never does).
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Spot, WebsocketStream } from '@binance/connector';
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { ExsimHttpServer } from '../../src/api-facade/transport/http-server.ts';
import { EngineBackend } from '../../src/api-facade/core/market-backend.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../src/sample/sample-market.ts';

const start = Date.now() * 1000;
const backend = new EngineBackend(SAMPLE_CONFIG, start, sampleAccounts(start));
// One account, three keys: the HMAC demo key, and RSA and Ed25519 keys whose private halves the
// connector signs with (PKCS#8 PEM, as Binance asks for).
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ed25519 = generateKeyPairSync('ed25519');
const pem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();
const ctx = new ExchangeContext({
  backend,
  apiKeys: [
    { apiKey: 'exsim-demo-key', keyType: 'HMAC', secretKey: 'exsim-demo-secret', accountId: 1 },
    { apiKey: 'exsim-rsa-key', keyType: 'RSA', publicKey: rsa.publicKey, accountId: 1 },
    { apiKey: 'exsim-ed25519-key', keyType: 'ED25519', publicKey: ed25519.publicKey, accountId: 1 },
  ],
});
const server = new ExsimHttpServer(ctx);
let client: InstanceType<typeof Spot>;
let baseURL: string;
const streams: InstanceType<typeof WebsocketStream>[] = [];
const silent = { log: () => {}, error: () => {}, info: () => {}, warn: () => {}, debug: () => {} };

/** Realtime pacing by hand: simulated time follows the wall clock. */
function pace(): void {
  backend.advanceTo(Math.max(backend.now, Date.now() * 1000));
}

beforeAll(async () => {
  baseURL = await server.listen(0, '127.0.0.1');
  client = new Spot('exsim-demo-key', 'exsim-demo-secret', { baseURL, logger: silent });
});

afterAll(async () => {
  for (const stream of streams) stream.disconnect();
  await server.close();
});

describe('@binance/connector Spot against the HTTP server', () => {
  test('time, exchangeInfo, depth', async () => {
    pace();
    const time = await client.time();
    expect(time.data.serverTime).toBe(Math.floor(backend.now / 1000));
    expect(time.headers['x-mbx-used-weight-1m']).toBe('1');
    const info = await client.exchangeInfo({ symbol: 'BTCUSDT' });
    expect(info.data.symbols[0].symbol).toBe('BTCUSDT');
    const depth = await client.depth('BTCUSDT', { limit: 5 });
    expect(depth.data).toEqual({ lastUpdateId: expect.any(Number), bids: [], asks: [] });
  });

  test('account, newOrder (LIMIT GTC), getOrder, cancelOrder', async () => {
    pace();
    const account = await client.account();
    expect(account.data.balances.find((b: { asset: string }) => b.asset === 'USDT')).toEqual({ asset: 'USDT', free: '100000.00000000', locked: '0.00000000' });
    pace();
    const placed = await client.newOrder('BTCUSDT', 'BUY', 'LIMIT', { price: '49000', quantity: '0.1', timeInForce: 'GTC' });
    expect(placed.data).toMatchObject({ symbol: 'BTCUSDT', status: 'NEW', price: '49000.00000000', origQty: '0.10000000' });
    expect(placed.headers['x-mbx-order-count-10s']).toBe('1');
    pace();
    const got = await client.getOrder('BTCUSDT', { orderId: placed.data.orderId });
    expect(got.data).toMatchObject({ orderId: placed.data.orderId, status: 'NEW' });
    pace();
    const canceled = await client.cancelOrder('BTCUSDT', { orderId: placed.data.orderId });
    expect(canceled.data).toMatchObject({ orderId: placed.data.orderId, status: 'CANCELED' });
  });

  test('the user data stream: createListenKey, then WebsocketStream hears the order', async () => {
    pace();
    const { listenKey } = (await client.createListenKey()).data;
    const messages: any[] = [];
    const opened = new Promise<void>((resolve) => {
      const stream = new WebsocketStream({ wsURL: baseURL.replace('http:', 'ws:'), logger: silent, callbacks: { open: () => resolve(), message: (data) => messages.push(JSON.parse(data)) } });
      streams.push(stream);
      stream.subscribe(listenKey);
    });
    await opened;
    pace();
    const placed = await client.newOrder('BTCUSDT', 'SELL', 'LIMIT', { price: '61000', quantity: '0.01', timeInForce: 'GTC' });
    for (let i = 0; i < 200 && messages.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    expect(messages.map((m) => m.e)).toEqual(['executionReport', 'outboundAccountPosition']);
    expect(messages[0]).toMatchObject({ s: 'BTCUSDT', i: placed.data.orderId, x: 'NEW', S: 'SELL', p: '61000.00000000' });
    pace();
    await client.cancelOrder('BTCUSDT', { orderId: placed.data.orderId });
  });

  test.each([
    ['RSA', 'exsim-rsa-key', () => pem(rsa.privateKey)],
    ['Ed25519', 'exsim-ed25519-key', () => pem(ed25519.privateKey)],
  ])('signed with %s: account, newOrder, cancelOrder', async (algo, apiKey, privateKey) => {
    const signer = new Spot(apiKey, '', { baseURL, logger: silent, privateKey: privateKey(), privateKeyAlgo: algo });
    pace();
    expect((await signer.account()).data.balances.length).toBeGreaterThan(0);
    pace();
    const placed = await signer.newOrder('BTCUSDT', 'BUY', 'LIMIT', { price: '48000', quantity: '0.01', timeInForce: 'GTC' });
    expect(placed.data).toMatchObject({ status: 'NEW', price: '48000.00000000' });
    pace();
    expect((await signer.cancelOrder('BTCUSDT', { orderId: placed.data.orderId })).data.status).toBe('CANCELED');
    // A signature made with another key is refused.
    const otherKey = algo === 'RSA' ? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey : generateKeyPairSync('ed25519').privateKey;
    const impostor = new Spot(apiKey, '', { baseURL, logger: silent, privateKey: pem(otherKey), privateKeyAlgo: algo });
    pace();
    await expect(impostor.account()).rejects.toMatchObject({ response: { status: 400, data: { code: -1022, msg: 'Signature for this request is not valid.' } } });
  });

  test('newOCOOrder, getOCOOrder, cancelOCOOrder (orderList endpoints)', async () => {
    pace();
    // A last price for the OCO to straddle: account 2 (no key here) offers, the demo lifts it.
    ctx.apply({ type: 'PlaceOrder', accountId: 2, symbol: 'BTCUSDT', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: 5_001_000_000_000, quantity: 1_000_000 });
    await client.newOrder('BTCUSDT', 'BUY', 'LIMIT', { price: '50010', quantity: '0.01', timeInForce: 'IOC' });
    pace();
    const placed = await client.newOCOOrder('BTCUSDT', 'SELL', '0.01', 'LIMIT_MAKER', 'STOP_LOSS_LIMIT', {
      abovePrice: '52000', belowPrice: '47000', belowStopPrice: '47500', belowTimeInForce: 'GTC', listClientOrderId: 'conn-oco',
    });
    expect(placed.status).toBe(200);
    expect(placed.data).toMatchObject({ contingencyType: 'OCO', listStatusType: 'EXEC_STARTED', listClientOrderId: 'conn-oco' });
    expect(placed.data.orderReports.map((o: any) => o.type)).toEqual(['LIMIT_MAKER', 'STOP_LOSS_LIMIT']);
    const got = await client.getOCOOrder({ orderListId: placed.data.orderListId });
    expect(got.data.orders).toEqual(placed.data.orders);
    const canceled = await client.cancelOCOOrder('BTCUSDT', { orderListId: placed.data.orderListId });
    expect(canceled.data).toMatchObject({ listStatusType: 'ALL_DONE', listOrderStatus: 'ALL_DONE' });
  });

  test('cancelAndReplace: success, and a failed cancel as -2022 with data', async () => {
    pace();
    const resting = await client.newOrder('BTCUSDT', 'BUY', 'LIMIT', { price: '48000', quantity: '0.01', timeInForce: 'GTC' });
    pace();
    const ok = await client.cancelAndReplace('BTCUSDT', 'BUY', 'LIMIT', 'STOP_ON_FAILURE', { cancelOrderId: resting.data.orderId, price: '47000', quantity: '0.01', timeInForce: 'GTC' });
    expect(ok.data).toMatchObject({ cancelResult: 'SUCCESS', newOrderResult: 'SUCCESS', cancelResponse: { status: 'CANCELED' }, newOrderResponse: { status: 'NEW', price: '47000.00000000' } });
    pace();
    await expect(
      client.cancelAndReplace('BTCUSDT', 'BUY', 'LIMIT', 'STOP_ON_FAILURE', { cancelOrderId: resting.data.orderId, price: '47000', quantity: '0.01', timeInForce: 'GTC' }),
    ).rejects.toMatchObject({
      response: {
        status: 400,
        data: { code: -2022, msg: 'Order cancel-replace failed.', data: { cancelResult: 'FAILURE', newOrderResult: 'NOT_ATTEMPTED', cancelResponse: { code: -2011, msg: 'Unknown order sent.' }, newOrderResponse: null } },
      },
    });
    await client.cancelOrder('BTCUSDT', { orderId: ok.data.newOrderResponse.orderId });
  });

  test('an error reaches the client as the Binance body and status', async () => {
    pace();
    await expect(client.getOrder('BTCUSDT', { orderId: 424242 })).rejects.toMatchObject({
      response: { status: 400, data: { code: -2013, msg: 'Order does not exist.' } },
    });
  });
});

describe('the HTTP adapter', () => {
  test('unknown paths, oversized bodies and form bodies', async () => {
    const small = new ExsimHttpServer(ctx, { maxBodyBytes: 64 });
    const url = await small.listen(0, '127.0.0.1');
    try {
      const missing = await fetch(`${url}/nope`);
      expect([missing.status, await missing.json()]).toEqual([404, { code: -1000, msg: 'Unknown endpoint: GET /nope' }]);
      const big = await fetch(`${url}/api/v3/order`, { method: 'POST', body: 'x'.repeat(1000), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(big.status).toBe(413);
      const ping = await fetch(`${url}/api/v3/ping`);
      expect([ping.status, await ping.json(), ping.headers.get('x-mbx-used-weight-1m')]).toEqual([200, {}, expect.any(String)]);
    } finally {
      await small.close();
    }
  });
});
