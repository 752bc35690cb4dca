/**
 * Futures market data of both venues through handleRequest: shapes, weights and headers, rules,
 * consistency with the spot tape at the same simulated time, no look-ahead, determinism.
 */
import { describe, expect, test } from 'vitest';
import { handleRequest } from '../../src/api-facade/rest/handle-request.ts';
import { T0, T0_MS } from './fixture.ts';
import { futuresFixture, HOUR, MINUTE, ok, units, weightOf } from './futures-fixture.ts';

const weight = (r: { headers: Record<string, string> }) => Number(r.headers['X-MBX-USED-WEIGHT-1M']);

describe('futures general endpoints', () => {
  test('ping, time and exchangeInfo of both venues at simulated now', () => {
    const f = futuresFixture({ minutes: 120 });
    const nowMs = Math.floor(f.backend.now / 1000);
    expect(ok(f, '/fapi/v1/ping')).toEqual({});
    expect(ok(f, '/dapi/v1/time')).toEqual({ serverTime: nowMs });
    const usdM = ok(f, '/fapi/v1/exchangeInfo');
    expect(usdM).toMatchObject({ timezone: 'UTC', serverTime: nowMs, futuresType: 'U_MARGINED', exchangeFilters: [], assets: [{ asset: 'USDT', marginAvailable: true, autoAssetExchange: '-10000' }] });
    expect(usdM.rateLimits).toHaveLength(3);
    expect(usdM.symbols.map((s: any) => [s.symbol, s.contractType, s.deliveryDate])).toEqual([
      ['BTCUSDT', 'PERPETUAL', 4_133_404_800_000],
      ['BTCUSDT_260327', 'CURRENT_QUARTER', Date.UTC(2026, 2, 27, 8)],
      ['BTCUSDT_260626', 'NEXT_QUARTER', Date.UTC(2026, 5, 26, 8)],
    ]);
    const perp = usdM.symbols[0];
    expect(perp).toMatchObject({ pair: 'BTCUSDT', onboardDate: T0_MS, status: 'TRADING', baseAsset: 'BTC', quoteAsset: 'USDT', marginAsset: 'USDT', pricePrecision: 2, quantityPrecision: 5, baseAssetPrecision: 8, quotePrecision: 8, underlyingType: 'COIN', underlyingSubType: [], settlePlan: 0, triggerProtect: '0.0500', liquidationFee: '0.012500', marketTakeBound: '0.05' });
    expect(perp.filters).toEqual([
      { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000.00', tickSize: '0.01' },
      { filterType: 'LOT_SIZE', minQty: '0.00001000', maxQty: '9000.00000000', stepSize: '0.00001000' },
      { filterType: 'MARKET_LOT_SIZE', minQty: '0.00001000', maxQty: '120.00000000', stepSize: '0.00001000' },
      { filterType: 'MAX_NUM_ORDERS', limit: 200 },
      { filterType: 'MIN_NOTIONAL', notional: '5' },
      { filterType: 'PERCENT_PRICE', multiplierUp: '1.0500', multiplierDown: '0.9500', multiplierDecimal: '4' },
    ]);
    expect(perp.orderTypes).toContain('STOP_MARKET');
    expect(perp.timeInForce).toEqual(['GTC', 'IOC', 'FOK', 'GTX', 'GTD']);
    const coinM = ok(f, '/dapi/v1/exchangeInfo');
    expect(coinM).not.toHaveProperty('futuresType');
    expect(coinM.symbols[0]).toMatchObject({ symbol: 'BTCUSD_PERP', pair: 'BTCUSD', contractStatus: 'TRADING', contractSize: 100, marginAsset: 'BTC', quoteAsset: 'USD', quantityPrecision: 0 });
    expect(coinM.symbols[0].filters[1]).toEqual({ filterType: 'LOT_SIZE', minQty: '1', maxQty: '1000000', stepSize: '1' });
  });

  test('quarterlies roll with simulated time', () => {
    const f = futuresFixture({ minutes: 10, start: Date.UTC(2026, 2, 27, 7, 55) * 1000 });
    expect(ok(f, '/fapi/v1/exchangeInfo').symbols.map((s: any) => s.symbol)).toEqual(['BTCUSDT', 'BTCUSDT_260626', 'BTCUSDT_260925']);
  });
});

describe('futures trades', () => {
  test('every spot print is a contract print: same id, time, side and quantity, price through the premium', () => {
    const f = futuresFixture({ minutes: 60 });
    const rows = ok(f, '/fapi/v1/trades', { symbol: 'BTCUSDT', limit: 5 });
    // The last five spot prints of the fixture's tape and the seeded basis at each (the premium
    // model's value, written out): contract price = spot × (1 + premium) to the 0.01 tick, e.g.
    // 49907.27 × 1.00021463 = 49917.9816 → 49917.98; quoteQty = price × qty exactly.
    const spot = [
      [4_990_727_000_000, 473_000, '0.00021463'],
      [4_988_936_000_000, 15_000, '0.00014286'],
      [4_990_646_000_000, 424_000, '0.00018724'],
      [4_988_919_000_000, 420_000, '0.00020874'],
      [4_989_606_000_000, 86_000, '0.00017951'],
    ];
    expect(f.prints.slice(55, 60).map((p) => [p.price, p.qty])).toEqual(spot.map(([price, qty]) => [price, qty]));
    expect(rows).toEqual([
      { id: 56, price: '49917.98', qty: '0.00473', quoteQty: '236.11204540', time: 1_767_228_900_000, isBuyerMaker: false, isRPITrade: false },
      { id: 57, price: '49896.49', qty: '0.00015', quoteQty: '7.48447350', time: 1_767_228_960_000, isBuyerMaker: false, isRPITrade: false },
      { id: 58, price: '49915.80', qty: '0.00424', quoteQty: '211.64299200', time: 1_767_229_020_000, isBuyerMaker: true, isRPITrade: false },
      { id: 59, price: '49899.60', qty: '0.00420', quoteQty: '209.57832000', time: 1_767_229_080_000, isBuyerMaker: false, isRPITrade: false },
      { id: 60, price: '49905.02', qty: '0.00086', quoteQty: '42.91831720', time: 1_767_229_140_000, isBuyerMaker: false, isRPITrade: false },
    ]);
  });

  test('COIN-M prints are whole contracts with their base quantity', () => {
    const f = futuresFixture({ minutes: 60 });
    const [row] = ok(f, '/dapi/v1/trades', { symbol: 'BTCUSD_PERP', limit: 1 });
    expect(Object.keys(row)).toEqual(['id', 'price', 'qty', 'baseQty', 'time', 'isBuyerMaker']);
    const notional = (units(row.price, 8) * BigInt(f.prints[59]!.qty)) / 100_000_000n;
    expect(BigInt(row.qty)).toBe((notional + 100n * 100_000_000n - 1n) / (100n * 100_000_000n));
    expect(units(row.baseQty)).toBe((BigInt(row.qty) * 100n * 10n ** 16n) / units(row.price, 8));
  });

  test('old trades lookup needs an API key, weighs 200, defaults to 100 rows from fromId', () => {
    const f = futuresFixture({ minutes: 300 });
    const anonymous = handleRequest(f.ctx, { method: 'GET', path: '/fapi/v1/historicalTrades', rawQuery: 'symbol=BTCUSDT', rawBody: '', headers: {}, ip: '10.9.9.9' });
    expect(anonymous.status).toBe(401);
    const r = f.client.get('/fapi/v1/historicalTrades', { symbol: 'BTCUSDT', fromId: 10 });
    expect(weight(r)).toBe(200);
    const rows = r.json as any[];
    expect(rows).toHaveLength(100);
    expect([rows[0].id, rows[99].id]).toEqual([10, 109]);
    expect(ok(f, '/dapi/v1/historicalTrades', { symbol: 'BTCUSD_PERP', limit: 500 })).toHaveLength(300);
  });

  test('aggTrades: 48-hour lookback, at most 1 hour between startTime and endTime', () => {
    const f = futuresFixture({ minutes: 3 * 24 * 60 });
    const nowMs = Math.floor(f.backend.now / 1000);
    const oldest = ok(f, '/fapi/v1/aggTrades', { symbol: 'BTCUSDT', fromId: 0, limit: 1 })[0];
    expect(oldest.T).toBeGreaterThanOrEqual(nowMs - 48 * 3600_000);
    expect(oldest).toEqual({ a: oldest.a, p: expect.any(String), q: oldest.q, nq: oldest.q, f: oldest.a + 1, l: oldest.a + 1, T: oldest.T, m: expect.any(Boolean) });
    const hour = ok(f, '/fapi/v1/aggTrades', { symbol: 'BTCUSDT', startTime: nowMs - 3600_000, endTime: nowMs });
    expect(hour).toHaveLength(60); // the prints of (now - 1 h, now], endTime in ms just before the last print
    const r = f.client.get('/fapi/v1/aggTrades', { symbol: 'BTCUSDT', startTime: nowMs - 3600_001, endTime: nowMs });
    expect([r.status, r.json]).toEqual([400, { code: -1127, msg: 'More than 1 hours between startTime and endTime.' }]);
    expect(weightOf(f, '/fapi/v1/aggTrades', { symbol: 'BTCUSDT' })).toBe(20);
    expect(Object.keys(ok(f, '/dapi/v1/aggTrades', { symbol: 'BTCUSD_PERP', limit: 1 })[0])).toEqual(['a', 'p', 'q', 'f', 'l', 'T', 'm']);
  });
});

describe('futures order book', () => {
  test('the spot book through the premium: bids down, asks up to the tick; weights by limit', () => {
    const f = futuresFixture({ minutes: 60 });
    const mm = 2;
    for (const [side, price] of [['SELL', 5_010_000_000_000], ['SELL', 5_020_000_000_000], ['BUY', 4_990_000_000_000]] as const) {
      f.backend.apply({ type: 'PlaceOrder', accountId: mm, symbol: 'BTCUSDT', side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: 50_000_000 });
    }
    const r = f.client.get('/fapi/v1/depth', { symbol: 'BTCUSDT', limit: 5 });
    expect(weight(r)).toBe(2);
    const book = r.json as any;
    // Premium now 0.00017951: 50100 × 1.00017951 = 50108.9934 → up to 50109.00 (asks), 50200 →
    // 50209.0114 → 50209.02; 49900 × 1.00017951 = 49908.9575 → down to 49908.95 (bids).
    expect(book.asks).toEqual([
      ['50109.00', '0.50000'],
      ['50209.02', '0.50000'],
    ]);
    expect(book.bids).toEqual([['49908.95', '0.50000']]);
    expect(Object.keys(book)).toEqual(['lastUpdateId', 'E', 'T', 'bids', 'asks']);
    expect(weightOf(f, '/fapi/v1/depth', { symbol: 'BTCUSDT' })).toBe(10);
    expect(weightOf(f, '/fapi/v1/depth', { symbol: 'BTCUSDT', limit: 100 })).toBe(5);
    expect(weightOf(f, '/fapi/v1/depth', { symbol: 'BTCUSDT', limit: 1000 })).toBe(20);
    expect(weightOf(f, '/fapi/v1/rpiDepth', { symbol: 'BTCUSDT' })).toBe(20);
    expect(weightOf(f, '/dapi/v1/depth', { symbol: 'BTCUSD_PERP', limit: 50 })).toBe(2);
    const coin = ok(f, '/dapi/v1/depth', { symbol: 'BTCUSD_PERP', limit: 5 });
    expect(Object.keys(coin)).toEqual(['lastUpdateId', 'symbol', 'pair', 'E', 'T', 'bids', 'asks']);
    expect(coin.asks[0][1]).toBe('251'); // 0.5 BTC ≈ 25,000 USD in 100-USD contracts, rounded up
    const ticker = ok(f, '/fapi/v1/ticker/bookTicker', { symbol: 'BTCUSDT' });
    expect([ticker.bidPrice, ticker.askPrice]).toEqual([book.bids[0][0], book.asks[0][0]]);
  });
});

describe('futures klines', () => {
  test('contract klines bound their prints; index klines are the spot klines; weights by limit', () => {
    const f = futuresFixture({ minutes: 24 * 60 });
    const r = f.client.get('/fapi/v1/klines', { symbol: 'BTCUSDT', interval: '1h', limit: 99 });
    expect(weight(r)).toBe(1);
    const bars = r.json as any[];
    expect(bars).toHaveLength(24);
    const trades = ok(f, '/fapi/v1/aggTrades', { symbol: 'BTCUSDT', startTime: bars[23][0], endTime: bars[23][0] + 3600_000 - 1 });
    const last = bars[23];
    for (const t of trades) {
      expect(units(t.p)).toBeLessThanOrEqual(units(last[2]));
      expect(units(t.p)).toBeGreaterThanOrEqual(units(last[3]));
    }
    expect(last[4]).toBe(trades[trades.length - 1].p);
    expect(last[8]).toBe(trades.length);
    const spot = ok(f, '/api/v3/klines', { symbol: 'BTCUSDT', interval: '1h', limit: 24 });
    const index = ok(f, '/fapi/v1/indexPriceKlines', { pair: 'BTCUSDT', interval: '1h', limit: 24 });
    expect(index.map((k: any) => k.slice(0, 5))).toEqual(spot.map((k: any) => k.slice(0, 5)));
    expect(index[0].slice(5)).toEqual(['0', spot[0][6], '0', spot[0][8], '0', '0', '0']);
    expect(last[5]).toBe(spot[23][5].slice(0, -3)); // same base volume, at the quantity precision
    expect(weightOf(f, '/fapi/v1/markPriceKlines', { symbol: 'BTCUSDT', interval: '1m', limit: 100 })).toBe(2);
    expect(weightOf(f, '/fapi/v1/indexPriceKlines', { pair: 'BTCUSDT', interval: '1m', limit: 500 })).toBe(5);
    expect(weightOf(f, '/dapi/v1/premiumIndexKlines', { symbol: 'BTCUSD_PERP', interval: '1m', limit: 1000 })).toBe(5);
    expect(weightOf(f, '/fapi/v1/continuousKlines', { pair: 'BTCUSDT', contractType: 'PERPETUAL', interval: '1m' })).toBe(5);
    const many = f.client.get('/fapi/v1/klines', { symbol: 'BTCUSDT', interval: '1m', limit: 1200 });
    expect((many.json as any[]).length).toBe(1200);
    expect((many.json as any[])[1199][0] - (many.json as any[])[0][0]).toBe(1199 * 60_000);
    expect(weightOf(f, '/fapi/v1/klines', { symbol: 'BTCUSDT', interval: '1m', limit: 1001 })).toBe(10);
  });

  test('mark and premium index klines agree with premiumIndex now; continuous klines follow the quarter', () => {
    const f = futuresFixture({ minutes: 180 });
    const mark = ok(f, '/fapi/v1/markPriceKlines', { symbol: 'BTCUSDT', interval: '1m', limit: 1 })[0];
    const premium = ok(f, '/fapi/v1/premiumIndexKlines', { symbol: 'BTCUSDT', interval: '1m', limit: 1 })[0];
    const now = ok(f, '/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' });
    expect(mark[4]).toBe(now.markPrice);
    // mark = index × (1 + premium): 49820.32 × (1 − 0.00024355) = 49808.18626106 (to 8 decimals).
    expect([now.indexPrice, premium[4], now.markPrice]).toEqual(['49820.32000000', '-0.00024355', '49808.18626106']);
    const continuous = ok(f, '/fapi/v1/continuousKlines', { pair: 'BTCUSDT', contractType: 'CURRENT_QUARTER', interval: '1h', limit: 2 });
    const quarterly = ok(f, '/fapi/v1/klines', { symbol: 'BTCUSDT_260327', interval: '1h', limit: 2 });
    expect(continuous).toEqual(quarterly);
    const coin = ok(f, '/dapi/v1/klines', { symbol: 'BTCUSD_PERP', interval: '1h', limit: 1 })[0];
    expect(coin[7]).toBe(ok(f, '/api/v3/klines', { symbol: 'BTCUSDT', interval: '1h', limit: 1 })[0][5]); // base volume
  });
});

describe('mark price and funding', () => {
  test('premiumIndex: perpetual rates and next funding; delivery contracts empty rates and 0', () => {
    const f = futuresFixture({ minutes: 600 });
    const r = f.client.get('/dapi/v1/premiumIndex');
    expect(weight(r)).toBe(10);
    const [perp, quarter] = r.json as any[];
    expect(Object.keys(perp)).toEqual(['symbol', 'pair', 'markPrice', 'indexPrice', 'estimatedSettlePrice', 'lastFundingRate', 'interestRate', 'nextFundingTime', 'time']);
    expect(perp).toMatchObject({ symbol: 'BTCUSD_PERP', pair: 'BTCUSD', interestRate: '0.00010000', nextFundingTime: T0_MS + 16 * 3600_000 });
    expect(perp.indexPrice).toBe(`${(f.prints[599]!.price / 1e8).toFixed(2)}000000`);
    expect(quarter).toMatchObject({ symbol: 'BTCUSD_260327', lastFundingRate: '', interestRate: '', nextFundingTime: 0 });
    let sum = 0n;
    for (let m = 0; m < 30; m++) sum += BigInt(f.prints[599 - m]!.price);
    expect(units(perp.estimatedSettlePrice)).toBe((2n * sum + 30n) / 60n);
  });

  test('funding history every 8 hours with the mark at funding time; the shared 500 per 5 minutes limit', () => {
    const f = futuresFixture({ minutes: 3 * 24 * 60 });
    const rows = ok(f, '/fapi/v1/fundingRate', { symbol: 'BTCUSDT' });
    expect(rows).toHaveLength(8); // 08:00 day 1 .. 16:00 day 3
    expect(rows[0]).toEqual({ symbol: 'BTCUSDT', fundingTime: T0_MS + 8 * 3600_000, fundingRate: expect.stringMatching(/^-?0\.\d{8}$/), markPrice: expect.any(String), rateType: 'Regular' });
    for (let i = 1; i < rows.length; i++) expect(rows[i].fundingTime - rows[i - 1].fundingTime).toBe(8 * 3600_000);
    const perp = f.ctx.futures.contracts('USD_M', f.backend.now)[0]!;
    expect(units(rows[0].markPrice)).toBe(BigInt(f.ctx.futures.markPrice(perp, T0 + 8 * HOUR)!));
    expect(ok(f, '/fapi/v1/fundingRate', { symbol: 'BTCUSDT', startTime: T0_MS, limit: 2 }).map((x: any) => x.fundingTime)).toEqual([T0_MS + 8 * 3600_000, T0_MS + 16 * 3600_000]);
    expect(ok(f, '/dapi/v1/fundingRate', { symbol: 'BTCUSD_PERP', limit: 3 })).toHaveLength(3);
    // Binance lists only symbols whose cap, floor or interval is adjusted: BTCUSDT funds every 8 h,
    // the default, so the list is empty (a 4 h symbol: futures-market-data-funding-interval.test.ts).
    expect(ok(f, '/fapi/v1/fundingInfo')).toEqual([]);
    // Four requests so far from this IP; the budget is shared between history and info.
    for (let i = 4; i < 500; i++) expect(f.client.get(i % 2 ? '/fapi/v1/fundingInfo' : '/dapi/v1/fundingInfo').status).toBe(200);
    const refused = f.client.get('/fapi/v1/fundingRate');
    expect([refused.status, (refused.json as any).code]).toEqual([429, -1003]);
    expect(Number(refused.headers['Retry-After'])).toBeGreaterThan(0);
    expect(f.client.get('/fapi/v1/premiumIndex').status).toBe(200); // other endpoints are not limited by it
    f.backend.advanceTo(f.backend.now + 5 * MINUTE);
    expect(f.client.get('/fapi/v1/fundingInfo').status).toBe(200);
  });
});

describe('futures tickers', () => {
  test('24hr statistics from the spot window; weights with and without symbol; price v1 = v2', () => {
    const f = futuresFixture({ minutes: 26 * 60 });
    const r = f.client.get('/fapi/v1/ticker/24hr', { symbol: 'BTCUSDT' });
    expect(weight(r)).toBe(1);
    const t = r.json as any;
    const spot = ok(f, '/api/v3/ticker/24hr', { symbol: 'BTCUSDT' });
    expect(Object.keys(t)).toEqual(['symbol', 'priceChange', 'priceChangePercent', 'weightedAvgPrice', 'lastPrice', 'lastQty', 'openPrice', 'highPrice', 'lowPrice', 'volume', 'quoteVolume', 'openTime', 'closeTime', 'firstId', 'lastId', 'count']);
    expect([t.firstId, t.lastId, t.count, t.openTime, t.closeTime]).toEqual([spot.firstId, spot.lastId, spot.count, spot.openTime, spot.closeTime]);
    expect(units(t.volume)).toBe(units(spot.volume));
    expect(units(t.priceChange)).toBe(units(t.lastPrice) - units(t.openPrice));
    expect(t.lastPrice).toBe(ok(f, '/fapi/v1/trades', { symbol: 'BTCUSDT', limit: 1 })[0].price);
    expect(weightOf(f, '/fapi/v1/ticker/24hr')).toBe(40);
    expect(weightOf(f, '/dapi/v1/ticker/24hr', { symbol: 'BTCUSD_PERP' })).toBe(1);
    const coin = ok(f, '/dapi/v1/ticker/24hr', { pair: 'BTCUSD' });
    expect(coin.map((x: any) => x.symbol)).toEqual(['BTCUSD_PERP', 'BTCUSD_260327', 'BTCUSD_260626']);
    expect(coin[0]).toHaveProperty('baseVolume', spot.volume);
    expect(coin[0]).not.toHaveProperty('quoteVolume');
    const v1 = f.client.get('/fapi/v1/ticker/price');
    expect([weightOf(f, '/fapi/v1/ticker/price'), weightOf(f, '/fapi/v2/ticker/price', { symbol: 'BTCUSDT' })]).toEqual([2, 1]);
    expect(f.client.get('/fapi/v2/ticker/price').json).toEqual(v1.json);
    expect(ok(f, '/dapi/v1/ticker/price', { symbol: 'BTCUSD_PERP' })).toEqual({ symbol: 'BTCUSD_PERP', ps: 'BTCUSD', price: expect.any(String), time: expect.any(Number) });
    expect([weightOf(f, '/fapi/v1/ticker/bookTicker'), weightOf(f, '/dapi/v1/ticker/bookTicker', { symbol: 'BTCUSD_PERP' })]).toEqual([5, 2]);
    expect([weightOf(f, '/fapi/v1/premiumIndex'), weightOf(f, '/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' })]).toEqual([10, 1]);
  });
});

describe('no look-ahead and determinism over the API', () => {
  const QUERIES: [string, Record<string, string | number>][] = [
    ['/fapi/v1/premiumIndex', {}],
    ['/dapi/v1/premiumIndex', {}],
    ['/fapi/v1/klines', { symbol: 'BTCUSDT', interval: '15m', limit: 10 }],
    ['/fapi/v1/markPriceKlines', { symbol: 'BTCUSDT', interval: '1h' }],
    ['/fapi/v1/fundingRate', {}],
    ['/fapi/v1/ticker/24hr', {}],
    ['/dapi/v1/trades', { symbol: 'BTCUSD_PERP' }],
    ['/fapi/v1/openInterest', { symbol: 'BTCUSDT' }],
    ['/futures/data/openInterestHist', { symbol: 'BTCUSDT', period: '5m', limit: 50 }],
    ['/futures/data/globalLongShortAccountRatio', { pair: 'BTCUSD', period: '15m' }],
    ['/futures/data/basis', { pair: 'BTCUSD', contractType: 'NEXT_QUARTER', period: '1h' }],
    ['/futures/data/takerBuySellVol', { pair: 'BTCUSD', contractType: 'ALL', period: '5m' }],
  ];

  test('a query at t equals the same query on the tape truncated at t', () => {
    const t = T0 + 30 * HOUR + 17 * MINUTE;
    const full = futuresFixture({ minutes: 2 * 24 * 60, now: t });
    const cut = futuresFixture({ minutes: 2 * 24 * 60, now: t, recordUntil: t });
    for (const [path, params] of QUERIES) expect(full.client.get(path, params).body, path).toBe(cut.client.get(path, params).body);
  });

  test('the same seed answers byte for byte; another futures seed moves the basis', () => {
    const a = futuresFixture({ minutes: 24 * 60 });
    const b = futuresFixture({ minutes: 24 * 60 });
    const c = futuresFixture({ minutes: 24 * 60, futuresSeed: 'another' });
    for (const [path, params] of QUERIES) expect(a.client.get(path, params).body, path).toBe(b.client.get(path, params).body);
    expect(c.client.get('/fapi/v1/premiumIndex').body).not.toBe(a.client.get('/fapi/v1/premiumIndex').body);
  });
});
