/**
 * Found by the model-based property (test/property): a BUY pending pair of an OTOCO (stop-loss
 * above, limit maker below) reserved its funds twice when the working order filled, once per
 * leg, although an OCO pair holds its funds once (order-lists/place-order-list.ts). The stop leg
 * started first and reserved; the LIMIT_MAKER then reserved its own notional as well.
 */
import { describe, expect, it } from 'vitest';
import type { OrderListUpdated } from '../../../../src/engine/events.ts';
import { px, qty, types, u } from '../helpers.ts';
import { marketAt100 } from './market-at-100.ts';

describe('OTOCO with a BUY pending pair', () => {
  it('once the working SELL fills, the pair [STOP_LOSS above, LIMIT_MAKER below] locks one leg\'s funds, not both', () => {
    const sim = marketAt100();
    sim.buy(9, '1', '100'); // the working SELL fills against this
    const events = sim.apply({
      type: 'PlaceOrderList',
      accountId: 1,
      symbol: 'BTCUSDT',
      kind: 'OTOCO',
      legs: [
        { side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: px('100'), quantity: qty('1') },
        { side: 'BUY', orderType: 'STOP_LOSS', stopPrice: px('110'), quantity: qty('1') },
        { side: 'BUY', orderType: 'LIMIT_MAKER', price: px('90'), quantity: qty('1') },
      ],
    });
    expect(types(events)).toEqual(['OrderAccepted', 'OrderAccepted', 'OrderAccepted', 'OrderListUpdated', 'TradeExecuted', 'OrderActivated', 'OrderActivated']);
    const list = events[3] as OrderListUpdated;
    const [stop, maker] = [list.orders[1]!.orderId, list.orders[2]!.orderId];
    expect(sim.order(1, maker)).toMatchObject({ status: 'NEW', isWorking: true });
    expect(sim.order(1, stop)).toMatchObject({ status: 'NEW', isWorking: false });
    // The LIMIT_MAKER (the leg that can fill without a trigger) holds the pair's 90 USDT; the stop nothing.
    expect(sim.order(1, maker).lockedAmount).toBe(u('90'));
    expect(sim.order(1, stop).lockedAmount).toBe(0);
    expect(sim.balance(1, 'USDT').locked).toBe(u('90'));
    sim.engine.checkInvariants();
  });
});
