/**
 * The account-side supplementary endpoints: portfolio margin account information, fiat deposit
 * (JSON body, prerequisites, errors, balance credit through the engine, per-UID weight), payment
 * history (windows, limits, member rules) and the equity disclaimer.
 */
import { describe, expect, test } from 'vitest';
import { signHmacSha256 } from '../../src/api-facade/signing/hmac-sha256.ts';
import { handleRequest } from '../../src/api-facade/rest/handle-request.ts';
import { DEMO_KEY, DEMO_SECRET, makeFixture, raw, T0, T0_MS, type Fixture } from './fixture.ts';

const DAY_MS = 86_400_000;

/** A signed POST with a JSON body, as the official clients send fiat deposits. */
function postJson(f: Fixture, path: string, body: string, query = `timestamp=${T0_MS}`) {
  const signature = signHmacSha256(DEMO_SECRET, query + body);
  const r = handleRequest(f.ctx, { method: 'POST', path, rawQuery: `${query}&signature=${signature}`, rawBody: body, headers: { 'x-mbx-apikey': DEMO_KEY, 'content-type': 'application/json' }, ip: '10.0.0.7' });
  return { ...r, json: JSON.parse(r.body) };
}

function free(f: Fixture, asset: string): number {
  return f.backend.engine.account(1)!.balances.find((b) => b.asset === asset)?.free ?? 0;
}

describe('portfolio margin account information', () => {
  test('free balance valued at the simulated prices; weight 5; signed', () => {
    const f = makeFixture();
    f.backend.applyRaw({ type: 'RecordMarketTrade', time: T0, symbol: 'BTCUSDT', price: 6_000_000_000_000, quantity: 100_000, isBuyerMaker: false });
    f.backend.applyRaw({ type: 'RecordMarketTrade', time: T0, symbol: 'ETHBTC', price: 5_000_000, quantity: 100_000_000, isBuyerMaker: false });
    const btc = f.demo.get('/fapi/v1/pmAccountInfo', { asset: 'BTC' });
    expect([btc.status, btc.json]).toEqual([200, { maxWithdrawAmountUSD: '60000.00000000', asset: 'BTC', maxWithdrawAmount: '1.00000000' }]);
    expect(btc.headers['X-MBX-USED-WEIGHT-1M']).toBe('5');
    // ETH through ETHBTC × BTCUSDT: 10 ETH × 0.05 × 60,000.
    expect(f.demo.get('/fapi/v1/pmAccountInfo', { asset: 'ETH' }).json).toEqual({ maxWithdrawAmountUSD: '30000.00000000', asset: 'ETH', maxWithdrawAmount: '10.00000000' });
    expect(f.demo.get('/fapi/v1/pmAccountInfo', { asset: 'USDT' }).json).toMatchObject({ maxWithdrawAmountUSD: '100000.00000000' });
    // BNB has no market: no USD value.
    expect(f.demo.get('/fapi/v1/pmAccountInfo', { asset: 'BNB' }).json).toMatchObject({ maxWithdrawAmountUSD: '0.00000000', maxWithdrawAmount: '10.00000000' });
    // Locked funds are not withdrawable.
    f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.25', price: '70000' });
    expect(f.demo.get('/fapi/v1/pmAccountInfo', { asset: 'BTC' }).json).toMatchObject({ maxWithdrawAmount: '0.75000000', maxWithdrawAmountUSD: '45000.00000000' });
    const unsigned = raw(f, 'GET', '/fapi/v1/pmAccountInfo', `asset=BTC&timestamp=${T0_MS}`, { key: DEMO_KEY });
    expect(unsigned.json.code).toBe(-1102);
  });
});

describe('fiat deposit', () => {
  test('a JSON-body deposit credits the account through the engine and answers the envelope', () => {
    const f = makeFixture();
    const r = postJson(f, '/sapi/v1/fiat/deposit', '{"currency":"BRL","apiPaymentMethod":"pix","amount":250.75,"ext":{"note":"x"}}');
    expect([r.status, r.json]).toEqual([200, { code: '000000', message: 'success', data: { orderId: 'exsimfd1' }, success: true }]);
    expect(free(f, 'BRL')).toBe(25_075_000_000);
    expect(f.backend.engine.totalDeposited()['BRL']).toBe(25_075_000_000);
    expect(f.ctx.fiat.deposits(1)).toEqual([{ accountId: 1, currency: 'BRL', apiPaymentMethod: 'pix', amountUnits: 25_075_000_000, time: T0, ext: '{"note":"x"}', orderId: 'exsimfd1' }]);
    expect(r.headers['X-SAPI-USED-UID-WEIGHT-1M']).toBe('45000');
    // Form bodies work too (the in-process client).
    expect(f.demo.post('/sapi/v1/fiat/deposit', { currency: 'BRL', apiPaymentMethod: 'pix', amount: '0.25' }).json).toMatchObject({ data: { orderId: 'exsimfd2' } });
    expect(free(f, 'BRL')).toBe(25_100_000_000);
  });

  test('prerequisites and limits refuse with -16009, -16012, -16010, -16007 and change nothing', () => {
    const f = makeFixture();
    const deposit = (amount: string, currency = 'BRL', method = 'pix') => {
      f.backend.advanceTo(f.backend.now + 60_000_000); // a new UID-weight minute each time
      return f.demo.post('/sapi/v1/fiat/deposit', { currency, apiPaymentMethod: method, amount });
    };
    const refused = (r: { status: number; json: unknown }) => [r.status, r.json];
    f.ctx.fiat.setSettings(1, { kycPassed: false });
    expect(refused(deposit('10'))).toEqual([400, { code: '-16009', message: 'Not passed KYC or KYB.', data: null, success: false }]);
    f.ctx.fiat.setSettings(1, { kycPassed: true, fiatActivated: false });
    expect(refused(deposit('10'))).toEqual([400, { code: '-16012', message: 'No channel supported.', data: null, success: false }]);
    f.ctx.fiat.setSettings(1, { fiatActivated: true });
    expect(refused(deposit('10', 'EUR'))).toEqual([400, { code: '-16010', message: 'Currency or payment method not supported.', data: null, success: false }]);
    expect(refused(deposit('10', 'BRL', 'card'))).toEqual([400, { code: '-16010', message: 'Currency or payment method not supported.', data: null, success: false }]);
    expect(deposit('49999.99').status).toBe(200);
    expect(refused(deposit('0.02'))).toEqual([400, { code: '-16007', message: 'Not enough limit.', data: null, success: false }]);
    expect(deposit('0.01').status).toBe(200); // exactly the daily limit
    expect(refused(deposit('1.005'))).toEqual([400, { code: '-1111', message: "Parameter 'amount' has too much precision.", data: null, success: false }]);
    expect(refused(deposit('0'))).toEqual([400, { code: '-1130', message: "Data sent for parameter 'amount' is not valid.", data: null, success: false }]);
    expect(free(f, 'BRL')).toBe(5_000_000_000_000);
    expect(f.ctx.pay.transactions(1, 0, Number.MAX_SAFE_INTEGER, 100)).toHaveLength(2);
    // The next UTC day has a fresh limit.
    f.backend.advanceTo(T0 + 86_400_000_000);
    expect(deposit('100').status).toBe(200);
  });

  test('malformed JSON is -1135; a tampered body fails the signature; the UID weight allows 4 a minute', () => {
    const f = makeFixture();
    expect(postJson(f, '/sapi/v1/fiat/deposit', '{"currency":"BRL",').json).toEqual({ code: '-1135', message: 'Invalid JSON Request', data: null, success: false });
    expect(postJson(f, '/sapi/v1/fiat/deposit', '[1]').json).toEqual({ code: '-1135', message: 'Invalid JSON Request', data: null, success: false });
    const body = '{"currency":"BRL","apiPaymentMethod":"pix","amount":1}';
    const query = `timestamp=${T0_MS}`;
    const signature = signHmacSha256(DEMO_SECRET, query + body);
    const tampered = handleRequest(f.ctx, { method: 'POST', path: '/sapi/v1/fiat/deposit', rawQuery: `${query}&signature=${signature}`, rawBody: body.replace('1}', '9}'), headers: { 'x-mbx-apikey': DEMO_KEY, 'content-type': 'application/json' } });
    expect(JSON.parse(tampered.body)).toEqual({ code: '-1022', message: 'Signature for this request is not valid.', data: null, success: false });
    expect(free(f, 'BRL')).toBe(0);
    for (let i = 0; i < 4; i++) expect(postJson(f, '/sapi/v1/fiat/deposit', body).status).toBe(200);
    const limited = postJson(f, '/sapi/v1/fiat/deposit', body);
    expect([limited.status, limited.json.code, limited.json.success]).toEqual([429, '-1003', false]);
    expect(Number(limited.headers['Retry-After'])).toBeGreaterThan(0);
    expect(free(f, 'BRL')).toBe(400_000_000);
  });
});

describe('payment history', () => {
  function withPayments(): Fixture {
    const f = makeFixture();
    const day = (n: number) => T0 - n * DAY_MS * 1000;
    f.ctx.pay.record({ orderType: 'C2C', time: day(1), currency: 'USDT', amount: '12.5', payer: { accountId: 1, name: 'demo', type: 'USER' }, receiver: { accountId: 2, name: 'maker', type: 'USER', email: 'm@example.com' }, payerWallet: 2 });
    f.ctx.pay.record({ orderType: 'CRYPTO_BOX', time: day(2), currency: 'BNB', amount: '1', payer: { accountId: 1, name: 'demo', type: 'USER' }, receiver: { name: 'box', type: 'USER' } });
    f.ctx.pay.record({ orderType: 'CRYPTO_BOX', time: day(3), currency: 'BNB', amount: '0.5', payer: { name: 'friend', type: 'USER', payAccountId: 77 }, receiver: { accountId: 1, name: 'demo', type: 'USER' } });
    f.ctx.pay.record({ orderType: 'PAY', time: day(100), currency: 'USDT', amount: '3', payer: { accountId: 1, name: 'demo', type: 'USER' }, receiver: { name: 'Shop', type: 'MERCHANT' } });
    f.ctx.pay.record({ orderType: 'REMITTANCE', time: day(400), currency: 'USDT', amount: '7', payer: { accountId: 1, name: 'demo', type: 'USER' }, receiver: { name: 'Bank', type: 'USER', extend: { institutionName: 'Bank', cardNumber: '****1234', digitalWalletId: 'w1' } } });
    return f;
  }

  test('the last 90 days by default, newest first, with the members the order type and role allow', () => {
    const f = withPayments();
    const r = f.demo.get('/sapi/v1/pay/transactions');
    expect(r.headers['X-SAPI-USED-UID-WEIGHT-1M']).toBe('3000');
    const body = r.json as any;
    expect([body.code, body.message, body.success]).toEqual(['000000', 'success', true]);
    expect(body.data.map((d: any) => [d.orderType, d.amount])).toEqual([['C2C', '-12.50000000'], ['CRYPTO_BOX', '-1.00000000'], ['CRYPTO_BOX', '0.50000000']]);
    const [c2c, boxSent, boxReceived] = body.data;
    expect(c2c).toEqual({
      orderType: 'C2C',
      transactionId: expect.stringMatching(/^\d+$/),
      transactionTime: T0_MS - DAY_MS,
      amount: '-12.50000000',
      currency: 'USDT',
      walletType: 2,
      walletTypes: [2],
      fundsDetail: [{ currency: 'USDT', amount: '12.50000000', walletAssetCost: { '2': '12.50000000' } }],
      payerInfo: { platformId: 1_000_001, type: 'USER' },
      receiverInfo: { name: 'maker', platformId: 1_000_002, accountId: 2, email: 'm@example.com', type: 'USER' },
    });
    expect(boxSent.receiverInfo).toEqual({ name: 'Crypto Box', type: 'USER' });
    expect(boxReceived.payerInfo).toEqual({ name: 'friend', accountId: 77, type: 'USER' });
    expect(boxReceived.receiverInfo).toEqual({ platformId: 1_000_001, type: 'USER' });
    // The receiver of the C2C payment sees it from the other side.
    const maker = f.maker.get('/sapi/v1/pay/transactions').json as any;
    expect(maker.data).toHaveLength(1);
    expect(maker.data[0]).toMatchObject({ amount: '12.50000000', walletType: 1, payerInfo: { name: 'demo', accountId: 1, type: 'USER' }, receiverInfo: { platformId: 1_000_002, type: 'USER' } });
  });

  test('windows: startTime alone, endTime alone, at most 90 days, within 18 months; limit at most 100', () => {
    const f = withPayments();
    const list = (params: Record<string, number>) => (f.demo.get('/sapi/v1/pay/transactions', params).json as any).data.map((d: any) => d.orderType);
    expect(list({ startTime: T0_MS - 120 * DAY_MS })).toEqual(['PAY']);
    expect(list({ endTime: T0_MS - 2 * DAY_MS })).toEqual(['CRYPTO_BOX', 'CRYPTO_BOX']);
    expect(list({ startTime: T0_MS - 401 * DAY_MS, endTime: T0_MS - 399 * DAY_MS })).toEqual(['REMITTANCE']);
    expect(list({ limit: 1 })).toEqual(['C2C']);
    const old = f.demo.get('/sapi/v1/pay/transactions', { startTime: T0_MS - 600 * DAY_MS, endTime: T0_MS - 590 * DAY_MS });
    expect([old.status, old.json]).toEqual([400, { code: '-1130', message: "Data sent for parameter 'startTime' is not valid.", data: null, success: false }]);
    const big = f.demo.get('/sapi/v1/pay/transactions', { limit: 101 });
    expect([big.status, big.json]).toEqual([400, { code: '-1130', message: "Data sent for parameter 'limit' is not valid.", data: null, success: false }]);
    const wide = f.demo.get('/sapi/v1/pay/transactions', { startTime: T0_MS - 91 * DAY_MS, endTime: T0_MS });
    expect((wide.json as any).code).toBe('-1127');
  });

  test('a fiat deposit appears as a PAYOUT into the fiat wallet', () => {
    const f = makeFixture();
    f.demo.post('/sapi/v1/fiat/deposit', { currency: 'BRL', apiPaymentMethod: 'pix', amount: '10' });
    const [row] = (f.demo.get('/sapi/v1/pay/transactions').json as any).data;
    expect(row).toMatchObject({ orderType: 'PAYOUT', amount: '10.00000000', currency: 'BRL', walletType: 3, payerInfo: { name: 'pix', type: 'MERCHANT' }, receiverInfo: { platformId: 1_000_001, type: 'USER' } });
  });
});

describe('equity disclaimer', () => {
  test('records the first acceptance per account; signed TRADE, weight 1', () => {
    const f = makeFixture();
    expect(f.ctx.equityDisclaimers.acceptedAt(1)).toBeUndefined();
    const r = f.demo.post('/sapi/v1/equity/account/disclaimer');
    expect([r.status, r.json, r.headers['X-MBX-USED-WEIGHT-1M']]).toEqual([200, { success: true }, '1']);
    expect(f.ctx.equityDisclaimers.acceptedAt(1)).toBe(T0);
    f.backend.advanceTo(T0 + 1_000_000);
    expect(f.demo.post('/sapi/v1/equity/account/disclaimer').json).toEqual({ success: true });
    expect(f.ctx.equityDisclaimers.acceptedAt(1)).toBe(T0);
    expect(f.ctx.equityDisclaimers.acceptedAt(2)).toBeUndefined();
    const unknownKey = raw(f, 'POST', '/sapi/v1/equity/account/disclaimer', `timestamp=${T0_MS}`, { key: 'unknown-key', secret: DEMO_SECRET });
    expect([unknownKey.status, unknownKey.json.code]).toEqual([401, -2014]); // a key of the wrong format
  });
});
