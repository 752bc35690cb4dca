/**
 * ccxt's pro Binance class, unchanged, on the served perpetual's streams (`exsim serve --data
 * sample --futures BTCUSDT`): `urls.api.ws.future` pointed at `/fstream/ws` as users do for a
 * testnet, which ccxt rewrites into Binance's category paths (`/fstream/public/ws` for books,
 * `/fstream/market/ws` for marks). watchMarkPrice shows the mark GET /fapi/v1/premiumIndex shows,
 * the book ccxt keeps (REST snapshot + diff stream with its `pu` check) is the book GET
 * /fapi/v1/depth shows, on the 0.10 tick, and watchTrades / watchTicker show the perpetual's prints. The manual clock is moved by the control plane.
 */
import ccxt from 'ccxt';
import { afterAll, expect, test } from 'vitest';
import { serve, type ServeHandle } from '../../src/serve/serve.ts';

const ADMIN = 'ccxt-fstream-admin';
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

test('ccxt pro future: watchMarkPrice, watchOrderBook, watchTrades and watchTicker agree with REST', async () => {
  const handle: ServeHandle = await serve({ port: 0, host: '127.0.0.1', clock: 'manual', data: 'sample', futures: ['BTCUSDT'], adminKey: ADMIN }, () => undefined);
  cleanups.push(() => handle.close());
  const base = handle.url;
  const exchange = new ccxt.pro.binance({ options: { defaultType: 'future', fetchMarkets: { types: ['linear'] }, fetchCurrencies: false } });
  const api = exchange.urls['api'] as Record<string, unknown>;
  for (const [key, value] of Object.entries(api)) {
    if (typeof value === 'string') api[key] = value.replace('https://api.binance.com', base).replace('https://fapi.binance.com', base);
  }
  api['ws'] = { ...(api['ws'] as object), future: `${base.replace('http:', 'ws:')}/fstream/ws` };
  await exchange.loadHttpProxyAgent();
  cleanups.push(() => exchange.close());
  await exchange.loadMarkets();

  const advance = async (ms: number) => {
    const moved = await fetch(`${base}/exsim/v1/clock/advance?by=${ms}`, { method: 'POST', headers: { 'X-EXSIM-ADMIN-KEY': ADMIN } });
    expect(moved.status).toBe(200);
  };
  const mark = exchange.watchMarkPrice('BTC/USDT:USDT');
  const book = exchange.watchOrderBook('BTC/USDT:USDT');
  const trades = exchange.watchTrades('BTC/USDT:USDT');
  const dayTicker = exchange.watchTicker('BTC/USDT:USDT');
  // Let the subscriptions reach the server before the clock moves.
  await new Promise((r) => setTimeout(r, 500));
  await advance(1000);
  // The first mark (the clock's whole second) is the one premiumIndex shows while the clock stands.
  const ticker = await mark;
  const premium = (await (await fetch(`${base}/fapi/v1/premiumIndex?symbol=BTCUSDT`)).json()) as { markPrice: string; indexPrice: string };
  expect(ticker.symbol).toBe('BTC/USDT:USDT');
  expect(ticker.markPrice).toBe(Number(premium.markPrice));
  expect(ticker.indexPrice).toBe(Number(premium.indexPrice));
  await advance(1000);
  await book;
  // What was streamed up to the clock's stop has reached ccxt's book (the clock stands still now).
  await new Promise((r) => setTimeout(r, 300));
  const orderBook = exchange.orderbooks['BTC/USDT:USDT']!;
  const rest = (await (await fetch(`${base}/fapi/v1/depth?symbol=BTCUSDT&limit=5`)).json()) as { lastUpdateId: number; bids: [string, string][]; asks: [string, string][] };
  expect(orderBook['nonce']).toBe(rest.lastUpdateId);
  expect(orderBook.bids.slice(0, 5)).toEqual(rest.bids.map(([p, q]) => [Number(p), Number(q)]));
  expect(orderBook.asks.slice(0, 5)).toEqual(rest.asks.map(([p, q]) => [Number(p), Number(q)]));
  expect(rest.bids[0]![0]).toMatch(/^\d+\.\d$/);
  // watchTrades (`@trade`) and watchTicker (`@ticker`, every 2 s): the perpetual's own prints.
  const seen = await trades;
  const [lastTrade] = (await (await fetch(`${base}/fapi/v1/trades?symbol=BTCUSDT&limit=1`)).json()) as { id: number; price: string }[];
  expect(seen.length).toBeGreaterThan(0);
  expect(Number(seen.at(-1)!.id)).toBeLessThanOrEqual(lastTrade!.id);
  const streamed = exchange.trades['BTC/USDT:USDT'] as unknown as { id: string; price: number }[];
  expect(streamed.at(-1)).toMatchObject({ id: String(lastTrade!.id), price: Number(lastTrade!.price) });
  const ticker24 = await dayTicker;
  const price = (await (await fetch(`${base}/fapi/v1/ticker/price?symbol=BTCUSDT`)).json()) as { price: string };
  expect(ticker24.last).toBe(Number(price.price));
}, 60_000);
