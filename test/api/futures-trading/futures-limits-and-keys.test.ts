/**
 * The USDⓈ-M futures API's own rate limits (futures facts §1) and its listen keys (§1, §8):
 * /fapi rows never touch spot's counters, spot rows never touch the futures ones.
 */
import { describe, expect, test } from 'vitest';
import { DEMO_KEY, makeFixture, raw } from '../fixture.ts';
import { InProcessClient } from '../../../src/api-facade/rest/in-process-client.ts';

const FUTURES_1125 = 'This listenKey does not exist. Please use `POST /fapi/v1/listenKey` to recreate `listenKey`';

describe('futures rate limits', () => {
  test('a /fapi request counts against the futures weight, apart from spot', () => {
    const f = makeFixture();
    const c = new InProcessClient(f.ctx, { apiKey: DEMO_KEY, ip: '10.9.0.1' });
    expect(c.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 100 }).headers['X-MBX-USED-WEIGHT-1M']).toBe('5');
    const r = c.post('/fapi/v1/listenKey');
    expect(r.status).toBe(200);
    // Futures: only its own request so far (weight 1), not spot's 5.
    expect(r.headers['X-MBX-USED-WEIGHT-1M']).toBe('1');
    expect(c.get('/api/v3/ping').headers['X-MBX-USED-WEIGHT-1M']).toBe('6');
    expect(c.get('/fapi/v1/ping').headers['X-MBX-USED-WEIGHT-1M']).toBe('2');
  });

  test('the futures weight limit is 2400 per minute: the request past it is 429 -1003 naming 2400', () => {
    const f = makeFixture();
    const c = new InProcessClient(f.ctx, { apiKey: DEMO_KEY, ip: '10.9.0.2' });
    // /fapi/v1/depth limit=1000 weighs 20: 120 of them reach exactly 2400.
    for (let i = 0; i < 120; i++) expect(c.get('/fapi/v1/depth', { symbol: 'BTCUSDT', limit: 1000 }).status).toBe(200);
    const over = c.get('/fapi/v1/depth', { symbol: 'BTCUSDT', limit: 1000 });
    expect(over.status).toBe(429);
    expect(over.json).toEqual({
      code: -1003,
      msg: 'Too much request weight used; current limit is 2400 request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.',
    });
    // Spot is untouched by the futures episode.
    const spot = c.get('/api/v3/ping');
    expect(spot.status).toBe(200);
    expect(spot.headers['X-MBX-USED-WEIGHT-1M']).toBe('1');
  });

  test('the context lists the futures limits in the /fapi exchangeInfo order', () => {
    const f = makeFixture();
    expect(f.ctx.futuresRateLimits).toEqual([
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 2400 },
      { rateLimitType: 'ORDERS', interval: 'MINUTE', intervalNum: 1, limit: 1200 },
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 300 },
    ]);
  });
});

describe('POST / PUT / DELETE /fapi/v1/listenKey', () => {
  test('POST is idempotent while the key lives; PUT answers the key; DELETE closes it', () => {
    const f = makeFixture();
    const a = f.demo.post('/fapi/v1/listenKey');
    expect(a.status).toBe(200);
    const key = (a.json as { listenKey: string }).listenKey;
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(f.demo.post('/fapi/v1/listenKey').json).toEqual({ listenKey: key });
    // The spot key is another one.
    const spotKey = (f.demo.post('/api/v3/userDataStream').json as { listenKey: string }).listenKey;
    expect(spotKey).not.toBe(key);
    expect(f.demo.put('/fapi/v1/listenKey').json).toEqual({ listenKey: key });
    expect(f.demo.put('/fapi/v1/listenKey', { listenKey: key }).json).toEqual({ listenKey: key });
    const closed = f.demo.delete('/fapi/v1/listenKey');
    expect(closed.status).toBe(200);
    expect(closed.json).toEqual({});
    expect(f.ctx.futuresListenKeys.isLive(key, f.ctx.now())).toBe(false);
    expect(f.ctx.listenKeys.isLive(spotKey, f.ctx.now())).toBe(true);
  });

  test('PUT and DELETE without a live key, or naming another, are -1125 with the futures text', () => {
    const f = makeFixture();
    for (const r of [f.demo.put('/fapi/v1/listenKey'), f.demo.delete('/fapi/v1/listenKey')]) {
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ code: -1125, msg: FUTURES_1125 });
    }
    f.demo.post('/fapi/v1/listenKey');
    const wrong = f.demo.put('/fapi/v1/listenKey', { listenKey: 'ab'.repeat(32) });
    expect(wrong.json).toEqual({ code: -1125, msg: FUTURES_1125 });
  });

  test('the key lives 60 minutes of simulated time', () => {
    const f = makeFixture();
    const key = (f.demo.post('/fapi/v1/listenKey').json as { listenKey: string }).listenKey;
    f.backend.advanceTo(f.ctx.now() + 60 * 60 * 1_000_000);
    expect(f.demo.put('/fapi/v1/listenKey').json).toEqual({ code: -1125, msg: FUTURES_1125 });
    expect((f.demo.post('/fapi/v1/listenKey').json as { listenKey: string }).listenKey).not.toBe(key);
  });

  test('over HTTP: API key only (USER_STREAM), no signature needed', () => {
    const f = makeFixture();
    const r = raw(f, 'POST', '/fapi/v1/listenKey', '', { key: DEMO_KEY });
    expect(r.status).toBe(200);
    expect(r.headers['X-MBX-USED-WEIGHT-1M']).toBe('1');
    expect(raw(f, 'POST', '/fapi/v1/listenKey', '').json).toEqual({ code: -2014, msg: 'API-key format invalid.' });
  });
});

describe('futures ORDERS limit', () => {
  test('the 301st order in 10 seconds is 429 -1015 naming the futures limit; spot orders are not counted with them', async () => {
    const { futuresTradingFixture, mark } = await import('./futures-fixture.ts');
    const f = futuresTradingFixture();
    mark(f, '50000');
    // Refused orders count as well (the limiter's rule): reduce-only with no position, -2022.
    const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01', reduceOnly: 'true' };
    for (let i = 0; i < 300; i++) expect(f.demo.post('/fapi/v1/order', order).json).toEqual({ code: -2022, msg: 'ReduceOnly Order is rejected.' });
    const over = f.demo.post('/fapi/v1/order', order);
    expect([over.status, over.json]).toEqual([429, { code: -1015, msg: 'Too many new orders; current limit is 300 orders per 10 SECOND.' }]);
    expect(f.ctx.orderLimiter.counts('1', f.ctx.now()).map((c) => c.used)).toEqual([0, 0]);
    const spot = f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '40000' });
    expect(spot.status).toBe(200);
    expect(spot.headers['X-MBX-ORDER-COUNT-10S']).toBe('1');
  });
});
