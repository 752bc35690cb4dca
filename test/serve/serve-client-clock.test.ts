/**
 * Time a bot can live with at any speed (issue 15 item 2): ccxt with
 * `adjustForTimeDifference` (it learns its offset from GET /api/v3/time once, then signs with
 * its own clock plus that offset) trades against `exsim serve --clock speed:N` for minutes of
 * simulated time without a -1021, though simulated time runs N times faster than its clock.
 */
import { afterAll, describe, expect, test } from 'vitest';
import ccxt from 'ccxt';
import { serve, type ServeHandle } from '../../src/serve/serve.ts';

const handles: ServeHandle[] = [];
afterAll(async () => {
  for (const h of handles) await h.close();
});

describe.each([
  ['speed:10', 8_000],
  ['speed:100', 4_000],
])('ccxt adjustForTimeDifference at %s', (clock, wallMs) => {
  test(`signs orders for ${wallMs / 1000} s of wall time (${clock === 'speed:10' ? '80 s' : '400 s'} simulated) without -1021`, async () => {
    const handle = await serve({ port: 0, host: '127.0.0.1', clock, data: 'sample' }, () => undefined);
    handles.push(handle);
    const exchange = new ccxt.binance({ apiKey: 'exsim-demo-key', secret: 'exsim-demo-secret', options: { defaultType: 'spot', adjustForTimeDifference: true, fetchMarkets: { types: ['spot'] }, fetchCurrencies: false } });
    const api = exchange.urls['api'] as Record<string, unknown>;
    for (const [key, value] of Object.entries(api)) if (typeof value === 'string') api[key] = value.replace('https://api.binance.com', handle.url);
    await exchange.loadMarkets();
    await exchange.loadTimeDifference();
    const started = Date.now();
    let rounds = 0;
    const serverTimes: number[] = [];
    while (Date.now() - started < wallMs) {
      const bid = await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 30_000);
      await exchange.cancelOrder(bid.id!, 'BTC/USDT');
      await exchange.fetchBalance();
      serverTimes.push((await exchange.fetchTime())!);
      rounds++;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(rounds).toBeGreaterThan(3);
    // Simulated time ran ahead of ccxt's clock by far more than any recvWindow.
    const simulatedSpan = serverTimes.at(-1)! - serverTimes[0]!;
    expect(simulatedSpan).toBeGreaterThan(((Date.now() - started) * Number(clock.split(':')[1])) / 2);
  }, 60_000);
});
