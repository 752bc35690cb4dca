/**
 * The numbers of the futures model, in one place. Rates are integers in RATE_SCALE units
 * (1e-8: 10_000 = 0.0001 = 1 bp), shown with 8 decimals as the exchange shows rates.
 *
 * DEFAULT_FUTURES_SEED is the documented fixed seed: the same spot tape and this seed give the
 * same futures market on every machine. ExchangeContext takes another with `futuresSeed`.
 */
import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE } from '../clock/index.ts';

export const DEFAULT_FUTURES_SEED = 'exsim-futures-2026';

export const RATE_SCALE = 100_000_000;

/** Premium noise: slow knots hourly, fast knots every minute, mixed 60/40. */
export const SLOW_KNOT_US = MICROS_PER_HOUR;
export const FAST_KNOT_US = MICROS_PER_MINUTE;

/** Perpetual premium: mean +0.5 bp, noise amplitude ±4 bp. */
export const PERPETUAL_PREMIUM_MEAN = 5_000;
export const PERPETUAL_PREMIUM_AMPLITUDE = 40_000;
/** Quarterly premium: an annual carry drawn per contract in [4 %, 12 %), times the year fraction left, plus ±6 bp noise. */
export const QUARTERLY_CARRY_MIN = 4_000_000;
export const QUARTERLY_CARRY_SPAN = 8_000_000;
export const QUARTERLY_PREMIUM_AMPLITUDE = 60_000;
export const YEAR_SECONDS = 365 * 24 * 3600;

/** Funding every 8 hours at 00:00, 08:00 and 16:00 UTC. */
export const FUNDING_INTERVAL_US = 8 * MICROS_PER_HOUR;
export const FUNDING_INTERVAL_HOURS = 8;
/** Interest 0.01 % per interval; the premium-interest difference is clamped to ±0.05 %. */
export const INTEREST_RATE = 10_000;
export const INTEREST_CLAMP = 50_000;
/** Funding rate cap and floor (±2.5 %), as fundingInfo shows them. */
export const FUNDING_RATE_CAP = 2_500_000;
/** The premium is sampled once a minute over the interval (480 samples). */
export const FUNDING_SAMPLE_US = MICROS_PER_MINUTE;

/** Delivery and estimated settlement: mean index over the last 30 minutes, sampled each minute. */
export const SETTLEMENT_WINDOW_US = 30 * MICROS_PER_MINUTE;

/**
 * Positions: open interest (base units) of a USDⓈ-M perpetual = 24 h spot volume × 0.8, ±25 %
 * by slow noise; quarterlies hold 6 % (current) and 3 % (next) of it; a COIN-M pair 30 % of it.
 * Shares are in parts per million.
 */
export const OPEN_INTEREST_DAYS_PPM = 800_000;
export const OPEN_INTEREST_NOISE_PPM = 250_000;
export const CURRENT_QUARTER_SHARE_PPM = 60_000;
export const NEXT_QUARTER_SHARE_PPM = 30_000;
export const COIN_MARGINED_SHARE_PPM = 300_000;

/**
 * Long/short ratios in 1e-4 units of accounts (or positions) long: 0.5 ± 0.15 noise, moved by
 * the 4-hour index return: retail (global accounts) against it, top traders with it.
 */
export const RATIO_SCALE = 10_000;
export const RATIO_NOISE = 1_500;
export const RATIO_RETURN_WINDOW_US = 4 * MICROS_PER_HOUR;
export const GLOBAL_RETURN_SENSITIVITY = -3;
export const TOP_ACCOUNT_RETURN_SENSITIVITY = 2;
export const TOP_POSITION_RETURN_SENSITIVITY = 4;
export const RATIO_MIN = 2_000;
export const RATIO_MAX = 8_000;

/** Statistics endpoints keep the latest 30 days. */
export const STATISTICS_RETENTION_US = 30 * MICROS_PER_DAY;

/** ADL rating refresh and thresholds on the absolute 24 h index change, in bp. */
export const ADL_REFRESH_US = 30 * MICROS_PER_MINUTE;
export const ADL_HIGH_BP = 500;
export const ADL_MEDIUM_BP = 200;
