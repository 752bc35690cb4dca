/**
 * Conditional orders inside a replay: historical prints trigger stops, market fills touch OCO
 * legs, and the replay keeps its book mirror and the market-data history in step with what the
 * contingencies did (a triggered stop's trades join the tape; an expired OCO leg leaves the
 * mirror before any later print could be planned against it).
 */
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src/engine/index.ts';
import { touch } from '../../../src/sim/index.ts';
import { harness, u } from './helpers.ts';

describe('replay with stops and order lists', () => {
  it('a print through the stop price triggers a STOP_LOSS_LIMIT SELL, which then rests and is filled by later prints', async () => {
    const h = harness(touch(), [
      { taker: 'BUY', price: '100', qty: '1', at: 0 },
      { taker: 'SELL', price: '94.5', qty: '1', at: 5 },
      { taker: 'BUY', price: '94.2', qty: '2', at: 8 },
    ]);
    const marketEvents: EngineEvent[] = [];
    h.replay.onMarketEvents((events) => marketEvents.push(...events));
    await h.replay.runUntil(h.replay.now + 1_000_000 + 1_000);
    const events = h.replay.apply({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'SELL', orderType: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', quantity: u('1'), stopPrice: u('95'), price: u('94') });
    const orderId = events.find((e) => e.type === 'OrderAccepted')!.orderId;
    expect(h.replay.restingOrders('BTCUSDT').asks).toHaveLength(0); // waiting off the book
    await h.replay.runToEnd();
    expect(marketEvents.some((e) => e.type === 'OrderTriggered' && e.orderId === orderId)).toBe(true);
    expect(h.fills()).toEqual([expect.objectContaining({ orderId, quantity: u('1'), price: u('94') })]);
    expect(h.replay.engine.getOrder(1, 'BTCUSDT', { orderId })?.status).toBe('FILLED');
  });

  it('a market fill of the OCO limit leg expires the stop leg, and a later print through the stop finds nothing', async () => {
    const h = harness(touch(), [
      { taker: 'BUY', price: '100', qty: '1', at: 0 },
      { taker: 'BUY', price: '110', qty: '1', at: 5 },
      { taker: 'SELL', price: '90', qty: '1', at: 8 },
    ]);
    await h.replay.runUntil(h.replay.now + 1_000_000 + 1_000);
    const events = h.replay.apply({
      type: 'PlaceOrderList',
      accountId: 1,
      symbol: 'BTCUSDT',
      kind: 'OCO',
      legs: [
        { side: 'SELL', orderType: 'LIMIT_MAKER', price: u('110'), quantity: u('1') },
        { side: 'SELL', orderType: 'STOP_LOSS', stopPrice: u('95'), quantity: u('1') },
      ],
    });
    const [limitId, stopId] = events.filter((e) => e.type === 'OrderAccepted').map((e) => e.orderId);
    expect(h.replay.restingOrders('BTCUSDT').asks.map((o) => o.orderId)).toEqual([limitId]);
    await h.replay.runToEnd();
    expect(h.fills()).toEqual([expect.objectContaining({ orderId: limitId, quantity: u('1') })]);
    expect(h.replay.engine.getOrder(1, 'BTCUSDT', { orderId: stopId! })).toMatchObject({ status: 'EXPIRED', expiryReason: 'OCO_TRIGGER' });
    expect(h.replay.engine.openOrderLists(1)).toEqual([]);
  });
});
