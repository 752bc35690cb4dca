/**
 * The funding model (perpetuals only): funding every FUNDING_INTERVAL_US (8 h) at 00:00, 08:00
 * and 16:00 UTC. The rate settled at funding time T is
 *
 *   P = mean premium over the interval, sampled each minute at T − 8 h + 1 min, ..., T
 *   rate = clamp(P + clamp(I − P, −0.05 %, +0.05 %), −2.5 %, +2.5 %),   I = 0.01 %
 *
 * (the exchange's formula with its default interest and clamps; it samples every 5 s, we sample
 * each minute). The estimate shown between fundings (premiumIndex `lastFundingRate`) applies the
 * same formula to the samples of the running interval up to now, so it uses nothing after now.
 */
import type { PremiumModel } from './premium.ts';
import { meanOf } from './price-math.ts';
import { FUNDING_INTERVAL_US, FUNDING_RATE_CAP, FUNDING_SAMPLE_US, INTEREST_CLAMP, INTEREST_RATE } from './model-parameters.ts';

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The formula above on an average premium. */
export function fundingFromPremium(averagePremium: number): number {
  return clamp(averagePremium + clamp(INTEREST_RATE - averagePremium, -INTEREST_CLAMP, INTEREST_CLAMP), -FUNDING_RATE_CAP, FUNDING_RATE_CAP);
}

/** The last funding time at or before t. */
export function fundingTimeAtOrBefore(t: number): number {
  return Math.floor(t / FUNDING_INTERVAL_US) * FUNDING_INTERVAL_US;
}

/** The first funding time strictly after t. */
export function nextFundingTime(t: number): number {
  return fundingTimeAtOrBefore(t) + FUNDING_INTERVAL_US;
}

/** Funding times T with from <= T <= to, oldest first. */
export function fundingTimesBetween(from: number, to: number): number[] {
  const out: number[] = [];
  for (let t = Math.ceil(from / FUNDING_INTERVAL_US) * FUNDING_INTERVAL_US; t <= to; t += FUNDING_INTERVAL_US) out.push(t);
  return out;
}

function premiumSamples(model: PremiumModel, start: number, end: number): number[] {
  const samples: number[] = [];
  for (let t = start + FUNDING_SAMPLE_US; t <= end; t += FUNDING_SAMPLE_US) samples.push(model.at(t));
  // A running interval younger than one sample still has its premium now.
  if (samples.length === 0) samples.push(model.at(end));
  return samples;
}

const settled = new WeakMap<PremiumModel, Map<number, number>>();

/** The rate settled at funding time T (a multiple of the interval). */
export function fundingRateAt(model: PremiumModel, fundingTime: number): number {
  let cache = settled.get(model);
  if (cache === undefined) {
    cache = new Map();
    settled.set(model, cache);
  }
  let rate = cache.get(fundingTime);
  if (rate === undefined) {
    rate = fundingFromPremium(meanOf(premiumSamples(model, fundingTime - FUNDING_INTERVAL_US, fundingTime)));
    // The cache only saves work: the rate is a pure function of (model, T).
    if (cache.size > 4096) cache.clear();
    cache.set(fundingTime, rate);
  }
  return rate;
}

/** The running interval's estimate at `now`. */
export function estimatedFundingRate(model: PremiumModel, now: number): number {
  return fundingFromPremium(meanOf(premiumSamples(model, fundingTimeAtOrBefore(now), now)));
}
