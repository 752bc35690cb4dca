/**
 * POST /api/v3/order/cancelReplace: one test per reachable row of the spec's outcome matrix
 * (cancelReplaceMode × orderRateLimitExceededMode × unfilled order count), with the HTTP status,
 * the -2021 / -2022 body and its `data`, and the state after.
 */
import { describe, expect, test } from 'vitest';
import { BINANCE_RATE_LIMITS, type RateLimit } from '../../src/api-facade/limits/rate-limit-config.ts';
import { makeFixture, seedBook, type Fixture } from './fixture.ts';

type Result = 'SUCCESS' | 'FAILURE' | 'NOT_ATTEMPTED';
type Row = [mode: 'STOP_ON_FAILURE' | 'ALLOW_FAILURE', exceeded: 'DO_NOTHING' | 'CANCEL_ONLY', over: boolean, cancel: Result, newOrder: Result, status: number];

/** ORDERS 1 per 10 s: the demo's resting order uses it up, so the cancelReplace is over the limit. */
const TIGHT: readonly RateLimit[] = BINANCE_RATE_LIMITS.map((l) => (l.rateLimitType === 'ORDERS' && l.interval === 'SECOND' ? { ...l, limit: 1 } : l));

const ROWS: Row[] = [
  ['STOP_ON_FAILURE', 'DO_NOTHING', false, 'SUCCESS', 'SUCCESS', 200],
  ['STOP_ON_FAILURE', 'DO_NOTHING', false, 'FAILURE', 'NOT_ATTEMPTED', 400],
  ['STOP_ON_FAILURE', 'DO_NOTHING', false, 'SUCCESS', 'FAILURE', 409],
  ['STOP_ON_FAILURE', 'CANCEL_ONLY', false, 'SUCCESS', 'SUCCESS', 200],
  ['STOP_ON_FAILURE', 'CANCEL_ONLY', false, 'FAILURE', 'NOT_ATTEMPTED', 400],
  ['STOP_ON_FAILURE', 'CANCEL_ONLY', false, 'SUCCESS', 'FAILURE', 409],
  ['STOP_ON_FAILURE', 'CANCEL_ONLY', true, 'FAILURE', 'NOT_ATTEMPTED', 429],
  ['STOP_ON_FAILURE', 'CANCEL_ONLY', true, 'SUCCESS', 'FAILURE', 429],
  ['ALLOW_FAILURE', 'DO_NOTHING', false, 'SUCCESS', 'SUCCESS', 200],
  ['ALLOW_FAILURE', 'DO_NOTHING', false, 'FAILURE', 'FAILURE', 400],
  ['ALLOW_FAILURE', 'DO_NOTHING', false, 'FAILURE', 'SUCCESS', 409],
  ['ALLOW_FAILURE', 'DO_NOTHING', false, 'SUCCESS', 'FAILURE', 409],
  ['ALLOW_FAILURE', 'CANCEL_ONLY', false, 'SUCCESS', 'SUCCESS', 200],
  ['ALLOW_FAILURE', 'CANCEL_ONLY', false, 'FAILURE', 'FAILURE', 400],
  ['ALLOW_FAILURE', 'CANCEL_ONLY', false, 'FAILURE', 'SUCCESS', 409],
  ['ALLOW_FAILURE', 'CANCEL_ONLY', false, 'SUCCESS', 'FAILURE', 409],
  ['ALLOW_FAILURE', 'CANCEL_ONLY', true, 'FAILURE', 'FAILURE', 400],
  ['ALLOW_FAILURE', 'CANCEL_ONLY', true, 'SUCCESS', 'FAILURE', 409],
];

const RESTING = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '49000' } as const;
/** A new order that passes: LIMIT BUY at 48000. One that the engine refuses after the cancel: a LIMIT_MAKER that would take. */
const GOOD_NEW = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '48000' } as const;
const BAD_NEW = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT_MAKER', quantity: '0.1', price: '50010' } as const;

const UNKNOWN_ORDER = { code: -2011, msg: 'Unknown order sent.' };
const TOO_MANY = { code: -1015, msg: 'Too many new orders; current limit is 1 orders per 10 SECOND.' };

function setup(over: boolean): { f: Fixture; orderId: number } {
  const f = over ? makeFixture({ rateLimits: TIGHT }) : makeFixture();
  // The book is only needed for the new order that fails on its own (a LIMIT_MAKER that would take).
  if (!over) seedBook(f);
  const placed = f.demo.post('/api/v3/order', RESTING);
  if (placed.status !== 200) throw new Error(placed.body);
  return { f, orderId: (placed.json as any).orderId };
}

describe('cancelReplace outcome matrix', () => {
  test.each(ROWS)('%s / %s / over limit %s: %s / %s → %i', (mode, exceededMode, over, cancel, newOrder, status) => {
    const { f, orderId } = setup(over);
    // A new order that fails only fails when it was attempted and is meant to fail on its own.
    const newFails = newOrder === 'FAILURE' && !over;
    const r = f.demo.post('/api/v3/order/cancelReplace', {
      ...(newFails ? BAD_NEW : GOOD_NEW),
      cancelReplaceMode: mode,
      orderRateLimitExceededMode: exceededMode,
      cancelOrderId: cancel === 'SUCCESS' ? orderId : 999,
      cancelNewClientOrderId: 'the-cancel',
      newClientOrderId: 'the-new',
    });
    expect(r.status).toBe(status);
    const body = r.json as any;
    const data = status === 200 ? body : body.data;
    expect([data.cancelResult, data.newOrderResult]).toEqual([cancel, newOrder]);
    if (status !== 200) {
      const partly = cancel === 'SUCCESS' || newOrder === 'SUCCESS';
      expect([body.code, body.msg]).toEqual(partly ? [-2021, 'Order cancel-replace partially failed.'] : [-2022, 'Order cancel-replace failed.']);
    }
    // cancelResponse: the cancel response, or the cancel's error.
    if (cancel === 'SUCCESS') expect(data.cancelResponse).toMatchObject({ orderId, origClientOrderId: expect.any(String), clientOrderId: 'the-cancel', status: 'CANCELED' });
    else expect(data.cancelResponse).toEqual(UNKNOWN_ORDER);
    // newOrderResponse: FULL placement response, the failure, or null when not attempted.
    if (newOrder === 'SUCCESS') expect(data.newOrderResponse).toMatchObject({ clientOrderId: 'the-new', status: 'NEW', price: '48000.00000000', fills: [] });
    else if (newOrder === 'NOT_ATTEMPTED') expect(data.newOrderResponse).toBeNull();
    else expect(data.newOrderResponse).toEqual(over ? TOO_MANY : { code: -2010, msg: 'Order would immediately match and take.' });
    // State: the old order is canceled exactly when the cancel succeeded; the new one exists exactly when placed.
    const open = (f.demo.get('/api/v3/openOrders', { symbol: 'BTCUSDT' }).json as any[]).map((o) => o.clientOrderId);
    expect(open.includes('the-new')).toBe(newOrder === 'SUCCESS');
    expect(f.demo.get('/api/v3/order', { symbol: 'BTCUSDT', orderId }).json).toMatchObject({ status: cancel === 'SUCCESS' ? 'CANCELED' : 'NEW' });
  });

  test('DO_NOTHING over the limit: plain -1015 (429) and nothing is canceled', () => {
    const { f, orderId } = setup(true);
    const r = f.demo.post('/api/v3/order/cancelReplace', { ...GOOD_NEW, cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: orderId });
    expect([r.status, r.json]).toEqual([429, TOO_MANY]);
    expect(f.demo.get('/api/v3/order', { symbol: 'BTCUSDT', orderId }).json).toMatchObject({ status: 'NEW' });
  });

  test('a NOT_ATTEMPTED new order still adds 1 to the unfilled order count', () => {
    const { f } = setup(false);
    const counts = () => (f.demo.get('/api/v3/rateLimit/order').json as any[]).map((x) => x.count);
    const before = counts();
    const r = f.demo.post('/api/v3/order/cancelReplace', { ...GOOD_NEW, cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: 999 });
    expect(r.status).toBe(400);
    expect(counts()).toEqual(before.map((c) => c + 1));
  });

  test('a new order refused before the engine (filter) cancels nothing: -2022 with cancelResult NOT_ATTEMPTED', () => {
    const { f, orderId } = setup(false);
    const r = f.demo.post('/api/v3/order/cancelReplace', { ...GOOD_NEW, price: '48000.001', cancelReplaceMode: 'ALLOW_FAILURE', cancelOrderId: orderId });
    expect([r.status, r.json]).toEqual([400, {
      code: -2022, msg: 'Order cancel-replace failed.',
      data: { cancelResult: 'NOT_ATTEMPTED', newOrderResult: 'FAILURE', cancelResponse: null, newOrderResponse: { code: -1013, msg: 'Filter failure: PRICE_FILTER' } },
    }]);
    expect(f.demo.get('/api/v3/order', { symbol: 'BTCUSDT', orderId }).json).toMatchObject({ status: 'NEW' });
  });
});
