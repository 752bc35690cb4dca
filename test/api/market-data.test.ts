import { describe, expect, test } from 'vitest';
import { InProcessClient } from '../../src/api-facade/rest/in-process-client.ts';
import { makeFixture, seedBook, T0, T0_MS, type Fixture } from './fixture.ts';

/** Book seeded, then the demo account buys 0.2 BTC at 50010 one second after T0. */
function traded(): Fixture {
  const f = makeFixture();
  seedBook(f);
  f.backend.advanceTo(T0 + 1_000_000);
  const r = f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.2', price: '50010' });
  expect(r.status).toBe(200);
  f.backend.advanceTo(T0 + 2_000_000);
  return f;
}

describe('general endpoints', () => {
  test('ping answers {} and time the simulated time in ms, or µs with X-MBX-TIME-UNIT', () => {
    const f = makeFixture();
    expect(f.demo.get('/api/v3/ping').json).toEqual({});
    expect(f.demo.get('/api/v3/time').json).toEqual({ serverTime: T0_MS });
    const micro = new InProcessClient(f.ctx, { microseconds: true });
    expect(micro.get('/api/v3/time').json).toEqual({ serverTime: T0 });
  });

  test('exchangeInfo lists every symbol with rate limits and exchange filters', () => {
    const f = makeFixture();
    const body = f.demo.get('/api/v3/exchangeInfo').json as any;
    expect(Object.keys(body)).toEqual(['timezone', 'serverTime', 'rateLimits', 'exchangeFilters', 'symbols']);
    expect(body.symbols.map((s: any) => s.symbol)).toEqual(['BTCUSDT', 'ETHBTC']);
    expect(body.rateLimits[0]).toEqual({ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000 });
    expect(body.exchangeFilters).toEqual([{ filterType: 'EXCHANGE_MAX_NUM_ORDERS', maxNumOrders: 1000 }]);
  });

  test('exchangeInfo symbol / symbols / showPermissionSets / symbolStatus', () => {
    const f = makeFixture();
    expect((f.demo.get('/api/v3/exchangeInfo', { symbol: 'ETHBTC' }).json as any).symbols).toHaveLength(1);
    expect((f.demo.get('/api/v3/exchangeInfo', { symbols: '["ETHBTC","BTCUSDT"]' }).json as any).symbols).toHaveLength(2);
    const noSets = f.demo.get('/api/v3/exchangeInfo', { symbol: 'ETHBTC', showPermissionSets: false }).json as any;
    expect(noSets.symbols[0].permissionSets).toEqual([]);
    expect((f.demo.get('/api/v3/exchangeInfo', { symbolStatus: 'HALT' }).json as any).symbols).toEqual([]);
    expect((f.demo.get('/api/v3/exchangeInfo', { permissions: 'SPOT' }).json as any).symbols).toHaveLength(2);
  });

  test('exchangeInfo errors: unknown symbol -1121, symbol with symbols -1128, unknown param -1104', () => {
    const f = makeFixture();
    const unknown = f.demo.get('/api/v3/exchangeInfo', { symbol: 'NOPE' });
    expect([unknown.status, unknown.json]).toEqual([400, { code: -1121, msg: 'Invalid symbol.' }]);
    const both = f.demo.get('/api/v3/exchangeInfo', { symbol: 'ETHBTC', symbols: '["BTCUSDT"]' });
    expect([both.status, both.json]).toEqual([400, { code: -1128, msg: 'Combination of optional parameters invalid.' }]);
    const stray = f.demo.get('/api/v3/exchangeInfo', { foo: 'x' });
    expect(stray.json).toEqual({ code: -1104, msg: "Not all sent parameters were read; read '0' parameter(s) but was sent '1'." });
  });
});

describe('market data', () => {
  test('depth: levels as decimal strings, limit, weight by limit, -1102 without symbol', () => {
    const f = makeFixture();
    seedBook(f);
    const r = f.demo.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 1 });
    expect(r.json).toEqual({ lastUpdateId: expect.any(Number), bids: [['49990.00000000', '0.50000000']], asks: [['50010.00000000', '0.50000000']] });
    expect(r.headers['X-MBX-USED-WEIGHT-1M']).toBe('5');
    const big = f.demo.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5000 });
    expect(big.headers['X-MBX-USED-WEIGHT-1M']).toBe('255');
    const missing = f.demo.get('/api/v3/depth');
    expect([missing.status, missing.json]).toEqual([400, { code: -1102, msg: "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed." }]);
  });

  test('depth with a mismatched symbolStatus is -1220', () => {
    const f = makeFixture();
    const r = f.demo.get('/api/v3/depth', { symbol: 'BTCUSDT', symbolStatus: 'HALT' });
    expect([r.status, r.json]).toEqual([400, { code: -1220, msg: "The symbol's status does not match the requested symbolStatus." }]);
  });

  test('trades, historicalTrades and aggTrades show the simulated trade', () => {
    const f = traded();
    const trade = { id: 1, price: '50010.00000000', qty: '0.20000000', quoteQty: '10002.00000000', time: T0_MS + 1000, isBuyerMaker: false, isBestMatch: true };
    expect(f.demo.get('/api/v3/trades', { symbol: 'BTCUSDT' }).json).toEqual([trade]);
    expect(f.demo.get('/api/v3/historicalTrades', { symbol: 'BTCUSDT', fromId: 1 }).json).toEqual([trade]);
    expect(f.demo.get('/api/v3/aggTrades', { symbol: 'BTCUSDT' }).json).toEqual([
      { a: expect.any(Number), p: '50010.00000000', q: '0.20000000', f: 1, l: 1, T: T0_MS + 1000, m: false, M: true },
    ]);
    const bad = f.demo.get('/api/v3/trades', { symbol: 'BTCUSDT', limit: 'x' });
    expect(bad.json).toEqual({ code: -1100, msg: "Illegal characters found in parameter 'limit'; legal range is '^[0-9]{1,20}$'." });
  });

  test('klines and uiKlines: 12-element rows; bad interval -1120', () => {
    const f = traded();
    const rows = f.demo.get('/api/v3/klines', { symbol: 'BTCUSDT', interval: '1m' }).json as unknown[][];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual([T0_MS, '50010.00000000', '50010.00000000', '50010.00000000', '50010.00000000', '0.20000000', T0_MS + 59_999, '10002.00000000', 1, '0.20000000', '10002.00000000', '0']);
    expect(f.demo.get('/api/v3/uiKlines', { symbol: 'BTCUSDT', interval: '1m' }).json).toEqual(rows);
    const bad = f.demo.get('/api/v3/klines', { symbol: 'BTCUSDT', interval: '1H' });
    expect([bad.status, bad.json]).toEqual([400, { code: -1120, msg: 'Invalid interval.' }]);
    const tz = f.demo.get('/api/v3/klines', { symbol: 'BTCUSDT', interval: '1m', timeZone: '99' });
    expect(tz.json).toEqual({ code: -1130, msg: "Data sent for parameter 'timeZone' is not valid." });
  });

  test('avgPrice, ticker/price and ticker/bookTicker', () => {
    const f = traded();
    expect(f.demo.get('/api/v3/avgPrice', { symbol: 'BTCUSDT' }).json).toEqual({ mins: 5, price: '50010.00000000', closeTime: T0_MS + 1000 });
    expect(f.demo.get('/api/v3/ticker/price', { symbol: 'BTCUSDT' }).json).toEqual({ symbol: 'BTCUSDT', price: '50010.00000000' });
    const all = f.demo.get('/api/v3/ticker/price');
    expect(all.json).toEqual([{ symbol: 'BTCUSDT', price: '50010.00000000' }, { symbol: 'ETHBTC', price: '0.00000000' }]);
    expect(f.demo.get('/api/v3/ticker/bookTicker', { symbol: 'BTCUSDT' }).json).toEqual({
      symbol: 'BTCUSDT', bidPrice: '49990.00000000', bidQty: '0.50000000', askPrice: '50010.00000000', askQty: '0.30000000',
    });
    const both = f.demo.get('/api/v3/ticker/bookTicker', { symbol: 'BTCUSDT', symbols: '["ETHBTC"]' });
    expect(both.json).toEqual({ code: -1128, msg: 'Combination of optional parameters invalid.' });
  });

  test('ticker/24hr FULL and MINI, weights by symbol count, -1139 for a bad type', () => {
    const f = traded();
    const full = f.demo.get('/api/v3/ticker/24hr', { symbol: 'BTCUSDT' });
    expect(Object.keys(full.json as object)).toEqual([
      'symbol', 'priceChange', 'priceChangePercent', 'weightedAvgPrice', 'prevClosePrice', 'lastPrice', 'lastQty', 'bidPrice', 'bidQty', 'askPrice',
      'askQty', 'openPrice', 'highPrice', 'lowPrice', 'volume', 'quoteVolume', 'openTime', 'closeTime', 'firstId', 'lastId', 'count',
    ]);
    expect((full.json as any).lastPrice).toBe('50010.00000000');
    expect((full.json as any).count).toBe(1);
    const before = Number(full.headers['X-MBX-USED-WEIGHT-1M']);
    const mini = f.demo.get('/api/v3/ticker/24hr', { symbols: '["BTCUSDT","ETHBTC"]', type: 'MINI' });
    expect((mini.json as any[]).map((t) => Object.keys(t).length)).toEqual([12, 12]);
    expect(Number(mini.headers['X-MBX-USED-WEIGHT-1M']) - before).toBe(2);
    const all = f.demo.get('/api/v3/ticker/24hr');
    expect(Number(all.headers['X-MBX-USED-WEIGHT-1M']) - before).toBe(82);
    expect(f.demo.get('/api/v3/ticker/24hr', { symbol: 'BTCUSDT', type: 'HUGE' }).json).toEqual({ code: -1139, msg: 'Invalid ticker type.' });
  });

  test('ticker (rolling) and ticker/tradingDay: FULL without book fields, MINI, 4 per symbol', () => {
    const f = traded();
    const before = Number(f.demo.get('/api/v3/ping').headers['X-MBX-USED-WEIGHT-1M']);
    const rolling = f.demo.get('/api/v3/ticker', { symbol: 'BTCUSDT', windowSize: '1h' });
    expect(Object.keys(rolling.json as object)).toEqual([
      'symbol', 'priceChange', 'priceChangePercent', 'weightedAvgPrice', 'openPrice', 'highPrice', 'lowPrice', 'lastPrice', 'volume', 'quoteVolume',
      'openTime', 'closeTime', 'firstId', 'lastId', 'count',
    ]);
    expect(rolling.json).toMatchObject({ lastPrice: '50010.00000000', count: 1, openTime: T0_MS - 3_600_000, closeTime: T0_MS + 2000 });
    expect(Number(rolling.headers['X-MBX-USED-WEIGHT-1M']) - before).toBe(4);
    const day = f.demo.get('/api/v3/ticker/tradingDay', { symbols: '["BTCUSDT","ETHBTC"]', type: 'MINI' });
    expect((day.json as any[]).map((t) => [t.symbol, t.count, t.openTime])).toEqual([['BTCUSDT', 1, T0_MS], ['ETHBTC', 0, T0_MS]]);
    expect(Number(day.headers['X-MBX-USED-WEIGHT-1M']) - Number(rolling.headers['X-MBX-USED-WEIGHT-1M'])).toBe(8);
  });
});
