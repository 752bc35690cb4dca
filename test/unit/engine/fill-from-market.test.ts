import { describe, expect, it } from 'vitest';
import { expectRejectedWithoutChange, px, qty, rate, Sim, u } from './helpers.ts';

const MAKER_RATES = { maker: rate('0.001'), taker: rate('0.002'), buyer: 0, seller: 0 };

describe('FillFromMarket', () => {
  it('fills a resting BUY at its own price, as maker: pays quote from its lock, receives base less maker commission', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '1000' }, { standardCommission: MAKER_RATES });
    sim.place(1, { side: 'BUY', type: 'LIMIT', tif: 'GTC', price: '100', qty: '2' });
    const events = sim.apply({ type: 'FillFromMarket', symbol: 'BTCUSDT', orderId: 1, quantity: qty('0.5'), reason: 'TRADE_THROUGH' });
    expect(events).toEqual([
      expect.objectContaining({
        type: 'OrderFilledByMarket',
        tradeId: 1,
        orderId: 1,
        accountId: 1,
        price: px('100'),
        quantity: qty('0.5'),
        quoteQuantity: u('50'),
        commission: qty('0.0005'),
        commissionAsset: 'BTC',
        status: 'PARTIALLY_FILLED',
        reason: 'TRADE_THROUGH',
      }),
    ]);
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('800'), locked: u('150') });
    expect(sim.balance(1, 'BTC')).toEqual({ free: qty('0.4995'), locked: 0 });
    expect(sim.order(1, 1)).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: qty('0.5'), cummulativeQuoteQty: u('50') });
    expect(sim.engine.accountTrades(1, 'BTCUSDT')[0]).toMatchObject({ id: 1, isBuyer: true, isMaker: true, commission: qty('0.0005') });
    expect(sim.engine.lastTrade('BTCUSDT')).toMatchObject({ id: 1, price: px('100'), isBuyerMaker: true });
    // Value entered and left from outside: conservation holds against the net deposits.
    expect(sim.engine.totalDeposited()).toMatchObject({ USDT: u('950'), BTC: qty('0.5') });
    expect(sim.engine.feesCollected()).toMatchObject({ BTC: qty('0.0005') });
  });

  it('fills a resting SELL and ends FILLED when nothing remains; the book level goes', () => {
    const sim = new Sim();
    sim.createAccount(1, { BTC: '1' }, { standardCommission: MAKER_RATES });
    sim.place(1, { side: 'SELL', type: 'LIMIT', tif: 'GTC', price: '100', qty: '1' });
    const events = sim.apply({ type: 'FillFromMarket', symbol: 'BTCUSDT', orderId: 1, quantity: qty('1'), reason: 'QUEUE_POSITION' });
    expect(events[0]).toMatchObject({ type: 'OrderFilledByMarket', status: 'FILLED', quoteQuantity: u('100'), commission: u('0.1'), commissionAsset: 'USDT' });
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('99.9'), locked: 0 });
    expect(sim.balance(1, 'BTC')).toEqual({ free: 0, locked: 0 });
    expect(sim.order(1, 1).status).toBe('FILLED');
    expect(sim.engine.depth('BTCUSDT', 10)).toEqual({ bids: [], asks: [] });
  });

  it('continues the tape: its trade id follows the last print and the next book trade follows it', () => {
    const sim = new Sim();
    sim.createAccount(1, { BTC: '1', USDT: '1000' });
    sim.apply({ type: 'RecordMarketTrade', symbol: 'BTCUSDT', price: px('101'), quantity: qty('1'), isBuyerMaker: false }); // #1
    sim.place(1, { side: 'SELL', type: 'LIMIT', tif: 'GTC', price: '101', qty: '0.5' });
    expect(sim.apply({ type: 'FillFromMarket', symbol: 'BTCUSDT', orderId: 1, quantity: qty('0.1'), reason: 'TOUCH' })[0]).toMatchObject({ tradeId: 2 });
    expect(sim.place(1, { side: 'BUY', type: 'LIMIT', tif: 'IOC', price: '101', qty: '0.1' }).trades[0]?.tradeId).toBe(3);
  });

  it('refuses an unknown or closed order, a quantity above what remains or off the step, changing nothing', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '1000' });
    sim.place(1, { side: 'BUY', type: 'LIMIT', tif: 'GTC', price: '100', qty: '1' });
    expectRejectedWithoutChange(sim, { type: 'FillFromMarket', symbol: 'BTCUSDT', orderId: 2, quantity: qty('0.1'), reason: 'X' }, 'UNKNOWN_ORDER');
    expectRejectedWithoutChange(sim, { type: 'FillFromMarket', symbol: 'NOPE', orderId: 1, quantity: qty('0.1'), reason: 'X' }, 'UNKNOWN_SYMBOL');
    expectRejectedWithoutChange(sim, { type: 'FillFromMarket', symbol: 'BTCUSDT', orderId: 1, quantity: qty('1.001'), reason: 'X' }, 'INVALID_AMOUNT');
    expectRejectedWithoutChange(sim, { type: 'FillFromMarket', symbol: 'BTCUSDT', orderId: 1, quantity: qty('0.0001'), reason: 'X' }, 'INVALID_AMOUNT');
    expectRejectedWithoutChange(sim, { type: 'FillFromMarket', symbol: 'BTCUSDT', orderId: 1, quantity: 0, reason: 'X' }, 'INVALID_AMOUNT');
    sim.apply({ type: 'CancelOrder', accountId: 1, symbol: 'BTCUSDT', orderId: 1 });
    expectRejectedWithoutChange(sim, { type: 'FillFromMarket', symbol: 'BTCUSDT', orderId: 1, quantity: qty('0.1'), reason: 'X' }, 'UNKNOWN_ORDER');
  });
});
