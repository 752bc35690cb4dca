import { beforeEach, describe, expect, it } from 'vitest';
import { Sim, px, qty, symbolConfig, u } from './helpers.ts';

describe('queries', () => {
  let sim: Sim;
  let t0: number;
  beforeEach(() => {
    sim = new Sim({ symbols: [symbolConfig(), symbolConfig({ symbol: 'ETHUSDT', baseAsset: 'ETH' })] });
    const fee = { standardCommission: { maker: 100_000, taker: 200_000, buyer: 0, seller: 0 } };
    sim.createAccount(1, { USDT: '10000', BTC: '10', ETH: '10' }, fee);
    sim.createAccount(2, { USDT: '10000', BTC: '10', ETH: '10' }, fee);
    sim.sell(1, '1', '101', { clientOrderId: 'a1' }); // 1
    sim.sell(1, '2', '102'); // 2
    sim.sell(2, '1', '101'); // 3
    sim.buy(1, '1', '99'); // 4
    sim.buy(2, '3', '98'); // 5
    sim.buy(2, '0.5', '99'); // 6
    t0 = sim.now + 1;
    sim.buy(2, '1.5', '101'); // 7: takes 1 @101 from 1, 0.5 @101 from 3
    sim.sell(1, '1', '5', { symbol: 'ETHUSDT' }); // ETH 1
  });

  it('executedQty answers what getOrder(...).executedQty would, for any account, symbol and id', () => {
    // Open (3 partly filled), closed (1, 7), another account's, the wrong symbol, unknown and bad ids, an unknown account.
    for (const accountId of [1, 2, 3]) {
      for (const symbol of ['BTCUSDT', 'ETHUSDT', 'XRPUSDT']) {
        for (const orderId of [1, 2, 3, 4, 5, 6, 7, 8, 99, 0, -1, 1.5, Number.NaN]) {
          expect(sim.engine.executedQty(accountId, symbol, orderId)).toBe(sim.engine.getOrder(accountId, symbol, { orderId })?.executedQty);
        }
      }
    }
    expect(sim.engine.executedQty(2, 'BTCUSDT', 3)).toBe(qty('0.5'));
  });

  describe('getOrder', () => {
    it('finds an open order by orderId and by clientOrderId', () => {
      const byId = sim.engine.getOrder(1, 'BTCUSDT', { orderId: 2 });
      expect(byId).toMatchObject({ symbol: 'BTCUSDT', orderId: 2, accountId: 1, side: 'SELL', status: 'NEW', origQty: qty('2'), price: px('102'), orderListId: -1 });
      const generated = byId?.clientOrderId ?? '';
      expect(sim.engine.getOrder(1, 'BTCUSDT', { clientOrderId: generated })?.orderId).toBe(2);
    });

    it('finds a closed order by orderId and by clientOrderId', () => {
      expect(sim.engine.getOrder(1, 'BTCUSDT', { orderId: 1 })).toMatchObject({ status: 'FILLED', executedQty: qty('1'), cummulativeQuoteQty: u('101'), clientOrderId: 'a1' });
      expect(sim.engine.getOrder(1, 'BTCUSDT', { clientOrderId: 'a1' })?.orderId).toBe(1);
      expect(sim.engine.getOrder(2, 'BTCUSDT', { orderId: 7 })).toMatchObject({ status: 'FILLED', executedQty: qty('1.5'), cummulativeQuoteQty: u('151.5') });
    });

    it('with both ids they must agree', () => {
      expect(sim.engine.getOrder(1, 'BTCUSDT', { orderId: 1, clientOrderId: 'a1' })?.orderId).toBe(1);
      expect(sim.engine.getOrder(1, 'BTCUSDT', { orderId: 2, clientOrderId: 'a1' })).toBeUndefined();
    });

    it("does not show another account's order, an unknown id or an unknown symbol", () => {
      expect(sim.engine.getOrder(2, 'BTCUSDT', { orderId: 1 })).toBeUndefined();
      expect(sim.engine.getOrder(2, 'BTCUSDT', { clientOrderId: 'a1' })).toBeUndefined();
      expect(sim.engine.getOrder(1, 'BTCUSDT', { orderId: 999 })).toBeUndefined();
      expect(sim.engine.getOrder(1, 'NOPE', { orderId: 1 })).toBeUndefined();
    });

    it('reports times: creation, last update, working', () => {
      const o = sim.engine.getOrder(1, 'BTCUSDT', { orderId: 1 });
      expect(o?.time).toBeLessThan(t0);
      expect(o?.updateTime).toBe(t0);
      expect(o?.workingTime).toBe(o?.time);
    });
  });

  it('openOrders of one symbol, by orderId', () => {
    expect(sim.engine.openOrders(1, 'BTCUSDT').map((o) => [o.orderId, o.status])).toEqual([
      [2, 'NEW'],
      [4, 'NEW'],
    ]);
    expect(sim.engine.openOrders(2, 'BTCUSDT').map((o) => [o.orderId, o.status])).toEqual([
      [3, 'PARTIALLY_FILLED'],
      [5, 'NEW'],
      [6, 'NEW'],
    ]);
  });

  it('openOrders stay in orderId order after orders in the middle close', () => {
    for (let i = 0; i < 5; i++) sim.buy(1, '0.1', String(90 - i)); // 8..12
    sim.cancel(1, { orderId: 9 });
    sim.cancel(1, { orderId: 2 });
    sim.cancel(1, { orderId: 11 });
    expect(sim.engine.openOrders(1, 'BTCUSDT').map((o) => o.orderId)).toEqual([4, 8, 10, 12]);
  });

  it('a closed order keeps every field it had (strategy ids, prevented quantity, expiry reason)', () => {
    const events = sim.apply({ type: 'PlaceOrder', accountId: 2, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: px('50'), quantity: qty('1'), strategyId: 77, strategyType: 1_000_001 });
    const orderId = events[0]?.type === 'OrderAccepted' ? events[0].orderId : -1;
    const open = sim.engine.getOrder(2, 'BTCUSDT', { orderId });
    expect(open).toMatchObject({ strategyId: 77, strategyType: 1_000_001, status: 'NEW' });
    sim.cancel(2, { orderId });
    const closed = sim.engine.getOrder(2, 'BTCUSDT', { orderId });
    expect(closed).toEqual({ ...open, status: 'CANCELED', updateTime: sim.now, lockedAmount: 0 });
    // An IOC remainder: expiry reason and fills survive.
    sim.buy(2, '1', '102', { tif: 'IOC' }); // takes 0.5 @101 (order 3) and 1 @102... 2 has 2 @102
    const ioc = sim.engine.allOrders(2, 'BTCUSDT').at(-1);
    expect(ioc).toMatchObject({ status: 'FILLED' });
    sim.buy(2, '5', '102', { tif: 'IOC' });
    expect(sim.engine.allOrders(2, 'BTCUSDT').at(-1)).toMatchObject({ status: 'EXPIRED', expiryReason: 'UNFILLED_IOC_QUANTITY_EXPIRED', executedQty: qty('1.5') });
  });

  it('openOrders of all symbols, by symbol then orderId', () => {
    expect(sim.engine.openOrders(1).map((o) => [o.symbol, o.orderId])).toEqual([
      ['BTCUSDT', 2],
      ['BTCUSDT', 4],
      ['ETHUSDT', 1],
    ]);
    expect(sim.engine.openOrders(99)).toEqual([]);
  });

  it('allOrders lists open and closed orders of the account by orderId', () => {
    expect(sim.engine.allOrders(1, 'BTCUSDT').map((o) => [o.orderId, o.status])).toEqual([
      [1, 'FILLED'],
      [2, 'NEW'],
      [4, 'NEW'],
    ]);
    sim.cancel(1, { orderId: 4 });
    expect(sim.engine.allOrders(1, 'BTCUSDT').map((o) => o.status)).toEqual(['FILLED', 'NEW', 'CANCELED']);
    expect(sim.engine.allOrders(2, 'BTCUSDT').map((o) => o.orderId)).toEqual([3, 5, 6, 7]);
  });

  it('accountTrades carry isBuyer, isMaker and the commission of that side (a self-trade gives two rows)', () => {
    expect(sim.engine.accountTrades(2, 'BTCUSDT')).toEqual([
      { symbol: 'BTCUSDT', id: 1, orderId: 7, orderListId: -1, price: px('101'), qty: qty('1'), quoteQty: u('101'), commission: qty('0.002'), commissionAsset: 'BTC', time: t0, isBuyer: true, isMaker: false, isBestMatch: true },
      { symbol: 'BTCUSDT', id: 2, orderId: 7, orderListId: -1, price: px('101'), qty: qty('0.5'), quoteQty: u('50.5'), commission: qty('0.001'), commissionAsset: 'BTC', time: t0, isBuyer: true, isMaker: false, isBestMatch: true },
      { symbol: 'BTCUSDT', id: 2, orderId: 3, orderListId: -1, price: px('101'), qty: qty('0.5'), quoteQty: u('50.5'), commission: u('0.0505'), commissionAsset: 'USDT', time: t0, isBuyer: false, isMaker: true, isBestMatch: true },
    ]);
    expect(sim.engine.accountTrades(1, 'BTCUSDT')).toEqual([
      { symbol: 'BTCUSDT', id: 1, orderId: 1, orderListId: -1, price: px('101'), qty: qty('1'), quoteQty: u('101'), commission: u('0.101'), commissionAsset: 'USDT', time: t0, isBuyer: false, isMaker: true, isBestMatch: true },
    ]);
    expect(sim.engine.accountTrades(1, 'ETHUSDT')).toEqual([]);
  });

  it('depth aggregates each price, best first, limited per side', () => {
    expect(sim.engine.depth('BTCUSDT', 100)).toEqual({
      bids: [
        [px('99'), qty('1.5')],
        [px('98'), qty('3')],
      ],
      asks: [
        [px('101'), qty('0.5')],
        [px('102'), qty('2')],
      ],
    });
    expect(sim.engine.depth('BTCUSDT', 1)).toEqual({ bids: [[px('99'), qty('1.5')]], asks: [[px('101'), qty('0.5')]] });
    expect(sim.engine.depth('NOPE', 5)).toEqual({ bids: [], asks: [] });
  });

  it('bookTicker shows the best bid and ask with their total quantity', () => {
    expect(sim.engine.bookTicker('BTCUSDT')).toEqual({ bidPrice: px('99'), bidQty: qty('1.5'), askPrice: px('101'), askQty: qty('0.5') });
    expect(sim.engine.bookTicker('ETHUSDT')).toEqual({ bidPrice: 0, bidQty: 0, askPrice: px('5'), askQty: qty('1') });
    expect(sim.engine.bookTicker('NOPE')).toBeUndefined();
  });

  it('bookOrders lists one side in priority order', () => {
    expect(sim.engine.bookOrders('BTCUSDT', 'BUY').map((o) => o.orderId)).toEqual([4, 6, 5]);
    expect(sim.engine.bookOrders('BTCUSDT', 'SELL').map((o) => o.orderId)).toEqual([3, 2]);
  });

  it('lastTrade and recentTrades (oldest first, limited to the newest)', () => {
    expect(sim.engine.lastTrade('BTCUSDT')).toEqual({ id: 2, price: px('101'), qty: qty('0.5'), quoteQty: u('50.5'), time: t0, isBuyerMaker: false, isBestMatch: true });
    expect(sim.engine.lastTrade('ETHUSDT')).toBeUndefined();
    expect(sim.engine.recentTrades('BTCUSDT', 10).map((t) => t.id)).toEqual([1, 2]);
    expect(sim.engine.recentTrades('BTCUSDT', 1).map((t) => t.id)).toEqual([2]);
    sim.sell(2, '0.5', '99'); // a SELL taker: buyer is maker
    expect(sim.engine.lastTrade('BTCUSDT')).toMatchObject({ id: 3, isBuyerMaker: true, price: px('99') });
  });

  it('recentTrades keeps the newest 1000 trades', () => {
    const s = new Sim();
    s.createAccount(1, { BTC: '10' });
    s.createAccount(2, { USDT: '100000' });
    for (let i = 0; i < 1001; i++) s.sell(1, '0.001', '100');
    expect(s.buy(2, '1.001', '100').trades).toHaveLength(1001);
    const recent = s.engine.recentTrades('BTCUSDT', 1000);
    expect(recent).toHaveLength(1000);
    expect(recent[0]?.id).toBe(2);
    expect(recent[999]?.id).toBe(1001);
    s.sell(1, '0.001', '100');
    s.buy(2, '0.001', '100');
    const after = s.engine.recentTrades('BTCUSDT', 3).map((t) => t.id);
    expect(after).toEqual([1000, 1001, 1002]);
    expect(s.engine.recentTrades('BTCUSDT', 5000)[0]?.id).toBe(3);
  });

  it('account view: balances, rates, permissions', () => {
    const view = sim.engine.account(1);
    expect(view).toMatchObject({ accountId: 1, canTrade: true, permissions: ['SPOT'], tradeGroupId: -1, standardCommission: { maker: 100_000, taker: 200_000, buyer: 0, seller: 0 } });
    expect(view?.balances.find((b) => b.asset === 'BTC')).toEqual({ asset: 'BTC', free: qty('7'), locked: qty('2') });
    expect(sim.engine.account(42)).toBeUndefined();
    expect(sim.engine.accountIds()).toEqual([1, 2]);
    expect(sim.engine.symbolNames()).toEqual(['BTCUSDT', 'ETHUSDT']);
  });
});
