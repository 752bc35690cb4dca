/**
 * Decimal strings of a recording's prices and sizes ("42000.01000000") to integer units, exactly.
 * A day of BTCUSDT diffs holds tens of millions of them, so plain `digits[.digits]` text is read
 * here digit by digit (exact: every partial value is at most the result, which must be a safe
 * integer); anything else (a sign, an exponent) goes to the engine's decimal.js parser.
 */
import { parseUnits } from '../../engine/index.ts';

/** `text` × 10^precision as a non-negative safe integer, or null when it is not one (too many decimals, too large, not a number). */
export function decimalUnits(text: string, precision: number): number | null {
  const length = text.length;
  let n = 0;
  let i = 0;
  for (; i < length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d === -2) break; // '.'
    if (d < 0 || d > 9) return slowUnits(text, precision);
    n = n * 10 + d;
  }
  if (i === 0) return slowUnits(text, precision);
  let decimals = 0;
  if (i < length) {
    if (++i === length) return null; // "1." is not a decimal
    for (; i < length; i++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return slowUnits(text, precision);
      if (decimals < precision) {
        n = n * 10 + d;
        decimals++;
      } else if (d !== 0) {
        return null;
      }
    }
  }
  for (; decimals < precision; decimals++) n *= 10;
  return Number.isSafeInteger(n) ? n : null;
}

function slowUnits(text: string, precision: number): number | null {
  const n = parseUnits(text, precision);
  return n !== null && n >= 0 ? n : null;
}
