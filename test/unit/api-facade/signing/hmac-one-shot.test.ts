/**
 * hmac-sha256.ts computes HMAC-SHA256 from its definition with one-shot hashes for ASCII keys of
 * at most one block and ASCII payloads, and with createHmac otherwise. Whatever the key and the
 * payload, signatures must be createHmac's, the right one must verify and a wrong one must not.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hmacSecretKey, signHmacSha256, verifyHmacSha256 } from '../../../../src/api-facade/signing/hmac-sha256.ts';

const reference = (secret: Buffer, payload: string): string => createHmac('sha256', secret).update(payload, 'latin1').digest('hex');

const asciiSecret = fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 80 });
const anySecret = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 70 });
const asciiPayload = fc.string({ unit: 'binary-ascii', maxLength: 300 });
const anyPayload = fc.string({ unit: 'binary', maxLength: 120 });

function check(secretText: string, payload: string): void {
  const secret = hmacSecretKey(secretText);
  const expected = reference(secret, payload);
  expect(signHmacSha256(secret, payload)).toBe(expected);
  expect(signHmacSha256(secretText, payload)).toBe(expected);
  expect(verifyHmacSha256(secret, payload, expected)).toBe(true);
  expect(verifyHmacSha256(secret, payload, expected.toUpperCase())).toBe(true);
  const wrong = (expected[0] === '0' ? '1' : '0') + expected.slice(1);
  expect(verifyHmacSha256(secret, payload, `${expected.slice(0, 63)}${expected[63] === '0' ? '1' : '0'}`)).toBe(false);
  expect(verifyHmacSha256(secret, payload, wrong)).toBe(false);
  expect(verifyHmacSha256(secret, `${payload}x`, expected)).toBe(false);
}

describe('HMAC-SHA256 by definition equals createHmac', () => {
  it('for ASCII keys (one block and longer) and ASCII payloads', () => {
    fc.assert(fc.property(asciiSecret, asciiPayload, (s, p) => check(s, p)), { numRuns: 2000 });
  });

  it('for any keys and payloads (non-ASCII takes createHmac)', () => {
    fc.assert(fc.property(anySecret, anyPayload, (s, p) => check(s, p)), { numRuns: 1000 });
  });

  it('at the block boundary: keys of 63, 64 and 65 bytes', () => {
    for (const n of [1, 63, 64, 65, 128]) check('k'.repeat(n), 'symbol=BTCUSDT&timestamp=1');
  });

  it('for the same key object over many payloads (the padded key is reused, never the result)', () => {
    const secret = hmacSecretKey('bench-secret-1');
    for (let i = 0; i < 200; i++) {
      const payload = `symbol=BTCUSDT&quantity=${i}&timestamp=${1767225600000 + i}`;
      expect(signHmacSha256(secret, payload)).toBe(reference(secret, payload));
    }
  });
});
