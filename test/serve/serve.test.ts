/**
 * `exsim serve` end to end: the official client, unchanged, trades on the served sample market
 * with the demo credentials, stamping its wall clock (realtime pacing keeps simulated time on it).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Spot } from '@binance/connector';
import WebSocket from 'ws';
import { serve } from '../../src/serve/serve.ts';
import type { ServeHandle } from '../../src/serve/serve.ts';

let server: ServeHandle;
let client: InstanceType<typeof Spot>;
const silent = { log: () => {}, error: () => {}, info: () => {}, warn: () => {}, debug: () => {} };
const lines: string[] = [];

beforeAll(async () => {
  server = await serve({ port: 0, host: '127.0.0.1', clock: 'realtime' }, (line) => lines.push(line));
  const url = /at (http:\/\/\S+)/.exec(lines[0] ?? '')?.[1];
  if (url === undefined) throw new Error(`no URL in ${lines.join('\n')}`);
  client = new Spot('exsim-demo-key', 'exsim-demo-secret', { baseURL: url, logger: silent });
});

afterAll(async () => {
  await server.close();
});

describe('exsim serve', () => {
  test('prints its URL and the demo credentials', () => {
    expect(lines.join('\n')).toContain('API key exsim-demo-key, HMAC secret exsim-demo-secret');
  });

  test('the demo account buys at market from the market maker ladder and sees it in its account', async () => {
    const book = await client.depth('BTCUSDT', { limit: 5 });
    expect(book.data.asks[0]).toEqual(['42000.05000000', '0.10000000']);
    const order = await client.newOrder('BTCUSDT', 'BUY', 'MARKET', { quantity: '0.01' });
    expect(order.data).toMatchObject({ status: 'FILLED', executedQty: '0.01000000', cummulativeQuoteQty: '420.00050000' });
    const account = await client.account();
    const btc = (account.data.balances as { asset: string; free: string }[]).find((b) => b.asset === 'BTC');
    expect(btc?.free).toBe('1.00999000'); // 1 + 0.01 less the 0.1% taker commission
  });

  test('serves the WebSocket API at the URL it prints', async () => {
    const wsUrl = /WebSocket API: (ws:\/\/\S+)/.exec(lines.join('\n'))?.[1];
    expect(wsUrl).toMatch(/\/ws-api\/v3$/);
    const ws = new WebSocket(wsUrl!);
    const answer = await new Promise<any>((resolve, reject) => {
      ws.on('open', () => ws.send(JSON.stringify({ id: 'd', method: 'depth', params: { symbol: 'BTCUSDT', limit: 1 } })));
      ws.on('message', (data) => resolve(JSON.parse(String(data))));
      ws.on('error', reject);
    });
    ws.close();
    expect(answer).toMatchObject({ id: 'd', status: 200, result: { asks: [['42000.05000000', expect.any(String)]] } });
  });
});

describe('exsim serve with faults', () => {
  test('--engine-timeout 1 answers -1007 while the order still rests; --firewall refuses SQL', async () => {
    const printed: string[] = [];
    const faulty = await serve({ port: 0, host: '127.0.0.1', clock: 'realtime', faults: { engineTimeoutProbability: 1, firewall: true, seed: 1 } }, (line) => printed.push(line));
    try {
      expect(printed.join('\n')).toContain('faults: engine timeouts (-1007) with p=1, firewall on, seed 1');
      const url = /at (http:\/\/\S+)/.exec(printed[0] ?? '')?.[1] as string;
      const faultyClient = new Spot('exsim-demo-key', 'exsim-demo-secret', { baseURL: url, logger: silent });
      await expect(faultyClient.newOrder('BTCUSDT', 'BUY', 'LIMIT', { price: '41000', quantity: '0.01', timeInForce: 'GTC', newClientOrderId: 'lost' })).rejects.toMatchObject({
        response: { status: 503, data: { code: -1007 } },
      });
      expect((await faultyClient.getOrder('BTCUSDT', { origClientOrderId: 'lost' })).data.status).toBe('NEW');
      const blocked = await fetch(`${url}/api/v3/depth?symbol=BTCUSDT&limit=5%20UNION%20SELECT%20x%20FROM%20y`);
      expect(blocked.status).toBe(403);
    } finally {
      await faulty.close();
    }
  });
});
