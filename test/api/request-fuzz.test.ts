/**
 * fast-check fuzzing of the request pipeline: random methods, paths, parameters (real names and
 * values mixed with junk, bad percent-encoding, non-ASCII), bodies, content types, time-unit
 * headers, with and without a valid signature. Whatever arrives, handleRequest answers: never a
 * throw, never a 500, always JSON, errors as {code, msg}, and a refused request changes no state.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ENDPOINTS, findEndpoint } from '../../src/api-facade/endpoints/endpoint-table.ts';
import { handleRequest } from '../../src/api-facade/rest/handle-request.ts';
import { signHmacSha256 } from '../../src/api-facade/signing/hmac-sha256.ts';
import { DEMO_KEY, DEMO_SECRET, makeFixture, seedBook, T0_MS } from './fixture.ts';

const ALLOWED_STATUSES = new Set([200, 400, 401, 403, 404, 409, 418, 429]);
const PATHS = [...new Set(ENDPOINTS.map((r) => r.path))];
const NAMES = [
  'symbol', 'symbols', 'side', 'type', 'timeInForce', 'quantity', 'quoteOrderQty', 'price', 'newClientOrderId', 'orderId', 'origClientOrderId',
  'limit', 'fromId', 'startTime', 'endTime', 'interval', 'timeZone', 'windowSize', 'newOrderRespType', 'selfTradePreventionMode', 'recvWindow',
  'timestamp', 'signature', 'listenKey', 'omitZeroBalances', 'computeCommissionRates', 'cancelRestrictions', 'symbolStatus', 'preventedMatchId',
  'strategyId', 'strategyType', 'stopPrice', 'icebergQty', 'permissions', 'showPermissionSets', 'x', '', 'sym%62ol', '%',
];
const VALUES = [
  'BTCUSDT', 'ETHBTC', 'btcusdt', 'NOPE', 'BUY', 'SELL', 'LIMIT', 'MARKET', 'LIMIT_MAKER', 'OCO', 'GTC', 'IOC', 'FOK', 'GTD', '0.1', '0.00001', '50000',
  '50010', '49990', '1e5', '-1', '0', '00', '1.123456789', '99999999999999999999', 'NaN', 'true', 'false', '1m', '1d2h', '+14:00', '["BTCUSDT"]',
  '["BTCUSDT","BTCUSDT"]', '[', 'FULL', 'ACK', 'EXPIRE_TAKER', 'DECREMENT', String(T0_MS), String(T0_MS * 1000), '60000.001', '%', '%zz', '%E0%A4',
  '%00', 'é', '日本', '\u0000', ' ', "'; DROP TABLE orders;--", 'a'.repeat(300),
];

const pair = fc.tuple(fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 6 })), fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...VALUES) }, fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 4 })));
const encoded = fc.array(pair, { maxLength: 9 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));

const randomRequest = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'get'),
  path: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...PATHS) }, fc.constantFrom('/', '/api/v3', '/api/v3/', '/api/v3/order/', '/API/V3/TIME', '/api/v3/%2e%2e', '/%E0%A4%A'), fc.string({ maxLength: 20 })),
  query: encoded,
  body: fc.oneof(encoded, fc.constant(''), fc.string({ maxLength: 40 }), fc.constant('{"symbol":"BTCUSDT"}')),
  contentType: fc.constantFrom(undefined, 'application/x-www-form-urlencoded', 'application/json', 'text/plain', 'multipart/form-data; boundary=x', ''),
  timeUnit: fc.constantFrom(undefined, 'MICROSECOND', 'millisecond', 'SECOND', ''),
  withKey: fc.constantFrom('demo', 'none', 'unknown', 'malformed'),
  signed: fc.boolean(),
  wrongSignature: fc.constant(false),
});

/** A valid signed LIMIT order with one or two parameters replaced or dropped: reaches the engine. */
const BASE_ORDER: Record<string, string> = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '49000', timestamp: String(T0_MS) };
const nearValidOrder = fc
  .record({
    path: fc.constantFrom('/api/v3/order', '/api/v3/order/test'),
    edits: fc.array(fc.tuple(fc.constantFrom(...Object.keys(BASE_ORDER), 'quoteOrderQty', 'newClientOrderId', 'selfTradePreventionMode', 'newOrderRespType'), fc.option(fc.constantFrom(...VALUES))), { minLength: 0, maxLength: 2 }),
    inBody: fc.boolean(),
    withKey: fc.constantFrom('demo', 'demo', 'demo', 'unknown', 'malformed'),
    signed: fc.constantFrom(true, true, true, false),
  })
  .map(({ path, edits, inBody, withKey, signed }) => {
    const params = { ...BASE_ORDER };
    for (const [name, value] of edits) {
      if (value === null) delete params[name];
      else params[name] = value;
    }
    const encodedParams = Object.entries(params).map(([k, v]) => `${k}=${v}`).join('&');
    return {
      method: 'POST',
      path,
      query: inBody ? '' : encodedParams,
      body: inBody ? encodedParams : '',
      contentType: inBody ? 'application/x-www-form-urlencoded' : undefined,
      timeUnit: undefined,
      withKey,
      // Unsigned here means a well-formed signature over something else (-1022).
      signed,
      wrongSignature: !signed,
    };
  });

const requestArb = fc.oneof(randomRequest, nearValidOrder);

describe('the request pipeline under random input', () => {
  test('answers every request with JSON and an allowed status; refusals change nothing', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.array(requestArb, { minLength: 1, maxLength: 6 }), (requests) => {
        const f = makeFixture();
        seedBook(f);
        for (const r of requests) {
          let query = r.query;
          const body = r.body;
          if (r.signed || r.wrongSignature) {
            const sig = signHmacSha256(DEMO_SECRET, r.wrongSignature ? 'something else' : `${query}${body}`);
            query += `${query === '' ? '' : '&'}signature=${sig}`;
          }
          const headers: Record<string, string> = {};
          if (r.contentType !== undefined) headers['content-type'] = r.contentType;
          if (r.timeUnit !== undefined) headers['x-mbx-time-unit'] = r.timeUnit;
          if (r.withKey === 'demo') headers['x-mbx-apikey'] = DEMO_KEY;
          if (r.withKey === 'unknown') headers['x-mbx-apikey'] = 'A'.repeat(64); // well-formed, unknown: -2015
          if (r.withKey === 'malformed') headers['x-mbx-apikey'] = 'not a key!';
          const before = f.backend.engine.stateHash();
          const response = handleRequest(f.ctx, { method: r.method, path: r.path, rawQuery: query, rawBody: body, headers, ip: '10.1.1.1' });
          expect(ALLOWED_STATUSES.has(response.status), `${response.status} ${response.body}`).toBe(true);
          const json = JSON.parse(response.body);
          seen.add(response.status === 200 ? `200 ${r.path}` : String(json.code));
          if (response.status === 200) {
            if (json !== null && typeof json === 'object' && !Array.isArray(json)) expect(json).not.toHaveProperty('code');
          } else {
            const envelope = findEndpoint(r.method.toUpperCase(), r.path)?.envelopeErrors === true;
            expect(Object.keys(json).sort()).toEqual(envelope ? ['code', 'data', 'message', 'success'] : ['code', 'msg']);
            const code = envelope ? Number(json.code) : json.code;
            expect(Number.isInteger(code) && code < 0).toBe(true);
            expect(typeof (envelope ? json.message : json.msg)).toBe('string');
            expect(f.backend.engine.stateHash()).toBe(before);
          }
          expect(response.headers['X-MBX-USED-WEIGHT-1M']).toMatch(/^[0-9]+$/);
        }
        f.backend.engine.checkInvariants();
      }),
      { numRuns: Number(process.env['EXSIM_FUZZ_RUNS'] ?? 300), seed: Number(process.env['EXSIM_FUZZ_SEED'] ?? 20261122) },
    );
    // The input reached every stage: routing, parameters, auth, timing, the engine, success.
    for (const outcome of ['-1000', '-1100', '-1102', '-2014', '-2015', '-1022', '-1021', '-1013', '200 /api/v3/order', '200 /api/v3/order/test']) {
      expect(seen, `never saw ${outcome}: ${[...seen].sort().join(' ')}`).toContain(outcome);
    }
  });
});

describe('JSON bodies nested past the recursion limit (issue 25)', () => {
  test('every endpoint, any method: refused or served as JSON, never a 500; nothing changes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...PATHS), fc.constant('/sapi/v1/fiat/deposit')), fc.constantFrom('POST', 'POST', 'PUT', 'DELETE', 'GET'), fc.integer({ min: 100, max: 6000 }), (path, method, depth) => {
        const f = makeFixture();
        const before = f.backend.engine.stateHash();
        const body = `{"currency":"BRL","ext":${'['.repeat(depth)}${']'.repeat(depth)}}`;
        const response = handleRequest(f.ctx, { method, path, rawQuery: '', rawBody: body, headers: { 'content-type': 'application/json', 'x-mbx-apikey': DEMO_KEY }, ip: '10.1.1.2' });
        expect(ALLOWED_STATUSES.has(response.status), `${response.status} ${response.body}`).toBe(true);
        expect(() => JSON.parse(response.body)).not.toThrow();
        expect(f.backend.engine.stateHash()).toBe(before);
      }),
      { numRuns: 200, seed: 20261127 },
    );
  });
});
