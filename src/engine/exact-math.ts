/**
 * Exact integer arithmetic on JS numbers with a BigInt fallback. Products of two safe integers
 * are computed in doubles when the result is provably exact (below 2^53) and in BigInt
 * otherwise, so the hot path stays on doubles while large notionals stay exact.
 */

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** floor(a * b / d) for non-negative safe integers a, b and positive d. */
export function mulDivFloor(a: number, b: number, d: number): number {
  const p = a * b;
  if (p <= MAX_SAFE) {
    if (d === 1) return p;
    // A correctly rounded quotient can land on the next integer when p/d is just below it.
    const q = Math.floor(p / d);
    return q * d > p ? q - 1 : q;
  }
  return toSafe((BigInt(a) * BigInt(b)) / BigInt(d));
}

/** ceil(a * b / d) for non-negative safe integers a, b and positive d. */
export function mulDivCeil(a: number, b: number, d: number): number {
  const p = a * b;
  if (p <= MAX_SAFE) {
    if (d === 1) return p;
    let q = Math.floor(p / d);
    if (q * d > p) q -= 1;
    return q * d < p ? q + 1 : q;
  }
  const bp = BigInt(a) * BigInt(b);
  const bd = BigInt(d);
  const q = bp / bd;
  return toSafe(q * bd < bp ? q + 1n : q);
}

/** Sign of (a * b) - (c * d) for non-negative safe integers. */
export function compareProducts(a: number, b: number, c: number, d: number): -1 | 0 | 1 {
  const left = a * b;
  const right = c * d;
  if (left <= MAX_SAFE && right <= MAX_SAFE) return left < right ? -1 : left > right ? 1 : 0;
  const bl = BigInt(a) * BigInt(b);
  const br = BigInt(c) * BigInt(d);
  return bl < br ? -1 : bl > br ? 1 : 0;
}

function toSafe(value: bigint): number {
  if (value > BigInt(MAX_SAFE)) throw new RangeError(`amount ${value} exceeds the safe integer range`);
  return Number(value);
}

/** Throws if `n` is not a safe integer: guards every amount that enters the engine. */
export function assertSafeAmount(n: number, what: string): void {
  if (!Number.isSafeInteger(n)) throw new RangeError(`${what} must be a safe integer, got ${n}`);
}
