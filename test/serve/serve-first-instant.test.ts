/**
 * A served replay has a market from its first instant (issue 11): `exsim serve --data sample` on
 * the manual clock (time stays at the data's first µs, 4 s before its first print) answers a
 * two-sided book around the first print's price, and a MARKET order fills against it at once.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { afterAll, expect, test } from 'vitest';
import { spawnServe } from './spawn-serve.ts';

let child: ChildProcessWithoutNullStreams | undefined;
afterAll(() => {
  child?.kill('SIGKILL');
});

async function startServer(): Promise<string> {
  const served = spawnServe(['--port', '0', '--data', 'sample', '--clock', 'manual']);
  child = served.child;
  return (await served.ready).url;
}

test('a served replay shows a two-sided book and fills a MARKET order at its first instant', async () => {
  const url = await startServer();
  const time = (await (await fetch(`${url}/api/v3/time`)).json()) as { serverTime: number };
  const depth = (await (await fetch(`${url}/api/v3/depth?symbol=BTCUSDT&limit=5`)).json()) as { bids: [string, string][]; asks: [string, string][] };
  expect(depth.bids).toHaveLength(5);
  expect(depth.asks).toHaveLength(5);
  const bid = Number(depth.bids[0]![0]);
  const ask = Number(depth.asks[0]![0]);
  expect(ask).toBeGreaterThan(bid);
  // The sample's first print is at 42,000-ish: the book sits around it, at most 3 ticks wide.
  expect(ask - bid).toBeLessThanOrEqual(0.03 + 1e-9);
  expect(bid).toBeGreaterThan(30_000);

  const query = `symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.01&timestamp=${time.serverTime}`;
  const signature = createHmac('sha256', 'exsim-demo-secret').update(query).digest('hex');
  const response = await fetch(`${url}/api/v3/order?${query}&signature=${signature}`, { method: 'POST', headers: { 'X-MBX-APIKEY': 'exsim-demo-key' } });
  const order = (await response.json()) as { status: string; transactTime: number; fills: { price: string }[] };
  if (response.status !== 200) throw new Error(JSON.stringify(order));
  expect(response.status).toBe(200);
  expect(order.status).toBe('FILLED');
  expect(order.transactTime).toBe(time.serverTime);
  expect(Number(order.fills[0]!.price)).toBe(ask);
}, 30_000);
