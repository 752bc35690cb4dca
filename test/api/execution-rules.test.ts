/**
 * GET /api/v3/executionRules and GET /api/v3/referencePrice/calculation, and a taker stopped
 * by the PRICE_RANGE rule as the REST API reports it.
 */
import { describe, expect, it } from 'vitest';
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { InProcessClient } from '../../src/api-facade/rest/in-process-client.ts';
import { EngineBackend } from '../../src/api-facade/core/market-backend.ts';
import type { EngineConfig } from '../../src/engine/symbol-config.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../src/sample/sample-market.ts';
import { DEMO_KEY, DEMO_SECRET, MM_KEY, MM_SECRET, T0 } from './fixture.ts';

function exchange(): { demo: InProcessClient; maker: InProcessClient; anon: InProcessClient; backend: EngineBackend } {
  const [btc, eth] = SAMPLE_CONFIG.symbols;
  const config: EngineConfig = {
    ...SAMPLE_CONFIG,
    symbols: [
      {
        ...btc!,
        executionRules: [{ ruleType: 'PRICE_RANGE', bidLimitMultUp: '1.05', bidLimitMultDown: '0.95', askLimitMultUp: '1.05', askLimitMultDown: '0.95' }],
        referencePriceCalculation: { calculationType: 'ARITHMETIC_MEAN', bucketCount: 10, bucketWidthMs: 60_000 },
      },
      eth!,
    ],
  };
  const backend = new EngineBackend(config, T0, sampleAccounts(T0));
  const ctx = new ExchangeContext({
    backend,
    apiKeys: [
      { apiKey: DEMO_KEY, keyType: 'HMAC', secretKey: DEMO_SECRET, accountId: 1 },
      { apiKey: MM_KEY, keyType: 'HMAC', secretKey: MM_SECRET, accountId: 2 },
    ],
  });
  return { backend, demo: new InProcessClient(ctx, { apiKey: DEMO_KEY }), maker: new InProcessClient(ctx, { apiKey: MM_KEY }), anon: new InProcessClient(ctx) };
}

describe('GET /api/v3/executionRules', () => {
  it('lists every symbol with its rules, multipliers with four places', () => {
    const { anon } = exchange();
    const r = anon.get('/api/v3/executionRules');
    expect(r.status).toBe(200);
    expect(r.headers['X-MBX-USED-WEIGHT-1M']).toBe('40');
    expect(r.json).toEqual({
      symbolRules: [
        { symbol: 'BTCUSDT', rules: [{ ruleType: 'PRICE_RANGE', bidLimitMultUp: '1.0500', bidLimitMultDown: '0.9500', askLimitMultUp: '1.0500', askLimitMultDown: '0.9500' }] },
        { symbol: 'ETHBTC', rules: [] },
      ],
    });
  });

  it('weighs 2 for a symbol, 2 per listed symbol; refuses combinations and unknown symbols', () => {
    const { anon } = exchange();
    expect(anon.get('/api/v3/executionRules', { symbol: 'ETHBTC' }).json).toEqual({ symbolRules: [{ symbol: 'ETHBTC', rules: [] }] });
    const listed = anon.get('/api/v3/executionRules', { symbols: '["BTCUSDT","ETHBTC"]' });
    expect((listed.json as { symbolRules: unknown[] }).symbolRules).toHaveLength(2);
    expect(anon.get('/api/v3/executionRules', { symbol: 'BTCUSDT', symbolStatus: 'TRADING' }).json).toEqual({ code: -1128, msg: 'Combination of optional parameters invalid.' });
    expect(anon.get('/api/v3/executionRules', { symbol: 'NOPE' }).json).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    expect(anon.get('/api/v3/executionRules', { symbolStatus: 'HALT' }).json).toEqual({ symbolRules: [] });
  });
});

describe('GET /api/v3/referencePrice/calculation', () => {
  it('answers the configured ARITHMETIC_MEAN, EXTERNAL while one is set from outside, -2043 with none', () => {
    const { anon, backend } = exchange();
    expect(anon.get('/api/v3/referencePrice/calculation', { symbol: 'BTCUSDT' }).json).toEqual({ symbol: 'BTCUSDT', calculationType: 'ARITHMETIC_MEAN', bucketCount: 10, bucketWidthMs: 60000 });
    const none = anon.get('/api/v3/referencePrice/calculation', { symbol: 'ETHBTC' });
    expect(none.status).toBe(400);
    expect(none.json).toEqual({ code: -2043, msg: "This symbol doesn't have a reference price." });
    // An operator sets it (the engine command behind the EXTERNAL calculation).
    backend.engine.apply({ type: 'SetReferencePrice', time: backend.now, symbol: 'ETHBTC', price: 5_000_000 });
    expect(anon.get('/api/v3/referencePrice/calculation', { symbol: 'ETHBTC' }).json).toEqual({ symbol: 'ETHBTC', calculationType: 'EXTERNAL', externalCalculationId: 0 });
    expect(anon.get('/api/v3/referencePrice', { symbol: 'ETHBTC' }).json).toMatchObject({ symbol: 'ETHBTC', referencePrice: '0.05000000' });
    expect(anon.get('/api/v3/referencePrice/calculation', { symbol: 'BTCUSDT', symbolStatus: 'HALT' }).json).toMatchObject({ code: -1220 });
  });

  it('a taker beyond the band expires with EXECUTION_RULE_PRICE_RANGE_EXCEEDED; the mean moves the reference price', () => {
    const { demo, maker, anon } = exchange();
    maker.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '50000' });
    demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '50000' });
    expect(anon.get('/api/v3/referencePrice', { symbol: 'BTCUSDT' }).json).toMatchObject({ referencePrice: '50000.00000000' });
    maker.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '52000' });
    maker.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '53000' });
    const r = demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.2', price: '54000', newOrderRespType: 'RESULT' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'EXPIRED', executedQty: '0.10000000', expiryReason: 'EXECUTION_RULE_PRICE_RANGE_EXCEEDED' });
  });
});
