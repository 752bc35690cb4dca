import { describe, expect, test } from 'vitest';
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { InProcessClient } from '../../src/api-facade/rest/in-process-client.ts';
import { EngineBackend } from '../../src/api-facade/core/market-backend.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../src/sample/sample-market.ts';
import { DEMO_KEY, DEMO_SECRET, makeFixture, T0, T0_MS } from './fixture.ts';

const usedWeight = (r: { headers: Record<string, string> }): number => Number(r.headers['X-MBX-USED-WEIGHT-1M']);

describe('GET /api/v3/account/commission', () => {
  test('shows the standard, special and tax rates and the BNB discount for the symbol', () => {
    const f = makeFixture();
    const r = f.demo.get('/api/v3/account/commission', { symbol: 'BTCUSDT' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      symbol: 'BTCUSDT',
      standardCommission: { maker: '0.00100000', taker: '0.00100000', buyer: '0.00000000', seller: '0.00000000' },
      specialCommission: { maker: '0.00000000', taker: '0.00000000', buyer: '0.00000000', seller: '0.00000000' },
      taxCommission: { maker: '0.00000000', taker: '0.00000000', buyer: '0.00000000', seller: '0.00000000' },
      discount: expect.objectContaining({ enabledForSymbol: true, discountAsset: 'BNB', discount: '0.25000000' }),
    });
    expect(usedWeight(r)).toBe(20);
    // ETHBTC has no discount; the maker account's own rates show.
    const maker = f.maker.get('/api/v3/account/commission', { symbol: 'ETHBTC' }).json as any;
    expect(maker.standardCommission).toEqual({ maker: '0.00000000', taker: '0.00100000', buyer: '0.00000000', seller: '0.00000000' });
    expect(maker.discount.enabledForSymbol).toBe(false);
  });

  test('symbol is mandatory and must exist', () => {
    const f = makeFixture();
    expect(f.demo.get('/api/v3/account/commission').json).toEqual({ code: -1102, msg: "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed." });
    expect(f.demo.get('/api/v3/account/commission', { symbol: 'NOPE' }).json).toEqual({ code: -1121, msg: 'Invalid symbol.' });
  });
});

describe('GET /api/v3/myFilters', () => {
  test('the exchange order cap, no list cap and no asset caps on the sample market (weight 40)', () => {
    const f = makeFixture();
    const r = f.demo.get('/api/v3/myFilters', { symbol: 'BTCUSDT' });
    expect(r.json).toEqual({ exchangeFilters: [{ filterType: 'EXCHANGE_MAX_NUM_ORDERS', maxNumOrders: 1000 }], symbolFilters: [], assetFilters: [] });
    expect(usedWeight(r)).toBe(40);
  });

  test('MAX_ASSET caps show for the symbol holding the asset only', () => {
    const config = { ...SAMPLE_CONFIG, assetFilters: [{ filterType: 'MAX_ASSET' as const, asset: 'USDT', limit: '42.00000000' }] };
    const backend = new EngineBackend(config, T0, sampleAccounts(T0));
    const ctx = new ExchangeContext({ backend, apiKeys: [{ apiKey: DEMO_KEY, keyType: 'HMAC', secretKey: DEMO_SECRET, accountId: 1 }] });
    const client = new InProcessClient(ctx, { apiKey: DEMO_KEY, ip: '10.0.0.1' });
    expect((client.get('/api/v3/myFilters', { symbol: 'BTCUSDT' }).json as any).assetFilters).toEqual([{ filterType: 'MAX_ASSET', asset: 'USDT', limit: '42.00000000' }]);
    expect((client.get('/api/v3/myFilters', { symbol: 'ETHBTC' }).json as any).assetFilters).toEqual([]);
  });
});

describe('GET /api/v3/myPreventedMatches', () => {
  /** The demo account rests a SELL, then crosses it with its own BUY (EXPIRE_MAKER by default). */
  function selfCross() {
    const f = makeFixture();
    const maker = f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '50000' }).json as any;
    const taker = f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '50000' }).json as any;
    return { f, maker, taker };
  }

  test('by orderId (weight 20) and by preventedMatchId (weight 2), taker or maker order', () => {
    const { f, maker, taker } = selfCross();
    // The taker's FULL response lists the prevented match (Binance STP FAQ shape).
    expect(taker.fills).toEqual([]);
    expect(taker.preventedMatches).toEqual([{ preventedMatchId: 0, makerSymbol: 'BTCUSDT', makerOrderId: maker.orderId, price: '50000.00000000', makerPreventedQuantity: '0.10000000' }]);
    expect(maker).not.toHaveProperty('preventedMatches');
    const byTaker = f.demo.get('/api/v3/myPreventedMatches', { symbol: 'BTCUSDT', orderId: taker.orderId });
    expect(byTaker.json).toEqual([
      {
        symbol: 'BTCUSDT',
        preventedMatchId: 0,
        takerOrderId: taker.orderId,
        makerSymbol: 'BTCUSDT',
        makerOrderId: maker.orderId,
        tradeGroupId: -1,
        selfTradePreventionMode: 'EXPIRE_MAKER',
        price: '50000.00000000',
        makerPreventedQuantity: '0.10000000',
        transactTime: T0_MS,
      },
    ]);
    expect(usedWeight(byTaker)).toBe(22); // the two orders (1 each, the seed's weight) + 20
    const byMaker = f.demo.get('/api/v3/myPreventedMatches', { symbol: 'BTCUSDT', orderId: maker.orderId });
    expect(byMaker.json).toEqual(byTaker.json);
    const byId = f.demo.get('/api/v3/myPreventedMatches', { symbol: 'BTCUSDT', preventedMatchId: 0 });
    expect(byId.json).toEqual(byTaker.json);
    expect(usedWeight(byId) - usedWeight(byMaker)).toBe(2);
    expect(f.demo.get('/api/v3/myPreventedMatches', { symbol: 'BTCUSDT', orderId: taker.orderId, fromPreventedMatchId: 1 }).json).toEqual([]);
    // Another account sees none of it.
    expect(f.maker.get('/api/v3/myPreventedMatches', { symbol: 'BTCUSDT', preventedMatchId: 0 }).json).toEqual([]);
  });

  test('EXPIRE_TAKER reports the taker’s prevented quantity instead', () => {
    const f = makeFixture();
    f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '50000' });
    const taker = f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.2', price: '50000', selfTradePreventionMode: 'EXPIRE_TAKER' }).json as any;
    const [row] = f.demo.get('/api/v3/myPreventedMatches', { symbol: 'BTCUSDT', orderId: taker.orderId }).json as any[];
    expect(row.selfTradePreventionMode).toBe('EXPIRE_TAKER');
    expect(row.takerPreventedQuantity).toBe('0.20000000');
    expect(row).not.toHaveProperty('makerPreventedQuantity');
  });

  test('one of preventedMatchId or orderId is required; preventedMatchId with orderId is -1128', () => {
    const { f } = selfCross();
    expect(f.demo.get('/api/v3/myPreventedMatches', { symbol: 'BTCUSDT' }).json).toEqual({ code: -1102, msg: "Param 'preventedMatchId' or 'orderId' must be sent, but both were empty/null!" });
    expect(f.demo.get('/api/v3/myPreventedMatches', { symbol: 'BTCUSDT', preventedMatchId: 0, orderId: 1 }).json).toEqual({ code: -1128, msg: 'Combination of optional parameters invalid.' });
  });
});

describe('GET /api/v3/referencePrice', () => {
  test('null until one is set, then the price at the symbol precision with the simulated time', () => {
    const f = makeFixture();
    expect(f.demo.get('/api/v3/referencePrice', { symbol: 'BTCUSDT' }).json).toEqual({ symbol: 'BTCUSDT', referencePrice: null, timestamp: T0_MS });
    f.backend.applyRaw({ type: 'SetReferencePrice', time: T0, symbol: 'BTCUSDT', price: 5_000_012_000_000 });
    const r = f.demo.get('/api/v3/referencePrice', { symbol: 'BTCUSDT' });
    expect(r.json).toEqual({ symbol: 'BTCUSDT', referencePrice: '50000.12000000', timestamp: T0_MS });
    expect(f.demo.get('/api/v3/referencePrice', { symbol: 'NOPE' }).json).toEqual({ code: -1121, msg: 'Invalid symbol.' });
  });
});
