/**
 * Open interest, the /futures/data statistics, index information and risk endpoints: shapes,
 * venue dispatch by parameters, agreement with the spot tape and the models.
 */
import { describe, expect, test } from 'vitest';
import { T0, T0_MS } from './fixture.ts';
import { futuresFixture, HOUR, MINUTE, ok, units, weightOf } from './futures-fixture.ts';

describe('open interest', () => {
  test('now and as history, USDⓈ-M in the base asset, COIN-M in contracts', () => {
    const f = futuresFixture({ minutes: 2 * 24 * 60 });
    const nowMs = Math.floor(f.backend.now / 1000);
    const usd = ok(f, '/fapi/v1/openInterest', { symbol: 'BTCUSDT' });
    expect(usd).toEqual({ openInterest: expect.stringMatching(/^\d+\.\d{5}$/), symbol: 'BTCUSDT', time: nowMs });
    expect(units(usd.openInterest)).toBeGreaterThan(0n);
    expect(ok(f, '/dapi/v1/openInterest', { symbol: 'BTCUSD_260327' })).toEqual({ symbol: 'BTCUSD_260327', pair: 'BTCUSD', openInterest: expect.stringMatching(/^\d+$/), contractType: 'CURRENT_QUARTER', time: nowMs });
    const hist = ok(f, '/futures/data/openInterestHist', { symbol: 'BTCUSDT', period: '1h' });
    expect(hist).toHaveLength(30); // default limit
    const last = hist[29];
    expect(last.timestamp).toBe(Math.floor(nowMs / 3600_000) * 3600_000);
    expect(Object.keys(last)).toEqual(['symbol', 'sumOpenInterest', 'sumOpenInterestValue', 'CMCCirculatingSupply', 'timestamp']);
    const index = units(ok(f, '/fapi/v1/indexPriceKlines', { pair: 'BTCUSDT', interval: '1m', endTime: last.timestamp - 1, limit: 1 })[0][4]);
    expect(units(last.sumOpenInterestValue)).toBe((units(last.sumOpenInterest) * index) / 100_000_000n);
    const coin = ok(f, '/futures/data/openInterestHist', { pair: 'BTCUSD', contractType: 'ALL', period: '4h', startTime: T0_MS, limit: 3 });
    // The first print is at T0 + 1 µs: the first 4-hour row after it is T0 + 4 h.
    expect(coin.map((r: any) => r.timestamp)).toEqual([T0_MS + 4 * 3600_000, T0_MS + 8 * 3600_000, T0_MS + 12 * 3600_000]);
    expect(Object.keys(coin[1])).toEqual(['pair', 'contractType', 'sumOpenInterest', 'sumOpenInterestValue', 'timestamp']);
    const parts = ['PERPETUAL', 'CURRENT_QUARTER', 'NEXT_QUARTER'].map((contractType) => BigInt(ok(f, '/futures/data/openInterestHist', { pair: 'BTCUSD', contractType, period: '4h', startTime: T0_MS + 4 * 3600_000, limit: 1 })[0].sumOpenInterest));
    expect(parts.reduce((a, b) => a + b, 0n)).toBe(BigInt(coin[0].sumOpenInterest));
    const r = f.client.get('/futures/data/openInterestHist', { pair: 'BTCUSD', period: '1h' });
    expect([r.status, (r.json as any).code]).toEqual([400, -1102]);
  });
});

describe('long/short ratios and taker volumes', () => {
  test('ratios: long + short = 1, ratio = long / short, one row per period up to now', () => {
    const f = futuresFixture({ minutes: 24 * 60 });
    for (const path of ['globalLongShortAccountRatio', 'topLongShortAccountRatio', 'topLongShortPositionRatio']) {
      const rows = ok(f, `/futures/data/${path}`, { symbol: 'BTCUSDT', period: '5m', limit: 500 });
      expect(rows).toHaveLength(287); // 5-minute boundaries after the first print (T0 + 1 µs) up to now
      for (const row of rows) {
        expect(units(row.longAccount, 4) + units(row.shortAccount, 4)).toBe(10_000n);
        const ratio = Number(row.longAccount) / Number(row.shortAccount);
        expect(Math.abs(Number(row.longShortRatio) - ratio)).toBeLessThanOrEqual(0.00005);
        expect(Number(row.longAccount)).toBeGreaterThanOrEqual(0.2);
        expect(Number(row.longAccount)).toBeLessThanOrEqual(0.8);
      }
    }
    const coin = ok(f, '/futures/data/topLongShortPositionRatio', { pair: 'BTCUSD', period: '1h', startTime: T0_MS, limit: 2 });
    expect(coin).toEqual([1, 2].map((h) => ({ pair: 'BTCUSD', longShortRatio: expect.any(String), longPosition: expect.any(String), shortPosition: expect.any(String), timestamp: T0_MS + h * 3600_000 })));
  });

  test('taker volumes are the spot taker volumes of the period ending at the row', () => {
    const f = futuresFixture({ minutes: 6 * 60 });
    const rows = ok(f, '/futures/data/takerlongshortRatio', { symbol: 'BTCUSDT', period: '1h', limit: 3 });
    const spot = ok(f, '/api/v3/klines', { symbol: 'BTCUSDT', interval: '1h', limit: 6 });
    for (const row of rows) {
      const bar = spot.find((k: any) => k[0] === row.timestamp - 3600_000);
      expect(units(row.buyVol)).toBe(units(bar[9]));
      expect(units(row.sellVol)).toBe(units(bar[5]) - units(bar[9]));
    }
    const coin = ok(f, '/futures/data/takerBuySellVol', { pair: 'BTCUSD', contractType: 'PERPETUAL', period: '1h', limit: 1 })[0];
    const bar = spot.find((k: any) => k[0] === coin.timestamp - 3600_000);
    expect(coin).toMatchObject({ pair: 'BTCUSD', contractType: 'PERPETUAL', takerBuyVolValue: bar[9] });
    expect(BigInt(coin.takerBuyVol)).toBe((units(bar[10]) + 100n * 100_000_000n - 1n) / (100n * 100_000_000n));
  });

  test('statistics keep 30 days', () => {
    const f = futuresFixture({ minutes: 32 * 24 * 60, tapeSeed: 'long' });
    const rows = ok(f, '/futures/data/globalLongShortAccountRatio', { symbol: 'BTCUSDT', period: '1d', limit: 500 });
    expect(rows).toHaveLength(30);
    expect(rows[0].timestamp).toBeGreaterThanOrEqual(Math.floor(f.backend.now / 1000) - 30 * 86_400_000);
  });
});

describe('basis and delivery', () => {
  test('basis = futures price − index; annualized for quarterlies, empty for the perpetual', () => {
    const f = futuresFixture({ minutes: 12 * 60 });
    const [row] = ok(f, '/futures/data/basis', { pair: 'BTCUSDT', contractType: 'CURRENT_QUARTER', period: '1h', limit: 1 });
    expect(Object.keys(row)).toEqual(['indexPrice', 'contractType', 'basisRate', 'futuresPrice', 'annualizedBasisRate', 'basis', 'pair', 'timestamp']);
    expect(units(row.basis)).toBe(units(row.futuresPrice) - units(row.indexPrice));
    expect(Math.abs(Number(row.basisRate) - Number(row.basis) / Number(row.indexPrice))).toBeLessThan(0.00006);
    const years = (Date.UTC(2026, 2, 27, 8) - row.timestamp) / (365 * 86_400_000);
    expect(Math.abs(Number(row.annualizedBasisRate) - Number(row.basis) / Number(row.indexPrice) / years)).toBeLessThan(0.0001);
    const [perp] = ok(f, '/futures/data/basis', { pair: 'BTCUSD', contractType: 'PERPETUAL', period: '1h', limit: 1 });
    expect(perp).toMatchObject({ pair: 'BTCUSD', contractType: 'PERPETUAL', annualizedBasisRate: '' });
  });

  test('a delivery in the tape settles at the mean index of its last 30 minutes', () => {
    const delivery = Date.UTC(2026, 2, 27, 8) * 1000;
    const f = futuresFixture({ minutes: 3 * 60, start: delivery - 2 * HOUR });
    const rows = ok(f, '/futures/data/delivery-price', { pair: 'BTCUSDT' });
    expect(rows).toEqual([{ deliveryTime: delivery / 1000, deliveryPrice: expect.any(String) }]);
    const before = f.prints.filter((p) => p.time <= delivery);
    let sum = 0n;
    for (let m = 0; m < 30; m++) {
      const t = delivery - m * MINUTE;
      sum += BigInt([...before].reverse().find((p) => p.time <= t)!.price);
    }
    const mean = (2n * sum + 30n) / 60n;
    expect(units(rows[0].deliveryPrice)).toBe(((mean + 500_000n) / 1_000_000n) * 1_000_000n);
    expect(ok(f, '/futures/data/delivery-price', { pair: 'BTCUSD' })).toEqual(rows);
    expect(ok(futuresFixture({ minutes: 60 }), '/futures/data/delivery-price', { pair: 'BTCUSDT' })).toEqual([]);
  });
});

describe('index information', () => {
  test('composite index, constituents and asset index from the spot prices now', () => {
    const f = futuresFixture({ minutes: 120 });
    const nowMs = Math.floor(f.backend.now / 1000);
    const price = `${(f.prints[119]!.price / 1e8).toFixed(2)}000000`;
    expect(ok(f, '/fapi/v1/indexInfo', { symbol: 'EXSIMUSDT' })).toEqual({
      symbol: 'EXSIMUSDT',
      time: nowMs,
      component: 'baseAsset',
      baseAssetList: [{ baseAsset: 'BTC', quoteAsset: 'USDT', weightInQuantity: expect.stringMatching(/^0\.0\d{7}$/), weightInPercentage: '1.00000000' }],
    });
    expect(ok(f, '/fapi/v1/constituents', { symbol: 'BTCUSDT' })).toEqual({ symbol: 'BTCUSDT', time: nowMs, constituents: [{ exchange: 'binance', symbol: 'BTCUSDT', price, weight: '1.00000000' }] });
    expect(ok(f, '/dapi/v1/constituents', { symbol: 'BTCUSD' }).constituents[0].price).toBe(price);
    const asset = ok(f, '/fapi/v1/assetIndex', { symbol: 'BTCUSD' });
    expect(asset).toMatchObject({ symbol: 'BTCUSD', index: price, bidBuffer: '0.10000000', askBuffer: '0.10000000', autoExchangeBidBuffer: '0.05000000', autoExchangeAskBuffer: '0.05000000' });
    expect(units(asset.bidRate)).toBe((units(price) * 9n) / 10n);
    expect(units(asset.autoExchangeAskRate)).toBe((units(price) * 105n) / 100n);
    expect([weightOf(f, '/fapi/v1/assetIndex'), weightOf(f, '/fapi/v1/assetIndex', { symbol: 'BTCUSD' })]).toEqual([10, 1]);
  });
});

describe('risk information', () => {
  test('ADL rating every 30 minutes, trading schedule, insurance fund snapshot', () => {
    const f = futuresFixture({ minutes: 26 * 60 });
    const nowMs = Math.floor(f.backend.now / 1000);
    const adl = ok(f, '/fapi/v1/symbolAdlRisk', { symbol: 'BTCUSDT' });
    expect(adl).toEqual({ symbol: 'BTCUSDT', adlRisk: expect.stringMatching(/^(high|medium|low)$/), updateTime: Math.floor(nowMs / 1_800_000) * 1_800_000 });
    expect(ok(f, '/fapi/v1/symbolAdlRisk')).toHaveLength(3);
    expect(weightOf(f, '/fapi/v1/tradingSchedule')).toBe(5);
    const schedule = ok(f, '/fapi/v1/tradingSchedule');
    expect(schedule.updateTime).toBe(nowMs);
    expect(Object.keys(schedule.marketSchedules)).toEqual(['EQUITY', 'COMMODITY']);
    const sessions = schedule.marketSchedules.EQUITY.sessions;
    const dayBefore = (Math.floor(nowMs / 86_400_000) - 1) * 86_400_000;
    expect(sessions[0].startTime).toBe(dayBefore - 7 * 86_400_000);
    expect(sessions[sessions.length - 1].endTime).toBe(dayBefore + 7 * 86_400_000);
    expect(new Set(sessions.map((s: any) => s.type))).toEqual(new Set(['PRE_MARKET', 'REGULAR', 'AFTER_MARKET', 'OVERNIGHT', 'NO_TRADING']));
    const insurance = ok(f, '/fapi/v1/insuranceBalance');
    expect(insurance).toEqual([{ symbols: ['BTCUSDT', 'BTCUSDT_260327', 'BTCUSDT_260626'], assets: [{ asset: 'USDT', marginBalance: expect.stringMatching(/^\d{9}\.\d{8}$/), updateTime: (T0_MS + 86_400_000) }] }]);
    expect(ok(f, '/fapi/v1/insuranceBalance', { symbol: 'BTCUSDT_260327' })).toEqual(insurance[0]);
    expect(T0).toBeGreaterThan(0);
  });
});
