import { describe, expect, it } from 'vitest';
import { Sim, expectRejectedWithoutChange, lotSize, px, qty, rejectionOf, symbolConfig, types, u } from './helpers.ts';
import type { SymbolFilter } from '../../../src/engine/symbol-config.ts';

/** A book with asks 1 @ 100, 1 @ 101, 2 @ 102 and bids 1 @ 99, 1 @ 98, 2 @ 97 from account 1. */
function bookSim(config = symbolConfig()): Sim {
  const sim = new Sim(config);
  sim.createAccount(1, { USDT: '10000', BTC: '10' });
  sim.createAccount(2, { USDT: '10000', BTC: '10' });
  sim.sell(1, '1', '100'); // 1
  sim.sell(1, '1', '101'); // 2
  sim.sell(1, '2', '102'); // 3
  sim.buy(1, '1', '99'); // 4
  sim.buy(1, '1', '98'); // 5
  sim.buy(1, '2', '97'); // 6
  return sim;
}

describe('MARKET by quantity', () => {
  it('a BUY walks the asks best first across levels and ends FILLED', () => {
    const sim = bookSim();
    const r = sim.marketBuy(2, '2.5');
    expect(types(r.events)).toEqual(['OrderAccepted', 'TradeExecuted', 'TradeExecuted', 'TradeExecuted']);
    expect(r.trades.map((t) => [t.price, t.quantity, t.takerStatus])).toEqual([
      [px('100'), qty('1'), 'PARTIALLY_FILLED'],
      [px('101'), qty('1'), 'PARTIALLY_FILLED'],
      [px('102'), qty('0.5'), 'FILLED'],
    ]);
    expect(sim.order(2, 7)).toMatchObject({ status: 'FILLED', executedQty: qty('2.5'), cummulativeQuoteQty: u('252'), lockedAmount: 0 });
    expect(sim.balance(2, 'USDT')).toEqual({ free: u('9748'), locked: 0 });
    expect(sim.balance(2, 'BTC')).toEqual({ free: qty('12.5'), locked: 0 });
  });

  it('a SELL walks the bids best first', () => {
    const sim = bookSim();
    const r = sim.marketSell(2, '3');
    expect(r.trades.map((t) => [t.price, t.quantity])).toEqual([
      [px('99'), qty('1')],
      [px('98'), qty('1')],
      [px('97'), qty('1')],
    ]);
    expect(sim.balance(2, 'USDT')).toEqual({ free: u('10294'), locked: 0 });
    expect(sim.balance(2, 'BTC')).toEqual({ free: qty('7'), locked: 0 });
  });

  it('is reported with price 0 and timeInForce GTC', () => {
    const sim = bookSim();
    const r = sim.marketBuy(2, '1');
    expect(r.accepted).toMatchObject({ orderType: 'MARKET', price: 0, timeInForce: 'GTC', quantity: qty('1'), quoteOrderQty: 0 });
    expect(sim.order(2, 7)).toMatchObject({ type: 'MARKET', price: 0, timeInForce: 'GTC', origQty: qty('1'), origQuoteOrderQty: 0 });
  });

  it('when the book runs out it ends EXPIRED with INSUFFICIENT_LIQUIDITY, keeping its fills', () => {
    const sim = bookSim();
    const r = sim.marketBuy(2, '5');
    expect(types(r.events)).toEqual(['OrderAccepted', 'TradeExecuted', 'TradeExecuted', 'TradeExecuted', 'OrderExpired']);
    expect(r.expired[0]).toMatchObject({ orderId: 7, status: 'EXPIRED', expiryReason: 'INSUFFICIENT_LIQUIDITY' });
    expect(sim.order(2, 7)).toMatchObject({ status: 'EXPIRED', executedQty: qty('4'), cummulativeQuoteQty: u('405'), lockedAmount: 0 });
    expect(sim.balance(2, 'USDT')).toEqual({ free: u('9595'), locked: 0 });
    expect(sim.engine.depth('BTCUSDT', 10).asks).toEqual([]);
  });

  it('a SELL larger than the bids releases the unsold base on expiry', () => {
    const sim = bookSim();
    sim.marketSell(2, '6');
    expect(sim.order(2, 7)).toMatchObject({ status: 'EXPIRED', executedQty: qty('4'), expiryReason: 'INSUFFICIENT_LIQUIDITY' });
    expect(sim.balance(2, 'BTC')).toEqual({ free: qty('6'), locked: 0 });
  });

  it('on an empty book it is accepted and expires at once with no fills', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '100', BTC: '1' });
    const r = sim.marketSell(1, '1');
    expect(types(r.events)).toEqual(['OrderAccepted', 'OrderExpired']);
    expect(sim.order(1, 1)).toMatchObject({ status: 'EXPIRED', executedQty: 0, expiryReason: 'INSUFFICIENT_LIQUIDITY' });
    expect(sim.balance(1, 'BTC')).toEqual({ free: qty('1'), locked: 0 });
  });

  it('a BUY whose walk costs more quote than is free is INSUFFICIENT_BALANCE and changes nothing', () => {
    const sim = bookSim();
    sim.createAccount(3, { USDT: '302.99' }); // 2.5 BTC cost 100 + 101 + 51 = 252; 3 BTC cost 303
    expectRejectedWithoutChange(sim, sim.placeCommand(3, { side: 'BUY', type: 'MARKET', qty: '3' }), 'INSUFFICIENT_BALANCE');
    expect(sim.marketBuy(3, '2.5').accepted).toBeDefined();
    expect(sim.balance(3, 'USDT')).toEqual({ free: u('50.99'), locked: 0 });
  });

  it('a BUY needing exactly the free quote fills', () => {
    const sim = bookSim();
    sim.createAccount(3, { USDT: '303' });
    sim.marketBuy(3, '3');
    expect(sim.balance(3, 'USDT')).toEqual({ free: 0, locked: 0 });
    expect(sim.balance(3, 'BTC').free).toBe(qty('3'));
  });

  it('a SELL of more base than is free is INSUFFICIENT_BALANCE', () => {
    const sim = bookSim();
    sim.createAccount(3, { BTC: '0.5' });
    expectRejectedWithoutChange(sim, sim.placeCommand(3, { side: 'SELL', type: 'MARKET', qty: '0.501' }), 'INSUFFICIENT_BALANCE');
  });

  it('with MARKET_LOT_SIZE, its quantity must fit both LOT_SIZE and MARKET_LOT_SIZE', () => {
    const mls: SymbolFilter = { filterType: 'MARKET_LOT_SIZE', minQty: '0.01', maxQty: '3', stepSize: '0.01' };
    const sim = bookSim(symbolConfig({}, [mls]));
    expectRejectedWithoutChange(sim, sim.placeCommand(2, { side: 'BUY', type: 'MARKET', qty: '0.005' }), 'FILTER_MARKET_LOT_SIZE');
    expectRejectedWithoutChange(sim, sim.placeCommand(2, { side: 'BUY', type: 'MARKET', qty: '3.01' }), 'FILTER_MARKET_LOT_SIZE');
    expectRejectedWithoutChange(sim, sim.placeCommand(2, { side: 'BUY', type: 'MARKET', qty: '1.015' }), 'FILTER_MARKET_LOT_SIZE');
    expect(sim.marketBuy(2, '3').accepted).toBeDefined();
    // LIMIT orders are not held to MARKET_LOT_SIZE.
    expect(sim.buy(2, '0.005', '90').accepted).toBeDefined();
  });
});

describe('MARKET by quoteOrderQty', () => {
  it('a BUY buys as much as the amount can: whole levels, then as many steps as what is left affords', () => {
    const sim = bookSim();
    // rest-api.md: "On the BUY side, the order will buy as many BTC as quoteOrderQty USDT can."
    // 100 + 101 = 201 on the first two levels; 49 left at 102 -> 0.480 (48.96); 0.481 would cost 49.062.
    const r = sim.place(2, { side: 'BUY', type: 'MARKET', quoteQty: '250' });
    expect(r.accepted).toMatchObject({ quantity: qty('2.48'), quoteOrderQty: u('250'), price: 0 });
    expect(r.trades.map((t) => [t.price, t.quantity])).toEqual([
      [px('100'), qty('1')],
      [px('101'), qty('1')],
      [px('102'), qty('0.48')],
    ]);
    expect(sim.order(2, 7)).toMatchObject({
      status: 'FILLED',
      executedQty: qty('2.48'),
      cummulativeQuoteQty: u('249.96'),
      origQuoteOrderQty: u('250'),
    });
    expect(sim.balance(2, 'USDT')).toEqual({ free: u('10000') - u('249.96'), locked: 0 });
  });

  it('a BUY never spends more than the amount, even when one more step would be closer', () => {
    const sim = bookSim();
    // 49.05 left at 102: 0.480 -> 48.96 (0.09 under), 0.481 -> 49.062 (0.012 over, not affordable).
    sim.place(2, { side: 'BUY', type: 'MARKET', quoteQty: '250.05' });
    expect(sim.order(2, 7)).toMatchObject({ status: 'FILLED', executedQty: qty('2.48'), cummulativeQuoteQty: u('249.96') });
  });

  it('a BUY of exactly one level notional takes exactly that level', () => {
    const sim = bookSim();
    sim.place(2, { side: 'BUY', type: 'MARKET', quoteQty: '100' });
    expect(sim.order(2, 7)).toMatchObject({ status: 'FILLED', executedQty: qty('1'), cummulativeQuoteQty: u('100') });
  });

  it('a SELL sells the base whose proceeds are closest to the amount', () => {
    const sim = bookSim();
    // 99 + 98 = 197; 53 left at 97: 0.546 -> 52.962 (0.038 under), 0.547 -> 53.059 (0.059 over).
    const r = sim.place(2, { side: 'SELL', type: 'MARKET', quoteQty: '250' });
    expect(r.accepted?.quantity).toBe(qty('2.546'));
    expect(sim.order(2, 7)).toMatchObject({ status: 'FILLED', executedQty: qty('2.546'), cummulativeQuoteQty: u('249.962'), origQuoteOrderQty: u('250') });
    expect(sim.balance(2, 'BTC')).toEqual({ free: qty('7.454'), locked: 0 });
    expect(sim.balance(2, 'USDT')).toEqual({ free: u('10249.962'), locked: 0 });
  });

  it('respects the LOT_SIZE step: a coarse step rounds the last level down to whole steps (BUY)', () => {
    const sim = bookSim(symbolConfig({}, [lotSize('0.1', '1000', '0.1')]));
    // 49 left at 102: 0.4 -> 40.8; 0.5 -> 51 is over the amount.
    sim.place(2, { side: 'BUY', type: 'MARKET', quoteQty: '250' });
    expect(sim.order(2, 7)).toMatchObject({ executedQty: qty('2.4'), cummulativeQuoteQty: u('241.8') });
  });

  it('respects the LOT_SIZE step on a SELL: the closest whole number of steps, over or under', () => {
    const sim = bookSim(symbolConfig({}, [lotSize('0.1', '1000', '0.1')]));
    // 99 + 98 = 197; 53 left at 97: 0.5 -> 48.5 (4.5 under), 0.6 -> 58.2 (5.2 over) -> 0.5.
    sim.place(2, { side: 'SELL', type: 'MARKET', quoteQty: '250' });
    expect(sim.order(2, 7)).toMatchObject({ executedQty: qty('2.5'), cummulativeQuoteQty: u('245.5') });
    // 56 left at 97: 0.5 -> 48.5 (7.5 under), 0.6 -> 58.2 (2.2 over) -> 0.6, proceeds above the amount.
    const again = bookSim(symbolConfig({}, [lotSize('0.1', '1000', '0.1')]));
    again.place(2, { side: 'SELL', type: 'MARKET', quoteQty: '253' });
    expect(again.order(2, 7)).toMatchObject({ executedQty: qty('2.6'), cummulativeQuoteQty: u('255.2') });
  });

  it('when the book holds less than the amount it takes everything and ends EXPIRED (INSUFFICIENT_LIQUIDITY)', () => {
    const sim = bookSim();
    const r = sim.place(2, { side: 'BUY', type: 'MARKET', quoteQty: '1000' });
    expect(r.trades).toHaveLength(3);
    // The walk runs out of book before the amount is spent: like any MARKET order whose book
    // runs out (§5.2), it expires; origQty is the quantity it ended with.
    expect(r.accepted?.quantity).toBe(qty('4'));
    expect(r.trades.map((t) => t.takerStatus)).toEqual(['PARTIALLY_FILLED', 'PARTIALLY_FILLED', 'PARTIALLY_FILLED']);
    expect(r.expired[0]).toMatchObject({ status: 'EXPIRED', expiryReason: 'INSUFFICIENT_LIQUIDITY' });
    expect(sim.order(2, 7)).toMatchObject({ status: 'EXPIRED', origQty: qty('4'), executedQty: qty('4'), cummulativeQuoteQty: u('405'), origQuoteOrderQty: u('1000') });
    expect(sim.balance(2, 'USDT')).toEqual({ free: u('9595'), locked: 0 });
  });

  it('on an empty book it is LIQUIDITY_BELOW_SYMBOL_MIN_QTY', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '1000', BTC: '1' });
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'BUY', type: 'MARKET', quoteQty: '100' }), 'LIQUIDITY_BELOW_SYMBOL_MIN_QTY');
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'SELL', type: 'MARKET', quoteQty: '100' }), 'LIQUIDITY_BELOW_SYMBOL_MIN_QTY');
  });

  it('a book holding less than LOT_SIZE minQty is LIQUIDITY_BELOW_LOT_SIZE', () => {
    const sim = new Sim(symbolConfig({}, [lotSize('0.01', '1000', '0.001')]));
    sim.createAccount(1, { BTC: '1' });
    sim.createAccount(2, { USDT: '1000' });
    sim.sell(1, '0.02', '100');
    sim.buy(2, '0.015', '100'); // leaves 0.005 on the book, below minQty
    expect(sim.engine.depth('BTCUSDT', 1).asks).toEqual([[px('100'), qty('0.005')]]);
    expectRejectedWithoutChange(sim, sim.placeCommand(2, { side: 'BUY', type: 'MARKET', quoteQty: '100' }), 'LIQUIDITY_BELOW_LOT_SIZE');
  });

  it('an amount worth less than LOT_SIZE minQty on a deep book fails LOT_SIZE', () => {
    const sim = bookSim(symbolConfig({}, [lotSize('0.01', '1000', '0.001')]));
    expectRejectedWithoutChange(sim, sim.placeCommand(2, { side: 'BUY', type: 'MARKET', quoteQty: '0.5' }), 'FILTER_LOT_SIZE');
  });

  it('needs quoteOrderQtyMarketAllowed: otherwise QUOTE_ORDER_QTY_MARKET_NOT_SUPPORTED', () => {
    const sim = bookSim(symbolConfig({ quoteOrderQtyMarketAllowed: false }));
    expectRejectedWithoutChange(sim, sim.placeCommand(2, { side: 'BUY', type: 'MARKET', quoteQty: '100' }), 'QUOTE_ORDER_QTY_MARKET_NOT_SUPPORTED');
    expect(sim.marketBuy(2, '1').accepted).toBeDefined();
  });

  it('a BUY whose spend exceeds the free quote is INSUFFICIENT_BALANCE', () => {
    const sim = bookSim();
    sim.createAccount(3, { USDT: '150' });
    expect(rejectionOf(sim.place(3, { side: 'BUY', type: 'MARKET', quoteQty: '200' }).events)).toBe('INSUFFICIENT_BALANCE');
  });

  it('cannot be combined with quantity', () => {
    const sim = bookSim();
    expectRejectedWithoutChange(sim, sim.placeCommand(2, { side: 'BUY', type: 'MARKET', qty: '1', quoteQty: '100' }), 'UNSUPPORTED_ORDER_COMBINATION');
  });
});
