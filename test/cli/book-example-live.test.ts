/**
 * The book example's handler code against `exsim serve` over a real WebSocket (issue 14 point 3):
 * the same `LocalOrderBook` that `exsim backtest book` feeds from `ctx.stream` is fed here from a
 * `ws` connection's message handler and a REST snapshot over HTTP, against a served replay of the
 * sample day at speed:5; whenever its id equals REST depth's lastUpdateId, the two books are equal.
 */
import { afterAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { LocalOrderBook } from '../../examples/book-strategy.ts';
import { serve, type ServeHandle } from '../../src/serve/serve.ts';

let handle: ServeHandle | undefined;
afterAll(async () => {
  await handle?.close();
});

interface Depth {
  lastUpdateId: number;
  bids: [string, string][];
  asks: [string, string][];
}

test('LocalOrderBook from the diff stream over WebSocket equals REST depth on the served exchange', async () => {
  handle = await serve({ port: 0, host: '127.0.0.1', clock: 'speed:5', data: 'sample' }, () => undefined);
  const url = handle.url;
  const local = new LocalOrderBook();
  let events = 0;
  const ws = new WebSocket(`${url.replace('http:', 'ws:')}/ws/btcusdt@depth@100ms`);
  ws.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (message.e !== 'depthUpdate') return; // serverShutdown when the server closes
    events++;
    local.onDepthUpdate(message);
  });
  await new Promise((r) => ws.once('open', r));
  const depth = async (): Promise<Depth> => (await fetch(`${url}/api/v3/depth?symbol=BTCUSDT&limit=5000`)).json() as Promise<Depth>;
  local.onSnapshot(await depth());
  let compared = 0;
  for (let i = 0; i < 400 && (compared < 3 || events < 3); i++) {
    await new Promise((r) => setTimeout(r, 25));
    const rest = await depth();
    if (rest.lastUpdateId !== local.lastUpdateId) continue;
    expect(local.top('bids', 5000)).toEqual(rest.bids.map(([p, q]) => [Number(p), Number(q)]));
    expect(local.top('asks', 5000)).toEqual(rest.asks.map(([p, q]) => [Number(p), Number(q)]));
    compared++;
  }
  expect(compared).toBeGreaterThanOrEqual(3);
  expect(events).toBeGreaterThanOrEqual(3);
  ws.close();
});
