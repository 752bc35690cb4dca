/**
 * A Replay is a MarketBackend as it stands (structurally): the facade serves it without
 * importing src/sim, stamps commands with the replay's clock, and reads its histories.
 */
import { expect, test } from 'vitest';
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { InProcessClient } from '../../src/api-facade/rest/in-process-client.ts';
import { Replay, tradeThrough } from '../../src/sim/index.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../src/sample/sample-market.ts';
import { T0, T0_MS } from './fixture.ts';
import { T0 as SIM_T0, tape } from '../unit/sim/helpers.ts';

test('the facade serves a Replay: orders at the replay clock, trades from its history', async () => {
  const replay = new Replay({ engine: SAMPLE_CONFIG, fillModel: tradeThrough(), seed: 1, startTime: T0, journal: null });
  for (const account of sampleAccounts(T0)) replay.apply(account);
  const ctx = new ExchangeContext({
    backend: replay,
    apiKeys: [
      { apiKey: 'exsim-demo-key', keyType: 'HMAC', secretKey: 'exsim-demo-secret', accountId: 1 },
      { apiKey: 'maker-key', keyType: 'HMAC', secretKey: 'maker-secret', accountId: 2 },
    ],
  });
  const demo = new InProcessClient(ctx, { apiKey: 'exsim-demo-key' });
  const maker = new InProcessClient(ctx, { apiKey: 'maker-key' });
  expect(demo.get('/api/v3/time').json).toEqual({ serverTime: T0_MS });
  expect(maker.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.5', price: '50000' }).status).toBe(200);
  await replay.runUntil(T0 + 3_000_000);
  const bought = demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.1', price: '50000' });
  expect((bought.json as any).transactTime).toBe(T0_MS + 3000);
  expect((bought.json as any).status).toBe('FILLED');
  expect(demo.get('/api/v3/trades', { symbol: 'BTCUSDT' }).json).toEqual([
    { id: 1, price: '50000.00000000', qty: '0.10000000', quoteQty: '5000.00000000', time: T0_MS + 3000, isBuyerMaker: false, isBestMatch: true },
  ]);
  expect((demo.get('/api/v3/depth', { symbol: 'BTCUSDT' }).json as any).asks).toEqual([['50000.00000000', '0.40000000']]);
});

test('a resting order the replayed market fills between requests stops counting as unfilled', async () => {
  const prints = tape([{ taker: 'SELL', price: '48900', qty: '1', at: 2_000 }]);
  const replay = new Replay({ engine: SAMPLE_CONFIG, tapes: [{ symbol: 'BTCUSDT', trades: prints }], fillModel: tradeThrough(), seed: 1, startTime: SIM_T0, journal: null });
  for (const account of sampleAccounts(SIM_T0)) replay.apply(account);
  const ctx = new ExchangeContext({ backend: replay, apiKeys: [{ apiKey: 'exsim-demo-key', keyType: 'HMAC', secretKey: 'exsim-demo-secret', accountId: 1 }] });
  const demo = new InProcessClient(ctx, { apiKey: 'exsim-demo-key' });
  const counts = () => (demo.get('/api/v3/rateLimit/order').json as any[]).map((r) => r.count);
  const placed = demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '49000' }).json as any;
  const untouched = demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '40000' }).json as any;
  expect(counts()).toEqual([2, 2]);
  const streamed: any[] = [];
  ctx.userStream.subscribe(1, (e) => streamed.push(e));
  await replay.runUntil(SIM_T0 + 5_000_000);
  // The market's fill reaches the user data stream as a maker TRADE, then the new balances.
  expect(streamed.map((e) => [e.e, e.x, e.X, e.m, e.l, e.L])).toEqual([
    ['executionReport', 'TRADE', 'FILLED', true, '0.10000000', '49000.00000000'],
    ['outboundAccountPosition', undefined, undefined, undefined, undefined, undefined],
  ]);
  expect(streamed[0]).toMatchObject({ i: placed.orderId, z: '0.10000000', Z: '4900.00000000', w: false });
  expect((demo.get('/api/v3/order', { symbol: 'BTCUSDT', orderId: placed.orderId }).json as any).status).toBe('FILLED');
  expect((demo.get('/api/v3/order', { symbol: 'BTCUSDT', orderId: untouched.orderId }).json as any).status).toBe('NEW');
  expect(counts()).toEqual([1, 1]);
});
