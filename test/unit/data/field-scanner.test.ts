import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAILED, FieldScanner } from '../../../src/data/field-scanner.ts';
import { parseUnits } from '../../../src/engine/units.ts';

/** Scans `text` as one field at the end of a line. */
function scanDecimal(text: string, precision: number): number {
  const scanner = new FieldScanner();
  scanner.buf = Buffer.from(`${text}\n`);
  scanner.pos = 0;
  return scanner.decimal(precision);
}

function scanner(text: string): FieldScanner {
  const s = new FieldScanner();
  s.buf = Buffer.from(text);
  return s;
}

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });

describe('fixed-point decimal scanning', () => {
  it('converts dump-style decimals to exact units', () => {
    expect(scanDecimal('42000.01000000', 8)).toBe(4_200_001_000_000);
    expect(scanDecimal('0.00000001', 8)).toBe(1);
    expect(scanDecimal('0.1', 8)).toBe(10_000_000);
    expect(scanDecimal('0.3', 8)).toBe(30_000_000);
    expect(scanDecimal('7', 0)).toBe(7);
    expect(scanDecimal('0.05500000', 5)).toBe(5500);
  });

  it('accepts surplus zeros after the precision and refuses surplus significant digits', () => {
    expect(scanDecimal('1.10000000000', 2)).toBe(110);
    expect(scanDecimal('1.101', 2)).toBe(FAILED);
    expect(scanDecimal('0.000000001', 8)).toBe(FAILED);
  });

  it('is exact up to 2^53 - 1 units and refuses anything above', () => {
    expect(scanDecimal('90071992.54740991', 8)).toBe(Number.MAX_SAFE_INTEGER);
    expect(scanDecimal('90071992.54740992', 8)).toBe(FAILED);
    expect(scanDecimal('9007199254740991', 0)).toBe(Number.MAX_SAFE_INTEGER);
    expect(scanDecimal('9007199254740992', 0)).toBe(FAILED);
    expect(scanDecimal('99999999999999999999999', 0)).toBe(FAILED);
  });

  it('leaves non-canonical text to the general path', () => {
    for (const text of ['', '-1', '+1', '1e-8', '.5', '1.', ' 1', '1 ', '"1"', 'abc', '1,5x', '0x10']) {
      const s = scanner(`${text}\n`);
      const value = s.decimal(8);
      // "1,5x" scans as 1 followed by another field: that is correct for a CSV.
      if (text === '1,5x') expect(value).toBe(100_000_000);
      else expect(value, text).toBe(FAILED);
    }
  });

  it('agrees with parseUnits on every canonical decimal (property)', () => {
    fc.assert(
      fc.property(digits(1, 19), fc.option(digits(1, 20), { nil: undefined }), fc.integer({ min: 0, max: 15 }), (whole, fraction, precision) => {
        const text = fraction === undefined ? whole : `${whole}.${fraction}`;
        const expected = parseUnits(text, precision);
        expect(scanDecimal(text, precision)).toBe(expected ?? FAILED);
      }),
      { numRuns: 3000 },
    );
  });

  it('never accepts what parseUnits rejects, on arbitrary text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789.-+eE x'), maxLength: 24 }), fc.integer({ min: 0, max: 15 }), (text, precision) => {
        const value = scanDecimal(text, precision);
        if (value !== FAILED) expect(value).toBe(parseUnits(text, precision));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('integer, boolean and field separators', () => {
  it('reads fields separated by commas and tells whether more follow', () => {
    const s = scanner('123,True,false\r\n');
    expect(s.integer()).toBe(123);
    expect(s.more).toBe(true);
    expect(s.boolean()).toBe(1);
    expect(s.boolean()).toBe(0);
    expect(s.more).toBe(false);
    expect(s.pos).toBe(16);
  });

  it('accepts True/False/true/false only', () => {
    for (const [text, value] of [['True', 1], ['true', 1], ['False', 0], ['false', 0], ['TRUE', FAILED], ['1', FAILED], ['Tru', FAILED], ['Truex', FAILED]] as const) {
      expect(scanner(`${text}\n`).boolean(), text).toBe(value);
    }
  });

  it('refuses integers with decimals or beyond 2^53 - 1', () => {
    expect(scanner('1.5\n').integer()).toBe(FAILED);
    expect(scanner('9007199254740992\n').integer()).toBe(FAILED);
    expect(scanner('1735689600010866\n').integer()).toBe(1_735_689_600_010_866);
  });
});
