/**
 * Market streams over a real WebSocket (issue 14 point 1): raw and combined connections, the live
 * control messages and their errors, Binance's connection rules, and the diff-depth recipe over
 * the wire rebuilding exactly the book REST depth shows. The server runs over a replay whose
 * clock the test moves (`runUntil`), so every message's simulated time is exact.
 */
import { afterEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import type { ExsimHttpServer, HttpServerOptions } from '../../src/api-facade/transport/http-server.ts';
import { startReplayServer } from '../support/replay-server.ts';
import { T0 } from '../unit/sim/helpers.ts';

const S = 1_000_000;
const T0_MS = Math.floor(T0 / 1000);

const PRINTS = [
  { taker: 'BUY' as const, price: '42000', qty: '0.5', at: 1_500 },
  { taker: 'SELL' as const, price: '41990', qty: '0.2', at: 1_500 },
  { taker: 'SELL' as const, price: '41980', qty: '1', at: 3_250 },
  { taker: 'BUY' as const, price: '42010', qty: '0.3', at: 61_000 },
];

const servers: ExsimHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(options: HttpServerOptions = {}) {
  const started = await startReplayServer(PRINTS, options);
  servers.push(started.server);
  return { ...started, client: started.rest };
}

interface Conn {
  ws: WebSocket;
  messages: any[];
  closed: Promise<number>;
  /** Sends a control message and resolves with the answer carrying its id. */
  ask(request: unknown, id?: unknown): Promise<any>;
}

function connect(url: string, options: WebSocket.ClientOptions = {}): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    const messages: any[] = [];
    const waiting: ((m: any) => boolean)[] = [];
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      const at = waiting.findIndex((w) => w(m));
      if (at >= 0) waiting.splice(at, 1);
      else messages.push(m);
    });
    ws.on('open', () =>
      resolve({
        ws,
        messages,
        closed,
        ask: (request, id = (request as { id?: unknown }).id) =>
          new Promise((answer) => {
            waiting.push((m) => {
              const matches = m !== null && typeof m === 'object' && ('result' in m || 'error' in m) && m.id === id;
              if (matches) answer(m);
              return matches;
            });
            ws.send(typeof request === 'string' ? request : JSON.stringify(request));
          }),
      }),
    );
    ws.on('error', reject);
  });
}

/** The HTTP status an upgrade is refused with, and its JSON body. */
function refused(url: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    ws.on('error', () => undefined);
  });
}

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 2));
  expect(check()).toBe(true);
};

describe('market streams over WebSocket', () => {
  test('a raw /ws/<stream> sends trades at their simulated times, with REST’s ids and prices', async () => {
    const { replay, wsBase, client } = await start();
    const conn = await connect(`${wsBase}/ws/btcusdt@trade`);
    await replay.runUntil(T0 + 4 * S);
    await until(() => conn.messages.length === 3);
    const rest = client.get('/api/v3/trades', { symbol: 'BTCUSDT' }).json as { id: number; price: string; qty: string; time: number }[];
    expect(conn.messages.map((m) => [m.e, m.s, m.t, m.p, m.q, m.T - T0_MS, m.E - T0_MS, m.m])).toEqual([
      ['trade', 'BTCUSDT', rest[0]!.id, rest[0]!.price, rest[0]!.qty, 1500, 1500, false],
      ['trade', 'BTCUSDT', rest[1]!.id, rest[1]!.price, rest[1]!.qty, 1500, 1500, true],
      ['trade', 'BTCUSDT', rest[2]!.id, rest[2]!.price, rest[2]!.qty, 3250, 3250, true],
    ]);
    conn.ws.close();
  });

  test('a combined /stream wraps payloads, pushes klines every 2 s and marks the closed bar once', async () => {
    const { replay, wsBase } = await start();
    const conn = await connect(`${wsBase}/stream?streams=btcusdt@kline_1m/btcusdt@aggTrade`);
    await replay.runUntil(T0 + 42 * S);
    // 42 s of simulated time: a kline push at each even second after T0 (T0 sits 20 s into a minute).
    await until(() => conn.messages.filter((m) => m.stream === 'btcusdt@kline_1m').length >= 21);
    const klines = conn.messages.filter((m) => m.stream === 'btcusdt@kline_1m').map((m) => m.data);
    expect(klines.map((k) => k.E - T0_MS).slice(0, 3)).toEqual([2000, 4000, 6000]);
    const closed = klines.filter((k) => k.k.x === true);
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatchObject({ e: 'kline', s: 'BTCUSDT', E: T0_MS + 40_000, k: { i: '1m', o: '42000.00000000', c: '41980.00000000', n: 3, x: true } });
    const agg = conn.messages.filter((m) => m.stream === 'btcusdt@aggTrade').map((m) => m.data);
    expect(agg.map((a) => [a.e, a.p, a.q, a.T - T0_MS])).toEqual([
      ['aggTrade', '42000.00000000', '0.50000000', 1500],
      ['aggTrade', '41990.00000000', '0.20000000', 1500],
      ['aggTrade', '41980.00000000', '1.00000000', 3250],
    ]);
    conn.ws.close();
  });

  test('kline_<interval>@+08:00 bars open on the time zone’s boundaries; tickers and avgPrice push every second', async () => {
    const { replay, wsBase } = await start();
    const conn = await connect(`${wsBase}/stream?streams=btcusdt@kline_1d@+08:00/btcusdt@kline_1d/btcusdt@ticker/btcusdt@avgPrice/btcusdt@bookTicker`);
    await replay.runUntil(T0 + 4 * S);
    await until(() => conn.messages.filter((m) => m.stream === 'btcusdt@avgPrice').length === 4);
    const of = (stream: string) => conn.messages.filter((m) => m.stream === stream).map((m) => m.data);
    const day = 86_400_000;
    // T0 is 2023-11-14T22:13:20Z: the +08:00 day began at 16:00Z, the UTC day at 00:00Z.
    expect(of('btcusdt@kline_1d@+08:00').at(-1).k).toMatchObject({ t: Math.floor((T0_MS + 8 * 3_600_000) / day) * day - 8 * 3_600_000, i: '1d', n: 3 });
    expect(of('btcusdt@kline_1d').at(-1).k).toMatchObject({ t: Math.floor(T0_MS / day) * day, i: '1d', n: 3 });
    expect(of('btcusdt@ticker').map((t) => t.E - T0_MS)).toEqual([1000, 2000, 3000, 4000]);
    expect(of('btcusdt@ticker').at(-1)).toMatchObject({ e: '24hrTicker', c: '41980.00000000', n: 3 });
    expect(of('btcusdt@avgPrice').at(-1)).toMatchObject({ e: 'avgPrice', s: 'BTCUSDT', i: '5m' });
    // bookTicker: real time, on each change of the best levels, with the book's update id.
    const book = of('btcusdt@bookTicker');
    expect(book.length).toBeGreaterThan(0);
    expect(Object.keys(book[0]).sort()).toEqual(['A', 'B', 'a', 'b', 's', 'u']);
    conn.ws.close();
  });

  test('timeUnit=MICROSECOND states every time in µs', async () => {
    const { replay, wsBase } = await start();
    const conn = await connect(`${wsBase}/ws/btcusdt@trade?timeUnit=MICROSECOND`);
    const ms = await connect(`${wsBase}/ws/btcusdt@trade`);
    await replay.runUntil(T0 + 2 * S);
    await until(() => conn.messages.length === 2 && ms.messages.length === 2);
    expect(conn.messages[0]).toMatchObject({ E: T0 + 1_500_000, T: T0 + 1_500_000 });
    expect(ms.messages[0]).toMatchObject({ E: T0_MS + 1500, T: T0_MS + 1500 });
    conn.ws.close();
    ms.ws.close();
  });

  test('SUBSCRIBE, UNSUBSCRIBE, LIST_SUBSCRIPTIONS, SET_PROPERTY and GET_PROPERTY answer as Binance does', async () => {
    // Seven messages at one simulated instant: above Binance's 5 per second, so the limit is raised here.
    const { replay, wsBase } = await start({ streamLimits: { messagesPerSecond: 100 } });
    const conn = await connect(`${wsBase}/ws`);
    expect(await conn.ask({ method: 'SUBSCRIBE', params: ['btcusdt@trade', 'btcusdt@depth'], id: 1 })).toEqual({ result: null, id: 1 });
    expect(await conn.ask({ method: 'LIST_SUBSCRIPTIONS', id: 3 })).toEqual({ result: ['btcusdt@trade', 'btcusdt@depth'], id: 3 });
    expect(await conn.ask({ method: 'UNSUBSCRIBE', params: ['btcusdt@depth'], id: 312 })).toEqual({ result: null, id: 312 });
    expect(await conn.ask({ method: 'GET_PROPERTY', params: ['combined'], id: 'abc' })).toEqual({ result: false, id: 'abc' });
    expect(await conn.ask({ method: 'SET_PROPERTY', params: ['combined', true], id: 5 })).toEqual({ result: null, id: 5 });
    // A well-formed name this market does not have is acknowledged and listed, and never delivers.
    expect(await conn.ask({ method: 'SUBSCRIBE', params: ['ethusdt@trade'], id: null })).toEqual({ result: null, id: null });
    expect(await conn.ask({ method: 'LIST_SUBSCRIPTIONS', id: 4 })).toEqual({ result: ['btcusdt@trade', 'ethusdt@trade'], id: 4 });
    await replay.runUntil(T0 + 2 * S);
    await until(() => conn.messages.length === 2);
    expect(conn.messages.map((m) => [m.stream, m.data.e])).toEqual([
      ['btcusdt@trade', 'trade'],
      ['btcusdt@trade', 'trade'],
    ]);
    conn.ws.close();
  });

  test('bad control messages get Binance’s error frames and leave the connection open', async () => {
    const { wsBase } = await start({ streamLimits: { messagesPerSecond: 100 } });
    const conn = await connect(`${wsBase}/ws`);
    const errorOf = async (text: string, id: unknown) => (await conn.ask(text, id)).error;
    expect(await errorOf('{"method": "SUBSCRIBE", "params": ["btcusdt@trade"', null)).toEqual({ code: 3, msg: 'Invalid JSON: expected value at line 1 column 50' });
    expect(await errorOf('{"method": "SUBSCRIBE", "params": ["btcusdt@trade"], "id": 1.5}', null)).toEqual({ code: 2, msg: 'Invalid request: request ID must be an unsigned integer' });
    expect(await errorOf('{"method": "FOO", "id": 7}', 7)).toEqual({
      code: 2,
      msg: 'Invalid request: unknown variant `FOO`, expected one of `SUBSCRIBE`, `UNSUBSCRIBE`, `LIST_SUBSCRIPTIONS`, `SET_PROPERTY`, `GET_PROPERTY` at line 1 column 26',
    });
    expect(await errorOf('{"params": [], "id": 8}', 8)).toEqual({ code: 2, msg: 'Invalid request: missing field `method` at line 1 column 23' });
    expect(await errorOf('{"method": "SET_PROPERTY", "params": ["nope", true], "id": 9}', 9)).toEqual({ code: 0, msg: 'Unknown property' });
    expect(await errorOf('{"method": "SET_PROPERTY", "params": ["combined", "yes"], "id": 10}', 10)).toEqual({ code: 1, msg: 'Invalid value type: expected Boolean' });
    expect(await errorOf('{"method": "GET_PROPERTY", "params": [1], "id": 11}', 11)).toEqual({ code: 2, msg: 'Invalid request: property name must be a string' });
    expect(await errorOf('{"method": "LIST_SUBSCRIPTIONS", "params": ["x"], "id": 12}', 12)).toEqual({ code: 2, msg: 'Invalid request: too many parameters' });
    expect(await errorOf('{"method": "SUBSCRIBE", "params": ["@@@ not a stream"], "id": 13}', 13)).toEqual({ code: 2, msg: 'Invalid request: invalid stream' });
    expect(conn.ws.readyState).toBe(WebSocket.OPEN);
    conn.ws.close();
  });

  test('request ids come back byte for byte, past 2^53 too; a deep message is serde’s recursion error', async () => {
    const { wsBase } = await start({ streamLimits: { messagesPerSecond: 100 } });
    const ws = new WebSocket(`${wsBase}/ws`);
    const texts: string[] = [];
    ws.on('message', (data) => texts.push(String(data)));
    await new Promise((r) => ws.once('open', r));
    ws.send('{"method":"LIST_SUBSCRIPTIONS","id":9007199254740993}');
    ws.send('{"method":"SUBSCRIBE","params":["btcusdt@trade"],"id":9223372036854775807}');
    ws.send(`{"method":"SUBSCRIBE","params":${'['.repeat(1000)}${']'.repeat(1000)},"id":3}`);
    await until(() => texts.length === 3);
    expect(texts).toEqual([
      '{"result":[],"id":9007199254740993}',
      '{"result":null,"id":9223372036854775807}',
      '{"error":{"code":3,"msg":"Invalid JSON: recursion limit exceeded at line 1 column 158"},"id":null}',
    ]);
    ws.close();
  });

  test('URLs: a name this market lacks is taken as SUBSCRIBE takes it (listed, silent); an unknown listen key is 400 -1125, any other path 404', async () => {
    const { replay, wsBase } = await start({ streamLimits: { messagesPerSecond: 100 } });
    const conn = await connect(`${wsBase}/stream?streams=btcusdt@trade/xyzusdt@trade/btcusdt@nonsense`);
    expect(await conn.ask({ method: 'LIST_SUBSCRIPTIONS', id: 1 })).toEqual({ result: ['btcusdt@trade', 'xyzusdt@trade', 'btcusdt@nonsense'], id: 1 });
    // The same names by SUBSCRIBE on a bare connection: the same list.
    const bare = await connect(`${wsBase}/stream`);
    expect(await bare.ask({ method: 'SUBSCRIBE', params: ['btcusdt@trade', 'xyzusdt@trade', 'btcusdt@nonsense'], id: 2 })).toEqual({ result: null, id: 2 });
    expect(await bare.ask({ method: 'LIST_SUBSCRIPTIONS', id: 3 })).toEqual({ result: ['btcusdt@trade', 'xyzusdt@trade', 'btcusdt@nonsense'], id: 3 });
    await replay.runUntil(T0 + 2 * S);
    await until(() => conn.messages.length === 2 && bare.messages.length === 2);
    expect(conn.messages.map((m) => m.stream)).toEqual(['btcusdt@trade', 'btcusdt@trade']);
    conn.ws.close();
    bare.ws.close();
    expect(await refused(`${wsBase}/ws/${'a'.repeat(64)}`)).toEqual({ status: 400, body: { code: -1125, msg: 'This listenKey does not exist.' } });
    expect(await refused(`${wsBase}/nowhere`)).toEqual({ status: 404, body: { code: -1000, msg: 'Unknown endpoint: GET /nowhere' } });
  });

  test('a time unit other than MICROSECOND / MILLISECOND (either case) is 400 -1194, as on REST and the WebSocket API', async () => {
    const { wsBase } = await start();
    const invalid = { status: 400, body: { code: -1194, msg: 'Invalid value for time unit; expected either MICROSECOND or MILLISECOND.' } };
    expect(await refused(`${wsBase}/ws/btcusdt@trade?timeUnit=SECOND`)).toEqual(invalid);
    expect(await refused(`${wsBase}/stream?streams=btcusdt@trade&timeUnit=Microsecond`)).toEqual(invalid);
    const conn = await connect(`${wsBase}/ws/btcusdt@trade?timeUnit=microsecond`);
    conn.ws.close();
  });

  test('a listen key is a stream name: SUBSCRIBE on a bare /ws brings the account’s executionReports', async () => {
    const { replay, wsBase, client } = await start();
    const listenKey = (client.post('/api/v3/userDataStream').json as { listenKey: string }).listenKey;
    const conn = await connect(`${wsBase}/stream`);
    expect(await conn.ask({ method: 'SUBSCRIBE', params: [listenKey, 'btcusdt@trade'], id: 1 })).toEqual({ result: null, id: 1 });
    client.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '41000' });
    await replay.runUntil(T0 + 2 * S);
    await until(() => conn.messages.length >= 4);
    expect(conn.messages.map((m) => [m.stream === listenKey ? 'key' : m.stream, m.data.e])).toEqual([
      ['key', 'executionReport'],
      ['key', 'outboundAccountPosition'],
      ['btcusdt@trade', 'trade'],
      ['btcusdt@trade', 'trade'],
    ]);
    expect(conn.messages[0].data).toMatchObject({ s: 'BTCUSDT', x: 'NEW', p: '41000.00000000', E: T0_MS });
    conn.ws.close();
  });

  test('the documented diff-depth recipe over the wire rebuilds exactly the book REST depth shows', async () => {
    const { replay, wsBase, client } = await start();
    const conn = await connect(`${wsBase}/ws/btcusdt@depth@100ms`);
    const bids = new Map<string, string>();
    const asks = new Map<string, string>();
    const snapshot = client.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5000 }).json as { lastUpdateId: number; bids: string[][]; asks: string[][] };
    for (const [p, q] of snapshot.bids) bids.set(p!, q!);
    for (const [p, q] of snapshot.asks) asks.set(p!, q!);
    let last = snapshot.lastUpdateId;
    let applied = 0;
    const apply = () => {
      for (const m of conn.messages.splice(0)) {
        if (m.u <= last) continue;
        expect(m.U).toBeLessThanOrEqual(last + 1);
        for (const [side, levels] of [[bids, m.b], [asks, m.a]] as const) for (const [p, q] of levels as string[][]) (Number(q) === 0 ? side.delete(p!) : side.set(p!, q!));
        last = m.u;
        applied++;
      }
    };
    const expectSameAsRest = () => {
      const rest = client.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5000 }).json as { bids: string[][]; asks: string[][] };
      const sorted = (side: Map<string, string>, desc: boolean) => [...side].sort((a, b) => (desc ? Number(b[0]) - Number(a[0]) : Number(a[0]) - Number(b[0])));
      expect(sorted(bids, true)).toEqual(rest.bids);
      expect(sorted(asks, false)).toEqual(rest.asks);
    };
    // The book moves with prints (the synthetic ladder re-anchors) and with the account's orders.
    const steps: [number, () => void][] = [
      [1 * S, () => client.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.3', price: '41500' })],
      [2 * S, () => client.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.2', price: '42500' })],
      [3.5 * S, () => client.delete('/api/v3/openOrders', { symbol: 'BTCUSDT' })],
      [62 * S, () => undefined],
    ];
    for (const [at, act] of steps) {
      await replay.runUntil(T0 + at);
      act();
      await replay.runUntil(T0 + at + 200_000);
      // Everything sent before this answer has arrived (one connection, in order).
      await conn.ask({ method: 'LIST_SUBSCRIPTIONS', id: at });
      apply();
      expectSameAsRest();
    }
    expect(applied).toBeGreaterThanOrEqual(4);
    conn.ws.close();
  });
});

describe('connection rules', () => {
  test('more than 5 incoming messages in a simulated second closes the connection with 1008', async () => {
    const { wsBase } = await start();
    const conn = await connect(`${wsBase}/ws`);
    for (let i = 0; i < 6; i++) conn.ws.send(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: i }));
    expect(await conn.closed).toBe(1008);
  });

  test('a connection carries at most streamsPerConnection streams', async () => {
    const { wsBase } = await start({ streamLimits: { streamsPerConnection: 2 } });
    expect((await refused(`${wsBase}/stream?streams=btcusdt@trade/btcusdt@aggTrade/btcusdt@depth`)).status).toBe(400);
    const conn = await connect(`${wsBase}/ws/btcusdt@trade`);
    expect(await conn.ask({ method: 'SUBSCRIBE', params: ['btcusdt@aggTrade', 'btcusdt@depth'], id: 1 })).toEqual({
      error: { code: 2, msg: 'Invalid request: too many streams; a connection carries at most 2' },
      id: 1,
    });
    expect(await conn.ask({ method: 'SUBSCRIBE', params: ['btcusdt@aggTrade'], id: 2 })).toEqual({ result: null, id: 2 });
    conn.ws.close();
  });

  test('a SUBSCRIBE past 1024 streams is an error frame, not a close, even with the longest names; 1024 are taken', async () => {
    const { wsBase } = await start();
    const conn = await connect(`${wsBase}/ws`);
    const names = Array.from({ length: 1025 }, (_, i) => `s${String(i).padStart(4, '0')}usdt@trade`);
    const tooMany = JSON.stringify({ method: 'SUBSCRIBE', params: names, id: 1 });
    expect(tooMany.length).toBe(18_490); // ~230 of these names filled the former 4 KiB frames
    expect(await conn.ask(tooMany, 1)).toEqual({ error: { code: 2, msg: 'Invalid request: too many streams; a connection carries at most 1024' }, id: 1 });
    const longest = Array.from({ length: 1025 }, (_, i) => `k${String(i).padStart(127, '0')}`);
    const longestFrame = JSON.stringify({ method: 'SUBSCRIBE', params: longest, id: 'abcdefghijklmnopqrstuvwxyz0123456789' }, null, 2);
    expect(longestFrame.length).toBe(139_493); // indented, 1025 names of the longest well-formed shape (a listen key's)
    expect((await conn.ask(longestFrame, 'abcdefghijklmnopqrstuvwxyz0123456789')).error.code).toBe(2);
    expect(await conn.ask({ method: 'SUBSCRIBE', params: names.slice(0, 1024), id: 3 })).toEqual({ result: null, id: 3 });
    expect(conn.ws.readyState).toBe(WebSocket.OPEN);
    conn.ws.close();
  });

  test('the server pings; a client that never answers is dropped after the pong timeout', async () => {
    const { wsBase, server } = await start({ streamLimits: { pingIntervalMs: 40, pongTimeoutMs: 100 } });
    let pings = 0;
    const silent = await connect(`${wsBase}/ws/btcusdt@trade`, { autoPong: false });
    silent.ws.on('ping', () => pings++);
    const polite = await connect(`${wsBase}/ws/btcusdt@trade`);
    const code = await silent.closed;
    expect(code).toBe(1006); // terminated without a close frame
    expect(pings).toBeGreaterThanOrEqual(1);
    expect(polite.ws.readyState).toBe(WebSocket.OPEN);
    expect(server.streamConnections).toBe(1);
    polite.ws.close();
  });

  test('the WebSocket API keeps the same transport rules: pings, and a silent client is dropped', async () => {
    const { wsBase } = await start({ wsApiLimits: { pingIntervalMs: 40, pongTimeoutMs: 100 } });
    let pings = 0;
    const silent = await connect(`${wsBase}/ws-api/v3`, { autoPong: false });
    silent.ws.on('ping', () => pings++);
    const polite = await connect(`${wsBase}/ws-api/v3`);
    expect(await silent.closed).toBe(1006);
    expect(pings).toBeGreaterThanOrEqual(1);
    expect(polite.ws.readyState).toBe(WebSocket.OPEN);
    polite.ws.close();
  });

  test('closing the server sends serverShutdown (wrapped on a combined connection)', async () => {
    const { wsBase, server } = await start();
    const raw = await connect(`${wsBase}/ws/btcusdt@trade`);
    const combined = await connect(`${wsBase}/stream?streams=btcusdt@trade`);
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    expect(await raw.closed).toBe(1001);
    await combined.closed;
    expect(raw.messages).toEqual([{ e: 'serverShutdown', E: T0_MS }]);
    expect(combined.messages).toEqual([{ stream: '!serverShutdown', data: { e: 'serverShutdown', E: T0_MS } }]);
  });
});
