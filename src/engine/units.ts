/**
 * Conversion between decimal strings and integer asset units (value * 10^precision).
 * Parsing uses decimal.js (exact, handles exponents and trailing zeros); formatting is a plain
 * integer-to-string split because it runs on every response field and must be cheap.
 */
import { Decimal } from 'decimal.js';

const TEN = new Decimal(10);

/**
 * Parses a decimal string into integer units at `precision` decimals. Returns null when the
 * value has more significant decimals than `precision` or does not fit a safe integer.
 */
const DECIMAL_TEXT = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

export function parseUnits(text: string, precision: number): number | null {
  // decimal.js also reads hex, binary and octal ("0x1f"); amounts are decimal only.
  if (!DECIMAL_TEXT.test(text)) return null;
  let value: Decimal;
  try {
    value = new Decimal(text);
  } catch {
    return null;
  }
  if (!value.isFinite()) return null;
  const scaled = value.mul(TEN.pow(precision));
  if (!scaled.isInteger()) return null;
  const n = scaled.toNumber();
  if (!Number.isSafeInteger(n)) return null;
  return n;
}

/** Like parseUnits but throws with the offending text: for configuration, where a bad value is a bug. */
export function parseUnitsOrThrow(text: string, precision: number, what: string): number {
  const n = parseUnits(text, precision);
  if (n === null) throw new Error(`${what}: "${text}" is not a decimal with at most ${precision} places`);
  return n;
}

/** Formats integer units as a decimal string with exactly `precision` decimals ("0.10000000"). */
export function formatUnits(units: number, precision: number): string {
  const negative = units < 0;
  const digits = String(negative ? -units : units);
  if (precision === 0) return negative ? `-${digits}` : digits;
  const padded = digits.length <= precision ? '0'.repeat(precision - digits.length + 1) + digits : digits;
  const cut = padded.length - precision;
  const text = `${padded.slice(0, cut)}.${padded.slice(cut)}`;
  return negative ? `-${text}` : text;
}

const POWERS_OF_TEN: readonly number[] = Array.from({ length: 16 }, (_, n) => 10 ** n);

/** 10^n as an exact number, for n in 0..15 (a table: it is on the per-trade path). */
export function pow10(n: number): number {
  const p = POWERS_OF_TEN[n];
  if (p === undefined) throw new Error(`pow10 out of range: ${n}`);
  return p;
}
