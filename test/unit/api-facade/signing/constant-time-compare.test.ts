/**
 * The HMAC check must compare in constant time. We cannot measure timing reliably in a unit
 * test, so we pin the mechanism: every well-formed signature goes through
 * `crypto.timingSafeEqual` on two 32-byte buffers (which has no early exit), whether it matches
 * or not, and a value of another length never reaches a compare at all (its length is public).
 */
import * as crypto from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { hmacSecretKey, verifyHmacSha256 } from '../../../../src/api-facade/signing/hmac-sha256.ts';
import { DOC_PAYLOAD, DOC_SECRET, DOC_SIGNATURE } from './fixtures.ts';

vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});

const timingSafeEqual = vi.mocked(crypto.timingSafeEqual);
const secret = hmacSecretKey(DOC_SECRET);

describe('HMAC signatures are compared in constant time', () => {
  beforeEach(() => {
    timingSafeEqual.mockClear();
  });

  it('a matching signature is compared with timingSafeEqual on two 32-byte buffers', () => {
    expect(verifyHmacSha256(secret, DOC_PAYLOAD, DOC_SIGNATURE.toUpperCase())).toBe(true);
    expect(timingSafeEqual).toHaveBeenCalledTimes(1);
    const [a, b] = timingSafeEqual.mock.calls[0] ?? [];
    expect((a as Buffer).length).toBe(32);
    expect((b as Buffer).length).toBe(32);
  });

  it('a wrong signature (first digit differs) also goes through timingSafeEqual, no early exit', () => {
    const wrong = (DOC_SIGNATURE[0] === 'a' ? 'b' : 'a') + DOC_SIGNATURE.slice(1);
    expect(verifyHmacSha256(secret, DOC_PAYLOAD, wrong)).toBe(false);
    expect(timingSafeEqual).toHaveBeenCalledTimes(1);
  });

  it('a signature of another length is refused before any compare (and never throws)', () => {
    expect(verifyHmacSha256(secret, DOC_PAYLOAD, DOC_SIGNATURE.slice(0, 62))).toBe(false);
    expect(verifyHmacSha256(secret, DOC_PAYLOAD, `${DOC_SIGNATURE}00`)).toBe(false);
    expect(timingSafeEqual).not.toHaveBeenCalled();
  });
});
