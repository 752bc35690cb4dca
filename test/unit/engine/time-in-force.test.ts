import { beforeEach, describe, expect, it } from 'vitest';
import { Sim, px, qty, types, u } from './helpers.ts';

describe('time in force', () => {
  let sim: Sim;
  beforeEach(() => {
    sim = new Sim();
    sim.createAccount(1, { USDT: '10000', BTC: '10' });
    sim.createAccount(2, { USDT: '10000', BTC: '10' });
    sim.sell(1, '1', '100'); // 1
    sim.sell(1, '1', '101'); // 2
  });

  describe('IOC', () => {
    it('partly filled: trades what it can, the rest EXPIRED with UNFILLED_IOC_QUANTITY_EXPIRED', () => {
      const r = sim.buy(2, '3', '101', { tif: 'IOC' });
      expect(types(r.events)).toEqual(['OrderAccepted', 'TradeExecuted', 'TradeExecuted', 'OrderExpired']);
      expect(r.accepted?.timeInForce).toBe('IOC');
      expect(r.expired[0]).toMatchObject({ orderId: 3, accountId: 2, status: 'EXPIRED', expiryReason: 'UNFILLED_IOC_QUANTITY_EXPIRED' });
      expect(sim.order(2, 3)).toMatchObject({
        status: 'EXPIRED',
        expiryReason: 'UNFILLED_IOC_QUANTITY_EXPIRED',
        executedQty: qty('2'),
        cummulativeQuoteQty: u('201'),
        lockedAmount: 0,
      });
      // Nothing rests and nothing stays locked.
      expect(sim.engine.depth('BTCUSDT', 5)).toEqual({ bids: [], asks: [] });
      expect(sim.balance(2, 'USDT')).toEqual({ free: u('9799'), locked: 0 });
      expect(sim.engine.openOrders(2)).toEqual([]);
    });

    it('not filled at all: EXPIRED with executedQty 0 and all funds released', () => {
      const r = sim.buy(2, '1', '99', { tif: 'IOC' });
      expect(types(r.events)).toEqual(['OrderAccepted', 'OrderExpired']);
      expect(sim.order(2, 3)).toMatchObject({ status: 'EXPIRED', executedQty: 0, expiryReason: 'UNFILLED_IOC_QUANTITY_EXPIRED' });
      expect(sim.balance(2, 'USDT')).toEqual({ free: u('10000'), locked: 0 });
    });

    it('fully filled: FILLED, no expiry event', () => {
      const r = sim.buy(2, '2', '101', { tif: 'IOC' });
      expect(types(r.events)).toEqual(['OrderAccepted', 'TradeExecuted', 'TradeExecuted']);
      expect(r.trades[1]?.takerStatus).toBe('FILLED');
      expect(sim.order(2, 3)).toMatchObject({ status: 'FILLED', expiryReason: 'NONE' });
    });
  });

  describe('FOK', () => {
    it('cannot fill completely: EXPIRED with UNFILLED_FOK_ORDER_EXPIRED and no trades', () => {
      const hashBook = JSON.stringify(sim.engine.depth('BTCUSDT', 10));
      const r = sim.buy(2, '2.001', '101', { tif: 'FOK' });
      expect(types(r.events)).toEqual(['OrderAccepted', 'OrderExpired']);
      expect(r.expired[0]).toMatchObject({ status: 'EXPIRED', expiryReason: 'UNFILLED_FOK_ORDER_EXPIRED' });
      expect(sim.order(2, 3)).toMatchObject({ status: 'EXPIRED', executedQty: 0, cummulativeQuoteQty: 0, timeInForce: 'FOK' });
      expect(JSON.stringify(sim.engine.depth('BTCUSDT', 10))).toBe(hashBook);
      expect(sim.balance(2, 'USDT')).toEqual({ free: u('10000'), locked: 0 });
      expect(sim.engine.lastTrade('BTCUSDT')).toBeUndefined();
    });

    it('limited by its price: liquidity beyond the limit does not count', () => {
      const r = sim.buy(2, '2', '100', { tif: 'FOK' });
      expect(r.trades).toEqual([]);
      expect(sim.order(2, 3).status).toBe('EXPIRED');
    });

    it('can fill completely: FILLED across levels', () => {
      const r = sim.buy(2, '2', '101', { tif: 'FOK' });
      expect(r.trades.map((t) => [t.price, t.quantity])).toEqual([
        [px('100'), qty('1')],
        [px('101'), qty('1')],
      ]);
      expect(sim.order(2, 3)).toMatchObject({ status: 'FILLED', executedQty: qty('2'), cummulativeQuoteQty: u('201') });
      expect(sim.balance(2, 'USDT')).toEqual({ free: u('9799'), locked: 0 });
    });

    it('a SELL FOK fills against bids when they are enough', () => {
      sim.buy(2, '3', '99'); // 3
      const r = sim.sell(1, '3', '99', { tif: 'FOK' });
      expect(r.trades).toHaveLength(1);
      expect(sim.order(1, 4).status).toBe('FILLED');
    });

    it('a FOK still needs the funds for its whole quantity', () => {
      sim.createAccount(3, { USDT: '100' });
      const r = sim.buy(3, '2', '101', { tif: 'FOK' });
      expect(r.rejected?.reason).toBe('INSUFFICIENT_BALANCE');
    });
  });

  describe('GTC', () => {
    it('rests whatever did not fill', () => {
      sim.buy(2, '3', '101');
      expect(sim.order(2, 3)).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: qty('2') });
      expect(sim.engine.openOrders(2).map((o) => o.orderId)).toEqual([3]);
    });
  });
});
