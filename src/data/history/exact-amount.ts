/**
 * Exact ratios and wide amounts for the statistics a user reads: averages are computed as exact
 * rationals in BigInt and rounded once, half away from zero, at the last unit (the quote
 * precision for prices, 0.001 for priceChangePercent).
 *
 * Why round and not floor: Binance 24hr tickers captured from the live stream
 * (unicorn-binance-websocket-api issue #7, 2019) round both fields to nearest:
 * QKCBTC weightedAvgPrice 817.26117135 / 97790258 = 0.0000083572... shown "0.00000836";
 * priceChangePercent -0.00000040 / 0.00000861 = -4.64576...% shown "-4.646", while
 * -0.00000111 / 0.00009302 = -1.19329...% shows "-1.193" (so not floor either).
 */
import { formatUnits } from '../../engine/index.ts';

/** num / den rounded half away from zero; den > 0. */
export function divRound(num: bigint, den: bigint): bigint {
  const negative = num < 0n;
  const n = negative ? -num : num;
  const q = (2n * n + den) / (2n * den);
  return negative ? -q : q;
}

/**
 * Volume-weighted average price in price units (quote units per whole base unit):
 * quoteVolume * 10^basePrecision / volume, rounded; 0 when there is no volume.
 */
export function weightedAverage(quoteVolume: bigint, volume: bigint, basePrecision: number): number {
  if (volume === 0n) return 0;
  return Number(divRound(quoteVolume * 10n ** BigInt(basePrecision), volume));
}

/** (last - open) / open * 100 in thousandths of a percent (the API shows 3 decimals). */
export function changePercentMilli(open: number, last: number): number {
  if (open === 0) return 0;
  return Number(divRound(BigInt(last - open) * 100_000n, BigInt(open)));
}

/** Like formatUnits, for amounts that may exceed 2^53 (volumes). */
export function formatAmount(units: number | bigint, precision: number): string {
  if (typeof units === 'number') return formatUnits(units, precision);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString();
  if (precision === 0) return negative ? `-${digits}` : digits;
  const padded = digits.length <= precision ? '0'.repeat(precision - digits.length + 1) + digits : digits;
  const cut = padded.length - precision;
  const text = `${padded.slice(0, cut)}.${padded.slice(cut)}`;
  return negative ? `-${text}` : text;
}
