/**
 * Where the seed spec and the fact sheet disagree, the seed wins by default (issue 13):
 * successful order placements and cancels cost the seed's weight 1 (the fact sheet's 2026 zero
 * rule is the `successfulOrderWeight: 'zero'` option), myPreventedMatches with an invalid symbol
 * costs 2, and fiat deposit / payment history errors use their {code, message, data, success}
 * envelope.
 */
import { describe, expect, test } from 'vitest';
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { InProcessClient } from '../../src/api-facade/rest/in-process-client.ts';
import { EngineBackend } from '../../src/api-facade/core/market-backend.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../src/sample/sample-market.ts';
import { DEMO_KEY, DEMO_SECRET, makeFixture, T0 } from './fixture.ts';

const used = (r: { headers: Record<string, string> }): number => Number(r.headers['X-MBX-USED-WEIGHT-1M']);
const LIMIT_BUY = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '49000' };

function client(successfulOrderWeight?: 'listed' | 'zero'): InProcessClient {
  const ctx = new ExchangeContext({
    backend: new EngineBackend(SAMPLE_CONFIG, T0, sampleAccounts(T0)),
    apiKeys: [{ apiKey: DEMO_KEY, keyType: 'HMAC', secretKey: DEMO_SECRET, accountId: 1 }],
    ...(successfulOrderWeight === undefined ? {} : { successfulOrderWeight }),
  });
  return new InProcessClient(ctx, { apiKey: DEMO_KEY, ip: '10.0.0.9' });
}

describe('order weights', () => {
  test('by default a successful placement and cancel cost 1 each, as the seed lists', () => {
    const demo = client();
    const placed = demo.post('/api/v3/order', LIMIT_BUY);
    expect([placed.status, used(placed)]).toEqual([200, 1]);
    const canceled = demo.delete('/api/v3/order', { symbol: 'BTCUSDT', orderId: (placed.json as { orderId: number }).orderId });
    expect([canceled.status, used(canceled)]).toEqual([200, 2]);
    demo.post('/api/v3/order', LIMIT_BUY);
    const all = demo.delete('/api/v3/openOrders', { symbol: 'BTCUSDT' });
    expect([all.status, used(all)]).toEqual([200, 4]);
  });

  test("successfulOrderWeight 'zero' is the fact sheet's 2026 rule: success 0, failure its weight", () => {
    const demo = client('zero');
    const placed = demo.post('/api/v3/order', LIMIT_BUY);
    expect([placed.status, used(placed)]).toEqual([200, 0]);
    const canceled = demo.delete('/api/v3/order', { symbol: 'BTCUSDT', orderId: (placed.json as { orderId: number }).orderId });
    expect([canceled.status, used(canceled)]).toEqual([200, 0]);
    const unknown = demo.delete('/api/v3/order', { symbol: 'BTCUSDT', orderId: 999 });
    expect([unknown.status, used(unknown)]).toEqual([400, 1]);
  });
});

test('myPreventedMatches: an invalid symbol costs 2 even by orderId; a valid one by orderId 20', () => {
  const f = makeFixture();
  const invalid = f.demo.get('/api/v3/myPreventedMatches', { symbol: 'NOPEUSDT', orderId: 1 });
  expect([invalid.status, invalid.json, used(invalid)]).toEqual([400, { code: -1121, msg: 'Invalid symbol.' }, 2]);
  const valid = f.demo.get('/api/v3/myPreventedMatches', { symbol: 'BTCUSDT', orderId: 1 });
  expect([valid.status, used(valid) - used(invalid)]).toEqual([200, 20]);
});

test('fiat deposit and payment history errors come in their envelope, with the HTTP status kept', () => {
  const f = makeFixture();
  const deposit = f.demo.request('POST', '/sapi/v1/fiat/deposit', { currency: 'USD', apiPaymentMethod: 'pix', amount: '10' });
  expect([deposit.status, deposit.json]).toEqual([400, { code: '-16010', message: 'Currency or payment method not supported.', data: null, success: false }]);
  const history = f.demo.get('/sapi/v1/pay/transactions', { limit: 101 });
  expect([history.status, history.json]).toEqual([400, { code: '-1130', message: "Data sent for parameter 'limit' is not valid.", data: null, success: false }]);
});
