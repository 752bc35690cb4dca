/**
 * Order lists over REST: OCO (new and legacy), OTO, OTOCO, OPO, OPOCO placement, the list
 * object and its orderReports, unfilled order counts, DELETE orderList, the list queries, and
 * DELETE openOrders mixing orders and lists.
 */
import { describe, expect, test } from 'vitest';
import { makeFixture, seedBook, T0_MS, type Fixture } from './fixture.ts';

function market(): Fixture {
  const f = makeFixture();
  seedBook(f);
  // One trade at 50010: the last price the OCO prices must straddle.
  const r = f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.01', price: '50010' });
  if (r.status !== 200) throw new Error(r.body);
  return f;
}

const SELL_OCO = {
  symbol: 'BTCUSDT', side: 'SELL', quantity: '0.1', listClientOrderId: 'my-oco',
  aboveType: 'LIMIT_MAKER', abovePrice: '52000', aboveClientOrderId: 'tp',
  belowType: 'STOP_LOSS_LIMIT', belowPrice: '47000', belowStopPrice: '47500', belowTimeInForce: 'GTC', belowClientOrderId: 'sl',
} as const;

const counts = (f: Fixture) => (f.demo.get('/api/v3/rateLimit/order').json as any[]).map((r) => r.count);

describe('OCO', () => {
  test('orderList/oco: the list object with RESULT orderReports; counts 2; queries show it', () => {
    const f = market();
    const before = counts(f);
    const r = f.demo.post('/api/v3/orderList/oco', SELL_OCO);
    expect(r.status).toBe(200);
    const list = r.json as any;
    expect(list).toMatchObject({
      contingencyType: 'OCO', listStatusType: 'EXEC_STARTED', listOrderStatus: 'EXECUTING', listClientOrderId: 'my-oco', transactionTime: T0_MS, symbol: 'BTCUSDT',
      orders: [{ symbol: 'BTCUSDT', clientOrderId: 'tp' }, { symbol: 'BTCUSDT', clientOrderId: 'sl' }],
    });
    expect(list.orderReports).toHaveLength(2);
    expect(list.orderReports[0]).toMatchObject({ clientOrderId: 'tp', type: 'LIMIT_MAKER', orderListId: list.orderListId, status: 'NEW', price: '52000.00000000', transactTime: T0_MS });
    expect(list.orderReports[0]).not.toHaveProperty('fills');
    expect(list.orderReports[1]).toMatchObject({ clientOrderId: 'sl', type: 'STOP_LOSS_LIMIT', stopPrice: '47500.00000000', workingTime: -1 });
    expect(counts(f).map((c, i) => c - (before[i] as number))).toEqual([2, 2]);
    expect(r.headers['X-MBX-ORDER-COUNT-10S']).toBe(String(counts(f)[0]));

    const byId = f.demo.get('/api/v3/orderList', { orderListId: list.orderListId }).json;
    const { orderReports: _reports, ...query } = list;
    expect(byId).toEqual(query);
    expect(f.demo.get('/api/v3/orderList', { origClientOrderId: 'my-oco' }).json).toEqual(query);
    expect(f.demo.get('/api/v3/openOrderList').json).toEqual([query]);
    expect(f.demo.get('/api/v3/allOrderList').json).toEqual([query]);
    expect(f.demo.get('/api/v3/allOrderList', { fromId: list.orderListId + 1 }).json).toEqual([]);
    const legs = f.demo.get('/api/v3/openOrders', { symbol: 'BTCUSDT' }).json as any[];
    expect(legs.map((o) => [o.clientOrderId, o.orderListId, o.isWorking])).toEqual([['tp', list.orderListId, true], ['sl', list.orderListId, false]]);
  });

  test('engine refusals of a list: prices not straddling the last (-2010), a MARKET leg (-1158); nothing is placed', () => {
    const f = market();
    const swapped = f.demo.post('/api/v3/orderList/oco', { ...SELL_OCO, belowStopPrice: '53000', belowPrice: '52500' });
    expect(swapped.status).toBe(400);
    expect(swapped.json).toEqual({ code: -2010, msg: 'The relationship of the prices for the orders is not correct.' });
    const { abovePrice: _price, ...noPrice } = SELL_OCO;
    const bad = f.demo.post('/api/v3/orderList/oco', { ...noPrice, aboveType: 'MARKET' });
    expect(bad.json).toEqual({ code: -1158, msg: 'Order type not supported in OCO.' });
    expect(f.demo.get('/api/v3/openOrderList').json).toEqual([]);
    expect(f.demo.get('/api/v3/openOrders', { symbol: 'BTCUSDT' }).json).toEqual([]);
  });

  test('legacy order/oco: LIMIT_MAKER + STOP_LOSS_LIMIT, the stop leg reported first', () => {
    const f = market();
    const r = f.demo.post('/api/v3/order/oco', {
      symbol: 'BTCUSDT', side: 'SELL', quantity: '0.1', price: '52000', stopPrice: '47500', stopLimitPrice: '47000', stopLimitTimeInForce: 'GTC',
    });
    expect(r.status).toBe(200);
    const list = r.json as any;
    expect(list.contingencyType).toBe('OCO');
    expect(list.orderReports.map((o: any) => [o.type, o.workingTime])).toEqual([['STOP_LOSS_LIMIT', -1], ['LIMIT_MAKER', T0_MS]]);
    expect(list.orderReports[0].stopPrice).toBe('47500.00000000');
  });

  test('DELETE orderList: ALL_DONE with CANCELED orderReports; unknown list -2011', () => {
    const f = market();
    const list = f.demo.post('/api/v3/orderList/oco', SELL_OCO).json as any;
    const r = f.demo.delete('/api/v3/orderList', { symbol: 'BTCUSDT', listClientOrderId: 'my-oco', newClientOrderId: 'bye' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ orderListId: list.orderListId, listStatusType: 'ALL_DONE', listOrderStatus: 'ALL_DONE' });
    expect((r.json as any).orderReports.map((o: any) => [o.origClientOrderId, o.clientOrderId, o.status])).toEqual([['tp', 'bye', 'CANCELED'], ['sl', 'bye', 'CANCELED']]);
    expect(f.demo.get('/api/v3/openOrderList').json).toEqual([]);
    const again = f.demo.delete('/api/v3/orderList', { symbol: 'BTCUSDT', orderListId: 999 });
    expect([again.status, again.json]).toEqual([400, { code: -2011, msg: 'Order list does not exist.' }]);
    expect(f.demo.get('/api/v3/orderList', { orderListId: 999 }).json).toEqual({ code: -2013, msg: 'Order list does not exist.' });
  });

  test('DELETE openOrders: one plain cancel response and one list object with orderReports', () => {
    const f = market();
    const plain = f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '49000' }).json as any;
    const list = f.demo.post('/api/v3/orderList/oco', SELL_OCO).json as any;
    const r = f.demo.delete('/api/v3/openOrders', { symbol: 'BTCUSDT' }).json as any[];
    expect(r).toHaveLength(2);
    expect(r[0]).toMatchObject({ orderId: plain.orderId, status: 'CANCELED', orderListId: -1 });
    expect(r[1]).toMatchObject({ orderListId: list.orderListId, contingencyType: 'OCO', listStatusType: 'ALL_DONE', listOrderStatus: 'ALL_DONE' });
    expect(r[1].orderReports.map((o: any) => o.status)).toEqual(['CANCELED', 'CANCELED']);
  });

  test('allOrderList: 24 h span (-1127); fromId with startTime (-1128)', () => {
    const f = market();
    const span = f.demo.get('/api/v3/allOrderList', { startTime: T0_MS - 86_400_001, endTime: T0_MS });
    expect([span.status, span.json]).toEqual([400, { code: -1127, msg: 'More than 24 hours between startTime and endTime.' }]);
    expect(f.demo.get('/api/v3/allOrderList', { fromId: 1, endTime: T0_MS }).json).toEqual({ code: -1128, msg: 'Combination of optional parameters invalid.' });
  });
});

describe('OTO, OTOCO, OPO, OPOCO', () => {
  const WORKING = { symbol: 'BTCUSDT', workingType: 'LIMIT', workingSide: 'BUY', workingPrice: '49000', workingQuantity: '0.1', workingTimeInForce: 'GTC' } as const;

  test('OTO: contingencyType OTO, pending leg PENDING_NEW with workingTime -1; counts 2', () => {
    const f = market();
    const before = counts(f);
    const r = f.demo.post('/api/v3/orderList/oto', { ...WORKING, pendingType: 'LIMIT_MAKER', pendingSide: 'SELL', pendingPrice: '52000', pendingQuantity: '0.1' });
    expect(r.status).toBe(200);
    const list = r.json as any;
    expect(list.contingencyType).toBe('OTO');
    expect(list.orderReports.map((o: any) => [o.type, o.status, o.workingTime])).toEqual([['LIMIT', 'NEW', T0_MS], ['LIMIT_MAKER', 'PENDING_NEW', -1]]);
    expect(counts(f).map((c, i) => c - (before[i] as number))).toEqual([2, 2]);
  });

  test('OTOCO: three orderReports, counts 3; ACK reports when asked', () => {
    const f = market();
    const before = counts(f);
    const r = f.demo.post('/api/v3/orderList/otoco', {
      ...WORKING, newOrderRespType: 'ACK', pendingSide: 'SELL', pendingQuantity: '0.1',
      pendingAboveType: 'LIMIT_MAKER', pendingAbovePrice: '52000', pendingBelowType: 'STOP_LOSS', pendingBelowStopPrice: '47000',
    });
    expect(r.status).toBe(200);
    const list = r.json as any;
    expect(list.contingencyType).toBe('OTO');
    expect(list.orderReports.map((o: any) => Object.keys(o))).toEqual(Array(3).fill(['symbol', 'orderId', 'orderListId', 'clientOrderId', 'transactTime']));
    expect(counts(f).map((c, i) => c - (before[i] as number))).toEqual([3, 3]);
  });

  test('OPO: the pending report has no origQty; a SELL working order is -1222', () => {
    const f = market();
    const r = f.demo.post('/api/v3/orderList/opo', { ...WORKING, pendingType: 'LIMIT_MAKER', pendingSide: 'SELL', pendingPrice: '52000' });
    expect(r.status).toBe(200);
    const pending = (r.json as any).orderReports[1];
    expect(pending).toMatchObject({ status: 'PENDING_NEW', type: 'LIMIT_MAKER' });
    expect(pending).not.toHaveProperty('origQty');
    const sell = f.demo.post('/api/v3/orderList/opo', { ...WORKING, workingSide: 'SELL', pendingType: 'LIMIT_MAKER', pendingSide: 'SELL', pendingPrice: '52000' });
    expect([sell.status, sell.json]).toEqual([400, { code: -1222, msg: 'Working order in an OPO list must be a bid.' }]);
  });

  test('OPOCO: three legs, counts 3', () => {
    const f = market();
    const before = counts(f);
    const r = f.demo.post('/api/v3/orderList/opoco', {
      ...WORKING, pendingSide: 'SELL', pendingAboveType: 'LIMIT_MAKER', pendingAbovePrice: '52000', pendingBelowType: 'STOP_LOSS', pendingBelowStopPrice: '47000',
    });
    expect(r.status).toBe(200);
    expect((r.json as any).orderReports.map((o: any) => o.status)).toEqual(['NEW', 'PENDING_NEW', 'PENDING_NEW']);
    expect(counts(f).map((c, i) => c - (before[i] as number))).toEqual([3, 3]);
  });

  test('the stream: executionReports for every leg (pending ones PENDING_NEW, w false) and a listStatus', () => {
    const f = market();
    const seen: any[] = [];
    f.ctx.userStream.subscribe(1, (e) => seen.push(e));
    const list = f.demo.post('/api/v3/orderList/oto', { ...WORKING, pendingType: 'LIMIT_MAKER', pendingSide: 'SELL', pendingPrice: '52000', pendingQuantity: '0.1' }).json as any;
    const reports = seen.filter((e) => e.e === 'executionReport');
    expect(reports.map((e) => [e.x, e.X, e.w, e.g])).toEqual([['NEW', 'NEW', true, list.orderListId], ['NEW', 'PENDING_NEW', false, list.orderListId]]);
    const status = seen.find((e) => e.e === 'listStatus');
    expect(status).toEqual({
      e: 'listStatus', E: T0_MS, s: 'BTCUSDT', g: list.orderListId, c: 'OTO', l: 'EXEC_STARTED', L: 'EXECUTING', r: 'NONE', C: list.listClientOrderId, T: T0_MS,
      O: list.orders.map((o: any) => ({ s: 'BTCUSDT', i: o.orderId, c: o.clientOrderId })),
    });
    // The working order fills: the pending leg is placed, reported x=NEW X=NEW w=true.
    seen.length = 0;
    f.maker.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.1', price: '49000' });
    const pendingId = list.orders[1].orderId;
    expect(seen.find((e) => e.e === 'executionReport' && e.i === pendingId)).toMatchObject({ x: 'NEW', X: 'NEW', w: true });
  });
});
