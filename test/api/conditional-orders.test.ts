/**
 * POST order with the conditional order types and parameters: stops, trailing stops, icebergs,
 * pegs and strategy labels; their parameter errors; the conditional fields of the placement,
 * query and cancel shapes; and the user data stream's reports of them.
 */
import { describe, expect, test } from 'vitest';
import { makeFixture, seedBook, T0_MS, type Fixture } from './fixture.ts';

/** The sample book, and one trade at 50010 so that stops have a last price to judge against. */
function market(): Fixture {
  const f = makeFixture();
  seedBook(f);
  const r = f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.01', price: '50010' });
  if (r.status !== 200) throw new Error(r.body);
  return f;
}

const STOP_SELL = { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '48000', stopPrice: '48500' } as const;

describe('stop orders', () => {
  test('STOP_LOSS_LIMIT: ACK by default; RESULT shows stopPrice, workingTime -1; the query record shows isWorking false', () => {
    const f = market();
    const ack = f.demo.post('/api/v3/order', STOP_SELL);
    expect(ack.status).toBe(200);
    expect(Object.keys(ack.json as object)).toEqual(['symbol', 'orderId', 'orderListId', 'clientOrderId', 'transactTime']);
    const result = f.demo.post('/api/v3/order', { ...STOP_SELL, newOrderRespType: 'RESULT', strategyId: 7, strategyType: 1000000 }).json as any;
    expect(result).toEqual({
      symbol: 'BTCUSDT', orderId: result.orderId, orderListId: -1, clientOrderId: result.clientOrderId, transactTime: T0_MS,
      price: '48000.00000000', origQty: '0.10000000', executedQty: '0.00000000', origQuoteOrderQty: '0.00000000', cummulativeQuoteQty: '0.00000000',
      status: 'NEW', timeInForce: 'GTC', type: 'STOP_LOSS_LIMIT', side: 'SELL', workingTime: -1, selfTradePreventionMode: 'EXPIRE_MAKER',
      stopPrice: '48500.00000000', strategyId: 7, strategyType: 1000000,
    });
    const query = f.demo.get('/api/v3/order', { symbol: 'BTCUSDT', orderId: result.orderId }).json as any;
    expect(query).toMatchObject({ stopPrice: '48500.00000000', icebergQty: '0.00000000', isWorking: false, workingTime: -1, strategyId: 7, strategyType: 1000000 });
    const canceled = f.demo.delete('/api/v3/order', { symbol: 'BTCUSDT', orderId: result.orderId }).json as any;
    expect(canceled).toMatchObject({ status: 'CANCELED', type: 'STOP_LOSS_LIMIT', stopPrice: '48500.00000000' });
  });

  test('a stop whose condition already holds is -2010 "Order would trigger immediately." and nothing rests', () => {
    const f = market();
    const r = f.demo.post('/api/v3/order', { ...STOP_SELL, stopPrice: '50500' });
    expect([r.status, r.json]).toEqual([400, { code: -2010, msg: 'Order would trigger immediately.' }]);
    expect(f.demo.get('/api/v3/openOrders', { symbol: 'BTCUSDT' }).json).toEqual([]);
  });

  test('when it triggers it works at its limit: the query shows it working and filled', () => {
    const f = market();
    const placed = f.demo.post('/api/v3/order', { ...STOP_SELL, price: '49000', stopPrice: '49985', newOrderRespType: 'RESULT' }).json as any;
    // The demo sells through 49990 to 49980: the last price reaches the stop, which then sells at 49980.
    f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.6', price: '49980' });
    const query = f.demo.get('/api/v3/order', { symbol: 'BTCUSDT', orderId: placed.orderId }).json as any;
    expect(query).toMatchObject({ status: 'FILLED', executedQty: '0.10000000', cummulativeQuoteQty: '4998.00000000', isWorking: true, workingTime: T0_MS });
  });

  test('trailing stop: trailingDelta and trailingTime -1 until it tracks', () => {
    const f = market();
    const r = f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_LOSS', quantity: '0.1', trailingDelta: 100, newOrderRespType: 'RESULT' }).json as any;
    expect(r).toMatchObject({ type: 'STOP_LOSS', trailingDelta: 100, workingTime: -1 });
    expect(r).not.toHaveProperty('stopPrice');
    expect(typeof r.trailingTime).toBe('number');
  });

  test('parameter rules: stopPrice or trailingDelta (-1102), timeInForce (-1102), stopPrice on LIMIT (-1106)', () => {
    const f = market();
    expect(f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_LOSS', quantity: '0.1' }).json).toEqual({
      code: -1102, msg: "Param 'stopPrice' or 'trailingDelta' must be sent, but both were empty/null!",
    });
    const { timeInForce: _tif, ...noTif } = STOP_SELL;
    expect(f.demo.post('/api/v3/order', noTif).json).toEqual({ code: -1102, msg: "Mandatory parameter 'timeInForce' was not sent, was empty/null, or malformed." });
    expect(f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_LOSS', quantity: '0.1', stopPrice: '48000', price: '1' }).json).toEqual({
      code: -1106, msg: "Parameter 'price' sent when not required.",
    });
    expect(f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1', trailingDelta: 100 }).json).toEqual({
      code: -1106, msg: "Parameter 'trailingDelta' sent when not required.",
    });
  });
});

describe('icebergs, pegs and strategy labels', () => {
  const LIMIT = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '49000' } as const;

  test('iceberg: icebergQty on the response and query; above quantity is -2010', () => {
    const f = market();
    const r = f.demo.post('/api/v3/order', { ...LIMIT, icebergQty: '0.02' }).json as any;
    expect(r).toMatchObject({ type: 'LIMIT', icebergQty: '0.02000000', status: 'NEW', fills: [] });
    expect(f.demo.get('/api/v3/order', { symbol: 'BTCUSDT', orderId: r.orderId }).json).toMatchObject({ icebergQty: '0.02000000', stopPrice: '0.00000000' });
    expect(f.demo.post('/api/v3/order', { ...LIMIT, icebergQty: '0.2' }).json).toEqual({ code: -2010, msg: 'IcebergQty exceeds QTY.' });
  });

  test('pegged LIMIT without price: pegPriceType, pegOffsetType/Value and peggedPrice', () => {
    const f = market();
    const { price: _p, ...unpriced } = LIMIT;
    const r = f.demo.post('/api/v3/order', { ...unpriced, pegPriceType: 'PRIMARY_PEG', pegOffsetType: 'PRICE_LEVEL', pegOffsetValue: 1 }).json as any;
    expect(r).toMatchObject({ status: 'NEW', pegPriceType: 'PRIMARY_PEG', pegOffsetType: 'PRICE_LEVEL', pegOffsetValue: 1, peggedPrice: '49980.00000000' });
    const q = f.demo.get('/api/v3/order', { symbol: 'BTCUSDT', orderId: r.orderId }).json as any;
    expect(q).toMatchObject({ pegPriceType: 'PRIMARY_PEG', peggedPrice: '49980.00000000' });
  });

  test('peg errors: -1210, -1211, -1128 (offset without type), -1102 offset above 100; strategyType -1134', () => {
    const f = market();
    const send = (extra: Record<string, string | number>) => f.demo.post('/api/v3/order', { ...LIMIT, ...extra });
    expect(send({ pegPriceType: 'MID_PEG' }).json).toEqual({ code: -1210, msg: 'Invalid pegPriceType.' });
    expect(send({ pegPriceType: 'PRIMARY_PEG', pegOffsetType: 'TICKS', pegOffsetValue: 1 }).json).toEqual({ code: -1211, msg: 'Invalid pegOffsetType.' });
    expect(send({ pegPriceType: 'PRIMARY_PEG', pegOffsetValue: 1 }).json).toEqual({
      code: -1128, msg: "Combination of optional fields invalid. Recommendation: 'pegOffsetType' and 'pegOffsetValue' must both be sent.",
    });
    expect(send({ pegPriceType: 'PRIMARY_PEG', pegOffsetType: 'PRICE_LEVEL', pegOffsetValue: 101 }).json).toEqual({
      code: -1102, msg: "'pegOffsetValue' contains unexpected value. Cannot be greater than 100.",
    });
    expect(send({ strategyType: 999999 }).json).toEqual({ code: -1134, msg: 'strategyType was less than 1000000.' });
    expect(f.demo.get('/api/v3/openOrders', { symbol: 'BTCUSDT' }).json).toEqual([]);
    // order/test applies the same rules.
    expect(f.demo.post('/api/v3/order/test', { ...LIMIT, pegPriceType: 'MID_PEG' }).json).toEqual({ code: -1210, msg: 'Invalid pegPriceType.' });
    expect(f.demo.post('/api/v3/order/test', STOP_SELL).json).toEqual({});
  });
});

describe('user data stream for conditional orders', () => {
  test('a stop is reported NEW with w false, P and no W; a list pushes listStatus', () => {
    const f = market();
    const seen: any[] = [];
    f.ctx.userStream.subscribe(1, (e) => seen.push(e));
    f.demo.post('/api/v3/order', { ...STOP_SELL, icebergQty: '0.05' });
    const report = seen.find((e) => e.e === 'executionReport');
    expect(report).toMatchObject({ x: 'NEW', X: 'NEW', o: 'STOP_LOSS_LIMIT', P: '48500.00000000', F: '0.05000000', g: -1, w: false });
    expect(report).not.toHaveProperty('W');
  });
});
