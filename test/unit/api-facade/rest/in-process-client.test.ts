/**
 * The in-process client puts on its "wire" what an HTTP client library would: the parameters
 * form-encoded exactly as URLSearchParams encodes them (its fast path joins safe text directly),
 * `timestamp` appended on SIGNED rows, then the signature over all of it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signHmacSha256 } from '../../../../src/api-facade/signing/hmac-sha256.ts';
import { DEMO_SECRET, makeFixture, T0_MS } from '../../../api/fixture.ts';

const viaUrlSearchParams = (params: Record<string, string | number | boolean>): string => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();

describe('InProcessClient.prepare', () => {
  it('form-encodes any parameters as URLSearchParams does (safe text, spaces, unicode, reserved characters)', () => {
    const f = makeFixture();
    const text = fc.oneof(fc.string({ unit: fc.constantFrom(...'ABCxyz019*-._') }), fc.string(), fc.string({ unit: 'grapheme' }));
    const value = fc.oneof(text, fc.integer(), fc.double({ noNaN: false }), fc.boolean());
    fc.assert(
      fc.property(fc.dictionary(text, value), (params) => {
        const request = f.demo.prepare('GET', '/api/v3/ticker/price', params);
        expect(request.rawQuery).toBe(viaUrlSearchParams(params));
      }),
      { numRuns: 500 },
    );
  });

  it('signs the encoded parameters with timestamp = simulated now, in the body for POST', () => {
    const f = makeFixture();
    const request = f.demo.prepare('POST', '/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '49000.5', newClientOrderId: 'my id/1' });
    const payload = `symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.01&price=49000.5&newClientOrderId=my+id%2F1&timestamp=${T0_MS}`;
    expect(request.rawQuery).toBe('');
    expect(request.rawBody).toBe(`${payload}&signature=${signHmacSha256(DEMO_SECRET, payload)}`);
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it("keeps the caller's timestamp and signs a request without parameters", () => {
    const f = makeFixture();
    expect(f.demo.prepare('GET', '/api/v3/account', { timestamp: 5 }).rawQuery).toBe(`timestamp=5&signature=${signHmacSha256(DEMO_SECRET, 'timestamp=5')}`);
    expect(f.demo.prepare('GET', '/api/v3/account').rawQuery).toBe(`timestamp=${T0_MS}&signature=${signHmacSha256(DEMO_SECRET, `timestamp=${T0_MS}`)}`);
    expect(f.demo.prepare('GET', '/api/v3/time').rawQuery).toBe('');
  });
});
