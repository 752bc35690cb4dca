/**
 * ccxt (`defaultType: 'future'`, unchanged) against `exsim serve --data sample --futures BTCUSDT`
 * on the manual clock (issue 28: real clients run unchanged): a short, the control plane moving
 * the clock past 08:00 UTC, fetchFundingHistory / fetchFundingRateHistory showing the funding
 * the short was paid, then watchOrders and watchPositions on the futures user data stream (ccxt
 * opens <urls.api.ws.future minus /ws>/private/ws?listenKey=<key>, Binance's split URLs). URLs
 * are pointed at the server as users do for a testnet; ccxt learns the simulated clock with
 * `loadTimeDifference()` (the manual clock stands still while ccxt's moves, so it relearns it
 * before signing again).
 */
import ccxt from 'ccxt';
import { afterAll, expect, test } from 'vitest';
import { serve, type ServeHandle } from '../../src/serve/serve.ts';

const handles: ServeHandle[] = [];
const exchanges: { close(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const e of exchanges) await e.close();
  for (const h of handles) await h.close();
});

const ADMIN = 'futures-ccxt-admin';
const FUNDING_TIME = Date.UTC(2024, 0, 1, 8);

test('ccxt future: funding history after 08:00 UTC, watchOrders and watchPositions', async () => {
  const handle = await serve({ port: 0, host: '127.0.0.1', clock: 'manual', data: 'sample', futures: ['BTCUSDT'], adminKey: ADMIN }, () => undefined);
  handles.push(handle);
  const url = handle.url;
  const exchange = new ccxt.pro.binance({ apiKey: 'exsim-demo-key', secret: 'exsim-demo-secret', options: { defaultType: 'future', fetchMarkets: { types: ['linear'] }, fetchCurrencies: false } });
  exchanges.push(exchange);
  const api = exchange.urls['api'] as Record<string, unknown>;
  for (const [key, value] of Object.entries(api)) if (typeof value === 'string') api[key] = value.replace('https://api.binance.com', url).replace('https://fapi.binance.com', url);
  api['ws'] = { ...(api['ws'] as object), future: `${url.replace('http:', 'ws:')}/ws` };
  await exchange.loadHttpProxyAgent();
  await exchange.loadMarkets();

  await exchange.loadTimeDifference();
  expect(await exchange.transfer('USDT', 1000, 'spot', 'future')).toMatchObject({ id: '1', currency: 'USDT' });
  const short = await exchange.createOrder('BTC/USDT:USDT', 'market', 'sell', 0.01);
  expect(short).toMatchObject({ id: '1', status: 'closed', side: 'sell', type: 'market', filled: 0.01, average: 41362, timestamp: Date.UTC(2024, 0, 1, 4) });

  // The manual clock stands at 04:00 (the warm-up); the control plane moves it past the 08:00 funding.
  const moved = await fetch(`${url}/exsim/v1/clock/advance?to=${FUNDING_TIME + 1000}`, { method: 'POST', headers: { 'X-EXSIM-ADMIN-KEY': ADMIN } });
  expect(moved.status).toBe(200);
  await exchange.loadTimeDifference();

  // A short receives 0.010 × mark 42 060.98917535 × rate 0.0001 = 0.04206098 (rounded down).
  const rates = await exchange.fetchFundingRateHistory('BTC/USDT:USDT', FUNDING_TIME, 1);
  expect(rates.map((r) => [r.timestamp, r.fundingRate, r.info['markPrice']])).toEqual([[FUNDING_TIME, 0.0001, '42060.98917535']]);
  const funding = await exchange.fetchFundingHistory('BTC/USDT:USDT');
  expect(funding.map((f) => [f.symbol, f.code, f.timestamp, f.amount, f.info['incomeType']])).toEqual([['BTC/USDT:USDT', 'USDT', FUNDING_TIME, 0.04206098, 'FUNDING_FEE']]);

  // The user data stream: ccxt opens /private/ws?listenKey=…; a reduce-only buy halves the short.
  // watchPositions first signs a leverageBracket and a positionRisk request of its own (its
  // snapshot; a -1021 there would leave it waiting forever): the served clock is set 3 s ahead of
  // what ccxt learned, so its stamps stay inside the recvWindow however long the socket takes.
  await exchange.loadTimeDifference();
  expect((await fetch(`${url}/exsim/v1/clock/advance?to=${FUNDING_TIME + 4000}`, { method: 'POST', headers: { 'X-EXSIM-ADMIN-KEY': ADMIN } })).status).toBe(200);
  const orders = exchange.watchOrders('BTC/USDT:USDT');
  const positions = exchange.watchPositions(['BTC/USDT:USDT']);
  // A failed assertion must not leave these rejecting unhandled when the exchange closes.
  orders.catch(() => undefined);
  positions.catch(() => undefined);
  const userStream = () => Object.keys(exchange.clients).filter((k) => k.includes('/private/'));
  for (let i = 0; i < 1000 && userStream().length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, 300));
  expect(userStream()).toEqual([expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/private\/ws\?listenKey=[0-9a-f]{64}$/)]);
  await exchange.loadTimeDifference();
  const buy = await exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.005, undefined, { reduceOnly: true });
  expect(buy).toMatchObject({ id: '2', status: 'closed', side: 'buy', filled: 0.005, reduceOnly: true });

  const [watched] = await orders;
  expect(watched).toMatchObject({ id: '2', symbol: 'BTC/USDT:USDT', side: 'buy', type: 'market', amount: 0.005, reduceOnly: true });
  const [position] = await positions;
  expect(position).toMatchObject({ symbol: 'BTC/USDT:USDT', side: 'short', contracts: 0.005, entryPrice: 41362 });
}, 60_000);
