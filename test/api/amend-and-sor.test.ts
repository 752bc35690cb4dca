/**
 * PUT order/amend/keepPriority and GET order/amendments; SOR orders, myAllocations and
 * exchangeInfo `sors`.
 */
import { describe, expect, test } from 'vitest';
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { InProcessClient } from '../../src/api-facade/rest/in-process-client.ts';
import { DEMO_KEY, DEMO_SECRET, makeFixture, seedBook, T0_MS } from './fixture.ts';

const LIMIT = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '49000', newClientOrderId: 'orig' } as const;

describe('amend keepPriority', () => {
  test('reduces the quantity in place: the answer, the query, the history, weight 4 and count 0', () => {
    const f = makeFixture();
    const placed = f.demo.post('/api/v3/order', LIMIT).json as any;
    const counts = (f.demo.get('/api/v3/rateLimit/order').json as any[]).map((r) => r.count);
    const r = f.demo.put('/api/v3/order/amend/keepPriority', { symbol: 'BTCUSDT', orderId: placed.orderId, newQty: '0.04', newClientOrderId: 'smaller' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      transactTime: T0_MS,
      executionId: expect.any(Number),
      amendedOrder: {
        symbol: 'BTCUSDT', orderId: placed.orderId, orderListId: -1, origClientOrderId: 'orig', clientOrderId: 'smaller', price: '49000.00000000', qty: '0.04000000',
        executedQty: '0.00000000', preventedQty: '0.00000000', quoteOrderQty: '0.00000000', cumulativeQuoteQty: '0.00000000', status: 'NEW', timeInForce: 'GTC',
        type: 'LIMIT', side: 'BUY', workingTime: T0_MS, selfTradePreventionMode: 'EXPIRE_MAKER',
      },
    });
    expect(r.headers['X-MBX-ORDER-COUNT-10S']).toBe(String(counts[0]));
    expect(f.demo.get('/api/v3/order', { symbol: 'BTCUSDT', orderId: placed.orderId }).json).toMatchObject({ origQty: '0.04000000', clientOrderId: 'smaller' });
    expect(f.demo.get('/api/v3/order/amendments', { symbol: 'BTCUSDT', orderId: placed.orderId }).json).toEqual([
      { symbol: 'BTCUSDT', orderId: placed.orderId, executionId: (r.json as any).executionId, origClientOrderId: 'orig', newClientOrderId: 'smaller', origQty: '0.10000000', newQty: '0.04000000', time: T0_MS },
    ]);
  });

  test('refusals are -2038 with the §2.3 texts and change nothing', () => {
    const f = makeFixture();
    const placed = f.demo.post('/api/v3/order', LIMIT).json as any;
    const amend = (newQty: string) => f.demo.put('/api/v3/order/amend/keepPriority', { symbol: 'BTCUSDT', orderId: placed.orderId, newQty });
    expect([amend('0.2').status, amend('0.2').json]).toEqual([400, { code: -2038, msg: 'Order amend (quantity increase) is not supported.' }]);
    expect(amend('0.1').json).toEqual({ code: -2038, msg: 'The requested action would change no state; rejecting' });
    expect(f.demo.get('/api/v3/order', { symbol: 'BTCUSDT', orderId: placed.orderId }).json).toMatchObject({ origQty: '0.10000000' });
    expect(f.demo.get('/api/v3/order/amendments', { symbol: 'BTCUSDT', orderId: placed.orderId }).json).toEqual([]);
  });

  test('the stream reports x=REPLACED with c the new id and C the old one', () => {
    const f = makeFixture();
    const placed = f.demo.post('/api/v3/order', LIMIT).json as any;
    const seen: any[] = [];
    f.ctx.userStream.subscribe(1, (e) => seen.push(e));
    f.demo.put('/api/v3/order/amend/keepPriority', { symbol: 'BTCUSDT', orderId: placed.orderId, newQty: '0.05', newClientOrderId: 'half' });
    expect(seen.find((e) => e.e === 'executionReport')).toMatchObject({ x: 'REPLACED', X: 'NEW', c: 'half', C: 'orig', q: '0.05000000', i: placed.orderId });
  });
});

describe('SOR', () => {
  function sorFixture() {
    const f = makeFixture();
    const ctx = new ExchangeContext({ backend: f.backend, apiKeys: [{ apiKey: DEMO_KEY, keyType: 'HMAC', secretKey: DEMO_SECRET, accountId: 1 }], sors: [{ baseAsset: 'BTC', symbols: ['BTCUSDT'] }] });
    return { f, ctx, demo: new InProcessClient(ctx, { apiKey: DEMO_KEY, ip: '10.0.0.1' }) };
  }

  test('off by default: no `sors` in exchangeInfo, sor/order refused -1014', () => {
    const f = makeFixture();
    expect(f.demo.get('/api/v3/exchangeInfo').json).not.toHaveProperty('sors');
    const r = f.demo.post('/api/v3/sor/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '49000' });
    expect([r.status, r.json]).toEqual([400, { code: -1014, msg: 'Unsupported order combination.' }]);
  });

  test('configured: exchangeInfo sors; a LIMIT fills from the own book as allocations, with usedSor and workingFloor SOR', () => {
    const { f, ctx, demo } = sorFixture();
    seedBook(f);
    expect((demo.get('/api/v3/exchangeInfo').json as any).sors).toEqual([{ baseAsset: 'BTC', symbols: ['BTCUSDT'] }]);
    const seen: any[] = [];
    ctx.userStream.subscribe(1, (e) => seen.push(e));
    const r = demo.post('/api/v3/sor/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '50010' });
    expect(seen.find((e) => e.e === 'executionReport' && e.x === 'TRADE')).toMatchObject({ t: -1, b: 'ONE_PARTY_TRADE_REPORT', a: expect.any(Number), uS: true, k: 'SOR' });
    expect(r.status).toBe(200);
    const body = r.json as any;
    expect(body).toMatchObject({ status: 'FILLED', usedSor: true, workingFloor: 'SOR' });
    expect(body.fills).toEqual([
      { matchType: 'ONE_PARTY_TRADE_REPORT', price: '50010.00000000', qty: '0.10000000', commission: '0.00010000', commissionAsset: 'BTC', tradeId: -1, allocId: expect.any(Number) },
    ]);
    expect(demo.get('/api/v3/order', { symbol: 'BTCUSDT', orderId: body.orderId }).json).toMatchObject({ usedSor: true, workingFloor: 'SOR' });
    expect(demo.get('/api/v3/myAllocations', { symbol: 'BTCUSDT' }).json).toEqual([
      {
        symbol: 'BTCUSDT', allocationId: body.fills[0].allocId, allocationType: 'SOR', orderId: body.orderId, orderListId: -1, price: '50010.00000000', qty: '0.10000000',
        quoteQty: '5001.00000000', commission: '0.00010000', commissionAsset: 'BTC', time: T0_MS, isBuyer: true, isMaker: false, isAllocator: false,
      },
    ]);
    expect(demo.get('/api/v3/myAllocations', { symbol: 'BTCUSDT', orderId: body.orderId + 1 }).json).toEqual([]);
    expect(demo.get('/api/v3/myTrades', { symbol: 'BTCUSDT' }).json).toEqual([]);
    expect(demo.post('/api/v3/sor/order/test', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' }).json).toEqual({});
    expect(demo.post('/api/v3/sor/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1', quoteOrderQty: '10' }).json).toEqual({
      code: -1104, msg: "Not all sent parameters were read; read '6' parameter(s) but was sent '7'.",
    });
  });

  test('myAllocations: 24 h span -1127', () => {
    const f = makeFixture();
    expect(f.demo.get('/api/v3/myAllocations', { symbol: 'BTCUSDT', startTime: T0_MS - 86_400_001, endTime: T0_MS }).json).toEqual({ code: -1127, msg: 'More than 24 hours between startTime and endTime.' });
  });
});
