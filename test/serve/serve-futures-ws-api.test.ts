/**
 * `exsim serve --data sample --futures BTCUSDT` prints the futures WebSocket API URL and answers
 * there: a signed order.place MARKET on the perpetual through a real `ws` client (0.003 BTC, above the 100 USDT MIN_NOTIONAL at ~41 000; funds moved to
 * the futures wallet over REST first), the position it opened on v2/account.position, and the
 * futures limits in rateLimits. Timestamps come from the served clock (GET /fapi/v1/time).
 */
import { createHmac } from 'node:crypto';
import { afterAll, expect, test } from 'vitest';
import { serve, type ServeHandle } from '../../src/serve/serve.ts';
import { WsApiTestClient } from '../api/ws-api-client.ts';

const KEY = 'exsim-demo-key';
const SECRET = 'exsim-demo-secret';
const handles: ServeHandle[] = [];
const clients: WsApiTestClient[] = [];
afterAll(async () => {
  for (const c of clients) c.close();
  for (const h of handles) await h.close();
});

test('the printed /ws-fapi/v1 URL serves a signed order.place and the position it opened', async () => {
  const lines: string[] = [];
  const handle = await serve({ port: 0, host: '127.0.0.1', clock: 'manual', data: 'sample', futures: ['BTCUSDT'] }, (line) => lines.push(line));
  handles.push(handle);
  const wsApi = /futures WebSocket API: (ws:\/\/\S+)/.exec(lines.join('\n'))?.[1];
  expect(wsApi).toBe(`${handle.url.replace('http:', 'ws:')}/ws-fapi/v1`);
  expect(lines.join('\n')).toContain(`futures stream URL for clients (the root: /market/stream, /public/stream, /private/stream?listenKey=...): ${handle.url.replace('http:', 'ws:')}`);

  const { serverTime } = (await (await fetch(`${handle.url}/fapi/v1/time`)).json()) as { serverTime: number };
  const query = `type=MAIN_UMFUTURE&asset=USDT&amount=1000&timestamp=${serverTime}`;
  const transfer = await fetch(`${handle.url}/sapi/v1/asset/transfer?${query}&signature=${createHmac('sha256', SECRET).update(query).digest('hex')}`, { method: 'POST', headers: { 'X-MBX-APIKEY': KEY } });
  expect(transfer.status).toBe(200);

  const client = await WsApiTestClient.open(wsApi!);
  clients.push(client);
  const signer = { apiKey: KEY, hmacSecret: SECRET };
  const placed = await client.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.003', newOrderRespType: 'RESULT', timestamp: serverTime }, signer);
  expect(placed, JSON.stringify(placed)).toMatchObject({ status: 200, result: { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', status: 'FILLED', executedQty: '0.003' } });
  expect(placed.rateLimits.map((r: { rateLimitType: string; limit: number }) => [r.rateLimitType, r.limit])).toEqual([['ORDERS', 300], ['ORDERS', 1200], ['REQUEST_WEIGHT', 2400]]);
  const position = await client.signed('v2/account.position', { symbol: 'BTCUSDT', timestamp: serverTime }, signer);
  expect(position.result).toMatchObject([{ symbol: 'BTCUSDT', positionSide: 'BOTH', positionAmt: '0.003', entryPrice: placed.result.avgPrice }]);
});
