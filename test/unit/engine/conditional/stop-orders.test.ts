import { beforeEach, describe, expect, it } from 'vitest';
import { Sim, expectRejectedWithoutChange, px, qty, symbolConfig, types, u } from '../helpers.ts';

/** A symbol with trades at 100: account 9 makes the market, 1 and 2 trade. */
function market(): Sim {
  const sim = new Sim();
  sim.createAccount(9, { USDT: '1000000', BTC: '1000' });
  sim.createAccount(1, { USDT: '100000', BTC: '100' });
  sim.createAccount(2, { USDT: '100000', BTC: '100' });
  sim.sell(9, '1', '100');
  sim.marketBuy(2, '1'); // last price 100
  return sim;
}

describe('STOP_LOSS / TAKE_PROFIT placement', () => {
  let sim: Sim;
  beforeEach(() => {
    sim = market();
  });

  it('a STOP_LOSS SELL below the market waits off the book, NEW, not working, workingTime -1', () => {
    const r = sim.place(1, { side: 'SELL', type: 'STOP_LOSS', qty: '2', stopPrice: '95' });
    expect(types(r.events)).toEqual(['OrderAccepted']);
    expect(r.accepted).toMatchObject({ isWorking: false, status: 'NEW', orderListId: -1 });
    const order = sim.order(1, r.orderId);
    expect(order).toMatchObject({ status: 'NEW', isWorking: false, workingTime: -1, stopPrice: px('95') });
    expect(sim.engine.depth('BTCUSDT', 10).asks).toEqual([]);
    expect(sim.balance(1, 'BTC')).toEqual({ free: u('98'), locked: u('2') });
  });

  it('"Order would trigger immediately" when the stop condition already holds, for every type and side', () => {
    const cases = [
      { side: 'SELL', type: 'STOP_LOSS', stopPrice: '100' },
      { side: 'BUY', type: 'STOP_LOSS', stopPrice: '99' },
      { side: 'SELL', type: 'TAKE_PROFIT', stopPrice: '99' },
      { side: 'BUY', type: 'TAKE_PROFIT', stopPrice: '101' },
    ] as const;
    for (const c of cases) {
      expectRejectedWithoutChange(sim, sim.placeCommand(1, { ...c, qty: '1' }), 'STOP_PRICE_WOULD_TRIGGER_IMMEDIATELY');
    }
  });

  it('stop types need stopPrice or trailingDelta, and no price (market kinds)', () => {
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'SELL', type: 'STOP_LOSS', qty: '1' }), 'UNSUPPORTED_ORDER_COMBINATION');
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'SELL', type: 'STOP_LOSS', qty: '1', stopPrice: '90', price: '90' }), 'UNSUPPORTED_ORDER_COMBINATION');
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'SELL', type: 'LIMIT', qty: '1', price: '101', stopPrice: '90' }), 'UNSUPPORTED_ORDER_COMBINATION');
  });
});

describe('triggering', () => {
  let sim: Sim;
  beforeEach(() => {
    sim = market();
  });

  it('a STOP_LOSS SELL triggers on a trade at its stop price and sells at market', () => {
    const stop = sim.place(1, { side: 'SELL', type: 'STOP_LOSS', qty: '1', stopPrice: '95' }).orderId;
    sim.buy(9, '5', '94');
    sim.sell(9, '1', '95'); // not traded yet
    const r = sim.marketSell(2, '0.5'); // trades at 95 -> the stop triggers
    const events = r.events.map((e) => e.type);
    expect(events).toContain('OrderTriggered');
    const after = sim.order(1, stop);
    expect(after).toMatchObject({ status: 'FILLED', isWorking: true, executedQty: qty('1') });
    expect(after.workingTime).toBeGreaterThan(0);
  });

  it('a TAKE_PROFIT_LIMIT BUY triggers when the price falls to the stop and rests at its limit', () => {
    const id = sim.place(1, { side: 'BUY', type: 'TAKE_PROFIT_LIMIT', qty: '1', stopPrice: '90', price: '89' }).orderId;
    expect(sim.balance(1, 'USDT').locked).toBe(u('89'));
    sim.buy(9, '1', '90');
    sim.marketSell(2, '1'); // trades at 90
    const o = sim.order(1, id);
    expect(o).toMatchObject({ status: 'NEW', isWorking: true, price: px('89') });
    expect(sim.engine.bookTicker('BTCUSDT')?.bidPrice).toBe(px('89'));
  });

  it('historical prints recorded from the market trigger stops too', () => {
    const id = sim.place(1, { side: 'SELL', type: 'STOP_LOSS_LIMIT', qty: '1', stopPrice: '95', price: '94' }).orderId;
    const events = sim.apply({ type: 'RecordMarketTrade', symbol: 'BTCUSDT', price: px('94.5'), quantity: qty('1'), isBuyerMaker: true });
    expect(types(events)).toEqual(['MarketTradeRecorded', 'OrderTriggered']);
    expect(sim.order(1, id)).toMatchObject({ status: 'NEW', isWorking: true });
    expect(sim.engine.depth('BTCUSDT', 5).asks[0]).toEqual([px('94'), qty('1')]);
  });
});

describe('trailing stops', () => {
  it('a trailing STOP_LOSS SELL without stopPrice tracks the highest price and triggers at highest * (1 - delta)', () => {
    const sim = market();
    const id = sim.place(1, { side: 'SELL', type: 'STOP_LOSS', qty: '1', trailingDelta: 1000 }).orderId; // 10%
    expect(sim.order(1, id).trailingTime).toBeGreaterThan(0); // from the last price, 100
    const rec = (price: string) => sim.apply({ type: 'RecordMarketTrade', symbol: 'BTCUSDT', price: px(price), quantity: qty('0.1'), isBuyerMaker: false });
    rec('110'); // highest 110 -> trigger at 99
    expect(types(rec('99.01'))).toEqual(['MarketTradeRecorded']);
    sim.buy(9, '1', '98');
    expect(types(rec('99'))).toContain('OrderTriggered');
    expect(sim.order(1, id)).toMatchObject({ status: 'FILLED' });
  });

  it('with stopPrice, tracking starts at the first trade meeting the stop (TAKE_PROFIT SELL), worked numbers 46,500 / 750 bips -> 43,012.5', () => {
    const sim = market();
    const id = sim.place(1, { side: 'SELL', type: 'TAKE_PROFIT', qty: '1', stopPrice: '45000', trailingDelta: 750 }).orderId;
    const rec = (price: string) => sim.apply({ type: 'RecordMarketTrade', symbol: 'BTCUSDT', price: px(price), quantity: qty('0.1'), isBuyerMaker: false });
    rec('44000');
    expect(sim.order(1, id).trailingTime).toBe(-1);
    expect(types(rec('45000'))).toContain('TrailingStarted');
    rec('46500');
    expect(types(rec('43012.51'))).not.toContain('OrderTriggered');
    sim.buy(9, '1', '43000');
    expect(types(rec('43012.5'))).toContain('OrderTriggered');
  });

  it('TRAILING_DELTA bounds the delta by direction ("above" for STOP_LOSS BUY and TAKE_PROFIT SELL)', () => {
    const sim = new Sim(
      symbolConfig({}, [{ filterType: 'TRAILING_DELTA', minTrailingAboveDelta: 10, maxTrailingAboveDelta: 500, minTrailingBelowDelta: 20, maxTrailingBelowDelta: 2000 }]),
    );
    sim.createAccount(1, { USDT: '100000', BTC: '100' });
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'BUY', type: 'STOP_LOSS', qty: '1', trailingDelta: 501 }), 'FILTER_TRAILING_DELTA');
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'SELL', type: 'STOP_LOSS', qty: '1', trailingDelta: 19 }), 'FILTER_TRAILING_DELTA');
    expect(sim.place(1, { side: 'SELL', type: 'STOP_LOSS', qty: '1', trailingDelta: 1500 }).accepted).toBeDefined();
    expect(sim.place(1, { side: 'SELL', type: 'TAKE_PROFIT', qty: '1', trailingDelta: 500 }).accepted).toBeDefined();
  });
});
