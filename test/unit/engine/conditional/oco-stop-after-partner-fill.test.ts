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
import { px, qty } from '../helpers.ts';
import { marketAt100 } from './market-at-100.ts';

/**
 * Bids at 99; a TAKE_PROFIT BUY of `stopQty` due at <= 99.5 (accepted first, so it triggers
 * first); then a SELL OCO [LIMIT_MAKER 101, STOP_LOSS 99] of 1. A market SELL at 99 makes both
 * stops due: the take-profit buys from the limit leg at 101.
 */
function bothDue(stopQty: string) {
  const sim = marketAt100();
  sim.buy(9, '2', '99');
  const a = sim.place(2, { side: 'BUY', type: 'TAKE_PROFIT', qty: stopQty, stopPrice: '99.5' }).orderId;
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
  return { sim, a, limitLeg: list.orders[0]!.orderId, stopLeg: list.orders[1]!.orderId };
}

describe('OCO stop leg due in the same pass in which another stop traded with its limit leg', () => {
  it('does not trigger: the limit leg traded first, so the stop leg expires with OCO_TRIGGER', () => {
    const { sim, a, limitLeg, stopLeg } = bothDue('0.5');
    expect(sim.order(2, a)).toMatchObject({ status: 'FILLED' });
    expect(sim.order(1, limitLeg)).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: qty('0.5') });
    expect(sim.order(1, stopLeg)).toMatchObject({ status: 'EXPIRED', expiryReason: 'OCO_TRIGGER', executedQty: 0 });
    sim.engine.checkInvariants();
  });

  it('does not trigger either when that stop filled the limit leg completely (it has left the live orders)', () => {
    const { sim, limitLeg, stopLeg } = bothDue('1');
    expect(sim.order(1, limitLeg)).toMatchObject({ status: 'FILLED' });
    expect(sim.order(1, stopLeg)).toMatchObject({ status: 'EXPIRED', expiryReason: 'OCO_TRIGGER', executedQty: 0 });
    sim.engine.checkInvariants();
  });
});
