import { describe, expect, test } from 'vitest';
import { makeFixture, raw, T0_MS } from './fixture.ts';

describe('the endpoints third-party libraries call while loading markets', () => {
  test('capital/config/getall lists every asset with the account balance, transfers disabled', () => {
    const f = makeFixture();
    const coins = f.demo.get('/sapi/v1/capital/config/getall').json as any[];
    expect(coins.map((c) => c.coin)).toEqual(['BTC', 'ETH', 'USDT', 'BNB']);
    const btc = coins.find((c) => c.coin === 'BTC');
    expect(btc).toMatchObject({ coin: 'BTC', name: 'BTC', free: '1.00000000', locked: '0.00000000', depositAllEnable: false, withdrawAllEnable: false, trading: true, isLegalMoney: false });
    expect(btc.networkList).toHaveLength(1);
    expect(btc.networkList[0]).toMatchObject({ network: 'BTC', coin: 'BTC', isDefault: true, depositEnable: false, withdrawEnable: false, withdrawIntegerMultiple: '0.00000001' });
    // Locked funds show as locked.
    f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.25', price: '60000' });
    const after = (f.demo.get('/sapi/v1/capital/config/getall').json as any[]).find((c) => c.coin === 'BTC');
    expect([after.free, after.locked]).toEqual(['0.75000000', '0.25000000']);
  });

  test('capital/config/getall is signed (USER_DATA)', () => {
    const f = makeFixture();
    const r = raw(f, 'GET', '/sapi/v1/capital/config/getall', `timestamp=${T0_MS}`, { key: 'exsim-demo-key' });
    expect([r.status, r.json]).toEqual([400, { code: -1102, msg: "Mandatory parameter 'signature' was not sent, was empty/null, or malformed." }]);
  });

  test('margin pairs are empty lists; allPairs takes a key, signed or not', () => {
    const f = makeFixture();
    expect(f.demo.get('/sapi/v1/margin/allPairs').json).toEqual([]);
    expect(f.demo.get('/sapi/v1/margin/isolated/allPairs').json).toEqual([]);
    const unsigned = raw(f, 'GET', '/sapi/v1/margin/allPairs', '', { key: 'exsim-demo-key' });
    expect([unsigned.status, unsigned.json]).toEqual([200, []]);
    const noKey = raw(f, 'GET', '/sapi/v1/margin/allPairs', '');
    expect(noKey.status).toBe(401);
  });

  test('system/status is normal, with or without a key or a signature', () => {
    const f = makeFixture();
    const r = raw(f, 'GET', '/sapi/v1/system/status', '');
    expect([r.status, r.json]).toEqual([200, { status: 0, msg: 'normal' }]);
    expect(r.headers['X-MBX-USED-WEIGHT-1M']).toBe('1');
    expect(f.demo.get('/sapi/v1/system/status').json).toEqual({ status: 0, msg: 'normal' });
  });

  test("asset/tradeFee: every symbol or one, from the account's maker and taker rates", () => {
    const f = makeFixture();
    const all = f.demo.get('/sapi/v1/asset/tradeFee');
    expect([all.status, all.json]).toEqual([
      200,
      [
        { symbol: 'BTCUSDT', makerCommission: '0.001', takerCommission: '0.001' },
        { symbol: 'ETHBTC', makerCommission: '0.001', takerCommission: '0.001' },
      ],
    ]);
    expect(all.headers['X-MBX-USED-WEIGHT-1M']).toBe('1');
    // The market maker's account pays no maker commission.
    expect(f.maker.get('/sapi/v1/asset/tradeFee', { symbol: 'ETHBTC' }).json).toEqual([{ symbol: 'ETHBTC', makerCommission: '0', takerCommission: '0.001' }]);
    const unknown = f.demo.get('/sapi/v1/asset/tradeFee', { symbol: 'NOPEUSDT' });
    expect([unknown.status, unknown.json]).toEqual([400, { code: -1121, msg: 'Invalid symbol.' }]);
    const unsigned = raw(f, 'GET', '/sapi/v1/asset/tradeFee', `timestamp=${T0_MS}`, { key: 'exsim-demo-key' });
    expect([unsigned.status, unsigned.json]).toEqual([400, { code: -1102, msg: "Mandatory parameter 'signature' was not sent, was empty/null, or malformed." }]);
  });
});
