/**
 * The REST calls the installed Node clients make when a bot sets up (load the markets, check
 * the system status, read fees and balances, sync the clock), against `exsim serve` on its
 * default static market. A recording proxy in front of the server notes every request; none may
 * answer 404 (a route exsim lacks), and the list of paths is pinned so a client upgrade that
 * starts calling something new shows up here.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Spot as ConnectorSpot } from '@binance/connector';
import { Spot } from '@binance/spot';
import ccxt from 'ccxt';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serve, type ServeHandle } from '../../src/serve/serve.ts';

interface Seen {
  readonly client: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

let handle: ServeHandle;
let proxy: Server;
let base: string;
let client = '';
const seen: Seen[] = [];
const silent = { log: () => {}, error: () => {}, info: () => {}, warn: () => {}, debug: () => {} };

beforeAll(async () => {
  handle = await serve({ port: 0, host: '127.0.0.1', clock: 'realtime' }, () => undefined);
  const target = new URL(handle.url);
  proxy = createServer((req, res) => {
    const forwarded = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      seen.push({ client, method: req.method ?? '?', path: new URL(req.url ?? '/', 'http://x').pathname, status: answer.statusCode ?? 0 });
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => res.writeHead(502).end());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  proxy.closeAllConnections();
  await handle.close();
});

const pathsOf = (name: string) => [...new Set(seen.filter((s) => s.client === name).map((s) => `${s.method} ${s.path}`))].sort();

function ccxtAt(url: string) {
  const exchange = new ccxt.binance({
    apiKey: 'exsim-demo-key',
    secret: 'exsim-demo-secret',
    options: { defaultType: 'spot', fetchMarkets: { types: ['spot'] }, adjustForTimeDifference: true },
  });
  // Every REST base on api.binance.com points at the server, as users do for a testnet.
  const api = exchange.urls['api'] as Record<string, unknown>;
  for (const [key, value] of Object.entries(api)) if (typeof value === 'string') api[key] = value.replace('https://api.binance.com', url);
  return exchange;
}

test('ccxt binance: loadMarkets, fetchStatus, fetchTradingFees, fetchBalance with adjustForTimeDifference', async () => {
  client = 'ccxt';
  const exchange = ccxtAt(base);
  await exchange.loadMarkets();
  expect(exchange.markets?.['BTC/USDT']).toBeDefined();
  expect(await exchange.fetchStatus()).toMatchObject({ status: 'ok' });
  const fees = await exchange.fetchTradingFees();
  expect(fees['BTC/USDT']).toMatchObject({ maker: 0.001, taker: 0.001 });
  const balance = await exchange.fetchBalance();
  expect(balance['USDT']).toMatchObject({ free: 100_000 });
  expect(pathsOf('ccxt')).toEqual([
    'GET /api/v3/account',
    'GET /api/v3/exchangeInfo',
    'GET /api/v3/time',
    'GET /sapi/v1/asset/tradeFee',
    'GET /sapi/v1/capital/config/getall',
    'GET /sapi/v1/margin/allPairs',
    'GET /sapi/v1/margin/isolated/allPairs',
    'GET /sapi/v1/system/status',
  ]);
});

test('@binance/connector: time, systemStatus, exchangeInfo, account, tradeFee', async () => {
  client = 'connector';
  // The connector's typings omit its wallet calls (systemStatus, tradeFee); the methods are there.
  const connector = new ConnectorSpot('exsim-demo-key', 'exsim-demo-secret', { baseURL: base, logger: silent }) as InstanceType<typeof ConnectorSpot> & {
    systemStatus(): Promise<{ data: unknown }>;
    tradeFee(options: { symbol: string }): Promise<{ data: unknown }>;
  };
  expect((await connector.time()).data.serverTime).toEqual(expect.any(Number));
  expect((await connector.systemStatus()).data).toEqual({ status: 0, msg: 'normal' });
  expect((await connector.exchangeInfo()).data.symbols.length).toBeGreaterThan(0);
  expect((await connector.account()).data.canTrade).toBe(true);
  expect((await connector.tradeFee({ symbol: 'BTCUSDT' })).data).toEqual([{ symbol: 'BTCUSDT', makerCommission: '0.001', takerCommission: '0.001' }]);
  expect(pathsOf('connector')).toEqual(['GET /api/v3/account', 'GET /api/v3/exchangeInfo', 'GET /api/v3/time', 'GET /sapi/v1/asset/tradeFee', 'GET /sapi/v1/system/status']);
});

test('@binance/spot: ping, time, exchangeInfo, getAccount, accountCommission', async () => {
  client = 'spot';
  const rest = new Spot({ configurationRestAPI: { apiKey: 'exsim-demo-key', apiSecret: 'exsim-demo-secret', basePath: base } }).restAPI;
  await rest.ping();
  expect((await (await rest.time()).data()).serverTime).toEqual(expect.any(Number));
  expect((await (await rest.exchangeInfo()).data()).symbols?.length).toBeGreaterThan(0);
  expect((await (await rest.getAccount()).data()).canTrade).toBe(true);
  expect((await (await rest.accountCommission({ symbol: 'BTCUSDT' })).data()).symbol).toBe('BTCUSDT');
  expect(pathsOf('spot')).toEqual(['GET /api/v3/account', 'GET /api/v3/account/commission', 'GET /api/v3/exchangeInfo', 'GET /api/v3/ping', 'GET /api/v3/time']);
});

test('ccxt setup on a replay of the sample (npm start\'s market, its clock at 2024-01-01): the same calls pass', async () => {
  const replay = await serve({ port: 0, host: '127.0.0.1', clock: 'realtime', data: 'sample' }, () => undefined);
  try {
    const exchange = ccxtAt(replay.url);
    await exchange.loadMarkets();
    expect(await exchange.fetchStatus()).toMatchObject({ status: 'ok' });
    expect((await exchange.fetchTradingFees())['BTC/USDT']).toMatchObject({ maker: 0.001, taker: 0.001 });
    expect((await exchange.fetchBalance())['USDT']).toMatchObject({ free: 100_000 });
    expect((await exchange.fetchTime()) ?? 0).toBeLessThan(Date.UTC(2024, 0, 2));
  } finally {
    await replay.close();
  }
}, 60_000);

test('no setup call answered 404 (nor anything but 200)', () => {
  expect(seen.length).toBeGreaterThan(10);
  expect(seen.filter((s) => s.status === 404)).toEqual([]);
  expect(seen.filter((s) => s.status !== 200)).toEqual([]);
});
