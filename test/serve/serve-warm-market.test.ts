/**
 * A warm market (issue 15 item 1): `exsim serve --data sample` replays the first 4 hours before
 * the port opens, so a ccxt bot started the instant the URL is printed gets a two-sided book,
 * 200 one-minute candles, a non-zero average price and a filled MARKET order.
 */
import { afterAll, expect, test } from 'vitest';
import ccxt from 'ccxt';
import { serve, type ServeHandle } from '../../src/serve/serve.ts';

const handles: ServeHandle[] = [];
afterAll(async () => {
  for (const h of handles) await h.close();
});

function ccxtAt(base: string) {
  const exchange = new ccxt.binance({ apiKey: 'exsim-demo-key', secret: 'exsim-demo-secret', options: { defaultType: 'spot', fetchMarkets: { types: ['spot'] }, fetchCurrencies: false } });
  const api = exchange.urls['api'] as Record<string, unknown>;
  for (const [key, value] of Object.entries(api)) if (typeof value === 'string') api[key] = value.replace('https://api.binance.com', base);
  return exchange;
}

test('the moment serve prints its URL: a two-sided book, 200 one-minute candles, avgPrice, a filled MARKET order (ccxt)', async () => {
  const lines: string[] = [];
  const handle = await serve({ port: 0, host: '127.0.0.1', clock: 'realtime', data: 'sample' }, (line) => lines.push(line));
  handles.push(handle);
  expect(lines[0]).toContain('from 2024-01-01T04:00:00.000Z');
  const exchange = ccxtAt(handle.url);
  await exchange.loadMarkets();
  const book = await exchange.fetchOrderBook('BTC/USDT', 10);
  expect(book.bids.length).toBe(10);
  expect(book.asks.length).toBe(10);
  expect(book.bids[0]![0]!).toBeLessThan(book.asks[0]![0]!);
  const candles = await exchange.fetchOHLCV('BTC/USDT', '1m', undefined, 200);
  expect(candles).toHaveLength(200);
  expect(candles.at(-1)![0]).toBe(Date.UTC(2024, 0, 1, 4, 0));
  const avg = (await (await fetch(`${handle.url}/api/v3/avgPrice?symbol=BTCUSDT`)).json()) as { price: string };
  expect(Number(avg.price)).toBeGreaterThan(40_000);
  const order = await exchange.createOrder('BTC/USDT', 'market', 'buy', 0.01);
  expect(order).toMatchObject({ status: 'closed', filled: 0.01 });
});

test('--from starts the served market there; outside the data it is a one-line error', async () => {
  const lines: string[] = [];
  const handle = await serve({ port: 0, host: '127.0.0.1', clock: 'manual', data: 'sample', from: '2024-01-01T10:30' }, (line) => lines.push(line));
  handles.push(handle);
  const time = (await (await fetch(`${handle.url}/api/v3/time`)).json()) as { serverTime: number };
  expect(time.serverTime).toBe(Date.UTC(2024, 0, 1, 10, 30));
  const trades = (await (await fetch(`${handle.url}/api/v3/trades?symbol=BTCUSDT&limit=1`)).json()) as { time: number }[];
  expect(trades[0]!.time).toBeLessThanOrEqual(Date.UTC(2024, 0, 1, 10, 30));
  expect(trades[0]!.time).toBeGreaterThan(Date.UTC(2024, 0, 1, 10, 25));
  await expect(serve({ port: 0, host: '127.0.0.1', clock: 'manual', data: 'sample', from: '2024-03-01' }, () => undefined)).rejects.toThrow('--from 2024-03-01 is outside the data');
  await expect(serve({ port: 0, host: '127.0.0.1', clock: 'manual', from: '2024-01-01' }, () => undefined)).rejects.toThrow('--from needs --data');
});
