/**
 * The in-process client's answers skip the JSON text (jsonValueOf, handleRequestValue). They must
 * still be exactly what a client parses off the wire: the copy equals JSON.parse(JSON.stringify(x))
 * for any value, and for real answers of the facade the value path and the text path agree on
 * status, headers and body, and leave the exchange in the same state.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handleRequest, handleRequestValue, type ApiRequest } from '../../../../src/api-facade/rest/handle-request.ts';
import { jsonValueOf } from '../../../../src/api-facade/serialize/json-value.ts';
import { DEMO_KEY, makeFixture, seedBook } from '../../../api/fixture.ts';

const viaText = (value: unknown): unknown => {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
};

describe('jsonValueOf is JSON.parse(JSON.stringify(x)) without the text', () => {
  it('for any value fast-check makes (undefined, NaN, -0, sparse arrays, __proto__ keys, Dates, boxed values)', () => {
    const anyValue = fc.anything({ withBoxedValues: true, withDate: true, withNullPrototype: true, withSparseArray: true, withObjectString: true, withMap: true, withSet: true, withTypedArray: true });
    fc.assert(
      fc.property(anyValue, (value) => {
        expect(jsonValueOf(value)).toStrictEqual(viaText(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('calls toJSON with the key, as JSON.stringify does', () => {
    const keyed = { toJSON: (key: string) => `at ${key}` };
    const value = { a: keyed, list: [keyed, { b: keyed }] };
    expect(jsonValueOf(value)).toStrictEqual(viaText(value));
    expect(jsonValueOf(value)).toStrictEqual({ a: 'at a', list: ['at 0', { b: 'at b' }] });
  });

  it('makes "__proto__" an own key, not the prototype', () => {
    const value = JSON.parse('{"__proto__":{"x":1},"y":2}') as unknown;
    const copied = jsonValueOf(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(Object.keys(copied)).toEqual(['__proto__', 'y']);
    expect(copied).toStrictEqual(viaText(value));
  });

  it('throws on a bigint and on a cycle, as JSON.stringify does', () => {
    expect(() => jsonValueOf({ n: 1n })).toThrow(TypeError);
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(() => jsonValueOf(cycle)).toThrow();
  });

  it('gives values of their own: changing one changes nothing it was copied from', () => {
    const source = { balances: [{ asset: 'BTC', free: '1' }] };
    const copied = jsonValueOf(source) as typeof source;
    copied.balances[0]!.free = '1000';
    copied.balances.push({ asset: 'X', free: '0' });
    expect(source).toEqual({ balances: [{ asset: 'BTC', free: '1' }] });
  });
});

describe('handleRequestValue answers what handleRequest answers, parsed', () => {
  /** One request sent to two fixtures built alike: by text to the first, by value to the second. */
  const both = (request: ApiRequest, text: ReturnType<typeof makeFixture>, value: ReturnType<typeof makeFixture>) => {
    const byText = handleRequest(text.ctx, request);
    const byValue = handleRequestValue(value.ctx, request);
    expect(byValue.status).toBe(byText.status);
    expect(byValue.headers).toEqual(byText.headers);
    expect(byValue.json).toStrictEqual(JSON.parse(byText.body));
    expect(JSON.stringify(byValue.json)).toBe(byText.body);
  };

  it('on market data, account reads, orders (accepted and refused), cancels and unknown paths', () => {
    const text = makeFixture();
    const value = makeFixture();
    seedBook(text);
    seedBook(value);
    // The demo client builds each signed request once (same timestamp and signature for both exchanges).
    const requests: ApiRequest[] = [
      text.demo.prepare('GET', '/api/v3/exchangeInfo', { symbol: 'BTCUSDT' }),
      text.demo.prepare('GET', '/api/v3/depth', { symbol: 'BTCUSDT', limit: 5 }),
      text.demo.prepare('GET', '/api/v3/ticker/bookTicker', { symbol: 'BTCUSDT' }),
      text.demo.prepare('GET', '/api/v3/ticker/24hr', { symbol: 'BTCUSDT' }),
      text.demo.prepare('GET', '/api/v3/account', { omitZeroBalances: true }),
      text.demo.prepare('POST', '/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '49000' }),
      text.demo.prepare('POST', '/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.6' }),
      text.demo.prepare('POST', '/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: 'abc' }),
      text.demo.prepare('GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' }),
      text.demo.prepare('GET', '/api/v3/myTrades', { symbol: 'BTCUSDT' }),
      text.demo.prepare('DELETE', '/api/v3/openOrders', { symbol: 'BTCUSDT' }),
      text.demo.prepare('DELETE', '/api/v3/openOrders', { symbol: 'BTCUSDT' }),
      text.demo.prepare('GET', '/api/v3/nope'),
      { method: 'GET', path: '/api/v3/account', rawQuery: 'timestamp=1', rawBody: '', headers: { 'x-mbx-apikey': DEMO_KEY } },
    ];
    for (const request of requests) both(request, text, value);
    expect(value.backend.engine.stateHash()).toBe(text.backend.engine.stateHash());
  });

  it("the in-process client's answers: json of its own, body its text", () => {
    const f = makeFixture();
    seedBook(f);
    const first = f.demo.get('/api/v3/ticker/bookTicker', { symbol: 'BTCUSDT' });
    (first.json as Record<string, string>)['bidPrice'] = '1';
    const second = f.demo.get('/api/v3/ticker/bookTicker', { symbol: 'BTCUSDT' });
    expect((second.json as Record<string, string>)['bidPrice']).toBe('49990.00000000');
    expect(second.body).toBe(JSON.stringify(second.json));
  });
});
