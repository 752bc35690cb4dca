import { describe, expect, test } from 'vitest';
import { contractPrice, deliveryAfter, deliveryOf, deliverySuffix, derivePairs, fundingRateAt, fundingTimesBetween, FuturesMarket, nextFundingTime, PremiumModel } from '../../../src/futures/index.ts';
import { fundingFromPremium } from '../../../src/futures/funding.ts';
import { SeededNoise } from '../../../src/futures/seeded-noise.ts';
import { sessionsBetween } from '../../../src/futures/trading-schedule.ts';
import { T0 } from '../../api/fixture.ts';
import { futuresFixture, HOUR, MINUTE } from '../../api/futures-fixture.ts';

const MS = 1000;
// Rates in units of 1e-8 (1 bp = 10_000), written out here rather than read from
// src/futures/model-parameters.ts, so a changed parameter fails these tests instead of moving them.
const BP = 10_000;
/** Binance's funding rate cap and floor: ±2.5 %. */
const FUNDING_CAP = 250 * BP;
/** The funding formula as Binance documents it: premium + clamp(0.01 % - premium, ±0.05 %), within the cap. */
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
const referenceFunding = (premium: number): number => clamp(premium + clamp(BP - premium, -5 * BP, 5 * BP), -FUNDING_CAP, FUNDING_CAP);

describe('quarter calendar', () => {
  test('deliveries are the last Friday of the quarter month at 08:00 UTC', () => {
    expect(deliveryOf(2026, 2)).toBe(Date.UTC(2026, 2, 27, 8) * MS);
    expect(deliveryOf(2026, 5)).toBe(Date.UTC(2026, 5, 26, 8) * MS);
    expect(deliveryOf(2025, 11)).toBe(Date.UTC(2025, 11, 26, 8) * MS);
    expect(new Date(deliveryOf(2026, 8) / MS).getUTCDay()).toBe(5);
  });

  test('current and next quarter roll at delivery', () => {
    const march = Date.UTC(2026, 2, 27, 8) * MS;
    expect(deliveryAfter(T0)).toBe(march);
    expect(deliveryAfter(T0, 1)).toBe(Date.UTC(2026, 5, 26, 8) * MS);
    expect(deliveryAfter(march - 1)).toBe(march);
    expect(deliveryAfter(march)).toBe(Date.UTC(2026, 5, 26, 8) * MS);
    expect(deliverySuffix(march)).toBe('260327');
  });
});

describe('contracts derived from the spot market', () => {
  test('USD-quoted spot symbols give a USDⓈ-M pair and a COIN-M pair; others none', () => {
    const f = futuresFixture({ minutes: 10 });
    const specs = f.ctx.backend.engine.symbolNames().map((n) => f.ctx.backend.engine.symbolSpec(n)!);
    const pairs = derivePairs(specs);
    expect(pairs.map((p) => [p.venue, p.pair, p.marginAsset, p.contractSize, p.pricePrecision, p.quantityPrecision])).toEqual([
      ['USD_M', 'BTCUSDT', 'USDT', 0, 2, 5],
      ['COIN_M', 'BTCUSD', 'BTC', 100, 2, 0],
    ]);
    expect(f.ctx.futures.contracts('USD_M', T0).map((c) => c.symbol)).toEqual(['BTCUSDT', 'BTCUSDT_260327', 'BTCUSDT_260626']);
    expect(f.ctx.futures.contracts('COIN_M', T0).map((c) => [c.symbol, c.contractType])).toEqual([
      ['BTCUSD_PERP', 'PERPETUAL'],
      ['BTCUSD_260327', 'CURRENT_QUARTER'],
      ['BTCUSD_260626', 'NEXT_QUARTER'],
    ]);
    // A quarterly is listed when the delivery two quarters before it happened.
    expect(f.ctx.futures.findContract('USD_M', 'BTCUSDT_260626', T0)!.onboardTime).toBe(Date.UTC(2025, 11, 26, 8) * MS);
  });
});

describe('seeded noise and premium', () => {
  test('noise is a pure function of (seed, stream, t), bounded, linear between knots', () => {
    const a = new SeededNoise('s', 'x', MINUTE);
    const b = new SeededNoise('s', 'x', MINUTE);
    const times = [T0 + 5 * MINUTE + 7, T0, T0 + 3 * 86_400_000_000];
    const later = times.map((t) => b.at(t));
    expect(times.reverse().map((t) => a.at(t)).reverse()).toEqual(later);
    expect(Math.abs(a.knot(12345))).toBeLessThanOrEqual(1_000_000); // knots are in [-1, 1] at a scale of 1e6
    const mid = a.at(T0 + MINUTE / 2);
    const lo = Math.min(a.at(T0), a.at(T0 + MINUTE));
    const hi = Math.max(a.at(T0), a.at(T0 + MINUTE));
    expect(mid).toBeGreaterThanOrEqual(lo);
    expect(mid).toBeLessThanOrEqual(hi);
    expect(new SeededNoise('other', 'x', MINUTE).knot(0)).not.toBe(a.knot(0));
  });

  test('the range over an interval bounds every sample inside it', () => {
    const f = futuresFixture({ minutes: 10 });
    const model = f.ctx.futures.premium(f.ctx.futures.contracts('USD_M', T0)[0]!);
    const { min, max } = model.range(T0, T0 + 6 * HOUR);
    for (let t = T0; t <= T0 + 6 * HOUR; t += 17 * MINUTE + 3) {
      expect(model.at(t)).toBeGreaterThanOrEqual(min);
      expect(model.at(t)).toBeLessThanOrEqual(max);
    }
  });

  test('a quarterly carries contango that vanishes at delivery', () => {
    const f = futuresFixture({ minutes: 10 });
    const quarterly = f.ctx.futures.contracts('USD_M', T0)[1]!;
    const model = new PremiumModel('seed', quarterly);
    // An annual carry in [4 %, 12 %).
    expect(model.carry).toBeGreaterThanOrEqual(400 * BP);
    expect(model.carry).toBeLessThan(1200 * BP);
    // Far from delivery the carry dominates the ±6 bp noise; at delivery only noise is left.
    expect(model.at(T0)).toBeGreaterThan(6 * BP);
    expect(Math.abs(model.at(quarterly.deliveryTime!))).toBeLessThanOrEqual(6 * BP);
  });
});

describe('funding', () => {
  test('the formula: premium plus the clamped interest difference, capped', () => {
    expect(fundingFromPremium(0)).toBe(10_000); // interest 0.01 %
    expect(fundingFromPremium(30_000)).toBe(10_000); // difference -0.02 % is within the clamp
    expect(fundingFromPremium(100_000)).toBe(50_000); // clamp -0.05 %
    expect(fundingFromPremium(-100_000)).toBe(-50_000);
    expect(fundingFromPremium(10_000_000)).toBe(FUNDING_CAP);
    expect(fundingFromPremium(-10_000_000)).toBe(-FUNDING_CAP);
    for (const premium of [-3_000_000, -60_000, -1, 7_777, 45_000, 2_600_000]) expect(fundingFromPremium(premium), String(premium)).toBe(referenceFunding(premium));
  });

  test('fundings every 8 h at 00, 08, 16 UTC; the rate is the formula on the minute samples', () => {
    expect(fundingTimesBetween(T0 + 1, T0 + 24 * HOUR)).toEqual([T0 + 8 * HOUR, T0 + 16 * HOUR, T0 + 24 * HOUR]);
    expect(nextFundingTime(T0)).toBe(T0 + 8 * HOUR);
    const f = futuresFixture({ minutes: 10 });
    const model = f.ctx.futures.premium(f.ctx.futures.contracts('USD_M', T0)[0]!);
    let sum = 0;
    for (let m = 1; m <= 480; m++) sum += model.at(T0 + m * MINUTE);
    expect(fundingRateAt(model, T0 + 8 * HOUR)).toBe(referenceFunding(Math.round(sum / 480)));
  });
});

describe('no look-ahead and determinism of the market', () => {
  test('index, mark and prints at t equal those of the tape truncated at t', () => {
    const t = T0 + 20 * HOUR + 30 * MINUTE;
    const full = futuresFixture({ minutes: 2 * 24 * 60, now: t });
    const cut = futuresFixture({ minutes: 2 * 24 * 60, now: t, recordUntil: t });
    const [a, b] = [full.ctx.futures, cut.ctx.futures];
    for (const venue of ['USD_M', 'COIN_M'] as const) {
      for (const [i, c] of a.contracts(venue, t).entries()) {
        const d = b.contracts(venue, t)[i]!;
        expect(a.markPrice(c, t)).toBe(b.markPrice(d, t));
        expect(a.settlementPrice(c.pair, t)).toBe(b.settlementPrice(d.pair, t));
        expect(full.ctx.positions.openInterest(c, t)).toBe(cut.ctx.positions.openInterest(d, t));
        expect(full.ctx.positions.longShare(c.pair, 'global', t)).toBe(cut.ctx.positions.longShare(d.pair, 'global', t));
      }
    }
  });

  test('the same seed gives the same market; another seed another basis', () => {
    const a = futuresFixture({ minutes: 60 });
    const b = futuresFixture({ minutes: 60 });
    const c = futuresFixture({ minutes: 60, futuresSeed: 'other' });
    const t = a.prints[30]!.time;
    const mark = (m: FuturesMarket) => m.markPrice(m.contracts('USD_M', t)[0]!, t);
    expect(mark(a.ctx.futures)).toBe(mark(b.ctx.futures));
    expect(mark(c.ctx.futures)).not.toBe(mark(a.ctx.futures));
    const perp = a.ctx.futures.contracts('USD_M', t)[0]!;
    expect(contractPrice(a.ctx.futures, perp, a.prints[30]!.price, t) % 1_000_000).toBe(0); // on the 0.01 tick
  });
});

describe('trading schedule calendar', () => {
  test('US equity sessions follow New York time across the DST change', () => {
    // Tuesday 2026-03-03 (EST, UTC-5) and Tuesday 2026-03-10 (EDT, UTC-4).
    const regular = (day: number) => sessionsBetween('EQUITY', Date.UTC(2026, 2, day) * MS, Date.UTC(2026, 2, day + 1) * MS).find((s) => s.type === 'REGULAR')!;
    expect(regular(3).startTime).toBe(Date.UTC(2026, 2, 3, 14, 30) * MS);
    expect(regular(10).startTime).toBe(Date.UTC(2026, 2, 10, 13, 30) * MS);
    const weekend = sessionsBetween('EQUITY', Date.UTC(2026, 2, 7, 6) * MS, Date.UTC(2026, 2, 8, 6) * MS); // Saturday 01:00 to Sunday 01:00 New York
    expect(weekend.map((s) => s.type)).toEqual(['NO_TRADING']);
    const sessions = sessionsBetween('COMMODITY', T0, T0 + 7 * 24 * HOUR);
    for (let i = 1; i < sessions.length; i++) expect(sessions[i]!.startTime).toBe(sessions[i - 1]!.endTime);
  });
});
