/**
 * The finer rules of conditional orders: funds of stops and OCO pairs, count filters with lists,
 * OTO phase-one expiry, amend of OCO legs, iceberg and peg placement rules.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { OrderRequest, PlaceOrderList } from '../../../../src/engine/commands.ts';
import type { OrderListUpdated } from '../../../../src/engine/events.ts';
import { Sim, expectRejectedWithoutChange, px, qty, symbolConfig, types, u } from '../helpers.ts';

function market(config = symbolConfig()): Sim {
  const sim = new Sim(config);
  sim.createAccount(9, { USDT: '1000000', BTC: '1000' });
  sim.createAccount(1, { USDT: '1000', BTC: '10' });
  sim.createAccount(2, { USDT: '100000', BTC: '100' });
  sim.sell(9, '1', '100');
  sim.marketBuy(2, '1'); // last price 100
  return sim;
}

const list = (kind: PlaceOrderList['kind'], legs: Partial<OrderRequest>[], accountId = 1): Omit<PlaceOrderList, 'time'> => ({
  type: 'PlaceOrderList',
  accountId,
  symbol: 'BTCUSDT',
  kind,
  legs: legs as OrderRequest[],
});

describe('funds', () => {
  let sim: Sim;
  beforeEach(() => {
    sim = market();
  });

  it('a STOP_LOSS BUY reserves the notional at its stop price; when triggered it pays the real walk and releases the rest', () => {
    const id = sim.place(1, { side: 'BUY', type: 'STOP_LOSS', qty: '2', stopPrice: '105' }).orderId;
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('790'), locked: u('210') });
    sim.sell(9, '1', '105');
    sim.sell(9, '5', '106');
    sim.marketBuy(2, '1'); // trades at 105: the stop triggers and buys 2 at 106
    expect(sim.order(1, id)).toMatchObject({ status: 'FILLED', executedQty: qty('2'), cummulativeQuoteQty: u('212') });
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('788'), locked: 0 });
  });

  it('a triggered stop the account can no longer pay for expires with expiryReason REJECTED', () => {
    const id = sim.place(1, { side: 'BUY', type: 'STOP_LOSS', qty: '9', stopPrice: '105' }).orderId; // reserves 945 of 1000
    sim.sell(9, '1', '105');
    sim.sell(9, '20', '200');
    sim.marketBuy(2, '1'); // triggers; the walk would cost 1800
    expect(sim.order(1, id)).toMatchObject({ status: 'EXPIRED', expiryReason: 'REJECTED', executedQty: 0 });
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('1000'), locked: 0 });
  });

  it('a BUY OCO holds the larger need free but reserves once (the LIMIT_MAKER leg holds it)', () => {
    const events = sim.apply(
      list('OCO', [
        { side: 'BUY', orderType: 'STOP_LOSS_LIMIT', stopPrice: px('105'), price: px('106'), timeInForce: 'GTC', quantity: qty('5') },
        { side: 'BUY', orderType: 'LIMIT_MAKER', price: px('95'), quantity: qty('5') },
      ]),
    );
    expect(types(events)).toEqual(['OrderAccepted', 'OrderAccepted', 'OrderListUpdated']);
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('525'), locked: u('475') });
    // 530 needed by the stop leg: a list whose larger need is not free is refused.
    const sim2 = market();
    expectRejectedWithoutChange(
      sim2,
      list('OCO', [
        { side: 'BUY', orderType: 'STOP_LOSS_LIMIT', stopPrice: px('105'), price: px('201'), timeInForce: 'GTC', quantity: qty('5') },
        { side: 'BUY', orderType: 'LIMIT_MAKER', price: px('95'), quantity: qty('5') },
      ]),
      'INSUFFICIENT_BALANCE',
    );
  });
});

describe('count filters and list rules', () => {
  it('an OCO adds two orders to MAX_NUM_ORDERS, an OTOCO three', () => {
    const sim = market(symbolConfig({}, [{ filterType: 'MAX_NUM_ORDERS', maxNumOrders: 2 }]));
    const oto = list('OTOCO', [
      { side: 'BUY', orderType: 'LIMIT', price: px('90'), quantity: qty('1'), timeInForce: 'GTC' },
      { side: 'SELL', orderType: 'LIMIT_MAKER', price: px('120') },
      { side: 'SELL', orderType: 'STOP_LOSS', stopPrice: px('80') },
    ]);
    expectRejectedWithoutChange(sim, { ...oto, legs: oto.legs.map((l, i) => (i > 0 ? { ...l, quantity: qty('1') } : l)) }, 'FILTER_MAX_NUM_ORDERS');
    const oco = list('OCO', [
      { side: 'SELL', orderType: 'LIMIT_MAKER', price: px('120'), quantity: qty('1') },
      { side: 'SELL', orderType: 'STOP_LOSS', stopPrice: px('80'), quantity: qty('1') },
    ]);
    expect(types(sim.apply(oco))).toEqual(['OrderAccepted', 'OrderAccepted', 'OrderListUpdated']);
  });

  it('MAX_NUM_ALGO_ORDERS counts the waiting stops and MAX_NUM_ORDER_LISTS the open lists', () => {
    const sim = market(symbolConfig({}, [{ filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 1 }, { filterType: 'MAX_NUM_ORDER_LISTS', maxNumOrderLists: 1 }]));
    sim.place(1, { side: 'SELL', type: 'STOP_LOSS', qty: '1', stopPrice: '90' });
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'SELL', type: 'STOP_LOSS', qty: '1', stopPrice: '91' }), 'FILTER_MAX_NUM_ALGO_ORDERS');
    const sim2 = market(symbolConfig({}, [{ filterType: 'MAX_NUM_ORDER_LISTS', maxNumOrderLists: 1 }]));
    const oco = list('OCO', [
      { side: 'SELL', orderType: 'LIMIT_MAKER', price: px('120'), quantity: qty('1') },
      { side: 'SELL', orderType: 'STOP_LOSS', stopPrice: px('80'), quantity: qty('1') },
    ]);
    sim2.apply(oco);
    expectRejectedWithoutChange(sim2, oco, 'FILTER_MAX_NUM_ORDER_LISTS');
  });

  it('a listClientOrderId in use by an open list is a duplicate; OPO needs a BUY working order', () => {
    const sim = market();
    const oco = { ...list('OCO', [
      { side: 'SELL', orderType: 'LIMIT_MAKER', price: px('120'), quantity: qty('1') },
      { side: 'SELL', orderType: 'STOP_LOSS', stopPrice: px('80'), quantity: qty('1') },
    ]), listClientOrderId: 'mine' };
    sim.apply(oco);
    expectRejectedWithoutChange(sim, oco, 'DUPLICATE_ORDER_LIST');
    expectRejectedWithoutChange(
      sim,
      list('OPO', [
        { side: 'SELL', orderType: 'LIMIT', price: px('120'), quantity: qty('1'), timeInForce: 'GTC' },
        { side: 'SELL', orderType: 'LIMIT_MAKER', price: px('130') },
      ]),
      'OPO_WORKING_MUST_BE_BUY',
    );
  });

  it('an OTO whose working IOC expires expires its pending leg with OTO_PHASE_ONE_EXPIRED', () => {
    const sim = market();
    const events = sim.apply(
      list('OTO', [
        { side: 'BUY', orderType: 'LIMIT', price: px('90'), quantity: qty('1'), timeInForce: 'IOC' },
        { side: 'SELL', orderType: 'LIMIT_MAKER', price: px('120'), quantity: qty('1') },
      ]),
    );
    expect(types(events)).toEqual(['OrderAccepted', 'OrderAccepted', 'OrderListUpdated', 'OrderExpired', 'OrderExpired', 'OrderListUpdated']);
    const pending = (events[2] as OrderListUpdated).orders[1]!.orderId;
    expect(sim.order(1, pending)).toMatchObject({ status: 'EXPIRED', expiryReason: 'OTO_PHASE_ONE_EXPIRED' });
  });
});

describe('amend and instructions', () => {
  it('amending one OCO leg amends both (they share one quantity)', () => {
    const sim = market();
    const events = sim.apply(
      list('OCO', [
        { side: 'SELL', orderType: 'LIMIT_MAKER', price: px('120'), quantity: qty('2') },
        { side: 'SELL', orderType: 'STOP_LOSS', stopPrice: px('80'), quantity: qty('2') },
      ]),
    );
    const [a, b] = (events[2] as OrderListUpdated).orders.map((o) => o.orderId);
    const amended = sim.apply({ type: 'AmendOrder', accountId: 1, symbol: 'BTCUSDT', orderId: b!, newQuantity: qty('1') });
    expect(types(amended)).toEqual(['OrderAmended', 'OrderAmended']);
    expect(sim.order(1, a!).origQty).toBe(qty('1'));
    expect(sim.balance(1, 'BTC').locked).toBe(u('1'));
  });

  it('icebergs: GTC only, icebergQty below quantity, ICEBERG_PARTS, MAX_NUM_ICEBERG_ORDERS', () => {
    const sim = market(symbolConfig({}, [{ filterType: 'ICEBERG_PARTS', limit: 4 }, { filterType: 'MAX_NUM_ICEBERG_ORDERS', maxNumIcebergOrders: 1 }]));
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'SELL', qty: '1', price: '120', icebergQty: '0.5', tif: 'IOC' }), 'UNSUPPORTED_ORDER_COMBINATION');
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'SELL', qty: '1', price: '120', icebergQty: '1' }), 'ICEBERG_QTY_EXCEEDS_QTY');
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'SELL', qty: '1', price: '120', icebergQty: '0.2' }), 'FILTER_ICEBERG_PARTS');
    expect(sim.place(1, { side: 'SELL', qty: '1', price: '120', icebergQty: '0.25' }).accepted).toBeDefined();
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'SELL', qty: '1', price: '121', icebergQty: '0.5' }), 'FILTER_MAX_NUM_ICEBERG_ORDERS');
    expect(sim.engine.depth('BTCUSDT', 5).asks[0]).toEqual([px('120'), qty('0.25')]);
  });

  it('pegs: not on MARKET or STOP_LOSS, LIMIT_MAKER only PRIMARY_PEG, an offset picks a deeper level', () => {
    const sim = market();
    sim.buy(9, '1', '99');
    sim.buy(9, '1', '98');
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'BUY', type: 'MARKET', qty: '1', peg: 'PRIMARY_PEG' }), 'PEG_NOT_ALLOWED_FOR_TYPE');
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'SELL', type: 'STOP_LOSS', qty: '1', stopPrice: '90', peg: 'PRIMARY_PEG' }), 'PEG_NOT_ALLOWED_FOR_TYPE');
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'BUY', type: 'LIMIT_MAKER', qty: '1', peg: 'MARKET_PEG' }), 'PEG_NOT_ALLOWED_WITH_TYPE');
    const id = sim.place(1, { side: 'BUY', qty: '1', peg: 'PRIMARY_PEG', pegOffset: 1 }).orderId;
    expect(sim.order(1, id)).toMatchObject({ price: px('98'), peggedPrice: px('98'), pegOffsetValue: 1 });
  });

  it('a pegged STOP_LOSS_LIMIT takes its price from the book when triggered', () => {
    const sim = market();
    const id = sim.place(1, { side: 'SELL', type: 'STOP_LOSS_LIMIT', qty: '1', stopPrice: '95', tif: 'GTC', peg: 'PRIMARY_PEG' }).orderId;
    expect(sim.order(1, id).peggedPrice).toBe(0);
    sim.sell(9, '1', '97');
    sim.buy(9, '1', '95');
    sim.marketSell(2, '1'); // trades at 95: triggers; PRIMARY_PEG SELL = best ask 97
    expect(sim.order(1, id)).toMatchObject({ status: 'NEW', isWorking: true, peggedPrice: px('97') });
  });
});

describe('amend of a waiting BUY stop at market', () => {
  it('shrinks the estimate it holds to the stop-price notional of what remains', () => {
    const sim = market();
    const id = sim.place(1, { side: 'BUY', type: 'STOP_LOSS', qty: '2', stopPrice: '105' }).orderId;
    expect(sim.balance(1, 'USDT').locked).toBe(u('210'));
    sim.apply({ type: 'AmendOrder', accountId: 1, symbol: 'BTCUSDT', orderId: id, newQuantity: qty('1.5') });
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('842.5'), locked: u('157.5') });
  });

  it('a trailing one (estimated at the last price) shrinks in proportion', () => {
    const sim = market();
    const id = sim.place(1, { side: 'BUY', type: 'STOP_LOSS', qty: '2', trailingDelta: 100 }).orderId;
    expect(sim.balance(1, 'USDT').locked).toBe(u('200'));
    sim.apply({ type: 'AmendOrder', accountId: 1, symbol: 'BTCUSDT', orderId: id, newQuantity: qty('0.5') });
    expect(sim.balance(1, 'USDT').locked).toBe(u('50'));
  });
});
