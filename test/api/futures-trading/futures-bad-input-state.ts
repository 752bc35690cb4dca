/**
 * The bad-input tests' account: the futures fixture with a funded demo account holding a short
 * position (0.01 at 49 990), a resting bid (0.01 at 49 000), a waiting STOP_MARKET algo order and
 * leverage 10, and `state()`, everything a refusal could change as the account's own answers show
 * it (futures and spot wallets, positions, settings, open orders, algo orders, income, transfer
 * history). A refusal must leave `state()` as it was.
 */
import { expect } from 'vitest';
import type { InProcessClient } from '../../../src/api-facade/rest/in-process-client.ts';
import { futuresTradingFixture, fund, mark, quote, type FuturesTradingFixture } from './futures-fixture.ts';

export function badInputFixture(): FuturesTradingFixture {
  const f = futuresTradingFixture();
  mark(f, '50000');
  quote(f);
  fund(f.demo, '10000');
  const ok = (r: { status: number; body: string }): void => {
    if (r.status !== 200) throw new Error(`setup failed: ${r.body}`);
  };
  ok(f.demo.post('/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 10 }));
  ok(f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.01' }));
  ok(f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '49000' }));
  ok(f.demo.post('/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_MARKET', quantity: '0.01', triggerPrice: '60000' }));
  return f;
}

/** The account as its own answers show it. */
export function state(c: InProcessClient): unknown {
  return {
    account: c.get('/fapi/v3/account').json,
    positions: c.get('/fapi/v2/positionRisk').json,
    openOrders: c.get('/fapi/v1/openOrders').json,
    algo: c.get('/fapi/v1/openAlgoOrders').json,
    allOrders: c.get('/fapi/v1/allOrders', { symbol: 'BTCUSDT' }).json,
    dual: c.get('/fapi/v1/positionSide/dual').json,
    multi: c.get('/fapi/v1/multiAssetsMargin').json,
    symbolConfig: c.get('/fapi/v1/symbolConfig', { symbol: 'BTCUSDT' }).json,
    income: c.get('/fapi/v1/income').json,
    spot: (c.get('/api/v3/account').json as { balances: unknown }).balances,
    transfers: c.get('/sapi/v1/asset/transfer', { type: 'UMFUTURE_MAIN' }).json,
  };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** method, path, parameters, HTTP status, code, msg */
export type BadInput = readonly [Method, string, Record<string, string | number>, number, number, string];

/** Sends `input` from the demo account: Binance's answer, and nothing changed. */
export function expectRefused(f: FuturesTradingFixture, [method, path, params, status, code, msg]: BadInput): void {
  const before = state(f.demo);
  const r = f.demo.request(method, path, params);
  expect([r.status, r.json]).toEqual([status, { code, msg }]);
  expect(state(f.demo)).toEqual(before);
}

export const mandatory = (name: string): string => `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`;
export const invalid = (name: string): string => `Data sent for parameter '${name}' is not valid.`;
export const illegalDecimal = (name: string): string => `Illegal characters found in parameter '${name}'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'.`;
export const illegalInteger = (name: string): string => `Illegal characters found in parameter '${name}'; legal range is '^[0-9]{1,20}$'.`;
