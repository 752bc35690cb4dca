import { describe, expect, it } from 'vitest';
import { assertSafeAmount, compareProducts, mulDivCeil, mulDivFloor } from '../../../src/engine/exact-math.ts';

const floorRef = (a: number, b: number, d: number) => Number((BigInt(a) * BigInt(b)) / BigInt(d));
const ceilRef = (a: number, b: number, d: number) => {
  const p = BigInt(a) * BigInt(b);
  const q = p / BigInt(d);
  return Number(q * BigInt(d) < p ? q + 1n : q);
};

/** A deterministic pseudo-random generator (no Math.random in tests either). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
}

describe('mulDivFloor / mulDivCeil on the double path (product <= 2^53)', () => {
  it('exact quotients', () => {
    expect(mulDivFloor(6, 4, 3)).toBe(8);
    expect(mulDivCeil(6, 4, 3)).toBe(8);
    expect(mulDivFloor(0, 123, 7)).toBe(0);
    expect(mulDivCeil(0, 123, 7)).toBe(0);
  });

  it('inexact quotients floor and ceil', () => {
    expect(mulDivFloor(7, 3, 2)).toBe(10);
    expect(mulDivCeil(7, 3, 2)).toBe(11);
    expect(mulDivFloor(1, 1, 100_000_000)).toBe(0);
    expect(mulDivCeil(1, 1, 100_000_000)).toBe(1);
  });

  it('divisor 1 returns the product', () => {
    expect(mulDivFloor(123_456, 789, 1)).toBe(97_406_784);
    expect(mulDivCeil(123_456, 789, 1)).toBe(97_406_784);
  });

  it('products right at 2^53 - 1', () => {
    const max = Number.MAX_SAFE_INTEGER; // 2^53 - 1 = 6361 * 69431 * 20394401
    expect(mulDivFloor(max, 1, 3)).toBe(floorRef(max, 1, 3));
    expect(mulDivCeil(max, 1, 3)).toBe(ceilRef(max, 1, 3));
    expect(mulDivFloor(6361, 69431 * 20394401, 69431)).toBe(6361 * 20394401);
  });

  it('agrees with BigInt on many small and near-limit inputs', () => {
    const next = lcg(1);
    for (let i = 0; i < 2000; i++) {
      const a = next() % 94_906_265; // a * b < 2^53
      const b = next() % 94_906_265;
      const d = (next() % 1_000_000_000) + 1;
      expect(mulDivFloor(a, b, d)).toBe(floorRef(a, b, d));
      expect(mulDivCeil(a, b, d)).toBe(ceilRef(a, b, d));
    }
  });
});

describe('mulDivFloor / mulDivCeil on the BigInt path (product > 2^53)', () => {
  it('are exact where doubles would round', () => {
    const a = 2 ** 40 + 7;
    const b = 2 ** 20 + 3;
    const d = 1_000_003;
    expect(a * b).toBeGreaterThan(Number.MAX_SAFE_INTEGER);
    expect(mulDivFloor(a, b, d)).toBe(floorRef(a, b, d));
    expect(mulDivCeil(a, b, d)).toBe(ceilRef(a, b, d));
    expect(mulDivCeil(a, b, d) - mulDivFloor(a, b, d)).toBe(1);
  });

  it('a commission-sized case: 17491.25 USDT in units times a 6000290 rate over 1e8', () => {
    expect(mulDivCeil(1_749_125_000_000, 6_000_290, 100_000_000)).toBe(104_952_572_463);
    expect(mulDivFloor(1_749_125_000_000, 6_000_290, 100_000_000)).toBe(104_952_572_462);
  });

  it('exact divisions stay exact', () => {
    expect(mulDivFloor(2 ** 50, 2 ** 10, 2 ** 20)).toBe(2 ** 40);
    expect(mulDivCeil(2 ** 50, 2 ** 10, 2 ** 20)).toBe(2 ** 40);
  });

  it('throw a RangeError when the result is not a safe integer', () => {
    expect(() => mulDivFloor(Number.MAX_SAFE_INTEGER, 4, 2)).toThrow(RangeError);
    expect(() => mulDivCeil(Number.MAX_SAFE_INTEGER, 4, 3)).toThrow(RangeError);
  });

  it('agree with BigInt on many large inputs', () => {
    const next = lcg(7);
    for (let i = 0; i < 2000; i++) {
      const a = next() * 2048 + (next() % 2048); // up to ~2^43
      const b = (next() % 1_000_000) + 1_000_000;
      const d = (next() % 1_000_000) + 1_000_000;
      expect(mulDivFloor(a, b, d)).toBe(floorRef(a, b, d));
      expect(mulDivCeil(a, b, d)).toBe(ceilRef(a, b, d));
    }
  });
});

describe('compareProducts', () => {
  it('on the double path', () => {
    expect(compareProducts(3, 4, 2, 6)).toBe(0);
    expect(compareProducts(3, 4, 2, 5)).toBe(1);
    expect(compareProducts(3, 4, 2, 7)).toBe(-1);
    expect(compareProducts(0, 5, 0, 9)).toBe(0);
  });

  it('on the BigInt path, where both products round to the same double', () => {
    const a = Number.MAX_SAFE_INTEGER; // a * 3 = 27021597764222973
    const c = 6_755_399_441_055_743; // c * 4 = 27021597764222972
    expect(a * 3).toBe(c * 4); // doubles cannot tell them apart
    expect(compareProducts(a, 3, c, 4)).toBe(1);
    expect(compareProducts(c, 4, a, 3)).toBe(-1);
    expect(compareProducts(a, 3, 3, a)).toBe(0);
  });

  it('with one product above 2^53 and one below', () => {
    expect(compareProducts(2 ** 30, 2 ** 30, 2 ** 26, 2 ** 26)).toBe(1);
    expect(compareProducts(2 ** 26, 2 ** 26, 2 ** 30, 2 ** 30)).toBe(-1);
  });
});

describe('assertSafeAmount', () => {
  it('passes safe integers and throws on anything else', () => {
    expect(() => assertSafeAmount(0, 'x')).not.toThrow();
    expect(() => assertSafeAmount(Number.MAX_SAFE_INTEGER, 'x')).not.toThrow();
    expect(() => assertSafeAmount(Number.MAX_SAFE_INTEGER + 1, 'x')).toThrow(RangeError);
    expect(() => assertSafeAmount(1.5, 'x')).toThrow(RangeError);
    expect(() => assertSafeAmount(Number.NaN, 'x')).toThrow(RangeError);
  });
});

describe('mulDivFloor against BigInt', () => {
  it('agrees with exact BigInt arithmetic on random safe operands, on every path', async () => {
    const fc = await import('fast-check');
    const { mulDivFloor: f } = await import('../../../src/engine/exact-math.ts');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.constantFrom(1, 10, 1_000, 100_000_000, 3, 7, 999_983),
        (a, b, d) => {
          const exact = (BigInt(a) * BigInt(b)) / BigInt(d);
          if (exact > BigInt(Number.MAX_SAFE_INTEGER)) return;
          expect(f(a, b, d)).toBe(Number(exact));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('ExactSum', () => {
  it('equals the BigInt sum of any sequence of safe integers, large or small, positive or negative', async () => {
    const fc = await import('fast-check');
    const { ExactSum } = await import('../../../src/engine/exact-math.ts');
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), { maxLength: 200 }), (terms) => {
        const sum = new ExactSum();
        let exact = 0n;
        for (const t of terms) {
          sum.add(t);
          exact += BigInt(t);
          expect(sum.value).toBe(exact);
        }
        expect(sum.isZero).toBe(exact === 0n);
      }),
      { numRuns: 500 },
    );
  });
});

describe('ExactSum after a carry', () => {
  it('reports zero when the carried and the small part cancel out', async () => {
    const { ExactSum } = await import('../../../src/engine/exact-math.ts');
    const sum = new ExactSum();
    const big = Number.MAX_SAFE_INTEGER;
    sum.add(big); // carried
    sum.add(5);
    sum.add(-big);
    sum.add(-5);
    expect(sum.value).toBe(0n);
    expect(sum.isZero).toBe(true);
  });
});
