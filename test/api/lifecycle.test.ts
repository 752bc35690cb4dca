import { describe, expect, test, vi } from 'vitest';
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { handleRequest } from '../../src/api-facade/rest/handle-request.ts';
import type { MarketBackend } from '../../src/api-facade/core/market-backend.ts';
import { checkTimestamp, recheckRecvWindow } from '../../src/api-facade/rest/timing.ts';
import { DEMO_KEY, DEMO_SECRET, makeFixture, raw, T0, T0_MS } from './fixture.ts';

const OUTSIDE = { code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' };
const AHEAD = { code: -1021, msg: "Timestamp for this request was 1000ms ahead of the server's time." };
const signed = { key: DEMO_KEY, secret: DEMO_SECRET };

describe('routing and headers', () => {
  test('an unknown path is 404 with a JSON error and still carries the weight headers', () => {
    const f = makeFixture();
    const r = raw(f, 'GET', '/api/v3/nothing', '');
    expect([r.status, r.json]).toEqual([404, { code: -1000, msg: 'Unknown endpoint: GET /api/v3/nothing' }]);
    expect(r.headers['X-MBX-USED-WEIGHT-1M']).toBe('1');
    expect(raw(f, 'PATCH', '/api/v3/ping', '').status).toBe(404);
  });

  test('X-MBX-TIME-UNIT: MICROSECOND / microsecond switch times to µs; anything else is -1194', () => {
    const f = makeFixture();
    expect(raw(f, 'GET', '/api/v3/time', '', { headers: { 'X-MBX-TIME-UNIT': 'microsecond' } }).json).toEqual({ serverTime: T0 });
    expect(raw(f, 'GET', '/api/v3/time', '', { headers: { 'x-mbx-time-unit': 'MILLISECOND' } }).json).toEqual({ serverTime: T0_MS });
    const bad = raw(f, 'GET', '/api/v3/time', '', { headers: { 'x-mbx-time-unit': 'NANOSECOND' } });
    expect([bad.status, bad.json]).toEqual([400, { code: -1194, msg: 'Invalid value for time unit; expected either MICROSECOND or MILLISECOND.' }]);
  });

  test('every response carries X-MBX-USED-WEIGHT-1M and the legacy header, counting per IP', () => {
    const f = makeFixture();
    expect(raw(f, 'GET', '/api/v3/exchangeInfo', '', { ip: '1.1.1.1' }).headers).toMatchObject({ 'X-MBX-USED-WEIGHT-1M': '20', 'X-MBX-USED-WEIGHT': '20' });
    expect(raw(f, 'GET', '/api/v3/ping', '', { ip: '1.1.1.1' }).headers['X-MBX-USED-WEIGHT-1M']).toBe('21');
    expect(raw(f, 'GET', '/api/v3/ping', '', { ip: '2.2.2.2' }).headers['X-MBX-USED-WEIGHT-1M']).toBe('1');
    // A request refused at the params stage pays the row's default weight.
    expect(raw(f, 'GET', '/api/v3/depth', '', { ip: '2.2.2.2' }).headers['X-MBX-USED-WEIGHT-1M']).toBe('6');
    // Weights are counted in fixed minute windows of simulated time.
    f.backend.advanceTo(T0 + 60_000_000);
    expect(raw(f, 'GET', '/api/v3/ping', '', { ip: '2.2.2.2' }).headers['X-MBX-USED-WEIGHT-1M']).toBe('1');
  });

  test('query and form body are both read; the query wins on a name sent in both', () => {
    const f = makeFixture();
    const ts = `timestamp=${T0_MS}`;
    const r = raw(f, 'POST', '/api/v3/order/test', `symbol=BTCUSDT&side=BUY&${ts}`, { ...signed, body: 'type=LIMIT&timeInForce=GTC&quantity=0.1&price=49000' });
    expect([r.status, r.json]).toEqual([200, {}]);
  });
});

describe('the order of the stages', () => {
  const order = `symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.1&price=49000&timestamp=${T0_MS}`;

  test('a bad parameter is reported before a bad API key or signature', () => {
    const f = makeFixture();
    const r = raw(f, 'POST', '/api/v3/order', order.replace('side=BUY', 'side=UP') + '&signature=00', { key: 'unknown-key' });
    expect(r.json).toEqual({ code: -1117, msg: 'Invalid side.' });
  });

  test('API key errors: missing -2014, unknown -2015 (401); then signature: wrong -1022', () => {
    const f = makeFixture();
    const noKey = raw(f, 'POST', '/api/v3/order', order + '&signature=00');
    expect([noKey.status, noKey.json]).toEqual([401, { code: -2014, msg: 'API-key format invalid.' }]);
    const unknown = raw(f, 'POST', '/api/v3/order', order + '&signature=00', { key: 'A'.repeat(64) });
    expect([unknown.status, unknown.json]).toEqual([401, { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' }]);
    const badSig = raw(f, 'POST', '/api/v3/order', order, { key: DEMO_KEY, secret: 'wrong-secret' });
    expect([badSig.status, badSig.json]).toEqual([400, { code: -1022, msg: 'Signature for this request is not valid.' }]);
    const noSig = raw(f, 'POST', '/api/v3/order', order, { key: DEMO_KEY });
    expect(noSig.json).toEqual({ code: -1102, msg: "Mandatory parameter 'signature' was not sent, was empty/null, or malformed." });
    // Failed order requests pay their listed weight (1), here 4 of them.
    expect(badSig.headers['X-MBX-USED-WEIGHT-1M']).toBe('3');
  });

  test('a bad signature is reported before a stale timestamp, which is reported before the engine', () => {
    const f = makeFixture();
    f.backend.advanceTo(T0 + 10_000_000);
    expect(raw(f, 'POST', '/api/v3/order', order, { key: DEMO_KEY, secret: 'nope' }).json.code).toBe(-1022);
    expect(raw(f, 'POST', '/api/v3/order', order.replace('quantity=0.1', 'quantity=1000'), signed).json).toEqual(OUTSIDE);
  });

  test('a NONE endpoint ignores a key header entirely', () => {
    const f = makeFixture();
    expect(raw(f, 'GET', '/api/v3/ping', '', { key: 'garbage' }).status).toBe(200);
  });
});

describe('timestamp and recvWindow on simulated time', () => {
  const at = (ms: number | string, extra = '') => `timestamp=${ms}${extra}`;

  test('edges of the default 5000 ms window and the 1000 ms ahead rule', () => {
    const f = makeFixture();
    f.backend.advanceTo(T0 + 10_000_000);
    const now = T0_MS + 10_000;
    const acct = (q: string) => raw(f, 'GET', '/api/v3/account', q, signed);
    expect(acct(at(now - 5000)).status).toBe(200);
    expect(acct(at(now - 5001)).json).toEqual(OUTSIDE);
    expect(acct(at(now + 999)).status).toBe(200);
    expect(acct(at(now + 1000)).json).toEqual(AHEAD);
    expect(acct(at(now + 11_000)).json).toEqual(AHEAD);
    expect(acct(at(1_483_228_799_999)).json).toEqual(OUTSIDE);
  });

  test('recvWindow up to 60000 with three decimals; µs timestamps', () => {
    const f = makeFixture();
    f.backend.advanceTo(T0 + 100_000_000);
    const now = T0_MS + 100_000;
    const acct = (q: string) => raw(f, 'GET', '/api/v3/account', q, signed);
    expect(acct(at(now - 60_000, '&recvWindow=60000')).status).toBe(200);
    expect(acct(at(now - 60_000, '&recvWindow=59999.999')).json).toEqual(OUTSIDE);
    expect(acct(at((now - 1000) * 1000 - 1, '&recvWindow=1000.001')).status).toBe(200);
    expect(acct(at((now - 1000) * 1000 - 2, '&recvWindow=1000.001')).json).toEqual(OUTSIDE);
    expect(acct(at(now, '&recvWindow=60001')).json).toEqual({ code: -1131, msg: "'recvWindow' must be less than 60000." });
    expect(acct(at(now, '&recvWindow=1.0001')).json).toEqual({ code: -1111, msg: "Parameter 'recvWindow' has too much precision." });
  });

  test('a request stamped with server time goes stale as simulated time moves on', () => {
    const f = makeFixture();
    const q = at(T0_MS);
    expect(raw(f, 'GET', '/api/v3/account', q, signed).status).toBe(200);
    f.backend.advanceTo(T0 + 5_000_001);
    expect(raw(f, 'GET', '/api/v3/account', q, signed).json).toEqual(OUTSIDE);
  });

  test('the clientTime hook maps a client clock onto simulated time', () => {
    const f = makeFixture();
    const offsetUs = 3_600_000_000; // the client's clock runs an hour ahead of the simulation
    const ctx = new ExchangeContext({ backend: f.backend, apiKeys: [{ apiKey: DEMO_KEY, keyType: 'HMAC', secretKey: DEMO_SECRET, accountId: 1 }], clientTime: (ts) => ts.us - offsetUs });
    const g = { ...f, ctx };
    expect(raw(g, 'GET', '/api/v3/account', at(T0_MS + 3_600_000), signed).status).toBe(200);
    expect(raw(g, 'GET', '/api/v3/account', at(T0_MS), signed).json).toEqual(OUTSIDE);
  });

  test('the check before the engine repeats only the recvWindow part', () => {
    expect(() => checkTimestamp(T0, 5_000_000, T0 + 5_000_000)).not.toThrow();
    expect(() => recheckRecvWindow(T0, 5_000_000, T0 + 5_000_001)).toThrow(OUTSIDE.msg);
    expect(() => recheckRecvWindow(T0 + 2_000_000, 5_000_000, T0)).not.toThrow();
  });
});

describe('limits', () => {
  const limits = [
    { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 50 },
    { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 2 },
    { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: 100 },
  ] as const;

  test('over the weight limit: 429 -1003 with Retry-After, then a 418 ban', () => {
    const f = makeFixture({ rateLimits: limits, weightLimiter: { rejectionsBeforeBan: 1 } });
    f.backend.advanceTo(T0 + 30_000_000);
    expect(raw(f, 'GET', '/api/v3/exchangeInfo', '').status).toBe(200);
    expect(raw(f, 'GET', '/api/v3/exchangeInfo', '').status).toBe(200);
    const over = raw(f, 'GET', '/api/v3/exchangeInfo', '');
    expect([over.status, over.json.code]).toEqual([429, -1003]);
    expect(over.json.msg).toBe('Too much request weight used; current limit is 50 request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.');
    expect(over.headers['Retry-After']).toBe('30');
    const banned = raw(f, 'GET', '/api/v3/ping', '');
    expect([banned.status, banned.json.code]).toEqual([418, -1003]);
    expect(banned.headers['Retry-After']).toBe('120');
  });

  test('unfilled order count: 429 -1015 without Retry-After; X-MBX-ORDER-COUNT on success only', () => {
    const f = makeFixture({ rateLimits: limits });
    const place = () => f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '49000' });
    expect(place().headers['X-MBX-ORDER-COUNT-10S']).toBe('1');
    expect(place().headers['X-MBX-ORDER-COUNT-10S']).toBe('2');
    const third = place();
    expect([third.status, third.json]).toEqual([429, { code: -1015, msg: 'Too many new orders; current limit is 2 orders per 10 SECOND.' }]);
    expect(third.headers['Retry-After']).toBeUndefined();
    expect(third.headers['X-MBX-ORDER-COUNT-10S']).toBeUndefined();
    expect(f.demo.get('/api/v3/openOrders', { symbol: 'BTCUSDT' }).json).toHaveLength(2);
    f.backend.advanceTo(T0 + 10_000_000);
    expect(place().status).toBe(200);
  });
});

describe('robustness', () => {
  test('hostile input never throws out of handleRequest', () => {
    const f = makeFixture();
    const inputs: [string, string, string, string][] = [
      ['GET', '/api/v3/depth', 'symbol=%E0%A4%A&limit=%', ''],
      ['GET', '/api/v3/depth', 'symbol=BTCUSDT&symbol=ETHBTC', ''],
      ['GET', '/api/v3/klines', 'symbol=' + 'A'.repeat(10_000) + '&interval=1m', ''],
      ['POST', '/api/v3/order', 'a=1', '\u00ff\u00fe=\u0000'],
      ['GET', '//..//', '', ''],
      ['DELETE', '/api/v3/order', '', 'symbol=BTCUSDT&orderId=99999999999999999999999'],
      ['GET', '/api/v3/time?x=1', '', ''],
    ];
    for (const [method, path, query, body] of inputs) {
      const r = handleRequest(f.ctx, { method, path, rawQuery: query, rawBody: body, headers: { 'x-mbx-apikey': ['a', 'b'] } });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(() => JSON.parse(r.body)).not.toThrow();
    }
  });

  test('an internal failure is 500 -1000 and nothing is written to stdout', () => {
    const f = makeFixture();
    const broken: MarketBackend = {
      engine: f.backend.engine,
      get now() {
        return f.backend.now;
      },
      apply: (c) => f.backend.apply(c),
      history: () => {
        throw new Error('boom');
      },
    };
    const ctx = new ExchangeContext({ backend: broken });
    const write = vi.spyOn(process.stdout, 'write');
    const log = vi.spyOn(console, 'log');
    const r = handleRequest(ctx, { method: 'GET', path: '/api/v3/trades', rawQuery: 'symbol=BTCUSDT', rawBody: '', headers: {} });
    expect([r.status, JSON.parse(r.body)]).toEqual([500, { code: -1000, msg: 'An unknown error occurred while processing the request.' }]);
    expect(r.headers['X-MBX-USED-WEIGHT-1M']).toBe('25');
    expect(write).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
    write.mockRestore();
    log.mockRestore();
  });
});
