import { beforeEach, describe, expect, it } from 'vitest';
import { generateClientOrderId } from '../../../src/engine/client-order-id.ts';
import { Sim, expectRejectedWithoutChange, lotSize, priceFilter, px, qty, rejectionOf, symbolConfig, types, u } from './helpers.ts';

describe('LIMIT orders', () => {
  let sim: Sim;
  beforeEach(() => {
    sim = new Sim();
    sim.createAccount(1, { USDT: '10000', BTC: '10' });
    sim.createAccount(2, { USDT: '10000', BTC: '10' });
    sim.createAccount(3, { USDT: '10000', BTC: '10' });
  });

  describe('resting', () => {
    it('a GTC BUY that does not cross rests NEW and locks price * quantity of quote', () => {
      const r = sim.buy(1, '2', '100');
      expect(types(r.events)).toEqual(['OrderAccepted']);
      expect(r.accepted).toMatchObject({
        symbol: 'BTCUSDT',
        orderId: 1,
        accountId: 1,
        side: 'BUY',
        orderType: 'LIMIT',
        timeInForce: 'GTC',
        price: px('100'),
        quantity: qty('2'),
        quoteOrderQty: 0,
        selfTradePreventionMode: 'NONE',
      });
      expect(sim.order(1, 1)).toMatchObject({ status: 'NEW', executedQty: 0, cummulativeQuoteQty: 0, origQty: qty('2'), lockedAmount: u('200') });
      expect(sim.balance(1, 'USDT')).toEqual({ free: u('9800'), locked: u('200') });
      expect(sim.engine.depth('BTCUSDT', 10)).toEqual({ bids: [[px('100'), qty('2')]], asks: [] });
    });

    it('a GTC SELL that does not cross rests NEW and locks the base quantity', () => {
      sim.sell(1, '1.5', '110');
      expect(sim.order(1, 1).status).toBe('NEW');
      expect(sim.balance(1, 'BTC')).toEqual({ free: qty('8.5'), locked: qty('1.5') });
      expect(sim.balance(1, 'USDT')).toEqual({ free: u('10000'), locked: 0 });
      expect(sim.engine.depth('BTCUSDT', 10).asks).toEqual([[px('110'), qty('1.5')]]);
    });

    it('orders at the same price on both sides never rest crossed: the later one trades', () => {
      sim.sell(1, '1', '100');
      const r = sim.buy(2, '1', '100');
      expect(r.trades).toHaveLength(1);
      expect(sim.engine.bookTicker('BTCUSDT')).toEqual({ bidPrice: 0, bidQty: 0, askPrice: 0, askQty: 0 });
    });
  });

  describe('crossing', () => {
    it('a crossing BUY trades at the maker price and refunds the excess reservation', () => {
      sim.sell(1, '1', '100');
      const r = sim.buy(2, '1', '105');
      expect(types(r.events)).toEqual(['OrderAccepted', 'TradeExecuted']);
      expect(r.trades[0]).toMatchObject({
        tradeId: 1,
        price: px('100'),
        quantity: qty('1'),
        quoteQuantity: u('100'),
        isBuyerMaker: false,
        takerOrderId: 2,
        makerOrderId: 1,
        takerAccountId: 2,
        makerAccountId: 1,
        takerStatus: 'FILLED',
        makerStatus: 'FILLED',
      });
      // Buyer reserved 105, paid 100, got the 5 back.
      expect(sim.balance(2, 'USDT')).toEqual({ free: u('9900'), locked: 0 });
      expect(sim.balance(2, 'BTC')).toEqual({ free: qty('11'), locked: 0 });
      expect(sim.balance(1, 'USDT')).toEqual({ free: u('10100'), locked: 0 });
      expect(sim.balance(1, 'BTC')).toEqual({ free: qty('9'), locked: 0 });
      expect(sim.order(2, 2)).toMatchObject({ status: 'FILLED', executedQty: qty('1'), cummulativeQuoteQty: u('100'), price: px('105') });
      expect(sim.order(1, 1)).toMatchObject({ status: 'FILLED', executedQty: qty('1'), cummulativeQuoteQty: u('100') });
    });

    it('a crossing SELL trades at the (higher) maker bid price', () => {
      sim.buy(1, '1', '100');
      const r = sim.sell(2, '1', '90');
      expect(r.trades[0]).toMatchObject({ price: px('100'), isBuyerMaker: true, takerStatus: 'FILLED', makerStatus: 'FILLED' });
      expect(sim.balance(2, 'USDT')).toEqual({ free: u('10100'), locked: 0 });
      expect(sim.balance(1, 'BTC')).toEqual({ free: qty('11'), locked: 0 });
    });

    it('a taker larger than the book fills partially and rests the rest as PARTIALLY_FILLED', () => {
      sim.sell(1, '1', '100');
      const r = sim.buy(2, '3', '101');
      expect(r.trades).toHaveLength(1);
      expect(r.trades[0]?.takerStatus).toBe('PARTIALLY_FILLED');
      expect(sim.order(2, 2)).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: qty('1'), cummulativeQuoteQty: u('100') });
      // Remaining 2 stay reserved at the limit price 101.
      expect(sim.balance(2, 'USDT')).toEqual({ free: u('10000') - u('100') - u('202'), locked: u('202') });
      expect(sim.engine.depth('BTCUSDT', 5)).toEqual({ bids: [[px('101'), qty('2')]], asks: [] });
    });

    it('a maker partially taken stays on the book as PARTIALLY_FILLED with its remaining quantity', () => {
      sim.sell(1, '5', '100');
      const r = sim.buy(2, '2', '100');
      expect(r.trades[0]).toMatchObject({ takerStatus: 'FILLED', makerStatus: 'PARTIALLY_FILLED' });
      expect(sim.order(1, 1)).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: qty('2'), lockedAmount: qty('3') });
      expect(sim.balance(1, 'BTC')).toEqual({ free: qty('5'), locked: qty('3') });
      expect(sim.engine.depth('BTCUSDT', 5).asks).toEqual([[px('100'), qty('3')]]);
    });

    it('a taker does not trade beyond its limit price', () => {
      sim.sell(1, '1', '100');
      sim.sell(1, '1', '102');
      const r = sim.buy(2, '2', '101');
      expect(r.trades.map((t) => t.price)).toEqual([px('100')]);
      expect(sim.engine.depth('BTCUSDT', 5)).toEqual({ bids: [[px('101'), qty('1')]], asks: [[px('102'), qty('1')]] });
    });
  });

  describe('priority', () => {
    it('a better price is taken first, whatever the arrival order', () => {
      sim.sell(1, '1', '103'); // order 1
      sim.sell(2, '1', '101'); // order 2
      sim.sell(3, '1', '102'); // order 3
      const r = sim.buy(1, '3', '103');
      expect(r.trades.map((t) => [t.makerOrderId, t.price])).toEqual([
        [2, px('101')],
        [3, px('102')],
        [1, px('103')],
      ]);
    });

    it('within one price the earliest order is taken first (FIFO)', () => {
      sim.buy(2, '1', '100'); // 1
      sim.buy(3, '1', '100'); // 2
      sim.buy(1, '1', '100'); // 3
      const r = sim.sell(1, '2.5', '100');
      expect(r.trades.map((t) => [t.makerOrderId, t.quantity])).toEqual([
        [1, qty('1')],
        [2, qty('1')],
        [3, qty('0.5')],
      ]);
      expect(sim.engine.bookOrders('BTCUSDT', 'BUY').map((o) => o.orderId)).toEqual([3]);
    });

    it('a partially filled maker keeps its place at the front of the queue', () => {
      sim.sell(1, '2', '100'); // 1
      sim.sell(2, '2', '100'); // 2
      sim.buy(3, '1', '100');
      const r = sim.buy(3, '2', '100');
      expect(r.trades.map((t) => [t.makerOrderId, t.quantity])).toEqual([
        [1, qty('1')],
        [2, qty('1')],
      ]);
    });
  });

  describe('identifiers', () => {
    it('orderIds and tradeIds increase by one per symbol, starting at 1', () => {
      const a = sim.sell(1, '1', '100');
      const b = sim.sell(1, '1', '100');
      const c = sim.buy(2, '2', '100');
      const d = sim.sell(1, '1', '99');
      const e = sim.buy(2, '1', '99');
      expect([a.orderId, b.orderId, c.orderId, d.orderId, e.orderId]).toEqual([1, 2, 3, 4, 5]);
      expect([...c.trades, ...e.trades].map((t) => t.tradeId)).toEqual([1, 2, 3]);
    });

    it('orderIds and tradeIds are numbered separately on each symbol', () => {
      const s = new Sim({ symbols: [symbolConfig(), symbolConfig({ symbol: 'ETHUSDT', baseAsset: 'ETH' })] });
      s.createAccount(1, { USDT: '1000', BTC: '1', ETH: '1' });
      s.createAccount(2, { USDT: '1000', BTC: '1', ETH: '1' });
      expect(s.sell(1, '1', '100').orderId).toBe(1);
      expect(s.sell(1, '1', '10', { symbol: 'ETHUSDT' }).orderId).toBe(1);
      const t1 = s.buy(2, '1', '100');
      const t2 = s.buy(2, '1', '10', { symbol: 'ETHUSDT' });
      expect([t1.orderId, t2.orderId]).toEqual([2, 2]);
      expect([t1.trades[0]?.tradeId, t2.trades[0]?.tradeId]).toEqual([1, 1]);
    });

    it('an order without clientOrderId gets a deterministic 22-character alphanumeric id', () => {
      const r = sim.buy(1, '1', '100');
      const id = r.accepted?.clientOrderId ?? '';
      expect(id).toMatch(/^exsim\d+[oc][1-9]\d*$/);
      expect(id).toBe(generateClientOrderId(0, 1, 0));
      expect(sim.order(1, 1).clientOrderId).toBe(id);

      const again = new Sim();
      again.createAccount(1, { USDT: '10000', BTC: '10' });
      again.createAccount(2, { USDT: '10000', BTC: '10' });
      again.createAccount(3, { USDT: '10000', BTC: '10' });
      expect(again.buy(1, '1', '100').accepted?.clientOrderId).toBe(id);
      expect(sim.buy(1, '1', '99').accepted?.clientOrderId).not.toBe(id);
    });

    it('the given clientOrderId is kept and reported', () => {
      const r = sim.buy(1, '1', '100', { clientOrderId: 'my-order-1' });
      expect(r.accepted?.clientOrderId).toBe('my-order-1');
      expect(sim.engine.getOrder(1, 'BTCUSDT', { clientOrderId: 'my-order-1' })?.orderId).toBe(1);
    });

    it('a clientOrderId already used by an open order of the same account and symbol is DUPLICATE_ORDER', () => {
      sim.buy(1, '1', '100', { clientOrderId: 'dup' });
      expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'BUY', price: '99', qty: '1', clientOrderId: 'dup' }), 'DUPLICATE_ORDER');
      // The refused order consumed no orderId.
      expect(sim.buy(1, '1', '98').orderId).toBe(2);
    });

    it('the same clientOrderId is fine for another account or another symbol', () => {
      const s = new Sim({ symbols: [symbolConfig(), symbolConfig({ symbol: 'ETHUSDT', baseAsset: 'ETH' })] });
      s.createAccount(1, { USDT: '1000' });
      s.createAccount(2, { USDT: '1000' });
      s.buy(1, '1', '100', { clientOrderId: 'same' });
      expect(s.buy(2, '1', '100', { clientOrderId: 'same' }).accepted).toBeDefined();
      expect(s.buy(1, '1', '10', { clientOrderId: 'same', symbol: 'ETHUSDT' }).accepted).toBeDefined();
    });

    it('sending the generated id of an open order as clientOrderId is DUPLICATE_ORDER; after a cancel it can be reused', () => {
      const generated = sim.buy(1, '1', '100').accepted?.clientOrderId ?? '';
      expect(rejectionOf(sim.buy(1, '1', '99', { clientOrderId: generated }).events)).toBe('DUPLICATE_ORDER');
      // Another account may use the same text.
      expect(sim.buy(2, '1', '99', { clientOrderId: generated }).accepted).toBeDefined();
      sim.cancel(1, { orderId: 1 });
      const reuse = sim.buy(1, '1', '98', { clientOrderId: generated });
      expect(reuse.accepted?.orderId).toBe(3);
      expect(sim.engine.getOrder(1, 'BTCUSDT', { clientOrderId: generated })?.orderId).toBe(3);
      expect(rejectionOf(sim.buy(1, '1', '97', { clientOrderId: generated }).events)).toBe('DUPLICATE_ORDER');
    });

    it('a clientOrderId can be reused once its order is filled', () => {
      sim.buy(1, '1', '100', { clientOrderId: 'reuse' });
      sim.sell(2, '1', '100');
      expect(sim.order(1, 1).status).toBe('FILLED');
      const r = sim.buy(1, '1', '100', { clientOrderId: 'reuse' });
      expect(r.accepted?.orderId).toBe(3);
      // Lookup by client id finds the latest order with that id.
      expect(sim.engine.getOrder(1, 'BTCUSDT', { clientOrderId: 'reuse' })?.orderId).toBe(3);
    });

    it('a clientOrderId can be reused once its order is canceled', () => {
      sim.buy(1, '1', '100', { clientOrderId: 'reuse' });
      sim.cancel(1, { orderId: 1 });
      expect(sim.buy(1, '1', '100', { clientOrderId: 'reuse' }).accepted?.orderId).toBe(2);
    });

    it('a clientOrderId can be reused once its order expired (IOC)', () => {
      sim.buy(1, '1', '100', { clientOrderId: 'ioc', tif: 'IOC' });
      expect(sim.order(1, 1).status).toBe('EXPIRED');
      expect(sim.buy(1, '1', '100', { clientOrderId: 'ioc' }).accepted?.orderId).toBe(2);
    });
  });

  describe('amounts', () => {
    it('a BUY costing more quote than is free is INSUFFICIENT_BALANCE and changes nothing', () => {
      expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'BUY', price: '1000.01', qty: '10' }), 'INSUFFICIENT_BALANCE');
    });

    it('a BUY costing exactly the free quote is accepted and locks all of it', () => {
      sim.buy(1, '10', '1000');
      expect(sim.balance(1, 'USDT')).toEqual({ free: 0, locked: u('10000') });
    });

    it('a SELL of more base than is free is INSUFFICIENT_BALANCE', () => {
      expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'SELL', price: '100', qty: '10.001' }), 'INSUFFICIENT_BALANCE');
    });

    it('funds locked by an open order are not available to the next one', () => {
      sim.sell(1, '6', '100');
      expect(rejectionOf(sim.sell(1, '5', '100').events)).toBe('INSUFFICIENT_BALANCE');
      expect(sim.sell(1, '4', '100').accepted).toBeDefined();
    });

    it('on a grid finer than the quote precision each fill floors its notional, the same for both sides', () => {
      // ETHBTC-like: tick 0.00001 BTC, step 0.0001 ETH -> one tick * one step = 1e-9 BTC.
      const s = new Sim(symbolConfig({ symbol: 'ETHBTC', baseAsset: 'ETH', quoteAsset: 'BTC' }, [priceFilter('0.00001', '1000', '0.00001'), lotSize('0.0001', '100000', '0.0001')]));
      s.createAccount(1, { ETH: '1' });
      s.createAccount(2, { BTC: '1' });
      s.sell(1, '0.0003', '0.05001'); // notional 0.000015003 BTC -> 1500 units
      expect(s.balance(1, 'ETH').locked).toBe(qty('0.0003'));
      const r = s.buy(2, '0.0001', '0.05001', { symbol: 'ETHBTC' }); // 0.000005001 -> 500 units
      expect(r.trades[0]).toMatchObject({ quoteQuantity: 500, quantity: qty('0.0001') });
      expect(s.balance(1, 'BTC').free).toBe(500);
      expect(s.balance(2, 'BTC')).toEqual({ free: u('1') - 500, locked: 0 });
      // One tick times one step is 1e-9 BTC: it floors to zero.
      expect(rejectionOf(s.buy(2, '0.0001', '0.00001', { symbol: 'ETHBTC' }).events)).toBe('NOTIONAL_NOT_POSITIVE');
      s.engine.checkInvariants();
    });

    it('zero, negative or fractional amounts are INVALID_AMOUNT', () => {
      const base = sim.placeCommand(1, { side: 'BUY', price: '100', qty: '1' });
      expectRejectedWithoutChange(sim, { ...base, quantity: 0 }, 'INVALID_AMOUNT');
      expectRejectedWithoutChange(sim, { ...base, price: -1 }, 'INVALID_AMOUNT');
      expectRejectedWithoutChange(sim, { ...base, quantity: 1.5 }, 'INVALID_AMOUNT');
    });

    it('an unknown symbol or account is refused', () => {
      expectRejectedWithoutChange(sim, { ...sim.placeCommand(1, { side: 'BUY', price: '100', qty: '1' }), symbol: 'NOPE' }, 'UNKNOWN_SYMBOL');
      expectRejectedWithoutChange(sim, sim.placeCommand(99, { side: 'BUY', price: '100', qty: '1' }), 'UNKNOWN_ACCOUNT');
    });
  });
});
