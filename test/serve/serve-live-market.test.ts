/**
 * A market that lives between trades (issue 23 part 6): `exsim serve --data sample` serves the
 * sample day at a liquid pair's density and an order-flow book, so a streaming client of
 * `btcusdt@trade`, `btcusdt@depth@100ms` and `btcusdt@bookTicker` gets, per simulated second, at
 * least 5 trades and 5 bookTicker events, a diff-depth event in most 100 ms windows, U/u
 * continuous; and the diff stream rebuilds exactly the book REST shows. Run at speed:10 on the
 * simulated clock (the figures per wall second are in bench/serve/live-market-bench.ts).
 */
import { afterAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { serve, type ServeHandle } from '../../src/serve/serve.ts';

const handles: ServeHandle[] = [];
afterAll(async () => {
  for (const h of handles) await h.close();
});

interface Depth {
  E: number;
  U: number;
  u: number;
  b: [string, string][];
  a: [string, string][];
}

test('the served sample streams a live market: trades, bookTicker, a diff-depth change in most 100 ms windows, U/u continuous', async () => {
  const handle = await serve({ port: 0, host: '127.0.0.1', clock: 'speed:10', data: 'sample' }, () => undefined);
  handles.push(handle);
  const ws = new WebSocket(`${handle.url.replace('http', 'ws')}/stream?streams=btcusdt@trade/btcusdt@depth@100ms/btcusdt@bookTicker`);
  const trades: number[] = [];
  const depth: Depth[] = [];
  let tickers = 0;
  ws.on('message', (raw: Buffer) => {
    const { stream, data } = JSON.parse(raw.toString()) as { stream: string; data: { T: number } & Depth };
    if (stream.endsWith('@trade')) trades.push(data.T);
    else if (stream.endsWith('@bookTicker')) tickers++;
    else depth.push(data);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  // Local book by Binance's recipe: the first event after a REST snapshot continues it.
  const snapshot = (await (await fetch(`${handle.url}/api/v3/depth?symbol=BTCUSDT&limit=5000`)).json()) as { lastUpdateId: number; bids: [string, string][]; asks: [string, string][] };
  await new Promise((resolve) => setTimeout(resolve, 3000));
  ws.close();
  const simulatedSeconds = (depth.at(-1)!.E - depth[0]!.E) / 1000;
  expect(simulatedSeconds).toBeGreaterThan(15);
  expect(trades.length / simulatedSeconds).toBeGreaterThanOrEqual(5);
  expect(tickers / simulatedSeconds).toBeGreaterThanOrEqual(5);
  const windows = new Set(depth.map((d) => Math.floor(d.E / 100))).size;
  expect(windows / (simulatedSeconds * 10)).toBeGreaterThan(0.9);
  for (let i = 1; i < depth.length; i++) expect(depth[i]!.U).toBe(depth[i - 1]!.u + 1);
  // The recipe from the snapshot, applied to the end, gives the book REST shows at that update id.
  const bids = new Map(snapshot.bids);
  const asks = new Map(snapshot.asks);
  for (const d of depth) {
    if (d.u <= snapshot.lastUpdateId) continue;
    for (const [p, q] of d.b) if (Number(q) === 0) bids.delete(p); else bids.set(p, q);
    for (const [p, q] of d.a) if (Number(q) === 0) asks.delete(p); else asks.set(p, q);
  }
  expect(depth.some((d) => d.U <= snapshot.lastUpdateId + 1 && d.u >= snapshot.lastUpdateId + 1)).toBe(true);
  expect(bids.size).toBeGreaterThanOrEqual(5);
  expect(asks.size).toBeGreaterThanOrEqual(5);
  const bestBid = Math.max(...[...bids.keys()].map(Number));
  const bestAsk = Math.min(...[...asks.keys()].map(Number));
  expect(bestBid).toBeLessThan(bestAsk);
}, 60_000);
