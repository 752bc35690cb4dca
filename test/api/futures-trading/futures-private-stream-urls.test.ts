/**
 * The USDⓈ-M user data stream at Binance's split futures URLs (the private entry,
 * fstream.binance.com/private; the legacy /ws/<listenKey> was retired 2026-04-23):
 * `/private/ws/<listenKey>`, `/private/ws?listenKey=<key>` (raw payloads) and
 * `/private/stream?listenKey=<key>` (combined, the key as the stream name), over a real HTTP
 * server and WebSocket. A key that is not live is refused at the upgrade (400 -1125).
 */
import { afterEach, expect, test } from 'vitest';
import WebSocket from 'ws';
import { ExsimHttpServer } from '../../../src/api-facade/transport/http-server.ts';
import { DEMO_KEY } from '../fixture.ts';
import { futuresTradingFixture, fund, mark, quote, T0_MS } from './futures-fixture.ts';

const servers: ExsimHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start() {
  const f = futuresTradingFixture();
  mark(f, '50000');
  quote(f);
  fund(f.demo, '1000');
  const server = new ExsimHttpServer(f.ctx, {});
  servers.push(server);
  const base = await server.listen(0);
  const listenKey = (f.demo.post('/fapi/v1/listenKey', {}).json as { listenKey: string }).listenKey;
  return { f, server, wsBase: base.replace('http:', 'ws:'), listenKey };
}

function open(url: string): Promise<{ ws: WebSocket; messages: any[] }> {
  const ws = new WebSocket(url);
  const messages: any[] = [];
  ws.on('message', (d) => messages.push(JSON.parse(String(d))));
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve({ ws, messages }));
    ws.on('error', reject);
  });
}

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

test('the three private forms each carry the futures key; combined wraps with the key as the stream name', async () => {
  const { f, server, wsBase, listenKey } = await start();
  const inPath = await open(`${wsBase}/private/ws/${listenKey}`);
  const inQuery = await open(`${wsBase}/private/ws?listenKey=${listenKey}`);
  const combined = await open(`${wsBase}/private/stream?listenKey=${listenKey}`);
  expect(server.streamConnections).toBe(3);

  f.demo.post('/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 10 });
  await until(() => inPath.messages.length > 0 && inQuery.messages.length > 0 && combined.messages.length > 0);

  const event = { e: 'ACCOUNT_CONFIG_UPDATE', E: T0_MS, T: T0_MS, ac: { s: 'BTCUSDT', l: 10 } };
  expect(inPath.messages).toEqual([event]);
  expect(inQuery.messages).toEqual([event]);
  expect(combined.messages).toEqual([{ stream: listenKey, data: event }]);

  // Raw forms opened on the key alone end with it, as the legacy /ws/<listenKey> does.
  const closed = new Promise<number>((r) => inQuery.ws.on('close', (code) => r(code)));
  f.demo.delete('/fapi/v1/listenKey', {});
  expect(await closed).toBe(1000);
  inPath.ws.close();
  combined.ws.close();
});

test('a key that is not live: 400 -1125 at the upgrade', async () => {
  const { wsBase } = await start();
  const refused = await new Promise<{ status: number; body: string }>((resolve) => {
    const ws = new WebSocket(`${wsBase}/private/ws?listenKey=${'0'.repeat(64)}`, { headers: { 'X-MBX-APIKEY': DEMO_KEY } });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c) => (body += String(c)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.on('error', () => undefined);
  });
  expect(refused).toEqual({ status: 400, body: '{"code":-1125,"msg":"This listenKey does not exist."}' });
});
