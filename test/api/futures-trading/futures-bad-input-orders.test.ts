/**
 * Bad input on the /fapi order rows (POST / PUT / DELETE / GET order, batchOrders, allOpenOrders,
 * algoOrder and its queries): each answers Binance's HTTP status, code and text (futures facts §3,
 * §5, §8: each filter rule its own -40xx code, never spot's -1013) and changes nothing the
 * account's own answers show. A batch answers 200 with an error per refused item, and those
 * items change nothing either.
 */
import { describe, expect, test } from 'vitest';
import { badInputFixture, expectRefused, illegalDecimal, invalid, mandatory, state, type BadInput } from './futures-bad-input-state.ts';

const LIMIT = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '49500' } as const;
const without = (name: keyof typeof LIMIT): Record<string, string> => Object.fromEntries(Object.entries(LIMIT).filter(([k]) => k !== name));
const EITHER_ID = "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!";

const NEW_ORDER: readonly BadInput[] = [
  ['POST', '/fapi/v1/order', without('symbol'), 400, -1102, mandatory('symbol')],
  ['POST', '/fapi/v1/order', without('side'), 400, -1102, mandatory('side')],
  ['POST', '/fapi/v1/order', without('type'), 400, -1102, mandatory('type')],
  ['POST', '/fapi/v1/order', without('timeInForce'), 400, -1102, mandatory('timeinforce')],
  ['POST', '/fapi/v1/order', without('quantity'), 400, -1102, mandatory('quantity')],
  ['POST', '/fapi/v1/order', without('price'), 400, -1102, mandatory('price')],
  ['POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET' }, 400, -1102, mandatory('quantity')],
  ['POST', '/fapi/v1/order', { ...LIMIT, side: 'LONG' }, 400, -1117, 'Invalid side.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, type: 'LIMIT_MAKER' }, 400, -1116, 'Invalid orderType.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, timeInForce: 'DAY' }, 400, -1115, 'Invalid timeInForce.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, positionSide: 'UP' }, 400, -4060, 'Invalid position side.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, reduceOnly: 'yes' }, 400, -1130, invalid('reduceOnly')],
  ['POST', '/fapi/v1/order', { ...LIMIT, newOrderRespType: 'FULL' }, 400, -1130, invalid('newOrderRespType')],
  ['POST', '/fapi/v1/order', { ...LIMIT, selfTradePreventionMode: 'DECREMENT' }, 400, -1130, invalid('selfTradePreventionMode')],
  ['POST', '/fapi/v1/order', { ...LIMIT, newClientOrderId: 'has space' }, 400, -1100, "Illegal characters found in parameter 'newClientOrderId'; legal range is '^[\\.A-Z\\:/a-z0-9_-]{1,36}$'."],
  ['POST', '/fapi/v1/order', { ...LIMIT, quantity: 'abc' }, 400, -1100, illegalDecimal('quantity')],
  ['POST', '/fapi/v1/order', { ...LIMIT, price: '4.95e4' }, 400, -1100, illegalDecimal('price')],
  ['POST', '/fapi/v1/order', { ...LIMIT, quantity: '-0.01' }, 400, -1100, illegalDecimal('quantity')],
  ['POST', '/fapi/v1/order', { ...LIMIT, quantity: '0' }, 400, -4003, 'Quantity less than zero.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, price: '0' }, 400, -4001, 'Price less than 0.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, symbol: 'XYZUSDT' }, 400, -1121, 'Invalid symbol.'],
  // The spot symbol of the same name is not a futures symbol's business: ETHBTC has no perpetual.
  ['POST', '/fapi/v1/order', { ...LIMIT, symbol: 'ETHBTC' }, 400, -1121, 'Invalid symbol.'],
  ['POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_MARKET', quantity: '0.01', stopPrice: '60000' }, 400, -4120, 'Order type not supported for this endpoint. Please use the Algo Order API endpoints instead.'],
  ['POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01', price: '50000' }, 400, -1106, "Parameter 'price' sent when not required."],
  // The futures -1106 names the parameter in lower case (Binance's futures answers: 'timeinforce', 'reduceonly').
  ['POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01', timeInForce: 'GTC' }, 400, -1106, "Parameter 'timeinforce' sent when not required."],
  ['POST', '/fapi/v1/order', { ...LIMIT, closePosition: 'true' }, 400, -1106, "Parameter 'closeposition' sent when not required."],
  ['POST', '/fapi/v1/order', { ...LIMIT, goodTillDate: 1_767_230_000_000 }, 400, -1106, "Parameter 'goodtilldate' sent when not required."],
  // Filters (§5), each rule its own code.
  ['POST', '/fapi/v1/order', { ...LIMIT, price: '500' }, 400, -4013, 'Price less than min price.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, price: '5000000' }, 400, -4002, 'Price greater than max price.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, price: '49500.05' }, 400, -4014, 'Price not increased by tick size.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, quantity: '0.0005' }, 400, -4004, 'Quantity less than min quantity.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, quantity: '1001' }, 400, -4005, 'Quantity greater than max quantity.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, quantity: '0.0105' }, 400, -4023, 'Qty not increased by step size.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, quantity: '0.001' }, 400, -4164, "Order's notional must be no smaller than 100 (unless you choose reduce only)"],
  ['POST', '/fapi/v1/order', { ...LIMIT, price: '53000' }, 400, -4016, 'Price is higher than mark price multiplier cap.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, side: 'SELL', price: '47000' }, 400, -4024, 'Price is lower than mark price multiplier floor.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, positionSide: 'LONG' }, 400, -4061, "Order's position side does not match user's setting."],
  // The position is short: a reduce-only SELL would grow it.
  ['POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.01', reduceOnly: 'true' }, 400, -2022, 'ReduceOnly Order is rejected.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, quantity: '100' }, 400, -2019, 'Margin is insufficient.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, timeInForce: 'GTX', price: '50010' }, 400, -5022, 'Due to the order could not be executed as maker, the Post Only order will be rejected.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, timeInForce: 'FOK', price: '50010', quantity: '2' }, 400, -5021, 'Due to the order could not be filled immediately, the FOK order has been rejected.'],
  ['POST', '/fapi/v1/order', { ...LIMIT, timeInForce: 'GTD', goodTillDate: 1_767_225_600_000 }, 400, -5040, 'The goodTillDate timestamp must be greater than the current time plus 600 seconds and smaller than 253402300799000 (UTC 9999-12-31 23:59:59)'],
];

const OTHER_ORDER_ROWS: readonly BadInput[] = [
  ['PUT', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', quantity: '0.01', price: '49100' }, 400, -1102, EITHER_ID],
  ['PUT', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 3, quantity: '0.01', price: '49100' }, 400, -1102, mandatory('side')],
  ['PUT', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 999, side: 'BUY', quantity: '0.01', price: '49100' }, 400, -2013, 'Order does not exist.'],
  ['PUT', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 6, side: 'BUY', quantity: '0.01', price: '0' }, 400, -4001, 'Price less than 0.'],
  ['PUT', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 6, side: 'BUY', quantity: '0.01', price: '49000' }, 400, -5027, 'No need to modify the order.'],
  ['PUT', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 6, side: 'BUY', quantity: '0.01', price: '49000.05' }, 400, -4014, 'Price not increased by tick size.'],
  // reduceOnly=true on an order not placed reduce-only (code: change log 2026-09-15; text chosen).
  ['PUT', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 6, side: 'BUY', quantity: '0.01', price: '49100', reduceOnly: 'true' }, 400, -5047, 'The original order is not a reduce only order.'],
  ['PUT', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 6, side: 'BUY', quantity: '0.01', price: '49100', modifyId: 'x' }, 400, -1100, "Illegal characters found in parameter 'modifyId'; legal range is '^[0-9]{1,20}$'."],
  ['DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT' }, 400, -1102, EITHER_ID],
  ['DELETE', '/fapi/v1/order', { orderId: 6 }, 400, -1102, mandatory('symbol')],
  ['DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 999 }, 400, -2011, 'Unknown order sent.'],
  ['DELETE', '/fapi/v1/order', { symbol: 'XYZUSDT', orderId: 6 }, 400, -1121, 'Invalid symbol.'],
  ['DELETE', '/fapi/v1/allOpenOrders', {}, 400, -1102, mandatory('symbol')],
  ['DELETE', '/fapi/v1/allOpenOrders', { symbol: 'XYZUSDT' }, 400, -1121, 'Invalid symbol.'],
  ['POST', '/fapi/v1/batchOrders', {}, 400, -1102, mandatory('batchorders')],
  ['POST', '/fapi/v1/batchOrders', { batchOrders: 'not json' }, 400, -1130, invalid('batchOrders')],
  ['POST', '/fapi/v1/batchOrders', { batchOrders: '[]' }, 400, -1130, invalid('batchOrders')],
  // At most 5 orders.
  ['POST', '/fapi/v1/batchOrders', { batchOrders: JSON.stringify(Array.from({ length: 6 }, () => LIMIT)) }, 400, -1130, invalid('batchOrders')],
  ['PUT', '/fapi/v1/batchOrders', {}, 400, -1102, mandatory('batchorders')],
  ['DELETE', '/fapi/v1/batchOrders', { symbol: 'BTCUSDT' }, 400, -1102, "Param 'orderIdList' or 'origClientOrderIdList' must be sent, but both were empty/null!"],
  // At most 10 ids.
  ['DELETE', '/fapi/v1/batchOrders', { symbol: 'BTCUSDT', orderIdList: '[1,2,3,4,5,6,7,8,9,10,11]' }, 400, -1130, invalid('orderIdList')],
  ['DELETE', '/fapi/v1/batchOrders', { symbol: 'BTCUSDT', orderIdList: '6' }, 400, -1130, invalid('orderIdList')],
];

const ALGO: readonly BadInput[] = [
  ['POST', '/fapi/v1/algoOrder', { symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_MARKET', quantity: '0.01', triggerPrice: '60000' }, 400, -1102, mandatory('algotype')],
  ['POST', '/fapi/v1/algoOrder', { algoType: 'OCO', symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_MARKET', quantity: '0.01', triggerPrice: '60000' }, 400, -1130, invalid('algoType')],
  ['POST', '/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', triggerPrice: '60000' }, 400, -1116, 'Invalid orderType.'],
  ['POST', '/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_MARKET', quantity: '0.01' }, 400, -1102, mandatory('triggerprice')],
  ['POST', '/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_MARKET', quantity: '0.01', triggerPrice: '60000', workingType: 'LAST_PRICE' }, 400, -1130, invalid('workingType')],
  ['POST', '/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'XYZUSDT', side: 'BUY', type: 'STOP_MARKET', quantity: '0.01', triggerPrice: '60000' }, 400, -1121, 'Invalid symbol.'],
  ['DELETE', '/fapi/v1/algoOrder', {}, 400, -1102, "Param 'clientAlgoId' or 'algoId' must be sent, but both were empty/null!"],
  ['DELETE', '/fapi/v1/algoOrder', { algoId: 999 }, 400, -2011, 'Unknown order sent.'],
  ['GET', '/fapi/v1/algoOrder', {}, 400, -1102, "Param 'clientAlgoId' or 'algoId' must be sent, but both were empty/null!"],
  ['GET', '/fapi/v1/algoOrder', { algoId: 999 }, 400, -2013, 'Order does not exist.'],
  ['GET', '/fapi/v1/openAlgoOrders', { symbol: 'XYZUSDT' }, 400, -1121, 'Invalid symbol.'],
  ['GET', '/fapi/v1/allAlgoOrders', {}, 400, -1102, mandatory('symbol')],
  ['GET', '/fapi/v1/allAlgoOrders', { symbol: 'BTCUSDT', limit: 1001 }, 400, -1130, invalid('limit')],
  ['GET', '/fapi/v1/allAlgoOrders', { symbol: 'BTCUSDT', startTime: 1_766_620_800_000, endTime: 1_767_225_600_001 }, 400, -1127, 'More than 168 hours between startTime and endTime.'],
  ['DELETE', '/fapi/v1/algoOpenOrders', {}, 400, -1102, mandatory('symbol')],
];

describe.each([
  ['new order', NEW_ORDER],
  ['modify, cancel, batches', OTHER_ORDER_ROWS],
  ['algo orders', ALGO],
])('futures bad input: %s', (_group, cases) => {
  test.each(cases.map((c) => [`${c[0]} ${c[1]} ${JSON.stringify(c[2])} → ${c[4]}`, c] as const))('%s', (_name, input) => {
    expectRefused(badInputFixture(), input);
  });
});

describe('futures bad input: a duplicate client order id', () => {
  test('the client id of an open order is -4116 "ClientOrderId is duplicated." (not -4015, which is about its form)', () => {
    const f = badInputFixture();
    const [open] = f.demo.get('/fapi/v1/openOrders', { symbol: 'BTCUSDT' }).json as { clientOrderId: string }[];
    expectRefused(f, ['POST', '/fapi/v1/order', { ...LIMIT, newClientOrderId: open!.clientOrderId }, 400, -4116, 'ClientOrderId is duplicated.']);
  });
});

describe('futures bad input: hedge mode', () => {
  test('reduceOnly sent at all, "false" too, is -1106 \'reduceonly\' in hedge mode', () => {
    const f = badInputFixture();
    // Flat and without orders, so the mode can change.
    f.demo.delete('/fapi/v1/allOpenOrders', { symbol: 'BTCUSDT' });
    f.demo.delete('/fapi/v1/algoOpenOrders', { symbol: 'BTCUSDT' });
    f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01', reduceOnly: 'true' });
    expect(f.demo.post('/fapi/v1/positionSide/dual', { dualSidePosition: 'true' }).json).toEqual({ code: 200, msg: 'success' });
    for (const reduceOnly of ['true', 'false']) {
      expectRefused(f, ['POST', '/fapi/v1/order', { ...LIMIT, positionSide: 'LONG', reduceOnly }, 400, -1106, "Parameter 'reduceonly' sent when not required."]);
    }
    expectRefused(f, ['POST', '/fapi/v1/order', LIMIT, 400, -4061, "Order's position side does not match user's setting."]);
  });
});

describe('futures bad input: batch items', () => {
  test('POST batchOrders answers 200 with each refused item\'s error in its place and places nothing', () => {
    const f = badInputFixture();
    const before = state(f.demo);
    const r = f.demo.post('/fapi/v1/batchOrders', {
      batchOrders: JSON.stringify([{ ...LIMIT, side: 'LONG' }, without('symbol'), { ...LIMIT, price: '0' }, { ...LIMIT, price: '500' }, { ...LIMIT, type: 'STOP' }]),
    });
    expect([r.status, r.json]).toEqual([
      200,
      [
        { code: -1117, msg: 'Invalid side.' },
        { code: -1102, msg: mandatory('symbol') },
        { code: -4001, msg: 'Price less than 0.' },
        { code: -4013, msg: 'Price less than min price.' },
        { code: -4120, msg: 'Order type not supported for this endpoint. Please use the Algo Order API endpoints instead.' },
      ],
    ]);
    expect(state(f.demo)).toEqual(before);
  });

  test('PUT and DELETE batchOrders answer an unknown order in its place and change nothing', () => {
    const f = badInputFixture();
    const before = state(f.demo);
    const put = f.demo.put('/fapi/v1/batchOrders', { batchOrders: JSON.stringify([{ symbol: 'BTCUSDT', orderId: 999, side: 'BUY', quantity: '0.01', price: '49100' }]) });
    expect([put.status, put.json]).toEqual([200, [{ code: -2013, msg: 'Order does not exist.' }]]);
    const del = f.demo.delete('/fapi/v1/batchOrders', { symbol: 'BTCUSDT', orderIdList: '[999]' });
    expect([del.status, del.json]).toEqual([200, [{ code: -2011, msg: 'Unknown order sent.' }]]);
    expect(state(f.demo)).toEqual(before);
  });
});

describe('modify parameters Binance added in 2026', () => {
  test('PUT order takes modifyId (passed through, answered back) and reduceOnly=false, where they were -1104', () => {
    const f = badInputFixture();
    const r = f.demo.put('/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 6, side: 'BUY', quantity: '0.01', price: '49100', reduceOnly: 'false', modifyId: 7 });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ orderId: 6, price: '49100.0', reduceOnly: false, modifyId: 7 });
  });

  test('reduceOnly=true modifies an order placed reduce-only', () => {
    const f = badInputFixture();
    // The position is short 0.01: a reduce-only bid may close it.
    const placed = f.demo.post('/fapi/v1/order', { ...LIMIT, price: '49200', reduceOnly: 'true' }).json as { orderId: number };
    const r = f.demo.put('/fapi/v1/order', { symbol: 'BTCUSDT', orderId: placed.orderId, side: 'BUY', quantity: '0.005', price: '49300', reduceOnly: 'true' });
    expect([r.status, r.json]).toMatchObject([200, { orderId: placed.orderId, origQty: '0.005', price: '49300.0', reduceOnly: true }]);
  });
});
