/**
 * The funding model (perpetuals only): funding every `hours` (8 by default: 00:00, 08:00 and
 * 16:00 UTC; 4: 00/04/08/12/16/20; 1: each hour; the contract's `fundingIntervalHours`,
 * funding-schedule.ts). The rate settled at funding time T is
 *
 *   P = mean premium over the interval, sampled each minute at T − hours + 1 min, ..., T
 *   rate = clamp(P + clamp(I − P, −0.05 %, +0.05 %), −2.5 %, +2.5 %),   I = 0.01 % × hours / 8
 *
 * (the exchange's formula with its default interest and clamps; it samples every 5 s, we sample
 * each minute). The interest is Binance's 0.03 % a day spread over the day's fundings
 * (0.03 % / (24 / hours): 0.01 % per 8 h, 0.005 % per 4 h, as premiumIndex `interestRate` shows
 * for a 4 h symbol; 0.00125 % per hour); the ±0.05 % clamp and the cap are kept for every interval
 * (chosen: Binance's per-symbol caps are not modelled). The estimate shown between fundings
 * (premiumIndex `lastFundingRate`) applies the same formula to the samples of the running interval
 * up to now, so it uses nothing after now.
 */
import type { PremiumModel } from './premium.ts';
import { meanOf } from './price-math.ts';
import { FUNDING_INTERVAL_HOURS, FUNDING_RATE_CAP, FUNDING_SAMPLE_US, INTEREST_CLAMP, INTEREST_RATE } from './model-parameters.ts';
import { MICROS_PER_HOUR } from '../clock/index.ts';

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The interest part of a rate settled every `hours` (RATE_SCALE units; an integer for 1, 4 and 8). */
export function interestRateFor(hours: number = FUNDING_INTERVAL_HOURS): number {
  return (INTEREST_RATE * hours) / FUNDING_INTERVAL_HOURS;
}

/** The formula above on an average premium. */
export function fundingFromPremium(averagePremium: number, hours: number = FUNDING_INTERVAL_HOURS): number {
  const interest = interestRateFor(hours);
  return clamp(averagePremium + clamp(interest - averagePremium, -INTEREST_CLAMP, INTEREST_CLAMP), -FUNDING_RATE_CAP, FUNDING_RATE_CAP);
}

/** The last funding time at or before t on the UTC grid of `hours`. */
export function fundingTimeAtOrBefore(t: number, hours: number = FUNDING_INTERVAL_HOURS): number {
  const step = hours * MICROS_PER_HOUR;
  return Math.floor(t / step) * step;
}

/** The first funding time strictly after t on the UTC grid of `hours`. */
export function nextFundingTime(t: number, hours: number = FUNDING_INTERVAL_HOURS): number {
  return fundingTimeAtOrBefore(t, hours) + hours * MICROS_PER_HOUR;
}

/** Funding times T with from <= T <= to on the UTC grid of `hours`, oldest first. */
export function fundingTimesBetween(from: number, to: number, hours: number = FUNDING_INTERVAL_HOURS): number[] {
  const step = hours * MICROS_PER_HOUR;
  const out: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) out.push(t);
  return out;
}

function premiumSamples(model: PremiumModel, start: number, end: number): number[] {
  const samples: number[] = [];
  for (let t = start + FUNDING_SAMPLE_US; t <= end; t += FUNDING_SAMPLE_US) samples.push(model.at(t));
  // A running interval younger than one sample still has its premium now.
  if (samples.length === 0) samples.push(model.at(end));
  return samples;
}

const settled = new WeakMap<PremiumModel, Map<string, number>>();

/** The rate settled at funding time T for the interval of `hours` ending at T. */
export function fundingRateAt(model: PremiumModel, fundingTime: number, hours: number = FUNDING_INTERVAL_HOURS): number {
  let cache = settled.get(model);
  if (cache === undefined) {
    cache = new Map();
    settled.set(model, cache);
  }
  const key = `${hours}/${fundingTime}`;
  let rate = cache.get(key);
  if (rate === undefined) {
    rate = fundingFromPremium(meanOf(premiumSamples(model, fundingTime - hours * MICROS_PER_HOUR, fundingTime)), hours);
    // The cache only saves work: the rate is a pure function of (model, T, hours).
    if (cache.size > 4096) cache.clear();
    cache.set(key, rate);
  }
  return rate;
}

/** The running interval's estimate at `now`: the interval of `hours` that began at `start` (default: on the UTC grid). */
export function estimatedFundingRate(model: PremiumModel, now: number, hours: number = FUNDING_INTERVAL_HOURS, start: number = fundingTimeAtOrBefore(now, hours)): number {
  return fundingFromPremium(meanOf(premiumSamples(model, start, now)), hours);
}
