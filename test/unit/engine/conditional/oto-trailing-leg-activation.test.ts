/**
 * Found by the model-based property (test/property): an OTO pending trailing stop with a stop
 * price, activated while the last price already met that stop price, triggered at once at the
 * last price without ever tracking. binance-facts §5.6: with a stop price, reaching it starts the
 * trailing (that price is the first extreme); the order triggers only on the retrace.
 */
import { describe, expect, it } from 'vitest';
import type { OrderListUpdated } from '../../../../src/engine/events.ts';
import { px, qty, types } from '../helpers.ts';
import { marketAt100 } from './market-at-100.ts';

describe('OTO pending leg: trailing stop with a stop price', () => {
  it('starts tracking (TrailingStarted) rather than triggering when its stop price is already met at activation', () => {
    const sim = marketAt100();
    sim.sell(9, '1', '100');
    // Working BUY fills at 100 at once; the pending STOP_LOSS SELL has stop 101 (already met: 100 <= 101) and trails 1%.
    const events = sim.apply({
      type: 'PlaceOrderList',
      accountId: 1,
      symbol: 'BTCUSDT',
      kind: 'OTO',
      legs: [
        { side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: px('100'), quantity: qty('1') },
        { side: 'SELL', orderType: 'STOP_LOSS', stopPrice: px('101'), trailingDelta: 100, quantity: qty('1') },
      ],
    });
    const list = events.find((e) => e.type === 'OrderListUpdated') as OrderListUpdated;
    const stop = list.orders[1]!.orderId;
    expect(types(events)).toContain('OrderActivated');
    expect(types(events)).not.toContain('OrderTriggered');
    expect(events).toContainEqual(expect.objectContaining({ type: 'TrailingStarted', orderId: stop, price: px('100') }));
    expect(sim.order(1, stop)).toMatchObject({ status: 'NEW', isWorking: false, workingTime: -1 });
    sim.engine.checkInvariants();
  });
});
