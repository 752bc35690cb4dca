/**
 * A liquidation's close is a real order of the account: the symbol's next order id and trade id,
 * archived FILLED (a LIMIT IOC at the bankruptcy price on the grid, the exact notional as its
 * quote), its client id `autoclose-<ms>` findable, its trade in the account's trades (no
 * commission), its REALIZED_PNL income naming the trade, and nothing on the public tape.
 * Scenario (futures-mark.test.ts): account 1 long 2 at 100 with wallet 10.46, mark 95.72 →
 * liquidated at the bankruptcy price (200 − 10.46) / 2 = 94.77, notional 189.54, realized −10.46.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../../src/engine/engine.ts';
import type { PositionLiquidated } from '../../../../src/engine/events.ts';
import { FutSim, SYM, expectNoReject, futuresConfig, u } from './futures-helpers.ts';

function liquidated(): { sim: FutSim; event: PositionLiquidated } {
  const sim = new FutSim();
  sim.account(1, '10.5');
  sim.account(2, '1000');
  sim.mark('100');
  expectNoReject(sim.order(1, 'BUY', '2', '100')); // order 1
  expectNoReject(sim.order(1, 'BUY', '0.1', '90')); // order 2, expired by the liquidation
  expectNoReject(sim.order(2, 'SELL', '2')); // order 3, trade 1
  const event = sim.mark('95.72').find((e): e is PositionLiquidated => e.type === 'PositionLiquidated')!;
  return { sim, event };
}

describe('the liquidation order', () => {
  it('takes the next order id and trade id and is archived FILLED', () => {
    const { sim, event } = liquidated();
    const clientOrderId = `autoclose-${sim.time / 1000}`;
    expect(event).toMatchObject({ orderId: 4, tradeId: 2, clientOrderId, orderPrice: u('94.77'), price: u('94.77'), side: 'SELL' });
    const order = sim.engine.getOrder(1, SYM, { orderId: 4 });
    expect(order).toMatchObject({
      orderId: 4,
      clientOrderId,
      side: 'SELL',
      type: 'LIMIT',
      timeInForce: 'IOC',
      price: u('94.77'),
      origQty: u('2'),
      executedQty: u('2'),
      cummulativeQuoteQty: u('189.54'),
      status: 'FILLED',
      time: sim.time,
      updateTime: sim.time,
    });
    expect(sim.engine.getOrder(1, SYM, { clientOrderId })?.orderId).toBe(4);
    expect(sim.engine.allOrders(1, SYM).map((o) => [o.orderId, o.status])).toEqual([[1, 'FILLED'], [2, 'EXPIRED'], [4, 'FILLED']]);
    expect(sim.engine.openOrders(1, SYM)).toEqual([]);
    expect(sim.engine.futuresOrderInfo(SYM, 4)).toEqual({ positionSide: 'BOTH', reduceOnly: false, postOnly: false, goodTillTime: 0, liquidation: true });
    expect(sim.engine.futuresOrderInfo(SYM, 1)?.liquidation).toBe(false);
  });

  it('has its trade in the account trades (no commission) and its realized PnL by trade id, off the tape', () => {
    const { sim } = liquidated();
    const trades = sim.engine.accountTrades(1, SYM);
    expect(trades.map((t) => t.id)).toEqual([1, 2]);
    expect(trades[1]).toMatchObject({ id: 2, orderId: 4, price: u('94.77'), qty: u('2'), quoteQty: u('189.54'), commission: 0, commissionAsset: 'um:USDT', isBuyer: false, isMaker: false, time: sim.time });
    expect(sim.engine.futuresIncome(1, { incomeType: 'REALIZED_PNL' }).map((r) => [r.income, r.tradeId])).toEqual([[-u('10.46'), 2]]);
    // The public tape has the one trade between the accounts.
    expect(sim.engine.recentTrades(SYM, 1000).map((t) => t.id)).toEqual([1]);
  });

  it('survives a snapshot', () => {
    const { sim } = liquidated();
    const restored = new Engine(futuresConfig());
    restored.importSnapshot(sim.engine.exportSnapshot());
    expect(restored.stateHash()).toBe(sim.engine.stateHash());
    expect(restored.getOrder(1, SYM, { orderId: 4 })).toEqual(sim.engine.getOrder(1, SYM, { orderId: 4 }));
    expect(restored.futuresOrderInfo(SYM, 4)?.liquidation).toBe(true);
    expect(restored.accountTrades(1, SYM)).toEqual(sim.engine.accountTrades(1, SYM));
  });
});
