import { afterEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { ExsimHttpServer } from '../../src/api-facade/http-server.ts';
import { makeFixture, T0, T0_MS } from './fixture.ts';

const servers: ExsimHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start() {
  const f = makeFixture();
  const server = new ExsimHttpServer(f.ctx);
  servers.push(server);
  const base = await server.listen(0);
  const listenKey = (f.demo.post('/api/v3/userDataStream').json as any).listenKey as string;
  return { f, base, wsBase: base.replace('http:', 'ws:'), listenKey };
}

/** Opens a stream and collects its messages; resolves once open. */
function connect(url: string): Promise<{ ws: WebSocket; messages: any[]; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const messages: any[] = [];
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    ws.on('open', () => resolve({ ws, messages, closed }));
    ws.on('error', reject);
  });
}

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setImmediate(r));
  expect(check()).toBe(true);
};

describe('the listen-key user data stream over WebSocket', () => {
  test('delivers the account’s executionReport and outboundAccountPosition as JSON frames', async () => {
    const { f, wsBase, listenKey } = await start();
    const stream = await connect(`${wsBase}/ws/${listenKey}`);
    f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '49000' });
    await until(() => stream.messages.length === 2);
    expect(stream.messages.map((m) => m.e)).toEqual(['executionReport', 'outboundAccountPosition']);
    expect(stream.messages[0]).toMatchObject({ s: 'BTCUSDT', x: 'NEW', X: 'NEW', q: '0.10000000', E: T0_MS });
    // Another account's orders are not on this stream.
    f.maker.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '60000' });
    await new Promise((r) => setTimeout(r, 20));
    expect(stream.messages).toHaveLength(2);
    stream.ws.close();
  });

  test('timeUnit=MICROSECOND gives µs times', async () => {
    const { f, wsBase, listenKey } = await start();
    const stream = await connect(`${wsBase}/ws/${listenKey}?timeUnit=MICROSECOND`);
    f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '49000' });
    await until(() => stream.messages.length === 2);
    expect(stream.messages[0].E).toBe(T0);
    stream.ws.close();
  });

  test('an unknown key is refused at the upgrade', async () => {
    const { wsBase } = await start();
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${wsBase}/ws/${'x'.repeat(60)}`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => undefined);
    });
    expect(status).toBe(400);
  });

  test('DELETE of the key closes the stream; expiry on simulated time says listenKeyExpired first', async () => {
    const { f, base, wsBase, listenKey } = await start();
    const closedByDelete = await connect(`${wsBase}/ws/${listenKey}`);
    // Through HTTP, so the server sees the request that closed the key.
    await fetch(`${base}/api/v3/userDataStream?listenKey=${listenKey}`, { method: 'DELETE', headers: { 'X-MBX-APIKEY': 'exsim-demo-key' } });
    expect(await closedByDelete.closed).toBe(1000);
    expect(closedByDelete.messages).toEqual([]);

    const key2 = (f.demo.post('/api/v3/userDataStream').json as any).listenKey as string;
    const expiring = await connect(`${wsBase}/ws/${key2}`);
    f.backend.advanceTo(T0 + 60 * 60 * 1_000_000);
    await fetch(`${base}/api/v3/time`);
    expect(await expiring.closed).toBe(1000);
    expect(expiring.messages).toEqual([{ e: 'listenKeyExpired', E: T0_MS + 3_600_000, listenKey: key2 }]);
  });
});
