import { afterEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { ExsimHttpServer, type HttpServerOptions } from '../../src/api-facade/transport/http-server.ts';
import { makeFixture, T0, T0_MS } from './fixture.ts';

const servers: ExsimHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(options: HttpServerOptions = {}) {
  const f = makeFixture();
  const server = new ExsimHttpServer(f.ctx, options);
  servers.push(server);
  const base = await server.listen(0);
  const listenKey = (f.demo.post('/api/v3/userDataStream').json as any).listenKey as string;
  return { f, server, base, wsBase: base.replace('http:', 'ws:'), listenKey };
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

  test('a keepalive moves the expiry: the stream outlives the first hour and ends an hour after the keepalive', async () => {
    const { f, base, wsBase, listenKey } = await start();
    const stream = await connect(`${wsBase}/ws/${listenKey}`);
    f.backend.advanceTo(T0 + 30 * 60 * 1_000_000);
    expect(f.demo.put('/api/v3/userDataStream', { listenKey }).status).toBe(200);
    f.backend.advanceTo(T0 + 60 * 60 * 1_000_000);
    await fetch(`${base}/api/v3/time`);
    await new Promise((r) => setTimeout(r, 20));
    expect(stream.ws.readyState).toBe(WebSocket.OPEN);
    f.backend.advanceTo(T0 + 90 * 60 * 1_000_000);
    await fetch(`${base}/api/v3/time`);
    expect(await stream.closed).toBe(1000);
    expect(stream.messages).toEqual([{ e: 'listenKeyExpired', E: T0_MS + 90 * 60_000, listenKey }]);
  });

  test('a closed key ends its streams at once, even when DELETE comes in process', async () => {
    const { f, server, wsBase, listenKey } = await start();
    const a = await connect(`${wsBase}/ws/${listenKey}`);
    const b = await connect(`${wsBase}/ws/${listenKey}`);
    expect(server.streamConnections).toBe(2);
    f.demo.delete('/api/v3/userDataStream', { listenKey });
    expect([await a.closed, await b.closed]).toEqual([1000, 1000]);
    expect(server.streamConnections).toBe(0);
  });
});

describe('stream connection limits', () => {
  const refusal = (url: string): Promise<{ status: number; body: string }> =>
    new Promise((resolve) => {
      const ws = new WebSocket(url);
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c) => (body += String(c)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      ws.on('error', () => undefined);
    });

  test('an incoming frame larger than any request (140,424 bytes: a SUBSCRIBE past 1024 streams) closes the connection (1009) before it is buffered', async () => {
    const { server, wsBase, listenKey } = await start();
    const stream = await connect(`${wsBase}/ws/${listenKey}`);
    stream.ws.on('error', () => undefined);
    stream.ws.send('x'.repeat(140_425));
    expect(await stream.closed).toBe(1009);
    await until(() => server.streamConnections === 0);
  });

  test('more than 5 incoming messages in a simulated second disconnect (1008); 5 are fine', async () => {
    const { f, wsBase, listenKey } = await start();
    const calm = await connect(`${wsBase}/ws/${listenKey}`);
    for (let i = 0; i < 5; i++) calm.ws.send('{}');
    const chatty = await connect(`${wsBase}/ws/${listenKey}`);
    for (let i = 0; i < 6; i++) chatty.ws.send('{}');
    expect(await chatty.closed).toBe(1008);
    expect(calm.ws.readyState).toBe(WebSocket.OPEN);
    f.backend.advanceTo(T0 + 1_000_000); // a new second: 5 more
    for (let i = 0; i < 5; i++) calm.ws.send('{}');
    await new Promise((r) => setTimeout(r, 30));
    expect(calm.ws.readyState).toBe(WebSocket.OPEN);
    calm.ws.close();
  });

  test('connection attempts per IP per window and open connections per IP are capped with 429 -1003', async () => {
    const { f, wsBase, listenKey } = await start({ streamLimits: { attemptsPerIp: 3, openPerIp: 2 } });
    const a = await connect(`${wsBase}/ws/${listenKey}`);
    await connect(`${wsBase}/ws/${listenKey}`);
    const third = await refusal(`${wsBase}/ws/${listenKey}`);
    expect(third.status).toBe(429);
    expect(JSON.parse(third.body)).toEqual({ code: -1003, msg: 'Too many open connections; current limit is 2 per IP.' });
    a.ws.close();
    await a.closed;
    await new Promise((r) => setTimeout(r, 20));
    const fourth = await refusal(`${wsBase}/ws/${listenKey}`); // the 4th attempt in this window
    expect(fourth.status).toBe(429);
    expect(JSON.parse(fourth.body)).toEqual({ code: -1003, msg: 'Too many connection attempts; current limit is 3 per 5 MINUTE per IP.' });
    f.backend.advanceTo(T0 + 5 * 60 * 1_000_000); // the next window
    expect(f.demo.put('/api/v3/userDataStream', { listenKey }).status).toBe(200);
    const again = await connect(`${wsBase}/ws/${listenKey}`);
    again.ws.close();
  });
});
