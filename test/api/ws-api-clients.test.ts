/**
 * Real clients, unchanged, against the WebSocket API at /ws-api/v3: @binance/connector's
 * WebsocketAPI (HMAC, listen-key user data through userDataStream.start + WebsocketStream) and
 * @binance/spot's WebSocket API (its own signing, userDataStream.subscribe.signature). Each
 * checks content: an order placed shows in openOrders and as an executionReport. Simulated time
 * follows the wall clock by hand, because both clients stamp `timestamp` with the host's clock.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WebsocketAPI, WebsocketStream } from '@binance/connector';
import { Spot, SpotWebsocketAPI } from '@binance/spot';
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { ExsimHttpServer } from '../../src/api-facade/transport/http-server.ts';
import { EngineBackend } from '../../src/api-facade/core/market-backend.ts';
import { InProcessClient } from '../../src/api-facade/rest/in-process-client.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../src/sample/sample-market.ts';

const start = Date.now() * 1000;
const backend = new EngineBackend(SAMPLE_CONFIG, start, sampleAccounts(start));
const ctx = new ExchangeContext({ backend, apiKeys: [{ apiKey: 'exsim-demo-key', keyType: 'HMAC', secretKey: 'exsim-demo-secret', accountId: 1 }] });
const rest = new InProcessClient(ctx, { apiKey: 'exsim-demo-key', ip: '10.0.0.1' });
const server = new ExsimHttpServer(ctx);
const silent = { log: () => {}, error: () => {}, info: () => {}, warn: () => {}, debug: () => {} };
let wsBase: string;
const closers: (() => unknown)[] = [];

function pace(): void {
  backend.advanceTo(Math.max(backend.now, Date.now() * 1000));
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

beforeAll(async () => {
  wsBase = (await server.listen(0, '127.0.0.1')).replace('http:', 'ws:');
});

afterAll(async () => {
  for (const close of closers) await close();
  await server.close();
});

describe('@binance/connector WebsocketAPI', () => {
  test('newOrder shows in openOrders; userDataStream.start + WebsocketStream hears an order', async () => {
    const answers: any[] = [];
    const api = await new Promise<InstanceType<typeof WebsocketAPI>>((resolve) => {
      const client: InstanceType<typeof WebsocketAPI> = new WebsocketAPI('exsim-demo-key', 'exsim-demo-secret', {
        wsURL: `${wsBase}/ws-api/v3`,
        logger: silent,
        callbacks: { open: () => resolve(client), message: (data) => answers.push(JSON.parse(data)) },
      });
    });
    closers.push(() => api.disconnect());
    const answer = async (n: number) => {
      await until(() => answers.length >= n);
      return answers[n - 1];
    };

    pace();
    api.newOrder('BTCUSDT', 'BUY', 'LIMIT', { price: '40000', quantity: '0.01', timeInForce: 'GTC' });
    const placed = await answer(1);
    expect(placed).toMatchObject({ status: 200, result: { symbol: 'BTCUSDT', status: 'NEW', price: '40000.00000000' } });
    pace();
    api.openOrders('BTCUSDT');
    const open = await answer(2);
    expect(open.result.map((o: any) => o.orderId)).toEqual([placed.result.orderId]);
    expect(open.result).toEqual(rest.get('/api/v3/openOrders', { symbol: 'BTCUSDT' }).json);

    api.startUserDataStream();
    const { listenKey } = (await answer(3)).result;
    const events: any[] = [];
    await new Promise<void>((resolve) => {
      const stream = new WebsocketStream({ wsURL: wsBase, logger: silent, callbacks: { open: () => resolve(), message: (data) => events.push(JSON.parse(data)) } });
      closers.push(() => stream.disconnect());
      stream.subscribe(listenKey);
    });
    pace();
    api.cancelOrder('BTCUSDT', { orderId: placed.result.orderId });
    expect((await answer(4)).result).toMatchObject({ orderId: placed.result.orderId, status: 'CANCELED' });
    await until(() => events.length >= 2);
    expect(events[0]).toMatchObject({ e: 'executionReport', i: placed.result.orderId, x: 'CANCELED' });
  });
});

describe('@binance/spot WebSocket API', () => {
  test('orderPlace shows in openOrdersStatus; userDataStreamSubscribeSignature delivers the executionReport', async () => {
    const client = new Spot({ configurationWebsocketAPI: { apiKey: 'exsim-demo-key', apiSecret: 'exsim-demo-secret', wsURL: `${wsBase}/ws-api/v3` } });
    const connection = await client.websocketAPI.connect();
    closers.push(() => connection.disconnect());

    pace();
    const time = await connection.time();
    expect(time.data.serverTime).toBe(Math.floor(backend.now / 1000));
    expect(time.rateLimits?.[0]).toMatchObject({ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000 });

    pace();
    const { stream } = await connection.userDataStreamSubscribeSignature();
    const events: any[] = [];
    stream.on('message', (event) => void events.push(event));

    pace();
    const placed = await connection.orderPlace({
      symbol: 'BTCUSDT',
      side: SpotWebsocketAPI.OrderPlaceSideEnum.BUY,
      type: SpotWebsocketAPI.OrderPlaceTypeEnum.LIMIT,
      timeInForce: SpotWebsocketAPI.OrderPlaceTimeInForceEnum.GTC,
      price: 41000,
      quantity: 0.01,
    });
    expect(placed.data).toMatchObject({ symbol: 'BTCUSDT', status: 'NEW', price: '41000.00000000', origQty: '0.01000000' });
    pace();
    const open = await connection.openOrdersStatus({ symbol: 'BTCUSDT' });
    expect((open.data as any[]).map((o) => o.orderId)).toContain(placed.data.orderId);
    await until(() => events.length >= 2);
    expect(events[0]).toMatchObject({ e: 'executionReport', i: placed.data.orderId, x: 'NEW', p: '41000.00000000' });
    expect(events[1]).toMatchObject({ e: 'outboundAccountPosition' });

    pace();
    const depth = await connection.depth({ symbol: 'BTCUSDT', limit: 5 });
    expect(depth.data).toEqual(rest.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5 }).json);
  });
});
