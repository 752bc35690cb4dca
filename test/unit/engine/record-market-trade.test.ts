import { describe, expect, it } from 'vitest';
import { expectRejectedWithoutChange, px, qty, Sim, symbolConfig, u } from './helpers.ts';

describe('RecordMarketTrade', () => {
  it('joins the tape with the next trade id and becomes the last trade', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '1000', BTC: '1' });
    sim.createAccount(2, { USDT: '1000', BTC: '1' });
    sim.place(1, { side: 'SELL', type: 'LIMIT', tif: 'GTC', price: '100', qty: '1' });
    sim.place(2, { side: 'BUY', type: 'LIMIT', tif: 'IOC', price: '100', qty: '0.5' }); // own trade #1
    const events = sim.apply({ type: 'RecordMarketTrade', symbol: 'BTCUSDT', price: px('101.5'), quantity: qty('0.2'), isBuyerMaker: true });
    expect(events).toEqual([
      expect.objectContaining({ type: 'MarketTradeRecorded', tradeId: 2, price: px('101.5'), quantity: qty('0.2'), quoteQuantity: u('20.3'), isBuyerMaker: true }),
    ]);
    expect(sim.engine.lastTrade('BTCUSDT')).toMatchObject({ id: 2, price: px('101.5'), qty: qty('0.2'), quoteQty: u('20.3'), isBuyerMaker: true });
    expect(sim.engine.recentTrades('BTCUSDT', 10).map((t) => t.id)).toEqual([1, 2]);
    // The next trade of the book continues the same sequence.
    const next = sim.place(2, { side: 'BUY', type: 'LIMIT', tif: 'IOC', price: '100', qty: '0.1' });
    expect(next.trades[0]?.tradeId).toBe(3);
  });

  it('moves no balance and fills no order', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '1000', BTC: '1' });
    sim.place(1, { side: 'SELL', type: 'LIMIT', tif: 'GTC', price: '100', qty: '1' });
    const before = sim.engine.account(1)?.balances;
    sim.apply({ type: 'RecordMarketTrade', symbol: 'BTCUSDT', price: px('150'), quantity: qty('3'), isBuyerMaker: false });
    expect(sim.engine.account(1)?.balances).toEqual(before);
    expect(sim.engine.openOrders(1, 'BTCUSDT')[0]).toMatchObject({ status: 'NEW', executedQty: 0 });
  });

  it('feeds the average price that MARKET orders are checked against (NOTIONAL applyMinToMarket)', () => {
    const sim = new Sim(
      symbolConfig({}, [{ filterType: 'NOTIONAL', minNotional: '10', applyMinToMarket: true, maxNotional: '0', applyMaxToMarket: false, avgPriceMins: 5 }]),
    );
    sim.createAccount(1, { USDT: '100000', BTC: '10' });
    sim.createAccount(2, { USDT: '100000', BTC: '10' });
    sim.place(2, { side: 'SELL', type: 'LIMIT', tif: 'GTC', price: '100', qty: '5' });
    // Never traded: a MARKET order cannot be checked against an average price.
    expect(sim.place(1, { side: 'BUY', type: 'MARKET', qty: '0.2' }).rejected?.reason).toBe('FILTER_NOTIONAL');
    // A market print at 40 makes the average 40: 0.2 * 40 = 8 < 10 still fails; 0.3 * 40 = 12 passes.
    sim.apply({ type: 'RecordMarketTrade', symbol: 'BTCUSDT', price: px('40'), quantity: qty('1'), isBuyerMaker: false });
    expect(sim.place(1, { side: 'BUY', type: 'MARKET', qty: '0.2' }).rejected?.reason).toBe('FILTER_NOTIONAL');
    expect(sim.place(1, { side: 'BUY', type: 'MARKET', qty: '0.3' }).rejected).toBeUndefined();
  });

  it('accepts prices off the tick grid (history may predate the rules) and floors the quote amount', () => {
    const sim = new Sim();
    const events = sim.apply({ type: 'RecordMarketTrade', symbol: 'BTCUSDT', price: 10_000_000_001, quantity: 3, isBuyerMaker: false });
    // 100.00000001 * 0.00000003 = 0.0000030000000003 -> 300 units of 1e-8 (floored)
    expect(events[0]).toMatchObject({ type: 'MarketTradeRecorded', quoteQuantity: 300 });
  });

  it('is refused for an unknown symbol or a non-positive amount, changing nothing', () => {
    const sim = new Sim();
    expectRejectedWithoutChange(sim, { type: 'RecordMarketTrade', symbol: 'NOPE', price: px('1'), quantity: qty('1'), isBuyerMaker: false }, 'UNKNOWN_SYMBOL');
    expectRejectedWithoutChange(sim, { type: 'RecordMarketTrade', symbol: 'BTCUSDT', price: 0, quantity: qty('1'), isBuyerMaker: false }, 'INVALID_AMOUNT');
    expectRejectedWithoutChange(sim, { type: 'RecordMarketTrade', symbol: 'BTCUSDT', price: px('1'), quantity: -5, isBuyerMaker: false }, 'INVALID_AMOUNT');
    expectRejectedWithoutChange(sim, { type: 'RecordMarketTrade', symbol: 'BTCUSDT', price: px('1'), quantity: 0.5, isBuyerMaker: false }, 'INVALID_AMOUNT');
  });
});
