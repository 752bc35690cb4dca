/**
 * decodeHexSha256 accepts exactly what /^[0-9a-fA-F]{64}$/ accepts, and then holds the bytes
 * Buffer.from(text, 'hex') gives: for any text made of hex digits, other ASCII, and wider
 * characters whose low byte is a hex digit ('\u0130', '\u0661'), at and around 64 characters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeHexSha256 } from '../../../../src/api-facade/signing/signature-encoding.ts';

const HEX = /^[0-9a-fA-F]{64}$/;
const char = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom(...'0123456789abcdefABCDEF') },
  { weight: 1, arbitrary: fc.constantFrom('g', 'G', 'x', ' ', '\u0000', '\u007f', '\u0080', 'é', '\u0130', '\u0661', '\ud800', '😀', '%', '+') },
);
const text = fc.oneof(fc.array(char, { minLength: 64, maxLength: 64 }), fc.array(char, { minLength: 60, maxLength: 68 })).map((cs) => cs.join(''));

describe('decodeHexSha256', () => {
  it('accepts exactly 64 hex digits and decodes them', () => {
    fc.assert(
      fc.property(text, (t) => {
        const out = Buffer.alloc(32);
        const ok = decodeHexSha256(t, out);
        expect(ok).toBe(HEX.test(t));
        if (ok) expect(out.equals(Buffer.from(t, 'hex'))).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses wide characters Buffer would read by their low byte', () => {
    const out = Buffer.alloc(32);
    expect(decodeHexSha256('a'.repeat(63) + '\u0130', out)).toBe(false);
    expect(decodeHexSha256('\u0661'.repeat(64), out)).toBe(false);
    expect(decodeHexSha256('A'.repeat(64), out)).toBe(true);
  });
});
