/**
 * Integer price arithmetic of the futures model. Prices are in the spot symbol's price units
 * (decimal × 10^quotePrecision), rates in RATE_SCALE units; products go through BigInt because
 * price × rate passes 2^53. Rounding is half away from zero (as the history's averages).
 */
import { divRound } from '../data/index.ts';
import { RATE_SCALE } from './model-parameters.ts';

const RATE = BigInt(RATE_SCALE);

/** price × (1 + rate), rounded to a unit. */
export function applyRate(price: number, rate: number): number {
  return price + Number(divRound(BigInt(price) * BigInt(rate), RATE));
}

/** (a − b) / b as a rate, rounded; 0 when b is 0. */
export function rateBetween(a: number, b: number): number {
  if (b === 0) return 0;
  return Number(divRound(BigInt(a - b) * RATE, BigInt(b)));
}

/** units rounded to a multiple of `tick`: half up, or toward the inside of a book side. */
export function roundToTick(units: number, tick: number, mode: 'nearest' | 'down' | 'up' = 'nearest'): number {
  if (tick <= 1) return units;
  const q = Math.floor(units / tick);
  const rest = units - q * tick;
  if (rest === 0) return units;
  if (mode === 'down') return q * tick;
  if (mode === 'up') return (q + 1) * tick;
  return (2 * rest >= tick ? q + 1 : q) * tick;
}

/** Integer mean, rounded half away from zero. */
export function meanOf(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0n;
  for (const v of values) sum += BigInt(v);
  return Number(divRound(sum, BigInt(values.length)));
}

/** a × b / c with BigInt intermediates, rounded. */
export function mulDiv(a: number | bigint, b: number | bigint, c: number | bigint): bigint {
  return divRound(BigInt(a) * BigInt(b), BigInt(c));
}

/** ceil(a / b) for positive BigInts. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
