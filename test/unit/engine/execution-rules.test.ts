/**
 * The PRICE_RANGE execution rule and the engine's ARITHMETIC_MEAN reference price (Binance's
 * price_range_execution_rules FAQ).
 */
import { describe, expect, it } from 'vitest';
import { BucketedMean } from '../../../src/engine/reference-price-buckets.ts';
import type { PriceRangeRule } from '../../../src/engine/symbol-config.ts';
import { Sim, px, qty, symbolConfig, types, u } from './helpers.ts';

const RANGE: PriceRangeRule = { ruleType: 'PRICE_RANGE', bidLimitMultUp: '1.1', bidLimitMultDown: '0.9', askLimitMultUp: '1.1', askLimitMultDown: '0.9' };

function ranged(): Sim {
  const sim = new Sim(symbolConfig({ executionRules: [RANGE] }));
  sim.createAccount(9, { USDT: '1000000', BTC: '1000' });
  sim.createAccount(1, { USDT: '100000', BTC: '100' });
  sim.apply({ type: 'SetReferencePrice', symbol: 'BTCUSDT', price: px('100') });
  return sim;
}

describe('PRICE_RANGE', () => {
  it('a BUY taker trades up to reference * bidLimitMultUp and expires at the first price beyond it', () => {
    const sim = ranged();
    sim.sell(9, '1', '105');
    sim.sell(9, '1', '110');
    sim.sell(9, '1', '110.01');
    const r = sim.buy(1, '3', '120');
    expect(r.trades.map((t) => t.price)).toEqual([px('105'), px('110')]);
    expect(r.expired).toEqual([expect.objectContaining({ status: 'EXPIRED', expiryReason: 'EXECUTION_RULE_PRICE_RANGE_EXCEEDED' })]);
    expect(sim.order(1, r.orderId)).toMatchObject({ status: 'EXPIRED', executedQty: qty('2') });
  });

  it('MARKET by quantity and by quoteOrderQty stop at the band too, with plans that agree', () => {
    const sim = ranged();
    sim.buy(9, '1', '95');
    sim.buy(9, '5', '89.99');
    const r = sim.marketSell(1, '3');
    expect(r.trades).toHaveLength(1);
    expect(r.expired[0]?.expiryReason).toBe('EXECUTION_RULE_PRICE_RANGE_EXCEEDED');
    sim.sell(9, '1', '100');
    sim.sell(9, '5', '111');
    const q = sim.place(1, { side: 'BUY', type: 'MARKET', quoteQty: '500' });
    expect(q.trades).toHaveLength(1);
    expect(q.expired[0]?.expiryReason).toBe('EXECUTION_RULE_PRICE_RANGE_EXCEEDED');
    expect(sim.balance(1, 'USDT').locked).toBe(0);
  });

  it('a FOK that could only fill beyond the band expires unfilled', () => {
    const sim = ranged();
    sim.sell(9, '1', '105');
    sim.sell(9, '1', '115');
    const r = sim.buy(1, '2', '120', { tif: 'FOK' });
    expect(r.trades).toEqual([]);
    expect(r.expired[0]?.expiryReason).toBe('UNFILLED_FOK_ORDER_EXPIRED');
  });

  it('without a reference price there is no band', () => {
    const sim = new Sim(symbolConfig({ executionRules: [RANGE] }));
    sim.createAccount(9, { BTC: '10' });
    sim.createAccount(1, { USDT: '100000' });
    sim.sell(9, '1', '100');
    sim.sell(9, '1', '500');
    expect(sim.marketBuy(1, '2').trades).toHaveLength(2);
  });

  it('exposes the rules and the calculation', () => {
    const sim = ranged();
    expect(sim.engine.executionRules('BTCUSDT')).toEqual([RANGE]);
    expect(sim.engine.referencePriceCalculation('BTCUSDT')).toEqual({ calculationType: 'EXTERNAL', externalCalculationId: 0 });
    sim.apply({ type: 'SetReferencePrice', symbol: 'BTCUSDT', price: null });
    expect(sim.engine.referencePriceCalculation('BTCUSDT')).toBeNull();
    expect(types(sim.marketBuy(1, '1').events)).toEqual(['OrderAccepted', 'OrderExpired']); // an empty book, no band
  });
});

describe('ARITHMETIC_MEAN reference price', () => {
  it('averages trade prices in buckets and prorates the bucket straddling the cutoff', () => {
    const mean = new BucketedMean(3, 1000); // a 3 s window of 1 s buckets
    const s = 1_000_000; // µs per second
    mean.record(10 * s + 100, px('100'));
    mean.record(10 * s + 500_000, px('102'));
    mean.record(11 * s, px('110'));
    expect(mean.average(11 * s)).toBe(Math.trunc((px('100') + px('102') + px('110')) / 3));
    // At 13.5 s the cutoff is 10.5 s: half of the 10 s bucket (2 trades) is outside the window.
    const count = 2 * 10_000 - (2 * 10_000 * 500_000) / 1_000_000 + 10_000;
    const sum = (px('100') + px('102')) * 10_000 * 0.5 + px('110') * 10_000;
    expect(mean.average(13 * s + 500_000)).toBe(Math.trunc(sum / count));
    expect(mean.average(14 * s)).toBe(px('110'));
    expect(mean.average(15 * s)).toBeNull();
  });

  it('drives the band and the reference-price filters when configured', () => {
    const sim = new Sim(symbolConfig({ executionRules: [RANGE], referencePriceCalculation: { calculationType: 'ARITHMETIC_MEAN', bucketCount: 60, bucketWidthMs: 1000 } }));
    sim.createAccount(9, { USDT: '1000000', BTC: '1000' });
    sim.createAccount(1, { USDT: '100000', BTC: '100' });
    sim.sell(9, '1', '100');
    sim.marketBuy(1, '1');
    expect(sim.engine.referencePrice('BTCUSDT')).toBe(px('100'));
    expect(sim.engine.referencePriceCalculation('BTCUSDT')).toEqual({ calculationType: 'ARITHMETIC_MEAN', bucketCount: 60, bucketWidthMs: 1000 });
    sim.sell(9, '1', '111');
    expect(sim.marketBuy(1, '1').expired[0]?.expiryReason).toBe('EXECUTION_RULE_PRICE_RANGE_EXCEEDED');
    expect(sim.balance(1, 'USDT').free).toBe(u('100000') - u('100'));
  });
});
