/**
 * Real clients of the USDⓈ-M futures WebSocket API (/ws-fapi/v1) run unchanged against the
 * served exchange, only their URL set: the official SDK's `websocketAPI`
 * (@binance/derivatives-trading-usds-futures, `wsURL`), ccxt pro's binance with
 * `defaultType: 'future'` (`urls.api.ws['ws-api'].future`), and the `binance` package's
 * WebsocketAPIClient (`wsUrl`: it appends /ws-fapi/v1 for usdm). The clock rule accepts the
 * clients' wall-clock stamps (the market sits at 2026-01-01 on simulated time).
 */
import { DerivativesTradingUsdsFutures, DerivativesTradingUsdsFuturesWebsocketAPI as W } from '@binance/derivatives-trading-usds-futures';
import { WebsocketAPIClient } from 'binance';
import ccxt from 'ccxt';
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, expect, test } from 'vitest';
import { ExsimHttpServer } from '../../../src/api-facade/transport/http-server.ts';
import { DEMO_KEY, DEMO_SECRET } from '../fixture.ts';
import { futuresTradingFixture, fund, mark, quote, T0_MS, type FuturesTradingFixture } from './futures-fixture.ts';

const servers: ExsimHttpServer[] = [];
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The futures market at a 50 000 mark, the maker's quotes (orders 1-4), 1000 USDT in the demo's futures wallet; the server's root. */
async function start(onContext?: (f: FuturesTradingFixture) => void): Promise<string> {
  const f = futuresTradingFixture({ clientTime: (_timestamp, now) => now });
  onContext?.(f);
  mark(f, '50000');
  quote(f);
  fund(f.demo, '1000');
  const server = new ExsimHttpServer(f.ctx, {});
  servers.push(server);
  return server.listen(0);
}

test('the official SDK websocketAPI: newOrder, queryOrder, modifyOrder, cancelOrder, positionInformationV2, futuresAccountBalanceV2, a typed error', async () => {
  const base = await start();
  const client = new DerivativesTradingUsdsFutures({ configurationWebsocketAPI: { apiKey: DEMO_KEY, apiSecret: DEMO_SECRET, wsURL: `${base.replace('http:', 'ws:')}/ws-fapi/v1` } });
  const connection = await client.websocketAPI!.connect();
  cleanups.push(() => connection.disconnect());

  const limit = await connection.newOrder({ symbol: 'BTCUSDT', side: W.NewOrderSideEnum.BUY, type: W.NewOrderTypeEnum.LIMIT, timeInForce: W.NewOrderTimeInForceEnum.GTC, quantity: 0.01, price: 49000 });
  expect(limit.data).toMatchObject({ orderId: 5, symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', status: 'NEW', price: '49000.0', origQty: '0.010', updateTime: T0_MS });
  expect(limit.rateLimits).toEqual([
    { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 300, count: 1 },
    { rateLimitType: 'ORDERS', interval: 'MINUTE', intervalNum: 1, limit: 1200, count: 1 },
    { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 2400, count: 2 },
  ]);
  expect((await connection.queryOrder({ symbol: 'BTCUSDT', orderId: 5 })).data).toMatchObject({ orderId: 5, status: 'NEW' });
  const modified = await connection.modifyOrder({ symbol: 'BTCUSDT', orderId: 5, side: W.ModifyOrderSideEnum.BUY, quantity: 0.02, price: 49500 });
  expect(modified.data).toMatchObject({ orderId: 5, price: '49500.0', origQty: '0.020' });
  expect((await connection.cancelOrder({ symbol: 'BTCUSDT', orderId: 5 })).data).toMatchObject({ orderId: 5, status: 'CANCELED' });

  // MARKET SELL 0.01 against the maker's 49 990 bid opens a short.
  const short = await connection.newOrder({ symbol: 'BTCUSDT', side: W.NewOrderSideEnum.SELL, type: W.NewOrderTypeEnum.MARKET, quantity: 0.01, newOrderRespType: W.NewOrderNewOrderRespTypeEnum.RESULT });
  expect(short.data).toMatchObject({ orderId: 6, status: 'FILLED', executedQty: '0.010', avgPrice: '49990.0', cumQuote: '499.90000000' });
  expect((await connection.positionInformationV2({ symbol: 'BTCUSDT' })).data).toMatchObject([{ symbol: 'BTCUSDT', positionAmt: '-0.010', entryPrice: '49990.0', markPrice: '50000.0', unRealizedProfit: '-0.10000000' }]);
  expect((await connection.positionInformation({ symbol: 'BTCUSDT' })).data).toMatchObject([{ symbol: 'BTCUSDT', positionAmt: '-0.010', leverage: '20', marginType: 'cross' }]);
  // 1000 − taker commission 0.24995 (0.0005 × 499.90).
  expect((await connection.futuresAccountBalanceV2()).data).toMatchObject([{ asset: 'USDT', balance: '999.75005000' }]);
  expect((await connection.accountInformationV2()).data).toMatchObject({ totalWalletBalance: '999.75005000', totalUnrealizedProfit: '-0.10000000' });
  expect((await connection.symbolPriceTicker({ symbol: 'BTCUSDT' })).data).toMatchObject({ symbol: 'BTCUSDT', price: '49990.0' });
  expect((await connection.startUserDataStream()).data.listenKey).toMatch(/^[0-9a-f]{64}$/);

  // Binance's error reaches the SDK as its {code, msg}.
  await expect(connection.cancelOrder({ symbol: 'BTCUSDT', orderId: 999 })).rejects.toEqual({ code: -2011, msg: 'Unknown order sent.' });
});

test('ccxt pro future: createOrderWs, fetchOrderWs, editOrderWs, cancelOrderWs, fetchBalanceWs, fetchPositionsWs on ws-fapi', async () => {
  const base = await start();
  const exchange = new ccxt.pro.binance({ apiKey: DEMO_KEY, secret: DEMO_SECRET, options: { defaultType: 'future', fetchMarkets: { types: ['linear'] }, fetchCurrencies: false } });
  cleanups.push(() => exchange.close());
  const api = exchange.urls['api'] as Record<string, any>;
  for (const [key, value] of Object.entries(api)) if (typeof value === 'string') api[key] = value.replace('https://api.binance.com', base).replace('https://fapi.binance.com', base);
  api['ws'] = { ...api['ws'], 'ws-api': { ...api['ws']['ws-api'], future: `${base.replace('http:', 'ws:')}/ws-fapi/v1` } };
  await exchange.loadHttpProxyAgent();
  await exchange.loadMarkets();

  const limit = await exchange.createOrderWs('BTC/USDT:USDT', 'limit', 'buy', 0.01, 49000);
  expect(limit).toMatchObject({ id: '5', status: 'open', side: 'buy', type: 'limit', price: 49000, amount: 0.01 });
  expect(await exchange.fetchOrderWs('5', 'BTC/USDT:USDT')).toMatchObject({ id: '5', status: 'open' });
  // editOrderWs is order.modify for futures (PUT /fapi/v1/order: same orderId, new price and quantity).
  expect(await exchange.editOrderWs('5', 'BTC/USDT:USDT', 'limit', 'buy', 0.02, 49500)).toMatchObject({ id: '5', status: 'open', price: 49500, amount: 0.02 });
  expect(await exchange.cancelOrderWs('5', 'BTC/USDT:USDT')).toMatchObject({ id: '5', status: 'canceled' });

  const short = await exchange.createOrderWs('BTC/USDT:USDT', 'market', 'sell', 0.01, undefined, { newOrderRespType: 'RESULT' });
  expect(short).toMatchObject({ id: '6', status: 'closed', filled: 0.01, average: 49990 });
  // ccxt reads account.status: total = margin balance (999.75005 wallet − 0.1 unrealized), used = the short's IM 25 (500 / 20).
  const balance = await exchange.fetchBalanceWs();
  expect(balance['USDT']).toEqual({ free: 974.65005, used: 25, total: 999.65005 });
  const positions = await exchange.fetchPositionsWs(['BTC/USDT:USDT']);
  expect(positions).toHaveLength(1);
  expect(positions[0]).toMatchObject({ symbol: 'BTC/USDT:USDT', side: 'short', contracts: 0.01, entryPrice: 49990, markPrice: 50000 });
});

test('the binance package WebsocketAPIClient (usdm): submitNewFuturesOrder, getFuturesOrderStatus, cancelFuturesOrder, getFuturesPositionV2, getFuturesAccountBalanceV2', async () => {
  const base = await start();
  const silent = { trace: () => undefined, info: () => undefined, error: () => undefined };
  // `wsUrl` replaces the host of every key; the client appends /ws-fapi/v1 for usdm and signs each request (HMAC key).
  const client = new WebsocketAPIClient({ api_key: DEMO_KEY, api_secret: DEMO_SECRET, wsUrl: base.replace('http:', 'ws:') }, silent);
  cleanups.push(() => client.getWSClient().closeAll(true));

  const placed = await client.submitNewFuturesOrder('usdm', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '49000', timestamp: Date.now() });
  expect(placed.result).toMatchObject({ orderId: 5, status: 'NEW', price: '49000.0' });
  expect((await client.getFuturesOrderStatus('usdm', { symbol: 'BTCUSDT', orderId: 5, timestamp: Date.now() })).result).toMatchObject({ orderId: 5, status: 'NEW' });
  expect((await client.cancelFuturesOrder('usdm', { symbol: 'BTCUSDT', orderId: 5, timestamp: Date.now() })).result).toMatchObject({ orderId: 5, status: 'CANCELED' });
  expect((await client.getFuturesPositionV2({ symbol: 'BTCUSDT', timestamp: Date.now() })).result).toEqual([]);
  expect((await client.getFuturesAccountBalanceV2({ timestamp: Date.now() })).result).toMatchObject([{ asset: 'USDT', balance: '1000.00000000' }]);
});

test('the binance package with an Ed25519 key: session.logon on ws-fapi once connected, then unsigned usdm requests', async () => {
  const ed = generateKeyPairSync('ed25519');
  const base = await start((f) => f.ctx.apiKeys.add({ apiKey: 'ed-key', keyType: 'ED25519', publicKey: ed.publicKey, accountId: 1 }));
  const silent = { trace: () => undefined, info: () => undefined, error: () => undefined };
  const privateKey = ed.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const client = new WebsocketAPIClient({ api_key: 'ed-key', api_secret: privateKey, wsUrl: base.replace('http:', 'ws:') }, silent);
  cleanups.push(() => client.getWSClient().closeAll(true));

  const placed = await client.submitNewFuturesOrder('usdm', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '49000', timestamp: Date.now() });
  expect(placed.result).toMatchObject({ orderId: 5, status: 'NEW' });
  expect((await client.getFuturesAccountStatusV2({ timestamp: Date.now() })).result).toMatchObject({ totalWalletBalance: '1000.00000000', totalOpenOrderInitialMargin: '24.50000000' });
});
