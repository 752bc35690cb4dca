/**
 * A perpetual's funding interval and recorded fundings on the /fapi market data rows (issue 28:
 * "funding at each funding time of the symbol's interval (GET /fapi/v1/fundingInfo; 8 h or 4 h)"):
 * a 4 h BTCUSDT settles at 00/04/08/12/16/20 UTC (fundingRate rows), premiumIndex and the
 * markPrice stream's T point at the next of those, its interest is 0.01 % × 4 / 8 = 0.005 %, and
 * fundingInfo lists it; recorded fundings replace the model's at their times. The market is the
 * futures fixture's one day of seeded spot prints from T0 = 2026-01-01 00:00 UTC.
 */
import { describe, expect, test } from 'vitest';
import { markPricePayload } from '../../src/api-facade/streams/futures-stream-payloads.ts';
import { T0, T0_MS } from './fixture.ts';
import { futuresFixture, HOUR, ok } from './futures-fixture.ts';

const H_MS = 3_600_000;

describe('a 4 h perpetual', () => {
  const f = futuresFixture({ minutes: 24 * 60, now: T0 + 13 * HOUR, futuresFunding: { BTCUSDT: { intervalHours: 4 } } });

  test('fundingRate: a row at each 4 h funding time since the listing (04:00 .. 12:00 by 13:00); the premium sits inside the clamp, so each rate is the 4 h interest 0.005 %', () => {
    const rows = ok(f, '/fapi/v1/fundingRate', { symbol: 'BTCUSDT' });
    expect(rows.map((r: any) => [r.fundingTime, r.fundingRate])).toEqual([
      [T0_MS + 4 * H_MS, '0.00005000'],
      [T0_MS + 8 * H_MS, '0.00005000'],
      [T0_MS + 12 * H_MS, '0.00005000'],
    ]);
  });

  test('premiumIndex: next funding 16:00 at 13:00 and 20:00 at 17:00 (8 h would say 24:00), interest 0.005 %', () => {
    expect(ok(f, '/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' })).toMatchObject({ interestRate: '0.00005000', nextFundingTime: T0_MS + 16 * H_MS });
    const later = futuresFixture({ minutes: 24 * 60, now: T0 + 17 * HOUR, futuresFunding: { BTCUSDT: { intervalHours: 4 } } });
    expect(ok(later, '/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' })).toMatchObject({ interestRate: '0.00005000', nextFundingTime: T0_MS + 20 * H_MS });
    // The COIN-M perpetual keeps the default 8 h.
    expect(ok(later, '/dapi/v1/premiumIndex', { symbol: 'BTCUSD_PERP' })).toMatchObject({ interestRate: '0.00010000', nextFundingTime: T0_MS + 24 * H_MS });
  });

  test('the markPrice stream: T is the next 4 h funding time', () => {
    const c = f.ctx.futures.contracts('USD_M', f.backend.now)[0]!;
    expect(markPricePayload(f.ctx.futures, c, null, T0 + 17 * HOUR, 'MILLISECOND')).toMatchObject({ s: 'BTCUSDT', T: T0_MS + 20 * H_MS });
  });

  test('fundingInfo lists it with its interval; /dapi, all 8 h, lists none', () => {
    expect(ok(f, '/fapi/v1/fundingInfo')).toEqual([{ symbol: 'BTCUSDT', adjustedFundingRateCap: '0.02500000', adjustedFundingRateFloor: '-0.02500000', fundingIntervalHours: 4, disclaimer: false }]);
    expect(ok(f, '/dapi/v1/fundingInfo')).toEqual([]);
  });
});

describe('recorded fundings', () => {
  // Two recorded fundings (calc_time, funding_interval_hours, last_funding_rate): 08:00 and 16:00.
  const recorded = [
    { time: T0 + 8 * HOUR, intervalHours: 8, rate: 37_409 },
    { time: T0 + 16 * HOUR, intervalHours: 8, rate: -12_000 },
  ];
  const f = futuresFixture({ minutes: 2 * 24 * 60, now: T0 + 41 * HOUR, futuresFunding: { BTCUSDT: { recorded } } });

  test('fundingRate serves the recorded rates at their times and the model after them', () => {
    const rows = ok(f, '/fapi/v1/fundingRate', { symbol: 'BTCUSDT' });
    expect(rows.map((r: any) => [r.fundingTime, r.fundingRate])).toEqual([
      [T0_MS + 8 * H_MS, '0.00037409'],
      [T0_MS + 16 * H_MS, '-0.00012000'],
      [T0_MS + 24 * H_MS, '0.00010000'],
      [T0_MS + 32 * H_MS, '0.00010000'],
      [T0_MS + 40 * H_MS, '0.00010000'],
    ]);
  });

  test('premiumIndex lastFundingRate is the last recorded rate while it is the last funding (no look-ahead), then the model estimate', () => {
    const during = futuresFixture({ minutes: 2 * 24 * 60, now: T0 + 17 * HOUR, futuresFunding: { BTCUSDT: { recorded } } });
    expect(ok(during, '/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' })).toMatchObject({ lastFundingRate: '-0.00012000', nextFundingTime: T0_MS + 24 * H_MS });
    expect(ok(f, '/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' })).toMatchObject({ lastFundingRate: '0.00010000', nextFundingTime: T0_MS + 48 * H_MS });
  });
});
