/**
 * Keys, signatures and time on the signed /fapi rows (futures facts §1, §8; the spot rules of
 * binance-facts.md, which fapi shares): no key 401 -2014, an unknown key 401 -2015, a wrong
 * signature 400 -1022, a missing one -1102, a timestamp older than recvWindow or more than
 * 1000 ms ahead 400 -1021 (each with its own text), recvWindow over 60000 -1131. Each changes
 * nothing the account's answers show, on every kind of row (read, trade, setting, transfer).
 */
import { describe, expect, test } from 'vitest';
import { DEMO_KEY, DEMO_SECRET, raw, type Fixture } from '../fixture.ts';
import { badInputFixture, mandatory, state } from './futures-bad-input-state.ts';
import { T0_MS } from './futures-fixture.ts';

const ROWS = [
  ['GET', '/fapi/v3/account', ''],
  ['GET', '/fapi/v2/balance', ''],
  ['POST', '/fapi/v1/order', 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.01&price=49500'],
  ['DELETE', '/fapi/v1/allOpenOrders', 'symbol=BTCUSDT'],
  ['POST', '/fapi/v1/leverage', 'symbol=BTCUSDT&leverage=5'],
  ['POST', '/fapi/v1/algoOrder', 'algoType=CONDITIONAL&symbol=BTCUSDT&side=BUY&type=STOP_MARKET&quantity=0.01&triggerPrice=60000'],
  ['POST', '/sapi/v1/asset/transfer', 'type=UMFUTURE_MAIN&asset=USDT&amount=1'],
] as const;

const OUTSIDE = { code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' };
const AHEAD = { code: -1021, msg: "Timestamp for this request was 1000ms ahead of the server's time." };

describe.each(ROWS)('%s %s', (method, path, params) => {
  const query = (extra: string): string => [params, extra].filter((s) => s !== '').join('&');
  const send = (f: Fixture, payload: string, options: { key?: string; secret?: string }) =>
    method === 'GET' ? raw(f, method, path, payload, options) : raw(f, method, path, '', { ...options, body: payload });

  test.each([
    ['no API key', (p: string) => ({ payload: `${p}&signature=00`, options: {} }), 401, { code: -2014, msg: 'API-key format invalid.' }],
    ['an unknown API key', (p: string) => ({ payload: `${p}&signature=00`, options: { key: 'A'.repeat(64) } }), 401, { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' }],
    ['a wrong signature', (p: string) => ({ payload: p, options: { key: DEMO_KEY, secret: 'not-the-secret' } }), 400, { code: -1022, msg: 'Signature for this request is not valid.' }],
    ['no signature', (p: string) => ({ payload: p, options: { key: DEMO_KEY } }), 400, { code: -1102, msg: mandatory('signature') }],
  ] as const)('%s', (_name, build, status, body) => {
    const fx = badInputFixture();
    const f = fx as unknown as Fixture;
    const before = state(fx.demo);
    const { payload, options } = build(query(`timestamp=${T0_MS}`));
    const r = send(f, payload, options);
    expect([r.status, r.json]).toEqual([status, body]);
    expect(state(fx.demo)).toEqual(before);
  });

  test.each([
    // 5000 ms is the default recvWindow: 5001 ms old is outside it.
    ['a timestamp older than recvWindow', `timestamp=${T0_MS - 5001}`, OUTSIDE],
    ['a timestamp older than the recvWindow sent', `timestamp=${T0_MS - 2001}&recvWindow=2000`, OUTSIDE],
    ['a timestamp more than 1000 ms ahead', `timestamp=${T0_MS + 1001}`, AHEAD],
    ['recvWindow over 60000', `timestamp=${T0_MS}&recvWindow=60001`, { code: -1131, msg: "'recvWindow' must be less than 60000." }],
  ] as const)('%s', (_name, extra, body) => {
    const fx = badInputFixture();
    const f = fx as unknown as Fixture;
    const before = state(fx.demo);
    const r = send(f, query(extra), { key: DEMO_KEY, secret: DEMO_SECRET });
    expect([r.status, r.json]).toEqual([400, body]);
    expect(state(fx.demo)).toEqual(before);
  });
});

test('a listen key needs the API key only: none is 401 -2014, an unknown one 401 -2015', () => {
  const f = badInputFixture() as unknown as Fixture;
  expect([raw(f, 'POST', '/fapi/v1/listenKey', '').status, raw(f, 'POST', '/fapi/v1/listenKey', '').json]).toEqual([401, { code: -2014, msg: 'API-key format invalid.' }]);
  const unknown = raw(f, 'POST', '/fapi/v1/listenKey', '', { key: 'A'.repeat(64) });
  expect([unknown.status, unknown.json]).toEqual([401, { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' }]);
});

