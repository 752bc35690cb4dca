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
});
