/**
 * The USDⓈ-M market streams of `exsim serve --data sample --futures BTCUSDT` over real WebSocket
 * connections (fstream.binance.com's paths under /fstream): on a manual clock moved by the
 * control plane, `btcusdt@markPrice@1s` pushes at each whole simulated second the mark the engine
 * holds (GET /fapi/v1/premiumIndex shows the same), `btcusdt@markPrice` every 3 s (also on /ws),
 * SUBSCRIBE works as on spot's host, and the perpetual's diff depth (pu continuous) applied to a
 * GET /fapi/v1/depth snapshot rebuilds the book REST shows, on the contract's 0.10 tick.
 */
import { createHmac } from 'node:crypto';
import { afterAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { serve, type ServeHandle } from '../../src/serve/serve.ts';

const ADMIN = 'fstream-admin';
const handles: ServeHandle[] = [];
afterAll(async () => {
  for (const h of handles) await h.close();
});

interface Depth {
  e: string;
  E: number;
  U: number;
  u: number;
  pu: number;
  b: [string, string][];
  a: [string, string][];
}

function open(url: string): Promise<{ ws: WebSocket; messages: unknown[] }> {
  const ws = new WebSocket(url);
  const messages: unknown[] = [];
  ws.on('message', (raw: Buffer) => messages.push(JSON.parse(raw.toString())));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, messages }));
    ws.once('error', reject);
  });
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
}

test('/fstream: marks each second from the engine, SUBSCRIBE, and a diff depth that rebuilds /fapi/v1/depth', async () => {
  const handle = await serve({ port: 0, host: '127.0.0.1', clock: 'manual', data: 'sample', futures: ['BTCUSDT'], adminKey: ADMIN }, () => undefined);
  handles.push(handle);
  const ws = handle.url.replace('http', 'ws');
  const get = async (path: string) => (await fetch(`${handle.url}${path}`)).json() as Promise<Record<string, unknown>>;
  const advance = async (ms: number) => {
    const r = await fetch(`${handle.url}/exsim/v1/clock/advance?by=${ms}`, { method: 'POST', headers: { 'X-EXSIM-ADMIN-KEY': ADMIN } });
    expect(r.status).toBe(200);
  };

  const marks = await open(`${ws}/fstream/ws/btcusdt@markPrice@1s`);
  const slow = await open(`${ws}/ws/btcusdt@markPrice`);
  const book = await open(`${ws}/fstream/stream?streams=btcusdt@depth@100ms`);
  const control = await open(`${ws}/fstream/ws`);
  control.ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: ['!markPrice@arr@1s', 'btcusdt@bookTicker'], id: 1 }));
  await until(() => control.messages.length >= 1);
  expect(control.messages[0]).toEqual({ result: null, id: 1 });
  control.ws.send(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: 2 }));
  await until(() => control.messages.length >= 2);
  expect(control.messages[1]).toEqual({ result: ['!markPrice@arr@1s', 'btcusdt@bookTicker'], id: 2 });

  const { serverTime: start } = (await get('/fapi/v1/time')) as { serverTime: number };
  const snapshot = (await get('/fapi/v1/depth?symbol=BTCUSDT&limit=1000')) as { lastUpdateId: number; bids: [string, string][]; asks: [string, string][] };
  await advance(3000);
  await until(() => marks.messages.length >= 3 && slow.messages.length >= 1);

  // The manual clock stands at 04:00:00.000 (whole seconds): one update per second, at the second.
  const seconds = (marks.messages as { E: number }[]).map((m) => m.E - start);
  expect(seconds).toEqual([1000, 2000, 3000]);
  const last = marks.messages.at(-1) as Record<string, unknown>;
  expect(Object.keys(last)).toEqual(['e', 'E', 's', 'p', 'i', 'P', 'r', 'T', 'st']);
  expect(last).toMatchObject({ e: 'markPriceUpdate', s: 'BTCUSDT', T: Date.UTC(2024, 0, 1, 8) });
  const premium = await get('/fapi/v1/premiumIndex?symbol=BTCUSDT');
  expect(last['p']).toBe(premium['markPrice']);
  expect(last['i']).toBe(premium['indexPrice']);
  expect(last['r']).toBe(premium['lastFundingRate']);
  expect((slow.messages as { E: number; p: string }[]).map((m) => [m.E - start, m.p])).toEqual([[3000, last['p']]]);
  const arr = control.messages.filter((m) => Array.isArray(m)) as Record<string, unknown>[][];
  expect(arr.map((a) => a.map((m) => m['s']))).toEqual([['BTCUSDT'], ['BTCUSDT'], ['BTCUSDT']]);
  expect(arr.at(-1)![0]).toEqual(last);
  const tickers = control.messages.filter((m) => (m as { e?: string }).e === 'bookTicker') as Record<string, string>[];
  expect(tickers.length).toBeGreaterThan(0);
  for (const t of tickers) expect(t['b']).toMatch(/^\d+\.\d$/);

  // Diff depth: pu continuous, and the recipe from the snapshot gives the book REST shows now.
  const depth = (book.messages as { stream: string; data: Depth }[]).map((m) => m.data);
  expect((book.messages[0] as { stream: string }).stream).toBe('btcusdt@depth@100ms');
  expect(depth.length).toBeGreaterThan(5);
  for (let i = 1; i < depth.length; i++) expect(depth[i]!.pu).toBe(depth[i - 1]!.u);
  const bids = new Map(snapshot.bids);
  const asks = new Map(snapshot.asks);
  for (const d of depth) {
    if (d.u <= snapshot.lastUpdateId) continue;
    for (const [p, q] of d.b) if (Number(q) === 0) bids.delete(p); else bids.set(p, q);
    for (const [p, q] of d.a) if (Number(q) === 0) asks.delete(p); else asks.set(p, q);
  }
  const now = (await get('/fapi/v1/depth?symbol=BTCUSDT&limit=1000')) as { lastUpdateId: number; bids: [string, string][]; asks: [string, string][] };
  expect(now.lastUpdateId).toBe(depth.at(-1)!.u);
  const sorted = (m: Map<string, string>, desc: boolean) => [...m].sort((x, y) => (desc ? Number(y[0]) - Number(x[0]) : Number(x[0]) - Number(y[0])));
  expect(sorted(bids, true).slice(0, 20)).toEqual(now.bids.slice(0, 20));
  expect(sorted(asks, false).slice(0, 20)).toEqual(now.asks.slice(0, 20));
  for (const [p, q] of now.bids.slice(0, 5)) {
    expect(p).toMatch(/^\d+\.\d$/);
    expect(q).toMatch(/^\d+\.\d{3}$/);
  }

  control.ws.send(JSON.stringify({ method: 'UNSUBSCRIBE', params: ['!markPrice@arr@1s'], id: 3 }));
  await until(() => control.messages.some((m) => (m as { id?: number }).id === 3));
  const arrays = control.messages.filter((m) => Array.isArray(m)).length;
  await advance(1000);
  await until(() => marks.messages.length >= 4);
  expect(control.messages.filter((m) => Array.isArray(m)).length).toBe(arrays);
  for (const c of [marks, slow, book, control]) c.ws.close();
}, 60_000);

test('/fstream/private/ws?listenKey= carries a futures listen key (closed with it); /fstream/public and /fstream/market serve the futures names', async () => {
  const handle = await serve({ port: 0, host: '127.0.0.1', clock: 'manual', data: 'sample', futures: ['BTCUSDT'], adminKey: ADMIN }, () => undefined);
  handles.push(handle);
  const ws = handle.url.replace('http', 'ws');
  const keyed = await fetch(`${handle.url}/fapi/v1/listenKey`, { method: 'POST', headers: { 'X-MBX-APIKEY': 'exsim-demo-key' } });
  const { listenKey } = (await keyed.json()) as { listenKey: string };
  const user = await open(`${ws}/fstream/private/ws?listenKey=${listenKey}`);
  const closed = new Promise<[number, string]>((resolve) => user.ws.once('close', (code, reason) => resolve([code, reason.toString()])));
  const market = await open(`${ws}/fstream/market/ws/btcusdt@markPrice@1s`);
  const books = await open(`${ws}/fstream/public/stream?streams=btcusdt@bookTicker`);
  const moved = await fetch(`${handle.url}/exsim/v1/clock/advance?by=1000`, { method: 'POST', headers: { 'X-EXSIM-ADMIN-KEY': ADMIN } });
  expect(moved.status).toBe(200);
  await until(() => market.messages.length >= 1 && books.messages.length >= 1);
  expect(market.messages[0]).toMatchObject({ e: 'markPriceUpdate', s: 'BTCUSDT' });
  expect(books.messages[0]).toMatchObject({ stream: 'btcusdt@bookTicker', data: { e: 'bookTicker', s: 'BTCUSDT' } });
  await fetch(`${handle.url}/fapi/v1/listenKey`, { method: 'DELETE', headers: { 'X-MBX-APIKEY': 'exsim-demo-key' } });
  expect(await closed).toEqual([1000, 'listenKey closed']);
  // A dead key in the query is refused at the upgrade, as /ws/<listenKey> is.
  const refused = new WebSocket(`${ws}/fstream/private/ws?listenKey=${listenKey}`);
  const status = await new Promise<number>((resolve) => refused.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
  expect(status).toBe(400);
  // fstream's 10 incoming messages a second (spot's host: 5): the 11th in one simulated second closes.
  const chatty = await open(`${ws}/fstream/ws`);
  const ended = new Promise<number>((resolve) => chatty.ws.once('close', (code) => resolve(code)));
  for (let id = 1; id <= 10; id++) chatty.ws.send(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id }));
  await until(() => chatty.messages.length >= 10);
  expect(chatty.messages).toHaveLength(10);
  chatty.ws.send(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: 11 }));
  expect(await ended).toBe(1008);
  for (const c of [market, books]) c.ws.close();
}, 60_000);

test('a 125x short liquidated on the served replay: forceOrder on /fstream at the second of the liquidation', async () => {
  const handle = await serve({ port: 0, host: '127.0.0.1', clock: 'manual', data: 'sample', futures: ['BTCUSDT'], adminKey: ADMIN }, () => undefined);
  handles.push(handle);
  const signed = async (method: string, path: string, params: Record<string, string>) => {
    const { serverTime } = (await (await fetch(`${handle.url}/fapi/v1/time`)).json()) as { serverTime: number };
    const query = new URLSearchParams({ ...params, timestamp: String(serverTime) }).toString();
    const signature = createHmac('sha256', 'exsim-demo-secret').update(query).digest('hex');
    return (await fetch(`${handle.url}${path}?${query}&signature=${signature}`, { method, headers: { 'X-MBX-APIKEY': 'exsim-demo-key' } })).json() as Promise<Record<string, unknown>>;
  };
  const liquidations = await open(`${handle.url.replace('http', 'ws')}/fstream/stream?streams=!forceOrder@arr/btcusdt@forceOrder`);
  await signed('POST', '/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '4' });
  await signed('POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: '125' });
  expect(await signed('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.010', newOrderRespType: 'RESULT' })).toMatchObject({ status: 'FILLED', avgPrice: '41362.0' });
  // The mark rises through the short's liquidation price within the half hour after 04:00.
  for (let i = 0; i < 6 && liquidations.messages.length === 0; i++) {
    const moved = await fetch(`${handle.url}/exsim/v1/clock/advance?by=300000`, { method: 'POST', headers: { 'X-EXSIM-ADMIN-KEY': ADMIN } });
    expect(moved.status).toBe(200);
    // Pushed when the clock passed it: a short wait for the frames to arrive, not for time to move.
    for (let j = 0; j < 20 && liquidations.messages.length < 2; j++) await new Promise((r) => setTimeout(r, 25));
  }
  await until(() => liquidations.messages.length >= 2);
  const order = { s: 'BTCUSDT', S: 'BUY', o: 'LIMIT', f: 'IOC', q: '0.010', p: '41741.4', ap: '41741.31900000', X: 'FILLED', l: '0.010', z: '0.010', T: Date.UTC(2024, 0, 1, 4, 24, 37) };
  expect(liquidations.messages).toEqual([
    { stream: '!forceOrder@arr', data: { e: 'forceOrder', E: Date.UTC(2024, 0, 1, 4, 24, 37), o: order } },
    { stream: 'btcusdt@forceOrder', data: { e: 'forceOrder', E: Date.UTC(2024, 0, 1, 4, 24, 37), o: order } },
  ]);
  expect(await signed('GET', '/fapi/v3/positionRisk', { symbol: 'BTCUSDT' })).toEqual([]);
  liquidations.ws.close();
}, 60_000);
