/**
 * Found by the conditional-mix bench (bench/matching-core/conditional-mix-bench.ts: its final
 * checkInvariants reported "OCO legs of list 12372 both traded"). Within one contingency pass, a
 * stop triggered by a trade executed against the LIMIT_MAKER leg of an OCO; the OCO's own stop
 * leg was due at the same price and triggered next, expiring the already-traded limit leg and
 * trading as well. binance-facts §5.12: a touched limit leg executes and the stop leg is then
 * canceled; the two legs never both trade.
 */
import { describe, expect, it } from 'vitest';
import type { OrderListUpdated } from '../../../../src/engine/events.ts';
import { Sim, px, qty } from '../helpers.ts';

describe('OCO stop leg due in the same pass in which another stop traded with its limit leg', () => {
  it('does not trigger: the limit leg traded first, so the stop leg expires with OCO_TRIGGER', () => {
    const sim = new Sim();
    sim.createAccount(9, { USDT: '1000000', BTC: '1000' });
    sim.createAccount(1, { USDT: '100000', BTC: '100' });
    sim.createAccount(2, { USDT: '100000', BTC: '100' });
    sim.sell(9, '1', '100');
    sim.marketBuy(2, '1'); // last price 100
    sim.buy(9, '2', '99');
    // A: TAKE_PROFIT BUY, due at <= 99.5; accepted before the OCO, so it triggers first.
    const a = sim.place(2, { side: 'BUY', type: 'TAKE_PROFIT', qty: '0.5', stopPrice: '99.5' }).orderId;
    const listEvents = sim.apply({
      type: 'PlaceOrderList',
      accountId: 1,
      symbol: 'BTCUSDT',
      kind: 'OCO',
      legs: [
        { side: 'SELL', orderType: 'LIMIT_MAKER', price: px('101'), quantity: qty('1') },
        { side: 'SELL', orderType: 'STOP_LOSS', stopPrice: px('99'), quantity: qty('1') },
      ],
    });
    const list = listEvents.find((e) => e.type === 'OrderListUpdated') as OrderListUpdated;
    const [limitLeg, stopLeg] = [list.orders[0]!.orderId, list.orders[1]!.orderId];
    sim.marketSell(2, '0.5'); // trades at 99: A and the OCO's stop are both due; A buys the limit leg at 101
    expect(sim.order(2, a)).toMatchObject({ status: 'FILLED' });
    expect(sim.order(1, limitLeg)).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: qty('0.5') });
    expect(sim.order(1, stopLeg)).toMatchObject({ status: 'EXPIRED', expiryReason: 'OCO_TRIGGER', executedQty: 0 });
    sim.engine.checkInvariants();
  });
});

describe('... and when that stop filled the limit leg completely', () => {
  it('still does not trigger the stop leg', () => {
    const sim = new Sim();
    sim.createAccount(9, { USDT: '1000000', BTC: '1000' });
    sim.createAccount(1, { USDT: '100000', BTC: '100' });
    sim.createAccount(2, { USDT: '100000', BTC: '100' });
    sim.sell(9, '1', '100');
    sim.marketBuy(2, '1');
    sim.buy(9, '2', '99');
    sim.place(2, { side: 'BUY', type: 'TAKE_PROFIT', qty: '1', stopPrice: '99.5' });
    const listEvents = sim.apply({
      type: 'PlaceOrderList',
      accountId: 1,
      symbol: 'BTCUSDT',
      kind: 'OCO',
      legs: [
        { side: 'SELL', orderType: 'LIMIT_MAKER', price: px('101'), quantity: qty('1') },
        { side: 'SELL', orderType: 'STOP_LOSS', stopPrice: px('99'), quantity: qty('1') },
      ],
    });
    const list = listEvents.find((e) => e.type === 'OrderListUpdated') as OrderListUpdated;
    sim.marketSell(2, '0.5');
    expect(sim.order(1, list.orders[0]!.orderId)).toMatchObject({ status: 'FILLED' });
    expect(sim.order(1, list.orders[1]!.orderId)).toMatchObject({ status: 'EXPIRED', expiryReason: 'OCO_TRIGGER', executedQty: 0 });
    sim.engine.checkInvariants();
  });
});
