import { beforeEach, describe, expect, it } from 'vitest';
import { generateClientOrderId } from '../../../src/engine/client-order-id.ts';
import { Sim, canceledEvents, expectRejectedWithoutChange, qty, rejectionOf, symbolConfig, types, u } from './helpers.ts';

describe('CancelOrder', () => {
  let sim: Sim;
  beforeEach(() => {
    sim = new Sim({ symbols: [symbolConfig(), symbolConfig({ symbol: 'ETHUSDT', baseAsset: 'ETH' })] });
    sim.createAccount(1, { USDT: '10000', BTC: '10', ETH: '10' });
    sim.createAccount(2, { USDT: '10000', BTC: '10', ETH: '10' });
    sim.buy(1, '2', '100', { clientOrderId: 'bid-1' }); // 1
    sim.sell(1, '1', '110'); // 2
  });

  const cmd = (ref: Record<string, unknown>) => ({ type: 'CancelOrder' as const, accountId: 1, symbol: 'BTCUSDT', ...ref });

  it('by orderId: CANCELED, off the book, funds released', () => {
    const events = sim.cancel(1, { orderId: 1 });
    expect(types(events)).toEqual(['OrderCanceled']);
    expect(events[0]).toMatchObject({ symbol: 'BTCUSDT', orderId: 1, accountId: 1 });
    expect(sim.order(1, 1)).toMatchObject({ status: 'CANCELED', lockedAmount: 0, expiryReason: 'NONE' });
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('10000'), locked: 0 });
    expect(sim.engine.depth('BTCUSDT', 5).bids).toEqual([]);
    expect(sim.engine.openOrders(1).map((o) => o.orderId)).toEqual([2]);
  });

  it('by origClientOrderId', () => {
    const events = sim.cancel(1, { origClientOrderId: 'bid-1' });
    expect(canceledEvents(events)[0]?.orderId).toBe(1);
  });

  it('by a generated clientOrderId', () => {
    const generated = sim.order(1, 2).clientOrderId;
    const events = sim.cancel(1, { origClientOrderId: generated });
    expect(canceledEvents(events)[0]?.orderId).toBe(2);
    expect(sim.balance(1, 'BTC')).toEqual({ free: qty('10'), locked: 0 });
  });

  it('by both ids when they agree', () => {
    expect(canceledEvents(sim.cancel(1, { orderId: 1, origClientOrderId: 'bid-1' }))).toHaveLength(1);
  });

  it('by both ids when they disagree: UNKNOWN_ORDER, nothing canceled', () => {
    expectRejectedWithoutChange(sim, cmd({ orderId: 2, origClientOrderId: 'bid-1' }), 'UNKNOWN_ORDER');
  });

  it('with neither id: CANCEL_ID_MISSING', () => {
    expectRejectedWithoutChange(sim, cmd({}), 'CANCEL_ID_MISSING');
  });

  it('an unknown orderId or client id: UNKNOWN_ORDER', () => {
    expectRejectedWithoutChange(sim, cmd({ orderId: 99 }), 'UNKNOWN_ORDER');
    expectRejectedWithoutChange(sim, cmd({ orderId: 0 }), 'UNKNOWN_ORDER');
    expectRejectedWithoutChange(sim, cmd({ origClientOrderId: 'nope' }), 'UNKNOWN_ORDER');
  });

  it("another account's order: UNKNOWN_ORDER", () => {
    expectRejectedWithoutChange(sim, { ...cmd({ orderId: 1 }), accountId: 2 }, 'UNKNOWN_ORDER');
    expectRejectedWithoutChange(sim, { ...cmd({ origClientOrderId: 'bid-1' }), accountId: 2 }, 'UNKNOWN_ORDER');
  });

  it('an order on another symbol is not found through this one', () => {
    expectRejectedWithoutChange(sim, { ...cmd({ origClientOrderId: 'bid-1' }), symbol: 'ETHUSDT' }, 'UNKNOWN_ORDER');
  });

  it('a filled order: UNKNOWN_ORDER', () => {
    sim.buy(2, '1', '110'); // fills order 2
    expect(sim.order(1, 2).status).toBe('FILLED');
    expectRejectedWithoutChange(sim, cmd({ orderId: 2 }), 'UNKNOWN_ORDER');
  });

  it('an already canceled order: UNKNOWN_ORDER', () => {
    sim.cancel(1, { orderId: 1 });
    expectRejectedWithoutChange(sim, cmd({ orderId: 1 }), 'UNKNOWN_ORDER');
  });

  it('a partially filled order releases only what it still reserves', () => {
    sim.sell(2, '0.5', '100'); // fills 0.5 of order 1
    expect(sim.order(1, 1).status).toBe('PARTIALLY_FILLED');
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('9800'), locked: u('150') });
    sim.cancel(1, { orderId: 1 });
    expect(sim.order(1, 1)).toMatchObject({ status: 'CANCELED', executedQty: qty('0.5') });
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('9950'), locked: 0 });
    expect(sim.balance(1, 'BTC').free).toBe(qty('9.5'));
  });

  describe('cancelRestrictions', () => {
    it('ONLY_NEW cancels a NEW order', () => {
      expect(canceledEvents(sim.cancel(1, { orderId: 1, cancelRestrictions: 'ONLY_NEW' }))).toHaveLength(1);
    });

    it('ONLY_NEW refuses a PARTIALLY_FILLED order: CANCEL_RESTRICTIONS_NOT_MET', () => {
      sim.sell(2, '0.5', '100');
      expectRejectedWithoutChange(sim, cmd({ orderId: 1, cancelRestrictions: 'ONLY_NEW' }), 'CANCEL_RESTRICTIONS_NOT_MET');
    });

    it('ONLY_PARTIALLY_FILLED refuses a NEW order', () => {
      expectRejectedWithoutChange(sim, cmd({ orderId: 1, cancelRestrictions: 'ONLY_PARTIALLY_FILLED' }), 'CANCEL_RESTRICTIONS_NOT_MET');
    });

    it('ONLY_PARTIALLY_FILLED cancels a PARTIALLY_FILLED order', () => {
      sim.sell(2, '0.5', '100');
      expect(canceledEvents(sim.cancel(1, { orderId: 1, cancelRestrictions: 'ONLY_PARTIALLY_FILLED' }))).toHaveLength(1);
    });
  });

  describe("the cancel's own client id", () => {
    it('is newClientOrderId when given', () => {
      const events = sim.cancel(1, { orderId: 1, newClientOrderId: 'cancel-me' });
      expect(canceledEvents(events)[0]?.cancelClientOrderId).toBe('cancel-me');
      // The order keeps its own id.
      expect(sim.order(1, 1).clientOrderId).toBe('bid-1');
    });

    it('is generated (22 chars, deterministic, distinct from the order id) when absent', () => {
      const events = sim.cancel(1, { orderId: 1 });
      const id = canceledEvents(events)[0]?.cancelClientOrderId ?? '';
      expect(id).toMatch(/^exsim\d+[oc][1-9]\d*$/);
      expect(id).toBe(generateClientOrderId(0, 1, 1));
      expect(id).not.toBe(generateClientOrderId(0, 1, 0));
    });
  });

  describe('symbol status', () => {
    it('cancels are accepted while CANCEL_ONLY (placing is not)', () => {
      sim.apply({ type: 'SetSymbolStatus', symbol: 'BTCUSDT', status: 'CANCEL_ONLY' });
      expect(rejectionOf(sim.buy(1, '1', '90').events)).toBe('MARKET_CLOSED');
      expect(canceledEvents(sim.cancel(1, { orderId: 1 }))).toHaveLength(1);
    });

    it('cancels are refused while HALT: MARKET_CLOSED', () => {
      sim.apply({ type: 'SetSymbolStatus', symbol: 'BTCUSDT', status: 'HALT' });
      expectRejectedWithoutChange(sim, cmd({ orderId: 1 }), 'MARKET_CLOSED');
    });
  });
});

describe('CancelAllOrders', () => {
  it("cancels every open order of the account on the symbol, in orderId order, and nothing else", () => {
    const sim = new Sim({ symbols: [symbolConfig(), symbolConfig({ symbol: 'ETHUSDT', baseAsset: 'ETH' })] });
    sim.createAccount(1, { USDT: '10000', BTC: '10', ETH: '10' });
    sim.createAccount(2, { USDT: '10000', BTC: '10', ETH: '10' });
    sim.buy(1, '1', '100'); // 1
    sim.buy(2, '1', '100'); // 2
    sim.sell(1, '1', '110'); // 3
    sim.buy(1, '1', '99'); // 4
    sim.sell(1, '1', '20', { symbol: 'ETHUSDT' }); // ETH 1
    sim.cancel(1, { orderId: 4 });
    const events = sim.apply({ type: 'CancelAllOrders', accountId: 1, symbol: 'BTCUSDT' });
    expect(types(events)).toEqual(['OrderCanceled', 'OrderCanceled']);
    const canceled = canceledEvents(events);
    expect(canceled.map((e) => e.orderId)).toEqual([1, 3]);
    for (const e of canceled) expect(e.cancelClientOrderId).toMatch(/^exsim\d+[oc][1-9]\d*$/);
    expect(sim.engine.openOrders(1, 'BTCUSDT')).toEqual([]);
    expect(sim.engine.openOrders(1, 'ETHUSDT').map((o) => o.orderId)).toEqual([1]);
    expect(sim.engine.openOrders(2).map((o) => o.orderId)).toEqual([2]);
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('10000'), locked: 0 });
    expect(sim.balance(1, 'BTC')).toEqual({ free: qty('10'), locked: 0 });
    expect(sim.balance(1, 'ETH')).toEqual({ free: qty('9'), locked: qty('1') });
  });

  it('with no open order on the symbol: UNKNOWN_ORDER', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '1000' });
    sim.createAccount(2, { USDT: '1000' });
    sim.buy(2, '1', '100');
    expectRejectedWithoutChange(sim, { type: 'CancelAllOrders', accountId: 1, symbol: 'BTCUSDT' }, 'UNKNOWN_ORDER');
  });
});
