/**
 * ModifyMarginOrder (PUT /fapi/v1/order): new price and quantity, same order id, re-priced
 * reservation, back of the queue; cancels instead when the quantity is not above what executed or
 * a post-only order would take; refusals change nothing.
 */
import { describe, expect, it } from 'vitest';
import { FUTURES_REJECT_CODES } from '../../../../src/futures/trading/futures-reject-codes.ts';
import { FutSim, SYM, expectNoReject, rejectOf, u } from './futures-helpers.ts';

function setup(): { sim: FutSim; orderId: number } {
  const sim = new FutSim();
  sim.account(1, '100');
  sim.account(2, '1000');
  sim.mark('100');
  expectNoReject(sim.order(1, 'BUY', '2', '95'));
  return { sim, orderId: sim.engine.openOrders(1, SYM)[0]!.orderId };
}

const modify = (orderId: number, price: string, quantity: string) => ({ type: 'ModifyMarginOrder', accountId: 1, symbol: SYM, orderId, price: u(price), quantity: u(quantity) });

describe('ModifyMarginOrder', () => {
  it('re-prices the order and its reservation, and sends it to the back of its new level', () => {
    const { sim, orderId } = setup();
    // IM 190 / 20 = 9.5
    expect(sim.wallet(1).openOrderInitialMargin).toBe(u('9.5'));
    expectNoReject(sim.order(2, 'BUY', '1', '96'));
    const events = expectNoReject(sim.apply(modify(orderId, '96', '3')));
    expect(events[0]).toMatchObject({ type: 'OrderModified', orderId, price: u('96'), quantity: u('3'), origPrice: u('95'), origQuantity: u('2') });
    // IM 288 / 20 = 14.4
    expect(sim.wallet(1).openOrderInitialMargin).toBe(u('14.4'));
    expect(sim.engine.bookOrders(SYM, 'BUY').map((o) => [o.accountId, o.orderId])).toEqual([[2, 2], [1, orderId]]);
    expect(sim.engine.getOrder(1, SYM, { orderId })).toMatchObject({ price: u('96'), origQty: u('3') });
  });

  it('trades at once when the new price crosses', () => {
    const { sim, orderId } = setup();
    expectNoReject(sim.order(2, 'SELL', '1', '99'));
    const events = expectNoReject(sim.apply(modify(orderId, '99', '2')));
    expect(events.map((e) => e.type)).toContain('TradeExecuted');
    expect(sim.position(1).positionAmt).toBe(u('1'));
    // 1 of 2 remains at 99: IM 99 / 20 = 4.95
    expect(sim.wallet(1).openOrderInitialMargin).toBe(u('4.95'));
  });

  it('cancels when the new quantity is not above what executed', () => {
    const { sim, orderId } = setup();
    expectNoReject(sim.order(2, 'SELL', '1'));
    const events = expectNoReject(sim.apply(modify(orderId, '95', '1')));
    expect(events.map((e) => e.type)).toEqual(['OrderCanceled']);
    expect(sim.engine.openOrders(1, SYM)).toHaveLength(0);
  });

  it('cancels a post-only order that would take', () => {
    const sim = new FutSim();
    sim.account(1, '100');
    sim.account(2, '1000');
    sim.mark('100');
    expectNoReject(sim.order(1, 'BUY', '1', '95', { postOnly: true }));
    const orderId = sim.engine.openOrders(1, SYM)[0]!.orderId;
    expectNoReject(sim.order(2, 'SELL', '1', '99'));
    expect(sim.apply(modify(orderId, '99', '1')).map((e) => e.type)).toEqual(['OrderCanceled']);
  });

  it('refuses no change (-5027), filters, margin and unknown orders, changing nothing', () => {
    const { sim, orderId } = setup();
    const hash = sim.engine.stateHash();
    expect(rejectOf(sim.apply(modify(orderId, '95', '2')))).toBe('FUTURES_MODIFY_NO_CHANGE');
    expect(FUTURES_REJECT_CODES.FUTURES_MODIFY_NO_CHANGE.code).toBe(-5027);
    expect(rejectOf(sim.apply(modify(orderId, '95.005', '2')))).toBe('FUTURES_PRICE_NOT_ON_TICK');
    expect(rejectOf(sim.apply(modify(orderId, '116', '2')))).toBe('FUTURES_PRICE_ABOVE_MARK_CAP');
    // 25 @ 80 = 2 000 notional: IM 100 > the 100 − 0 available (its own 9.5 counted back) … 100 exactly fits; 26 does not
    expect(rejectOf(sim.apply(modify(orderId, '80', '26')))).toBe('FUTURES_MARGIN_INSUFFICIENT');
    expect(rejectOf(sim.apply(modify(orderId + 99, '95', '1')))).toBe('UNKNOWN_ORDER');
    expect(sim.engine.stateHash()).toBe(hash);
    expectNoReject(sim.apply(modify(orderId, '80', '25')));
    expect(sim.wallet(1).openOrderInitialMargin).toBe(u('100'));
  });
});
