/**
 * Exact integer arithmetic on JS numbers with a BigInt fallback. Products of two safe integers
 * are computed in doubles when the result is provably exact (below 2^53) and in BigInt
 * otherwise, so the hot path stays on doubles while large notionals stay exact.
 */

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** floor(a * b / d) for non-negative safe integers a, b and positive d. */
export function mulDivFloor(a: number, b: number, d: number): number {
  const p = a * b;
  if (p <= MAX_SAFE) return floorDiv(p, d);
  // a = ah * d + al, so floor(a * b / d) = ah * b + floor(al * b / d): exact in doubles when
  // both partial products are safe (the usual case for price * quantity / 10^precision).
  const ah = Math.floor(a / d);
  const al = a - ah * d;
  if (al >= 0 && al < d) {
    const high = ah * b;
    const low = al * b;
    if (high <= MAX_SAFE && low <= MAX_SAFE) {
      const result = high + floorDiv(low, d);
      if (result <= MAX_SAFE) return result;
    }
  }
  return toSafe((BigInt(a) * BigInt(b)) / BigInt(d));
}

/** floor(p / d) for a safe integer p >= 0 and d > 0. */
function floorDiv(p: number, d: number): number {
  if (d === 1) return p;
  // A correctly rounded quotient can land on the next integer when p/d is just below it.
  const q = Math.floor(p / d);
  return q * d > p ? q - 1 : q;
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

const CARRY_LIMIT = 2 ** 52;

/**
 * An exact running sum of safe integers that stays on doubles: the part below 2^52 is a number
 * and only the excess is carried into a BigInt, so a hot loop of additions pays a BigInt
 * operation once every few thousand large terms instead of on every one.
 */
export class ExactSum {
  #big = 0n;
  #small = 0;

  /** Snapshot support (snapshot/engine-snapshot.ts). */
  exportFields(): [big: bigint, small: number] {
    return [this.#big, this.#small];
  }

  static importFields(fields: [big: bigint, small: number]): ExactSum {
    const sum = new ExactSum();
    [sum.#big, sum.#small] = fields;
    return sum;
  }

  add(x: number): void {
    // Exact: |small| <= 2^52 and |x| < 2^53, so when the true sum stays within 2^52 the double
    // sum is exact, and when it does not the sum is redone in BigInt from the exact parts.
    const next = this.#small + x;
    if (next > CARRY_LIMIT || next < -CARRY_LIMIT) {
      this.#big += BigInt(this.#small) + BigInt(x);
      this.#small = 0;
    } else {
      this.#small = next;
    }
  }

  get value(): bigint {
    return this.#big + BigInt(this.#small);
  }

  get isZero(): boolean {
    // After a carry the two parts can cancel (big = k, small = -k): compare exactly then.
    return this.#big === 0n ? this.#small === 0 : BigInt(this.#small) === -this.#big;
  }
}

function toSafe(value: bigint): number {
  if (value > BigInt(MAX_SAFE)) throw new RangeError(`amount ${value} exceeds the safe integer range`);
  return Number(value);
}

/** Throws if `n` is not a safe integer: guards every amount that enters the engine. */
export function assertSafeAmount(n: number, what: string): void {
  if (!Number.isSafeInteger(n)) throw new RangeError(`${what} must be a safe integer, got ${n}`);
}
