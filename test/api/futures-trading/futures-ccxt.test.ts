/**
 * ccxt's binance with `defaultType: 'future'` against the served exchange (HTTP server on the
 * futures trading market): loadMarkets (linear), setLeverage, setMarginMode, createOrder (a
 * MARKET short), fetchPositions, fetchBalance, then closing with a reduce-only order. The clock
 * rule accepts ccxt's wall-clock stamps (the market sits at 2026-01-01 on simulated time).
 */
import ccxt from 'ccxt';
import { afterEach, expect, test } from 'vitest';
import { ExsimHttpServer } from '../../../src/api-facade/transport/http-server.ts';
import { futuresTradingFixture, fund, mark, quote } from './futures-fixture.ts';

const servers: ExsimHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

test('ccxt future: setLeverage, setMarginMode, createOrder, fetchPositions', async () => {
  const f = futuresTradingFixture({ clientTime: (_timestamp, now) => now });
  mark(f, '50000');
  quote(f);
  fund(f.demo, '1000');
  const server = new ExsimHttpServer(f.ctx, {});
  servers.push(server);
  const base = await server.listen(0);
  const exchange = new ccxt.binance({
    apiKey: 'exsim-demo-key',
    secret: 'exsim-demo-secret',
    options: { defaultType: 'future', fetchMarkets: { types: ['linear'] } },
  });
  const api = exchange.urls['api'] as Record<string, unknown>;
  for (const [key, value] of Object.entries(api)) {
    if (typeof value === 'string') api[key] = value.replace('https://api.binance.com', base).replace('https://fapi.binance.com', base);
  }
  await exchange.loadMarkets();
  expect(exchange.markets?.['BTC/USDT:USDT']).toMatchObject({ linear: true, swap: true, precision: { amount: 0.001, price: 0.1 } });

  expect(await exchange.setLeverage(10, 'BTC/USDT:USDT')).toMatchObject({ leverage: 10, symbol: 'BTCUSDT' });
  expect(await exchange.setMarginMode('isolated', 'BTC/USDT:USDT')).toMatchObject({ code: 200, msg: 'success' });

  const order = await exchange.createOrder('BTC/USDT:USDT', 'market', 'sell', 0.01, undefined, { newOrderRespType: 'RESULT' });
  expect(order).toMatchObject({ id: '5', status: 'closed', side: 'sell', amount: 0.01, filled: 0.01, average: 49990 });

  const positions = await exchange.fetchPositions(['BTC/USDT:USDT']);
  expect(positions).toHaveLength(1);
  expect(positions[0]).toMatchObject({ symbol: 'BTC/USDT:USDT', side: 'short', contracts: 0.01, entryPrice: 49990, markPrice: 50000, marginMode: 'isolated' }); // v3 positionRisk has no leverage (as Binance's)

  const close = await exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01, undefined, { reduceOnly: true, newOrderRespType: 'RESULT' });
  expect(close).toMatchObject({ status: 'closed', average: 50010, reduceOnly: true });
  expect(await exchange.fetchPositions(['BTC/USDT:USDT'])).toEqual([]);
  const balance = await exchange.fetchBalance();
  expect(balance['USDT']).toMatchObject({ total: 999.3 });
});
