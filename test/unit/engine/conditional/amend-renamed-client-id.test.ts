/**
 * Found by the model-based property (test/property): after an amend changed an order's client
 * id from "a" to "c", a request naming origClientOrderId "a" still found (and amended) the order,
 * because the per-account client-id index kept the old entry. The order is "c" now; "a" names
 * nothing (binance-facts §5.10, §5.11).
 */
import { describe, expect, it } from 'vitest';
import { Sim, qty } from '../helpers.ts';

describe('lookup by a client id an amend replaced', () => {
  it('finds nothing: cancel and amend by the old id are refused, the new id works', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '100000', BTC: '100' });
    const id = sim.buy(1, '2', '99', { clientOrderId: 'a' }).orderId;
    sim.apply({ type: 'AmendOrder', accountId: 1, symbol: 'BTCUSDT', orderId: id, newQuantity: qty('1.5'), newClientOrderId: 'c' });
    expect(sim.order(1, id)).toMatchObject({ clientOrderId: 'c', origQty: qty('1.5') });
    const amend = sim.apply({ type: 'AmendOrder', accountId: 1, symbol: 'BTCUSDT', origClientOrderId: 'a', newQuantity: qty('1') });
    expect(amend).toEqual([expect.objectContaining({ type: 'OrderRejected', reason: 'UNKNOWN_ORDER' })]);
    expect(sim.cancel(1, { origClientOrderId: 'a' })).toEqual([expect.objectContaining({ type: 'OrderRejected', reason: 'UNKNOWN_ORDER' })]);
    expect(sim.cancel(1, { origClientOrderId: 'c' })).toEqual([expect.objectContaining({ type: 'OrderCanceled', orderId: id })]);
  });
});
