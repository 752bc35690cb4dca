import { beforeEach, describe, expect, it } from 'vitest';
import { Sim, expectRejectedWithoutChange, px, qty, types, u } from './helpers.ts';

describe('LIMIT_MAKER', () => {
  let sim: Sim;
  beforeEach(() => {
    sim = new Sim();
    sim.createAccount(1, { USDT: '10000', BTC: '10' });
    sim.createAccount(2, { USDT: '10000', BTC: '10' });
    sim.sell(1, '1', '100'); // 1
    sim.buy(1, '1', '98'); // 2
  });

  it('a BUY below the best ask rests NEW, reported with timeInForce GTC', () => {
    const r = sim.place(2, { side: 'BUY', type: 'LIMIT_MAKER', price: '99.99', qty: '1' });
    expect(types(r.events)).toEqual(['OrderAccepted']);
    expect(r.accepted).toMatchObject({ orderId: 3, orderType: 'LIMIT_MAKER', timeInForce: 'GTC', price: px('99.99') });
    expect(sim.order(2, 3)).toMatchObject({ status: 'NEW', type: 'LIMIT_MAKER' });
    expect(sim.balance(2, 'USDT')).toEqual({ free: u('10000') - u('99.99'), locked: u('99.99') });
    expect(sim.engine.bookTicker('BTCUSDT')).toMatchObject({ bidPrice: px('99.99'), bidQty: qty('1') });
  });

  it('a SELL above the best bid rests NEW', () => {
    const r = sim.place(2, { side: 'SELL', type: 'LIMIT_MAKER', price: '98.01', qty: '1' });
    expect(r.accepted).toBeDefined();
    expect(sim.order(2, 3).status).toBe('NEW');
  });

  it('a BUY at the best ask would take: WOULD_MATCH_AND_TAKE, no orderId consumed, state unchanged', () => {
    expectRejectedWithoutChange(sim, sim.placeCommand(2, { side: 'BUY', type: 'LIMIT_MAKER', price: '100', qty: '1' }), 'WOULD_MATCH_AND_TAKE');
    expectRejectedWithoutChange(sim, sim.placeCommand(2, { side: 'BUY', type: 'LIMIT_MAKER', price: '150', qty: '1' }), 'WOULD_MATCH_AND_TAKE');
    expect(sim.buy(2, '1', '97').orderId).toBe(3);
  });

  it('a SELL at or below the best bid would take: WOULD_MATCH_AND_TAKE', () => {
    expectRejectedWithoutChange(sim, sim.placeCommand(2, { side: 'SELL', type: 'LIMIT_MAKER', price: '98', qty: '1' }), 'WOULD_MATCH_AND_TAKE');
    expectRejectedWithoutChange(sim, sim.placeCommand(2, { side: 'SELL', type: 'LIMIT_MAKER', price: '1', qty: '1' }), 'WOULD_MATCH_AND_TAKE');
  });

  it('rests on an empty opposite side at any price', () => {
    const s = new Sim();
    s.createAccount(1, { USDT: '10000' });
    expect(s.place(1, { side: 'BUY', type: 'LIMIT_MAKER', price: '5000', qty: '1' }).accepted).toBeDefined();
  });

  it('once resting it is a maker like any other and pays the maker rate', () => {
    const s = new Sim();
    s.createAccount(1, { BTC: '1' }, { standardCommission: { maker: 10, taker: 100_000, buyer: 0, seller: 0 } });
    s.createAccount(2, { USDT: '1000' });
    s.place(1, { side: 'SELL', type: 'LIMIT_MAKER', price: '100', qty: '1' });
    const r = s.buy(2, '1', '100');
    expect(r.trades[0]).toMatchObject({ makerOrderId: 1, makerCommission: u('0.00001'), makerCommissionAsset: 'USDT' });
  });
});
