/**
 * Technical indicators for strategies, computed in decimal arithmetic (decimal.js) so a signal
 * never flips on a binary rounding error and every machine computes the same digits. Inputs are
 * decimal strings (as bars and the REST API give them), numbers or Decimals; results are Decimals
 * (`.toNumber()`, `.gt(...)`, `.toFixed(2)`), or null while there are too few values.
 *
 * Sums, differences, products and means of decimal inputs are exact. Divisions that do not
 * terminate (EMA's 2/(n+1), Wilder's smoothing, RSI's ratio) and Bollinger's square root are
 * rounded half-even to 40 significant digits, a private setting that a strategy changing
 * decimal.js's global precision does not move.
 *
 * Each function gives the value at the last input, with the textbook definition named on it:
 * - sma: the mean of the last `period` values.
 * - ema: seeded with the SMA of the first `period` values, then α = 2 / (period + 1):
 *   ema = α·x + (1 − α)·ema for each later value.
 * - rsi: Wilder's: average gain and loss of the first `period` changes (simple means), then
 *   avg = (avg·(period − 1) + current) / period; RSI = 100 − 100 / (1 + gain / loss), 100 when
 *   there was no loss (needs period + 1 values).
 * - bollinger: middle = SMA(period), upper/lower = middle ± k · the population standard
 *   deviation of the same values (as TA-Lib and most charting packages).
 * - atr: Wilder's: true range max(high − low, |high − previous close|, |low − previous close|)
 *   from the second bar on; ATR = the mean of the first `period` true ranges, then smoothed as
 *   RSI's averages (needs period + 1 bars).
 * - vwap: Σ quote volume / Σ base volume of the bars: the exact volume-weighted average price of
 *   every trade in them (bars carry both sums).
 */
import { Decimal as DecimalJs } from 'decimal.js';

/** decimal.js with the indicators' own precision (see the header). */
export const IndicatorDecimal = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_HALF_EVEN });
export type IndicatorDecimal = InstanceType<typeof IndicatorDecimal>;

export type DecimalInput = string | number | DecimalJs;

/** The price fields ATR and VWAP read from a bar (the strategy context's `Bar` has them). */
export interface PriceBar {
  readonly high: DecimalInput;
  readonly low: DecimalInput;
  readonly close: DecimalInput;
  readonly volume: DecimalInput;
  readonly quoteVolume: DecimalInput;
}

// A Decimal of any clone (or of the caller's decimal.js) converts exactly: the constructor copies its digits.
const dec = (x: DecimalInput): IndicatorDecimal => new IndicatorDecimal(x);

function checkPeriod(period: number, name: string): void {
  if (!Number.isInteger(period) || period < 1) throw new RangeError(`${name}: period must be an integer >= 1, got ${period}`);
}

function mean(values: readonly IndicatorDecimal[]): IndicatorDecimal {
  return values.reduce((sum, x) => sum.add(x), new IndicatorDecimal(0)).div(values.length);
}

/** Simple moving average of the last `period` values. */
export function sma(values: readonly DecimalInput[], period: number): IndicatorDecimal | null {
  checkPeriod(period, 'sma');
  if (values.length < period) return null;
  return mean(values.slice(-period).map(dec));
}

/** Exponential moving average at the last value, seeded with the SMA of the first `period`. */
export function ema(values: readonly DecimalInput[], period: number): IndicatorDecimal | null {
  checkPeriod(period, 'ema');
  if (values.length < period) return null;
  const alpha = new IndicatorDecimal(2).div(period + 1);
  let average = mean(values.slice(0, period).map(dec));
  for (let i = period; i < values.length; i++) average = alpha.mul(dec(values[i]!)).add(new IndicatorDecimal(1).sub(alpha).mul(average));
  return average;
}

/** Wilder's smoothing of `series` (first value: the mean of the first `period`). */
function wilder(series: readonly IndicatorDecimal[], period: number): IndicatorDecimal {
  let average = mean(series.slice(0, period));
  for (let i = period; i < series.length; i++) average = average.mul(period - 1).add(series[i]!).div(period);
  return average;
}

/** Relative strength index (Wilder), 0..100, at the last value. */
export function rsi(values: readonly DecimalInput[], period = 14): IndicatorDecimal | null {
  checkPeriod(period, 'rsi');
  if (values.length < period + 1) return null;
  const xs = values.map(dec);
  const gains: IndicatorDecimal[] = [];
  const losses: IndicatorDecimal[] = [];
  for (let i = 1; i < xs.length; i++) {
    const change = xs[i]!.sub(xs[i - 1]!);
    gains.push(change.gt(0) ? change : new IndicatorDecimal(0));
    losses.push(change.lt(0) ? change.neg() : new IndicatorDecimal(0));
  }
  const gain = wilder(gains, period);
  const loss = wilder(losses, period);
  if (loss.isZero()) return new IndicatorDecimal(100);
  return new IndicatorDecimal(100).sub(new IndicatorDecimal(100).div(gain.div(loss).add(1)));
}

export interface BollingerBands {
  readonly middle: IndicatorDecimal;
  readonly upper: IndicatorDecimal;
  readonly lower: IndicatorDecimal;
  /** The population standard deviation of the last `period` values. */
  readonly deviation: IndicatorDecimal;
}

/** Bollinger bands of the last `period` values, `k` deviations wide. */
export function bollinger(values: readonly DecimalInput[], period = 20, k: DecimalInput = 2): BollingerBands | null {
  checkPeriod(period, 'bollinger');
  if (values.length < period) return null;
  const xs = values.slice(-period).map(dec);
  const middle = mean(xs);
  const deviation = mean(xs.map((x) => x.sub(middle).pow(2))).sqrt();
  const width = deviation.mul(dec(k));
  return { middle, upper: middle.add(width), lower: middle.sub(width), deviation };
}

/** Average true range (Wilder) at the last bar. */
export function atr(bars: readonly PriceBar[], period = 14): IndicatorDecimal | null {
  checkPeriod(period, 'atr');
  if (bars.length < period + 1) return null;
  const ranges: IndicatorDecimal[] = [];
  for (let i = 1; i < bars.length; i++) {
    const high = dec(bars[i]!.high);
    const low = dec(bars[i]!.low);
    const previous = dec(bars[i - 1]!.close);
    ranges.push(IndicatorDecimal.max(high.sub(low), high.sub(previous).abs(), low.sub(previous).abs()));
  }
  return wilder(ranges, period);
}

/** Volume-weighted average price of every trade in the bars (null when they hold no volume). */
export function vwap(bars: readonly PriceBar[]): IndicatorDecimal | null {
  let quote = new IndicatorDecimal(0);
  let base = new IndicatorDecimal(0);
  for (const bar of bars) {
    quote = quote.add(dec(bar.quoteVolume));
    base = base.add(dec(bar.volume));
  }
  return base.isZero() ? null : quote.div(base);
}
