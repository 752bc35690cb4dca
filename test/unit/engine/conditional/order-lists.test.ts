import { beforeEach, describe, expect, it } from 'vitest';
import type { OrderRequest, PlaceOrderList } from '../../../../src/engine/commands.ts';
import type { OrderListUpdated } from '../../../../src/engine/events.ts';
import { Sim, expectRejectedWithoutChange, px, qty, types, u } from '../helpers.ts';

function market(): Sim {
  const sim = new Sim();
  sim.createAccount(9, { USDT: '1000000', BTC: '1000' });
  sim.createAccount(1, { USDT: '100000', BTC: '100' });
  sim.createAccount(2, { USDT: '100000', BTC: '100' });
  sim.sell(9, '1', '100');
  sim.marketBuy(2, '1'); // last price 100
  return sim;
}

type Leg = Partial<OrderRequest> & Pick<OrderRequest, 'side' | 'orderType'>;
const leg = (l: Leg): OrderRequest => l as OrderRequest;

function listCommand(kind: PlaceOrderList['kind'], legs: Leg[], extra: Partial<PlaceOrderList> = {}): Omit<PlaceOrderList, 'time'> {
  return { type: 'PlaceOrderList', accountId: 1, symbol: 'BTCUSDT', kind, legs: legs.map(leg), ...extra };
}

function sellOco(quantity = '1'): Omit<PlaceOrderList, 'time'> {
  return listCommand('OCO', [
    { side: 'SELL', orderType: 'LIMIT_MAKER', price: px('110'), quantity: qty(quantity) },
    { side: 'SELL', orderType: 'STOP_LOSS_LIMIT', stopPrice: px('95'), price: px('94'), timeInForce: 'GTC', quantity: qty(quantity) },
  ]);
}

describe('OCO', () => {
  let sim: Sim;
  beforeEach(() => {
    sim = market();
  });

  it('places both legs, the limit maker on the book, the stop waiting; the pair holds its base once', () => {
    const events = sim.apply(sellOco());
    expect(types(events)).toEqual(['OrderAccepted', 'OrderAccepted', 'OrderListUpdated']);
    const list = events[2] as OrderListUpdated;
    expect(list).toMatchObject({ contingencyType: 'OCO', listStatusType: 'EXEC_STARTED', listOrderStatus: 'EXECUTING' });
    expect(sim.balance(1, 'BTC')).toEqual({ free: u('99'), locked: u('1') });
    expect(sim.engine.openOrderLists(1)).toHaveLength(1);
    expect(sim.order(1, list.orders[0]!.orderId)).toMatchObject({ orderListId: list.orderListId, isWorking: true });
    expect(sim.order(1, list.orders[1]!.orderId)).toMatchObject({ orderListId: list.orderListId, isWorking: false, workingTime: -1 });
  });

  it('when the limit leg trades, the stop leg expires (OCO_TRIGGER) and the list is ALL_DONE', () => {
    const list = sim.apply(sellOco())[2] as OrderListUpdated;
    const partial = sim.marketBuy(2, '0.4');
    // The stop leg expires at the first touch; the list ends when the limit leg does.
    expect(types(partial.events)).toEqual(['OrderAccepted', 'TradeExecuted', 'OrderExpired']);
    expect(sim.engine.getOrderList(1, { orderListId: list.orderListId })?.listOrderStatus).toBe('EXECUTING');
    const r = sim.marketBuy(2, '0.6');
    expect(types(r.events)).toEqual(['OrderAccepted', 'TradeExecuted', 'OrderListUpdated']);
    expect(sim.order(1, list.orders[1]!.orderId)).toMatchObject({ status: 'EXPIRED', expiryReason: 'OCO_TRIGGER' });
    expect(sim.engine.getOrderList(1, { orderListId: list.orderListId })).toMatchObject({ listStatusType: 'ALL_DONE', listOrderStatus: 'ALL_DONE' });
  });

  it('when the stop triggers, the limit leg expires first and the stop works at its limit', () => {
    const list = sim.apply(sellOco())[2] as OrderListUpdated;
    sim.buy(9, '1', '95');
    const r = sim.marketSell(2, '1'); // trades at 95
    expect(types(r.events)).toEqual(['OrderAccepted', 'TradeExecuted', 'OrderExpired', 'OrderTriggered']);
    expect(sim.order(1, list.orders[0]!.orderId)).toMatchObject({ status: 'EXPIRED', expiryReason: 'OCO_TRIGGER' });
    expect(sim.order(1, list.orders[1]!.orderId)).toMatchObject({ status: 'NEW', isWorking: true });
    expect(sim.engine.depth('BTCUSDT', 5).asks[0]).toEqual([px('94'), qty('1')]);
  });

  it('refuses prices that do not straddle the last price, and legs on the wrong side', () => {
    const bad = listCommand('OCO', [
      { side: 'SELL', orderType: 'LIMIT_MAKER', price: px('110'), quantity: qty('1') },
      { side: 'SELL', orderType: 'STOP_LOSS', stopPrice: px('101'), quantity: qty('1') },
    ]);
    expectRejectedWithoutChange(sim, bad, 'OCO_BAD_PRICES');
    const swapped = listCommand('OCO', [
      { side: 'SELL', orderType: 'STOP_LOSS', stopPrice: px('95'), quantity: qty('1') },
      { side: 'SELL', orderType: 'LIMIT_MAKER', price: px('110'), quantity: qty('1') },
    ]);
    expectRejectedWithoutChange(sim, swapped, 'SELL_OCO_STOP_LOSS_MUST_BE_BELOW');
  });

  it('canceling one leg cancels the list', () => {
    const list = sim.apply(sellOco())[2] as OrderListUpdated;
    const events = sim.cancel(1, { orderId: list.orders[1]!.orderId });
    expect(types(events)).toEqual(['OrderCanceled', 'OrderCanceled', 'OrderListUpdated']);
    expect(sim.balance(1, 'BTC')).toEqual({ free: u('100'), locked: 0 });
  });
});

describe('OTO / OTOCO / OPO', () => {
  let sim: Sim;
  beforeEach(() => {
    sim = market();
  });

  it('OTO: the pending leg is PENDING_NEW until the working order fills, then placed', () => {
    const events = sim.apply(
      listCommand('OTO', [
        { side: 'BUY', orderType: 'LIMIT', price: px('99'), quantity: qty('1'), timeInForce: 'GTC' },
        { side: 'SELL', orderType: 'LIMIT_MAKER', price: px('105'), quantity: qty('1') },
      ]),
    );
    const list = events[2] as OrderListUpdated;
    expect(list.contingencyType).toBe('OTO');
    const pendingId = list.orders[1]!.orderId;
    expect(sim.order(1, pendingId)).toMatchObject({ status: 'PENDING_NEW', isWorking: false });
    sim.marketSell(2, '1');
    expect(sim.order(1, pendingId)).toMatchObject({ status: 'NEW', isWorking: true });
    expect(sim.engine.depth('BTCUSDT', 5).asks[0]).toEqual([px('105'), qty('1')]);
  });

  it('OTOCO: the pending pair becomes an OCO once the working order fills', () => {
    const events = sim.apply(
      listCommand('OTOCO', [
        { side: 'BUY', orderType: 'LIMIT', price: px('99'), quantity: qty('1'), timeInForce: 'GTC' },
        { side: 'SELL', orderType: 'LIMIT_MAKER', price: px('110'), quantity: qty('1') },
        { side: 'SELL', orderType: 'STOP_LOSS', stopPrice: px('90'), quantity: qty('1') },
      ]),
    );
    const list = events[3] as OrderListUpdated;
    sim.marketSell(2, '1'); // fills the working BUY at 99
    const [, above, below] = list.orders.map((o) => sim.order(1, o.orderId));
    expect(above).toMatchObject({ status: 'NEW', isWorking: true });
    expect(below).toMatchObject({ status: 'NEW', isWorking: false });
    sim.marketBuy(2, '1'); // lifts the 100 ask of account 9... then 110
    expect(sim.order(1, below!.orderId).status).toBe('EXPIRED');
    expect(sim.engine.getOrderList(1, { orderListId: list.orderListId })?.listStatusType).toBe('ALL_DONE');
  });

  it('OPO: the pending SELL sells what the working BUY bought', () => {
    const events = sim.apply(
      listCommand('OPO', [
        { side: 'BUY', orderType: 'LIMIT', price: px('99'), quantity: qty('2'), timeInForce: 'GTC' },
        { side: 'SELL', orderType: 'LIMIT_MAKER', price: px('105') },
      ]),
    );
    const list = events[2] as OrderListUpdated;
    sim.marketSell(2, '2');
    expect(sim.order(1, list.orders[1]!.orderId)).toMatchObject({ status: 'NEW', origQty: qty('2') });
  });

  it('canceling the working order cancels the pending leg', () => {
    const events = sim.apply(
      listCommand('OTO', [
        { side: 'BUY', orderType: 'LIMIT', price: px('99'), quantity: qty('1'), timeInForce: 'GTC' },
        { side: 'SELL', orderType: 'LIMIT_MAKER', price: px('105'), quantity: qty('1') },
      ]),
    );
    const list = events[2] as OrderListUpdated;
    expect(types(sim.cancel(1, { orderId: list.orders[0]!.orderId }))).toEqual(['OrderCanceled', 'OrderCanceled', 'OrderListUpdated']);
  });
});

describe('cancel-replace and amend', () => {
  let sim: Sim;
  beforeEach(() => {
    sim = market();
  });

  it('cancel-replace: SUCCESS / SUCCESS', () => {
    const id = sim.buy(1, '1', '90').orderId;
    const events = sim.apply({
      type: 'CancelReplaceOrder',
      accountId: 1,
      symbol: 'BTCUSDT',
      mode: 'STOP_ON_FAILURE',
      cancelOrderId: id,
      newOrder: { side: 'BUY', orderType: 'LIMIT', price: px('91'), quantity: qty('1'), timeInForce: 'GTC' },
    });
    expect(types(events)).toEqual(['OrderCanceled', 'OrderAccepted', 'CancelReplaceCompleted']);
    expect(events[2]).toMatchObject({ cancelResult: 'SUCCESS', newOrderResult: 'SUCCESS', canceledOrderId: id });
  });

  it('cancel-replace STOP_ON_FAILURE with an unknown order: FAILURE / NOT_ATTEMPTED, nothing changes', () => {
    const before = sim.engine.stateHash();
    const events = sim.apply({
      type: 'CancelReplaceOrder',
      accountId: 1,
      symbol: 'BTCUSDT',
      mode: 'STOP_ON_FAILURE',
      cancelOrderId: 999,
      newOrder: { side: 'BUY', orderType: 'LIMIT', price: px('91'), quantity: qty('1'), timeInForce: 'GTC' },
    });
    expect(events).toEqual([expect.objectContaining({ type: 'CancelReplaceCompleted', cancelResult: 'FAILURE', newOrderResult: 'NOT_ATTEMPTED', cancelReason: 'UNKNOWN_ORDER' })]);
    expect(sim.engine.stateHash()).toBe(before);
  });

  it('amend keepPriority reduces the quantity in place and releases funds', () => {
    const first = sim.buy(1, '2', '90').orderId;
    const second = sim.buy(2, '1', '90').orderId;
    const events = sim.apply({ type: 'AmendOrder', accountId: 1, symbol: 'BTCUSDT', orderId: first, newQuantity: qty('1.5') });
    expect(events[0]).toMatchObject({ type: 'OrderAmended', origQuantity: qty('2'), newQuantity: qty('1.5'), executionId: 1 });
    expect(sim.balance(1, 'USDT').locked).toBe(u('135'));
    expect(sim.engine.bookOrders('BTCUSDT', 'BUY').map((o) => o.orderId)).toEqual([first, second]);
    expectRejectedWithoutChange(sim, { type: 'AmendOrder', accountId: 1, symbol: 'BTCUSDT', orderId: first, newQuantity: qty('1.5') }, 'AMEND_NO_CHANGE');
    expectRejectedWithoutChange(sim, { type: 'AmendOrder', accountId: 1, symbol: 'BTCUSDT', orderId: first, newQuantity: qty('3') }, 'AMEND_QTY_INCREASE');
    expect(sim.engine.orderAmendments(1, 'BTCUSDT', first)).toHaveLength(1);
  });
});

describe('iceberg and pegged orders', () => {
  it('an iceberg shows its slice; a refilled slice goes to the back of its level', () => {
    const sim = market();
    const ice = sim.place(1, { side: 'SELL', qty: '3', price: '101', icebergQty: '1' }).orderId;
    const plain = sim.sell(2, '1', '101').orderId;
    expect(sim.engine.depth('BTCUSDT', 5).asks[0]).toEqual([px('101'), qty('2')]);
    sim.place(9, { side: 'BUY', qty: '1.5', price: '101' });
    // 1 from the iceberg's slice, then 0.5 from the plain order (the refill queued behind it).
    expect(sim.order(2, plain).executedQty).toBe(qty('0.5'));
    expect(sim.order(1, ice).executedQty).toBe(qty('1'));
    expect(sim.engine.bookOrders('BTCUSDT', 'SELL').map((o) => o.orderId)).toEqual([plain, ice]);
  });

  it('a PRIMARY_PEG BUY takes the best bid; MARKET_PEG the best ask', () => {
    const sim = market();
    sim.buy(9, '1', '98');
    const a = sim.place(1, { side: 'BUY', qty: '1', peg: 'PRIMARY_PEG' }).orderId;
    expect(sim.order(1, a)).toMatchObject({ price: px('98'), peggedPrice: px('98'), pegPriceType: 'PRIMARY_PEG' });
    const empty = new Sim();
    empty.createAccount(1, { USDT: '1000' });
    expectRejectedWithoutChange(empty, empty.placeCommand(1, { side: 'BUY', qty: '1', peg: 'MARKET_PEG' }), 'PEG_LIQUIDITY_TOO_LOW');
  });
});

describe('smart order routing (single venue)', () => {
  it('the taker-phase fills of an SOR order are allocations, not trades; the maker still trades', () => {
    const sim = market();
    sim.sell(9, '1', '101');
    const events = sim.apply({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: px('101'), quantity: qty('2'), viaSor: true });
    expect(types(events)).toEqual(['OrderAccepted', 'TradeExecuted', 'AllocationRecorded']);
    const orderId = events[0]!.type === 'OrderAccepted' ? events[0].orderId : -1;
    expect(sim.engine.allocations(1, 'BTCUSDT')).toEqual([
      expect.objectContaining({ allocationId: 0, allocationType: 'SOR', orderId, price: px('101'), qty: qty('1'), isBuyer: true, isMaker: false, isAllocator: false }),
    ]);
    expect(sim.engine.accountTrades(1, 'BTCUSDT').filter((t) => t.orderId === orderId)).toEqual([]);
    expect(sim.engine.accountTrades(9, 'BTCUSDT').at(-1)).toMatchObject({ price: px('101'), isMaker: true });
    expect(sim.order(1, orderId)).toMatchObject({ usedSor: true, status: 'PARTIALLY_FILLED' });
  });
});
