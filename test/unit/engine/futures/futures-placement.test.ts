/**
 * PlaceOrder on a margin symbol: each filter and rule refuses with its own reason (mapped to the
 * fapi code), and the reservation is initial margin + open loss of the opening part.
 * Test contract um:XUSDT: tick 0.01 (min 0.01, max 100000), step 0.001 (min 0.001, max 1000),
 * MIN_NOTIONAL 5, PERCENT_PRICE 1.15 / 0.85, ladder 20x to 5 000 notional (mmr 1%), 10x to 50 000.
 */
import { describe, expect, it } from 'vitest';
import { FUTURES_REJECT_CODES } from '../../../../src/futures/trading/futures-reject-codes.ts';
import { FutSim, SYM, expectNoReject, rejectOf, u } from './futures-helpers.ts';

function withBook(): FutSim {
  const sim = new FutSim();
  sim.account(1, '1000');
  sim.account(2, '1000');
  sim.mark('100');
  return sim;
}

describe('futures placement: filters with their own reasons', () => {
  it.each([
    ['BUY', '1', '0.005', 'FUTURES_PRICE_LESS_THAN_MIN', -4013],
    ['BUY', '1', '100001', 'FUTURES_PRICE_GREATER_THAN_MAX', -4002],
    ['BUY', '1', '100.005', 'FUTURES_PRICE_NOT_ON_TICK', -4014],
    ['BUY', '0.0005', '100', 'FUTURES_QTY_LESS_THAN_MIN', -4004],
    ['BUY', '1001', '100', 'FUTURES_QTY_GREATER_THAN_MAX', -4005],
    ['BUY', '1.0005', '100', 'FUTURES_QTY_NOT_ON_STEP', -4023],
    ['BUY', '1', '115.01', 'FUTURES_PRICE_ABOVE_MARK_CAP', -4016],
    ['SELL', '1', '84.99', 'FUTURES_PRICE_BELOW_MARK_FLOOR', -4024],
    ['BUY', '0.049', '100', 'FUTURES_MIN_NOTIONAL', -4164],
  ] as const)('%s %s @ %s → %s (%d)', (side, quantity, price, reason, code) => {
    const sim = withBook();
    expect(rejectOf(sim.order(1, side, quantity, price))).toBe(reason);
    expect(FUTURES_REJECT_CODES[reason].code).toBe(code);
    expect(sim.wallet(1).openOrderInitialMargin).toBe(0);
  });

  it('accepts at the PERCENT_PRICE bounds (100 × 1.15, 100 × 0.85) and at MIN_NOTIONAL', () => {
    const sim = withBook();
    expectNoReject(sim.order(1, 'BUY', '1', '115'));
    expectNoReject(sim.order(1, 'SELL', '1', '85'));
    expectNoReject(sim.order(1, 'BUY', '0.05', '100'));
  });

  it('refuses a position side that does not match the mode (-4061) and reduceOnly in hedge mode', () => {
    const sim = withBook();
    expect(rejectOf(sim.order(1, 'BUY', '1', '100', { positionSide: 'LONG' }))).toBe('FUTURES_POSITION_SIDE_MISMATCH');
    expect(FUTURES_REJECT_CODES.FUTURES_POSITION_SIDE_MISMATCH).toEqual({ code: -4061, msg: "Order's position side does not match user's setting." });
    sim.apply({ type: 'SetPositionMode', accountId: 1, mode: 'HEDGE' } as never);
    expect(rejectOf(sim.order(1, 'BUY', '1', '100'))).toBe('FUTURES_POSITION_SIDE_MISMATCH');
    expect(rejectOf(sim.order(1, 'BUY', '1', '100', { positionSide: 'LONG', reduceOnly: true }))).toBe('FUTURES_REDUCE_ONLY_IN_HEDGE_MODE');
    // Closing more LONG than there is follows the reduce-only rule.
    expect(rejectOf(sim.order(1, 'SELL', '1', '100', { positionSide: 'LONG' }))).toBe('FUTURES_REDUCE_ONLY_REJECTED');
  });

  it('refuses reduce-only orders that would open, add, or exceed the position left by other reduce-only orders (-2022)', () => {
    const sim = withBook();
    expect(rejectOf(sim.order(1, 'SELL', '1', '100', { reduceOnly: true }))).toBe('FUTURES_REDUCE_ONLY_REJECTED');
    expectNoReject(sim.order(2, 'SELL', '2', '100'));
    expectNoReject(sim.order(1, 'BUY', '2'));
    expect(sim.position(1).positionAmt).toBe(u('2'));
    expect(rejectOf(sim.order(1, 'BUY', '1', '90', { reduceOnly: true }))).toBe('FUTURES_REDUCE_ONLY_REJECTED');
    expect(rejectOf(sim.order(1, 'SELL', '2.001', '110', { reduceOnly: true }))).toBe('FUTURES_REDUCE_ONLY_REJECTED');
    expectNoReject(sim.order(1, 'SELL', '1.5', '110', { reduceOnly: true }));
    expect(rejectOf(sim.order(1, 'SELL', '0.6', '111', { reduceOnly: true }))).toBe('FUTURES_REDUCE_ONLY_REJECTED');
    expectNoReject(sim.order(1, 'SELL', '0.5', '111', { reduceOnly: true }));
    // Reduce-only orders reserve nothing and are exempt from MIN_NOTIONAL.
    expect(sim.wallet(1).openOrderInitialMargin).toBe(0);
  });

  it('knocks out reduce-only orders the position no longer covers (er 4) and never lets them increase it', () => {
    const sim = withBook();
    expectNoReject(sim.order(2, 'SELL', '2', '100'));
    expectNoReject(sim.order(1, 'BUY', '2'));
    expectNoReject(sim.order(1, 'SELL', '2', '120', { reduceOnly: true }));
    // A plain SELL of account 1 reduces the long to 0.5: the reduce-only SELL of 2 is knocked out.
    expectNoReject(sim.order(1, 'SELL', '1.5', '100'));
    const events = sim.order(2, 'BUY', '1.5');
    const knocked = events.find((e) => e.type === 'OrderExpired');
    expect(knocked).toMatchObject({ type: 'OrderExpired', accountId: 1, expiryReason: 'REDUCE_ONLY_KNOCKED_OUT' });
    expect(sim.position(1).positionAmt).toBe(u('0.5'));
    expect(sim.engine.openOrders(1, SYM)).toHaveLength(0);
  });

  it('reserves IM + open loss of the opening part and refuses what the available balance cannot cover (-2019)', () => {
    const sim = new FutSim();
    sim.account(1, '10');
    sim.mark('100');
    // BUY 1 @ 110 with mark 100: IM 110 / 20 = 5.5, open loss 1 × (110 − 100) = 10 → 15.5 > 10.
    expect(rejectOf(sim.order(1, 'BUY', '1', '110'))).toBe('FUTURES_MARGIN_INSUFFICIENT');
    // BUY 2 @ 100: IM 200 / 20 = 10 exactly, no open loss.
    expectNoReject(sim.order(1, 'BUY', '2', '100'));
    expect(sim.wallet(1).openOrderInitialMargin).toBe(u('10'));
    expect(sim.wallet(1).availableBalance).toBe(0);
    expect(rejectOf(sim.order(1, 'BUY', '0.05', '100'))).toBe('FUTURES_MARGIN_INSUFFICIENT');
    // SELL 1 @ 95 (below the mark): IM 4.75 + open loss 5 = 9.75, more than is left.
    expect(rejectOf(sim.order(1, 'SELL', '1', '95'))).toBe('FUTURES_MARGIN_INSUFFICIENT');
    // Cancel releases the reservation.
    const orderId = sim.engine.openOrders(1, SYM)[0]!.orderId;
    sim.apply({ type: 'CancelOrder', accountId: 1, symbol: SYM, orderId } as never);
    expect(sim.wallet(1).openOrderInitialMargin).toBe(0);
    expect(sim.wallet(1).availableBalance).toBe(u('10'));
  });

  it('charges the open loss of a SELL below the mark', () => {
    const sim = new FutSim();
    sim.account(1, '100');
    sim.mark('100');
    // SELL 1 @ 95: IM 95 / 20 = 4.75, open loss 1 × (100 − 95) = 5.
    expectNoReject(sim.order(1, 'SELL', '1', '95'));
    expect(sim.wallet(1).openOrderInitialMargin).toBe(u('9.75'));
  });

  it('refuses a position beyond the leverage bracket (-2027) before the margin check', () => {
    const sim = withBook();
    // 20x allows 5 000 notional: 51 @ 100 = 5 100.
    expect(rejectOf(sim.order(1, 'BUY', '51', '100'))).toBe('FUTURES_MAX_POSITION_AT_LEVERAGE');
    expectNoReject(sim.order(1, 'BUY', '50', '100'));
  });

  it('refuses a post-only order that would take (-5022) and a FOK that cannot fill (-5021)', () => {
    const sim = withBook();
    expectNoReject(sim.order(2, 'SELL', '1', '100'));
    expect(rejectOf(sim.order(1, 'BUY', '1', '100', { postOnly: true }))).toBe('FUTURES_POST_ONLY_WOULD_TAKE');
    expectNoReject(sim.order(1, 'BUY', '1', '99.99', { postOnly: true }));
    expect(rejectOf(sim.order(1, 'BUY', '2', '100', { timeInForce: 'FOK' }))).toBe('FUTURES_FOK_UNFILLABLE');
    expectNoReject(sim.order(1, 'BUY', '1', '100', { timeInForce: 'FOK' }));
    expect(sim.position(1).positionAmt).toBe(u('1'));
  });

  it('refuses a MARKET order whose best counter price is outside PERCENT_PRICE (-4131)', () => {
    const sim = withBook();
    expectNoReject(sim.order(2, 'SELL', '1', '114'));
    sim.mark('99');
    // 114 > 99 × 1.15 = 113.85
    expect(rejectOf(sim.order(1, 'BUY', '1'))).toBe('FUTURES_COUNTERPARTY_PRICE_OUTSIDE_PERCENT_PRICE');
    expect(FUTURES_REJECT_CODES.FUTURES_COUNTERPARTY_PRICE_OUTSIDE_PERCENT_PRICE.code).toBe(-4131);
    sim.mark('100');
    expectNoReject(sim.order(1, 'BUY', '1'));
  });

  it('refuses a zero quantity (-4003), a duplicate open client order id, and the 201st open order (-2025)', () => {
    const sim = withBook();
    expect(rejectOf(sim.apply({ type: 'PlaceOrder', accountId: 1, symbol: SYM, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: u('100'), quantity: 0 }))).toBe('FUTURES_QTY_NOT_POSITIVE');
    expectNoReject(sim.order(1, 'BUY', '0.06', '90', { clientOrderId: 'mine' }));
    expect(rejectOf(sim.order(1, 'BUY', '0.06', '90', { clientOrderId: 'mine' }))).toBe('DUPLICATE_ORDER');
    for (let i = 1; i < 200; i++) expectNoReject(sim.order(1, 'BUY', '0.06', '90'));
    expect(rejectOf(sim.order(1, 'BUY', '0.06', '90'))).toBe('FUTURES_MAX_OPEN_ORDERS');
    expect(FUTURES_REJECT_CODES.FUTURES_MAX_OPEN_ORDERS.code).toBe(-2025);
  });

  it('refuses other order types and spot-only fields', () => {
    const sim = withBook();
    expect(rejectOf(sim.apply({ type: 'PlaceOrder', accountId: 1, symbol: SYM, side: 'BUY', orderType: 'STOP_LOSS', quantity: u('1'), stopPrice: u('90') } as never))).toBe('FUTURES_INVALID_ORDER_TYPE');
    expect(rejectOf(sim.order(1, 'BUY', '1', '100', { icebergQty: u('0.1') }))).toBe('UNSUPPORTED_ORDER_COMBINATION');
    expect(rejectOf(sim.apply({ type: 'PlaceOrder', accountId: 1, symbol: SYM, side: 'BUY', orderType: 'MARKET', quoteOrderQty: u('100') } as never))).toBe('UNSUPPORTED_ORDER_COMBINATION');
  });

  it('answers placementRefusal (order/test) with the same reasons, changing nothing', () => {
    const sim = withBook();
    const hash = sim.engine.stateHash();
    expect(sim.engine.placementRefusal({ type: 'PlaceOrder', time: sim.time, accountId: 1, symbol: SYM, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: u('100.005'), quantity: u('1') })).toBe('FUTURES_PRICE_NOT_ON_TICK');
    expect(sim.engine.placementRefusal({ type: 'PlaceOrder', time: sim.time, accountId: 1, symbol: SYM, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: u('100'), quantity: u('1') })).toBeNull();
    expect(sim.engine.stateHash()).toBe(hash);
  });
});
