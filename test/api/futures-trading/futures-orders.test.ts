/**
 * The /fapi order rows: each refusal's status, code and text exactly (futures facts §3.1, §5, §8)
 * with nothing changed, the good answers field by field, weights and order-count headers.
 * Book: asks 50 010 / 50 020, bids 49 990 / 49 980 (1 BTC each), mark 50 000, demo wallet 1000 USDT.
 */
import { describe, expect, test } from 'vitest';
import { futuresTradingFixture, fund, mark, quote, T0_MS, type FuturesTradingFixture } from './futures-fixture.ts';

const ALGO_TEXT = 'Order type not supported for this endpoint. Please use the Algo Order API endpoints instead.';

function market(): FuturesTradingFixture {
  const f = futuresTradingFixture();
  mark(f, '50000');
  quote(f);
  fund(f.demo, '1000');
  return f;
}

const LIMIT = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '49000' } as const;

/** What a refusal must leave alone: the account's open orders, wallet and positions. */
function state(f: FuturesTradingFixture): string {
  return JSON.stringify([f.demo.get('/fapi/v1/openOrders').json, f.demo.get('/fapi/v2/balance').json, f.demo.get('/fapi/v3/positionRisk').json]);
}

describe('POST /fapi/v1/order refusals', () => {
  const cases: [string, Record<string, string>, number, string][] = [
    ['STOP', { ...LIMIT, type: 'STOP' }, -4120, ALGO_TEXT],
    ['STOP_MARKET', { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', quantity: '0.01', stopPrice: '49000' }, -4120, ALGO_TEXT],
    ['TAKE_PROFIT', { ...LIMIT, type: 'TAKE_PROFIT' }, -4120, ALGO_TEXT],
    ['TAKE_PROFIT_MARKET', { symbol: 'BTCUSDT', side: 'SELL', type: 'TAKE_PROFIT_MARKET', quantity: '0.01' }, -4120, ALGO_TEXT],
    ['TRAILING_STOP_MARKET', { symbol: 'BTCUSDT', side: 'SELL', type: 'TRAILING_STOP_MARKET', quantity: '0.01', callbackRate: '1' }, -4120, ALGO_TEXT],
    ['unknown type', { ...LIMIT, type: 'LIMIT_MAKER' }, -1116, 'Invalid orderType.'],
    ['no quantity', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET' }, -1102, "Mandatory parameter 'quantity' was not sent, was empty/null, or malformed."],
    ['no timeInForce', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '49000' }, -1102, "Mandatory parameter 'timeinforce' was not sent, was empty/null, or malformed."],
    ['no price', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01' }, -1102, "Mandatory parameter 'price' was not sent, was empty/null, or malformed."],
    ['zero quantity', { ...LIMIT, quantity: '0' }, -4003, 'Quantity less than zero.'],
    ['stopPrice on LIMIT', { ...LIMIT, stopPrice: '48000' }, -1106, "Parameter 'stopprice' sent when not required."],
    ['GTD too soon', { ...LIMIT, timeInForce: 'GTD', goodTillDate: String(T0_MS + 600_000) }, -5040, 'The goodTillDate timestamp must be greater than the current time plus 600 seconds and smaller than 253402300799000 (UTC 9999-12-31 23:59:59)'],
    ['GTD too late', { ...LIMIT, timeInForce: 'GTD', goodTillDate: '253402300799000' }, -5040, 'The goodTillDate timestamp must be greater than the current time plus 600 seconds and smaller than 253402300799000 (UTC 9999-12-31 23:59:59)'],
    ['GTD without goodTillDate', { ...LIMIT, timeInForce: 'GTD' }, -1102, "Mandatory parameter 'goodtilldate' was not sent, was empty/null, or malformed."],
    ['unknown symbol', { ...LIMIT, symbol: 'ETHUSDT' }, -1121, 'Invalid symbol.'],
    ['off the tick', { ...LIMIT, price: '49000.05' }, -4014, 'Price not increased by tick size.'],
    ['off the step', { ...LIMIT, quantity: '0.0101' }, -4023, 'Qty not increased by step size.'],
    ['below MIN_NOTIONAL', { ...LIMIT, quantity: '0.001' }, -4164, "Order's notional must be no smaller than 100 (unless you choose reduce only)"],
    ['above the mark cap', { ...LIMIT, price: '60000' }, -4016, 'Price is higher than mark price multiplier cap.'],
    ['margin', { ...LIMIT, quantity: '1' }, -2019, 'Margin is insufficient.'],
    ['reduce only, no position', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01', reduceOnly: 'true' }, -2022, 'ReduceOnly Order is rejected.'],
    ['hedge side in one-way mode', { ...LIMIT, positionSide: 'LONG' }, -4061, "Order's position side does not match user's setting."],
    ['bad position side', { ...LIMIT, positionSide: 'UP' }, -4060, 'Invalid position side.'],
    ['post only would take', { ...LIMIT, timeInForce: 'GTX', price: '50010' }, -5022, 'Due to the order could not be executed as maker, the Post Only order will be rejected.'],
    ['FOK not fillable', { ...LIMIT, timeInForce: 'FOK', price: '50010', quantity: '3' }, -5021, 'Due to the order could not be filled immediately, the FOK order has been rejected.'],
  ];
  test.each(cases)('%s', (_name, params, code, msg) => {
    const f = market();
    const before = state(f);
    const r = f.demo.post('/fapi/v1/order', params);
    expect([r.status, r.json]).toEqual([400, { code, msg }]);
    expect(state(f)).toBe(before);
  });
});

describe('order answers', () => {
  test('a resting LIMIT: ACK answer, queries, open orders, cancel', () => {
    const f = market();
    const placed = f.demo.post('/fapi/v1/order', { ...LIMIT, newClientOrderId: 'my:id/1.x' });
    expect(placed.status).toBe(200);
    expect(placed.json).toEqual({
      clientOrderId: 'my:id/1.x',
      cumQty: '0.000',
      cumQuote: '0.00000000',
      executedQty: '0.000',
      orderId: 5,
      avgPrice: '0.0',
      origQty: '0.010',
      price: '49000.0',
      reduceOnly: false,
      side: 'BUY',
      positionSide: 'BOTH',
      status: 'NEW',
      stopPrice: '0',
      closePosition: false,
      symbol: 'BTCUSDT',
      timeInForce: 'GTC',
      type: 'LIMIT',
      origType: 'LIMIT',
      updateTime: T0_MS,
      workingType: 'CONTRACT_PRICE',
      priceProtect: false,
      priceMatch: 'NONE',
      selfTradePreventionMode: 'NONE',
      goodTillDate: 0,
    });
    // An order counts on the futures ORDERS limits (1 minute and 10 seconds), weighs 0 on the IP.
    expect(placed.headers['X-MBX-ORDER-COUNT-1M']).toBe('1');
    expect(placed.headers['X-MBX-ORDER-COUNT-10S']).toBe('1');
    // The demo's only earlier request was the /sapi transfer: nothing on the futures weight yet.
    expect(placed.headers['X-MBX-USED-WEIGHT-1M']).toBe('0');

    const query = f.demo.get('/fapi/v1/order', { symbol: 'BTCUSDT', origClientOrderId: 'my:id/1.x' }).json as Record<string, unknown>;
    expect(Object.keys(query)).toEqual([
      'avgPrice', 'clientOrderId', 'cumQuote', 'executedQty', 'orderId', 'origQty', 'origType', 'price', 'reduceOnly', 'side', 'positionSide', 'status',
      'stopPrice', 'closePosition', 'symbol', 'time', 'timeInForce', 'type', 'updateTime', 'workingType', 'priceProtect', 'priceMatch', 'selfTradePreventionMode', 'goodTillDate',
    ]);
    expect(query).toMatchObject({ orderId: 5, status: 'NEW', time: T0_MS });
    expect(f.demo.get('/fapi/v1/openOrder', { symbol: 'BTCUSDT', orderId: 5 }).json).toEqual(query);
    expect(f.demo.get('/fapi/v1/openOrders', { symbol: 'BTCUSDT' }).json).toEqual([query]);
    expect(f.demo.get('/fapi/v1/openOrders').json).toEqual([query]);
    expect(f.demo.get('/fapi/v1/allOrders', { symbol: 'BTCUSDT' }).json).toEqual([query]);

    const canceled = f.demo.delete('/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 5 });
    expect(canceled.json).toMatchObject({ orderId: 5, status: 'CANCELED', clientOrderId: 'my:id/1.x' });
    expect(f.demo.get('/fapi/v1/openOrder', { symbol: 'BTCUSDT', orderId: 5 }).json).toEqual({ code: -2013, msg: 'Order does not exist.' });
    expect(f.demo.delete('/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 5 }).json).toEqual({ code: -2011, msg: 'Unknown order sent.' });
    expect(f.demo.get('/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 99 }).json).toEqual({ code: -2013, msg: 'Order does not exist.' });
    expect(f.demo.delete('/fapi/v1/allOpenOrders', { symbol: 'BTCUSDT' }).json).toEqual({ code: 200, msg: 'The operation of cancel all open order is done.' });
  });

  test('GTX rests as a post-only order and shows GTX', () => {
    const f = market();
    const r = f.demo.post('/fapi/v1/order', { ...LIMIT, timeInForce: 'GTX' });
    expect(r.json).toMatchObject({ status: 'NEW', timeInForce: 'GTX' });
  });

  test('an IOC that cannot fill expires (RESULT)', () => {
    const f = market();
    expect(f.demo.post('/fapi/v1/order', { ...LIMIT, timeInForce: 'IOC', newOrderRespType: 'RESULT' }).json).toMatchObject({ status: 'EXPIRED', executedQty: '0.000' });
  });

  test('allOpenOrders cancels every open order of the symbol', () => {
    const f = market();
    f.demo.post('/fapi/v1/order', LIMIT);
    f.demo.post('/fapi/v1/order', { ...LIMIT, price: '48000' });
    expect(f.demo.delete('/fapi/v1/allOpenOrders', { symbol: 'BTCUSDT' }).json).toEqual({ code: 200, msg: 'The operation of cancel all open order is done.' });
    expect(f.demo.get('/fapi/v1/openOrders').json).toEqual([]);
  });

  test('batchOrders: per-item answers in request order; -4120 per item; at most 5', () => {
    const f = market();
    const r = f.demo.post('/fapi/v1/batchOrders', {
      batchOrders: JSON.stringify([
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '48000' },
        { symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_MARKET', quantity: '0.01' },
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '48000.05' },
      ]),
    });
    expect(r.status).toBe(200);
    const items = r.json as Record<string, unknown>[];
    expect(items[0]).toMatchObject({ orderId: 5, status: 'NEW', price: '48000.0' });
    expect(items[1]).toEqual({ code: -4120, msg: ALGO_TEXT });
    expect(items[2]).toEqual({ code: -4014, msg: 'Price not increased by tick size.' });
    expect(r.headers['X-MBX-ORDER-COUNT-1M']).toBe('5');
    const six = JSON.stringify(Array.from({ length: 6 }, () => ({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '48000' })));
    expect(f.demo.post('/fapi/v1/batchOrders', { batchOrders: six }).json).toEqual({ code: -1130, msg: "Data sent for parameter 'batchOrders' is not valid." });

    const canceled = f.demo.delete('/fapi/v1/batchOrders', { symbol: 'BTCUSDT', orderIdList: '[5,77]' }).json as Record<string, unknown>[];
    expect(canceled[0]).toMatchObject({ orderId: 5, status: 'CANCELED' });
    expect(canceled[1]).toEqual({ code: -2011, msg: 'Unknown order sent.' });
  });
});

describe('settings rows', () => {
  test('leverage, margin type, position mode, multi-assets, symbolConfig, brackets, commission', () => {
    const f = market();
    expect(f.demo.post('/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 200 }).json).toEqual({ code: -4028, msg: 'Leverage 200 is not valid' });
    expect(f.demo.post('/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'CROSSED' }).json).toEqual({ code: -4046, msg: 'No need to change margin type.' });
    expect(f.demo.post('/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'ISOLATED' }).json).toEqual({ code: 200, msg: 'success' });
    expect(f.demo.get('/fapi/v1/symbolConfig').json).toEqual([{ symbol: 'BTCUSDT', marginType: 'ISOLATED', isAutoAddMargin: 'false', leverage: 20, maxNotionalValue: '70000000.00000000' }]);
    expect(f.demo.post('/fapi/v1/positionSide/dual', { dualSidePosition: 'false' }).json).toEqual({ code: -4059, msg: 'No need to change position side.' });
    expect(f.demo.get('/fapi/v1/positionSide/dual').json).toEqual({ dualSidePosition: false });
    f.demo.post('/fapi/v1/order', LIMIT);
    expect(f.demo.post('/fapi/v1/positionSide/dual', { dualSidePosition: 'true' }).json).toEqual({ code: -4067, msg: 'Position side cannot be changed if there exists open orders.' });
    f.demo.delete('/fapi/v1/allOpenOrders', { symbol: 'BTCUSDT' });
    expect(f.demo.post('/fapi/v1/positionSide/dual', { dualSidePosition: 'true' }).json).toEqual({ code: 200, msg: 'success' });
    expect(f.demo.get('/fapi/v1/positionSide/dual').json).toEqual({ dualSidePosition: true });
    expect(f.demo.get('/fapi/v1/multiAssetsMargin').json).toEqual({ multiAssetsMargin: false });
    expect(f.demo.post('/fapi/v1/multiAssetsMargin', { multiAssetsMargin: 'false' }).json).toEqual({ code: 200, msg: 'success' });
    expect(f.demo.post('/fapi/v1/multiAssetsMargin', { multiAssetsMargin: 'true' }).json).toEqual({ code: -1130, msg: "Data sent for parameter 'multiAssetsMargin' is not valid." });
    expect(f.demo.get('/fapi/v1/commissionRate', { symbol: 'BTCUSDT' }).json).toEqual({ symbol: 'BTCUSDT', makerCommissionRate: '0.0002', takerCommissionRate: '0.0005', rpiCommissionRate: '0.0002' });
    const brackets = f.demo.get('/fapi/v1/leverageBracket', { symbol: 'BTCUSDT' }).json as { symbol: string; brackets: unknown[] };
    expect(brackets.symbol).toBe('BTCUSDT');
    expect(brackets.brackets.slice(0, 2)).toEqual([
      { bracket: 1, initialLeverage: 125, notionalCap: 50000, notionalFloor: 0, maintMarginRatio: 0.004, cum: 0 },
      // cum_2 = 0 + 50 000 × (0.005 − 0.004) = 50
      { bracket: 2, initialLeverage: 100, notionalCap: 600000, notionalFloor: 50000, maintMarginRatio: 0.005, cum: 50 },
    ]);
    expect(f.demo.get('/fapi/v1/leverageBracket').json).toEqual([brackets]);
  });

  test('isolated margin: add to the position, reduce below what it holds is refused', () => {
    const f = market();
    f.demo.post('/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'ISOLATED' });
    expect(f.demo.post('/fapi/v1/positionMargin', { symbol: 'BTCUSDT', amount: '10', type: 1 }).json).toEqual({ code: -4049, msg: 'Add margin only support for isolated position.' });
    f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.01' });
    expect(f.demo.post('/fapi/v1/positionMargin', { symbol: 'BTCUSDT', amount: '10', type: 1 }).json).toEqual({ amount: 10, code: 200, msg: 'Successfully modify position margin.', type: 1 });
    expect(f.demo.post('/fapi/v1/positionMargin', { symbol: 'BTCUSDT', amount: '100000', type: 2 }).json).toEqual({ code: -4051, msg: 'Isolated balance insufficient.' });
  });
});

describe('futures exchangeInfo of a traded perpetual', () => {
  test('shows the margin symbol filters and terms', () => {
    const f = futuresTradingFixture();
    const info = f.demo.get('/fapi/v1/exchangeInfo').json as { rateLimits: unknown; symbols: Record<string, unknown>[] };
    const btc = info.symbols.find((s) => s['symbol'] === 'BTCUSDT')!;
    expect(btc['filters']).toEqual([
      { filterType: 'PRICE_FILTER', minPrice: '556.80', maxPrice: '4529764', tickSize: '0.10' },
      { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
      { filterType: 'MARKET_LOT_SIZE', minQty: '0.001', maxQty: '120', stepSize: '0.001' },
      { filterType: 'MAX_NUM_ORDERS', limit: 200 },
      { filterType: 'MIN_NOTIONAL', notional: '100' },
      { filterType: 'PERCENT_PRICE', multiplierUp: '1.0500', multiplierDown: '0.9500', multiplierDecimal: '4' },
    ]);
    expect(btc).toMatchObject({ pricePrecision: 1, quantityPrecision: 3, triggerProtect: '0.15', liquidationFee: '0.01', marketTakeBound: '0.30', marginAsset: 'USDT' });
    expect(info.rateLimits).toEqual([
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 2400 },
      { rateLimitType: 'ORDERS', interval: 'MINUTE', intervalNum: 1, limit: 1200 },
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 300 },
    ]);
  });
});

describe('POST /fapi/v1/countdownCancelAll', () => {
  test('cancels the open orders when the countdown runs out; a heartbeat moves it; 0 stops it', () => {
    const f = market();
    f.demo.post('/fapi/v1/order', LIMIT);
    expect(f.demo.post('/fapi/v1/countdownCancelAll', { symbol: 'BTCUSDT', countdownTime: 10_000 }).json).toEqual({ symbol: 'BTCUSDT', countdownTime: '10000' });
    f.backend.advanceTo(f.backend.now + 9_000_000);
    f.demo.post('/fapi/v1/countdownCancelAll', { symbol: 'BTCUSDT', countdownTime: 10_000 }); // heartbeat: now + 10 s
    f.backend.advanceTo(f.backend.now + 9_000_000);
    expect((f.demo.get('/fapi/v1/openOrders').json as unknown[]).length).toBe(1);
    f.backend.advanceTo(f.backend.now + 1_000_000);
    expect(f.demo.get('/fapi/v1/openOrders').json).toEqual([]);
    expect(f.demo.get('/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 5 }).json).toMatchObject({ status: 'CANCELED' });

    f.demo.post('/fapi/v1/order', LIMIT);
    f.demo.post('/fapi/v1/countdownCancelAll', { symbol: 'BTCUSDT', countdownTime: 1_000 });
    f.demo.post('/fapi/v1/countdownCancelAll', { symbol: 'BTCUSDT', countdownTime: 0 });
    f.backend.advanceTo(f.backend.now + 5_000_000);
    expect((f.demo.get('/fapi/v1/openOrders').json as unknown[]).length).toBe(1);
  });
});

describe('PUT /fapi/v1/order (modify)', () => {
  test('price and quantity of a LIMIT order, same id; refusals; AMENDMENT on the stream', () => {
    const f = market();
    const stream: Record<string, any>[] = [];
    f.ctx.futuresUserStream.subscribe(1, (e) => stream.push(e));
    f.demo.post('/fapi/v1/order', LIMIT);
    const modified = f.demo.put('/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 5, side: 'BUY', quantity: '0.02', price: '49500' });
    expect(modified.status).toBe(200);
    expect(modified.json).toMatchObject({ orderId: 5, status: 'NEW', price: '49500.0', origQty: '0.020', type: 'LIMIT' });
    expect(modified.headers['X-MBX-ORDER-COUNT-1M']).toBe('2');
    expect(stream.map((e) => e['o']?.x)).toEqual(['NEW', 'AMENDMENT']);
    expect(stream[1]!['o']).toMatchObject({ i: 5, X: 'NEW', p: '49500.0', q: '0.020' });

    expect(f.demo.put('/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 5, side: 'BUY', quantity: '0.02', price: '49500' }).json).toEqual({ code: -5027, msg: 'No need to modify the order.' });
    expect(f.demo.put('/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 5, side: 'BUY', quantity: '0.02', price: '49500.05' }).json).toEqual({ code: -4014, msg: 'Price not increased by tick size.' });
    expect(f.demo.put('/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 77, side: 'BUY', quantity: '0.02', price: '49500' }).json).toEqual({ code: -2013, msg: 'Order does not exist.' });
    expect(f.demo.get('/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 5 }).json).toMatchObject({ price: '49500.0', origQty: '0.020', status: 'NEW' });

    // A MARKET order cannot be modified (it is done; an open one would be -5025): a filled order is not open.
    const batch = f.demo.put('/fapi/v1/batchOrders', { batchOrders: JSON.stringify([{ symbol: 'BTCUSDT', orderId: '5', side: 'BUY', quantity: '0.03', price: '49400' }, { symbol: 'BTCUSDT', orderId: '99', side: 'BUY', quantity: '0.01', price: '49400' }]) });
    const items = batch.json as Record<string, unknown>[];
    expect(items[0]).toMatchObject({ orderId: 5, price: '49400.0', origQty: '0.030' });
    expect(items[1]).toEqual({ code: -2013, msg: 'Order does not exist.' });
  });
});

describe('commissionRate follows the account', () => {
  test("an account override (SetFuturesCommissionRates) shows instead of the contract's rates", () => {
    const f = market();
    f.backend.applyRaw({ type: 'SetFuturesCommissionRates', time: f.backend.now, accountId: 1, makerRate: 16_000, takerRate: 40_000 });
    expect(f.demo.get('/fapi/v1/commissionRate', { symbol: 'BTCUSDT' }).json).toEqual({ symbol: 'BTCUSDT', makerCommissionRate: '0.00016', takerCommissionRate: '0.0004', rpiCommissionRate: '0.00016' });
    expect(f.maker.get('/fapi/v1/commissionRate', { symbol: 'BTCUSDT' }).json).toEqual({ symbol: 'BTCUSDT', makerCommissionRate: '0.0002', takerCommissionRate: '0.0005', rpiCommissionRate: '0.0002' });
  });
});

describe('priceMatch', () => {
  test('OPPONENT / QUEUE_5 take the price from the book; shown in answers and on the stream; refusals', () => {
    const f = market();
    const stream: Record<string, any>[] = [];
    f.ctx.futuresUserStream.subscribe(1, (e) => stream.push(e));
    // BUY QUEUE: the best bid (49 990); GTX so it rests as a maker.
    const queue = f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', priceMatch: 'QUEUE' });
    expect(queue.json).toMatchObject({ price: '49990.0', priceMatch: 'QUEUE', status: 'NEW' });
    expect(stream[0]!['o']).toMatchObject({ x: 'NEW', pm: 'QUEUE', p: '49990.0' });
    // SELL QUEUE_5: the book has two asks, the deepest is taken (50 020).
    expect(f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', priceMatch: 'QUEUE_5' }).json).toMatchObject({ price: '50020.0', priceMatch: 'QUEUE_5' });
    // BUY OPPONENT: the best ask (50 010), taken at once (IOC).
    expect(f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.01', priceMatch: 'OPPONENT', newOrderRespType: 'RESULT' }).json).toMatchObject({ price: '50010.0', status: 'FILLED', priceMatch: 'OPPONENT' });
    expect(f.demo.get('/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 5 }).json).toMatchObject({ priceMatch: 'QUEUE' });
    // Not with price; not on MARKET.
    expect(f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '49000', priceMatch: 'QUEUE' }).json).toEqual({ code: -1106, msg: "Parameter 'price' sent when not required." });
    expect(f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01', priceMatch: 'QUEUE' }).json).toEqual({ code: -1106, msg: "Parameter 'pricematch' sent when not required." });
    // Modify back to a client price: the mode is gone.
    expect(f.demo.put('/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 5, side: 'BUY', quantity: '0.01', price: '49000' }).json).toMatchObject({ price: '49000.0', priceMatch: 'NONE' });
  });
});
