import { describe, expect, it } from 'vitest';
import { formatUnits, parseUnits, pow10 } from '../../../src/engine/units.ts';

describe('parseUnits', () => {
  it('scales plain decimals to integer units', () => {
    expect(parseUnits('1', 8)).toBe(100_000_000);
    expect(parseUnits('100.25', 8)).toBe(10_025_000_000);
    expect(parseUnits('0.00000001', 8)).toBe(1);
    expect(parseUnits('0', 8)).toBe(0);
    expect(parseUnits('12.5', 2)).toBe(1250);
    expect(parseUnits('7', 0)).toBe(7);
  });

  it('accepts exponents', () => {
    expect(parseUnits('1e-8', 8)).toBe(1);
    expect(parseUnits('1.5e2', 8)).toBe(15_000_000_000);
    expect(parseUnits('2E+3', 2)).toBe(200_000);
    expect(parseUnits('5e-9', 8)).toBeNull();
  });

  it('accepts trailing zeros beyond the precision', () => {
    expect(parseUnits('1.100000000000', 8)).toBe(110_000_000);
    expect(parseUnits('0.10000000', 8)).toBe(10_000_000);
  });

  it('returns null for more significant decimals than the precision', () => {
    expect(parseUnits('0.000000001', 8)).toBeNull();
    expect(parseUnits('1.123', 2)).toBeNull();
    expect(parseUnits('0.5', 0)).toBeNull();
  });

  it('parses negative values', () => {
    expect(parseUnits('-1.5', 8)).toBe(-150_000_000);
    expect(parseUnits('-0.00000001', 8)).toBe(-1);
  });

  it('returns null for text that is not a finite number', () => {
    for (const text of ['', 'abc', '1.2.3', 'NaN', 'Infinity', '-Infinity']) expect(parseUnits(text, 8)).toBeNull();
  });

  it('returns null for non-decimal notations (hex, binary, octal)', () => {
    // "Parses a decimal string": 0x10 is sixteen in hex, not a decimal amount.
    for (const text of ['0x10', '0b101', '0o17']) expect(parseUnits(text, 8)).toBeNull();
  });

  it('returns null when the result is not a safe integer', () => {
    expect(parseUnits('90071992.54740991', 8)).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseUnits('90071992.54740992', 8)).toBeNull();
    expect(parseUnits('1e20', 8)).toBeNull();
  });
});

describe('formatUnits', () => {
  it('writes exactly `precision` decimals, zero-padded', () => {
    expect(formatUnits(1, 8)).toBe('0.00000001');
    expect(formatUnits(0, 8)).toBe('0.00000000');
    expect(formatUnits(100_000_000, 8)).toBe('1.00000000');
    expect(formatUnits(10_025_000_000, 8)).toBe('100.25000000');
    expect(formatUnits(12345, 2)).toBe('123.45');
    expect(formatUnits(5, 2)).toBe('0.05');
    expect(formatUnits(Number.MAX_SAFE_INTEGER, 8)).toBe('90071992.54740991');
  });

  it('precision 0 writes the integer', () => {
    expect(formatUnits(123, 0)).toBe('123');
    expect(formatUnits(-123, 0)).toBe('-123');
  });

  it('writes negative values with a leading minus', () => {
    expect(formatUnits(-150_000_000, 8)).toBe('-1.50000000');
    expect(formatUnits(-1, 8)).toBe('-0.00000001');
  });

  it('round-trips with parseUnits', () => {
    for (const n of [0, 1, 99, 100_000_000, 123_456_789_012, -42, Number.MAX_SAFE_INTEGER]) {
      for (const p of [0, 2, 8]) expect(parseUnits(formatUnits(n, p), p)).toBe(n);
    }
  });
});

describe('pow10', () => {
  it('is exact for 0..15 and refuses anything else', () => {
    expect(pow10(0)).toBe(1);
    expect(pow10(8)).toBe(100_000_000);
    expect(pow10(15)).toBe(1e15);
    expect(() => pow10(16)).toThrow();
    expect(() => pow10(-1)).toThrow();
    expect(() => pow10(1.5)).toThrow();
  });
});
