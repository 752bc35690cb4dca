import { describe, expect, it } from 'vitest';
import { hmacSecretKey, signHmacSha256, verifyHmacSha256 } from '../../../../src/api-facade/signing/hmac-sha256.ts';
import { isValidSignature } from '../../../../src/api-facade/signing/verify-signature.ts';
import {
  DOC_PAYLOAD,
  DOC_SECRET,
  DOC_SIGNATURE,
  MIXED_BODY,
  MIXED_QUERY,
  MIXED_SIGNATURE,
  NON_ASCII_SIGNATURE,
  NON_ASCII_SYMBOL,
  NON_ASCII_SYMBOL_ENCODED,
} from './fixtures.ts';

const secret = hmacSecretKey(DOC_SECRET);
const key = { keyType: 'HMAC' as const, verificationKey: secret };
const nonAsciiPayload = DOC_PAYLOAD.replace('LTCBTC', encodeURIComponent(NON_ASCII_SYMBOL));

/** `s` with the character at `i` replaced by another hex digit. */
const flip = (s: string, i: number): string => s.slice(0, i) + (s[i] === '0' ? '1' : '0') + s.slice(i + 1);

describe('HMAC-SHA256 signatures', () => {
  it('reproduces the Binance docs vector', () => {
    expect(signHmacSha256(DOC_SECRET, DOC_PAYLOAD)).toBe(DOC_SIGNATURE);
    expect(verifyHmacSha256(secret, DOC_PAYLOAD, DOC_SIGNATURE)).toBe(true);
  });

  it('reproduces the non-ASCII vector: the symbol is signed percent-encoded as UTF-8', () => {
    expect(encodeURIComponent(NON_ASCII_SYMBOL)).toBe(NON_ASCII_SYMBOL_ENCODED);
    expect(signHmacSha256(DOC_SECRET, nonAsciiPayload)).toBe(NON_ASCII_SIGNATURE);
    expect(verifyHmacSha256(secret, nonAsciiPayload, NON_ASCII_SIGNATURE)).toBe(true);
  });

  it('verifies the docs mixed query+body example over the concatenation without &', () => {
    expect(verifyHmacSha256(secret, MIXED_QUERY + MIXED_BODY, MIXED_SIGNATURE)).toBe(true);
    expect(verifyHmacSha256(secret, `${MIXED_QUERY}&${MIXED_BODY}`, MIXED_SIGNATURE)).toBe(false);
  });

  it('accepts the hex signature in upper or mixed case', () => {
    expect(verifyHmacSha256(secret, DOC_PAYLOAD, DOC_SIGNATURE.toUpperCase())).toBe(true);
    const mixed = [...DOC_SIGNATURE].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('');
    expect(verifyHmacSha256(secret, DOC_PAYLOAD, mixed)).toBe(true);
  });

  it('rejects a signature with any one hex digit changed', () => {
    for (let i = 0; i < DOC_SIGNATURE.length; i++) {
      expect(verifyHmacSha256(secret, DOC_PAYLOAD, flip(DOC_SIGNATURE, i))).toBe(false);
    }
  });

  it('rejects a payload with one character changed', () => {
    expect(verifyHmacSha256(secret, DOC_PAYLOAD.replace('quantity=1', 'quantity=2'), DOC_SIGNATURE)).toBe(false);
    expect(verifyHmacSha256(secret, DOC_PAYLOAD.replace('LTCBTC', 'ltcbtc'), DOC_SIGNATURE)).toBe(false);
  });

  it('treats the secret as case-sensitive', () => {
    expect(verifyHmacSha256(hmacSecretKey(DOC_SECRET.toLowerCase()), DOC_PAYLOAD, DOC_SIGNATURE)).toBe(false);
  });

  it('rejects malformed hex: too short, too long, empty, non-hex digits, whitespace', () => {
    for (const bad of [DOC_SIGNATURE.slice(1), `${DOC_SIGNATURE}0`, '', `${DOC_SIGNATURE.slice(1)}g`, ` ${DOC_SIGNATURE.slice(1)}`, `${DOC_SIGNATURE}\n`]) {
      expect(verifyHmacSha256(secret, DOC_PAYLOAD, bad)).toBe(false);
    }
  });

  it('percent-decodes the signature parameter before comparing (a client may encode anything)', () => {
    const encoded = [...DOC_SIGNATURE].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    expect(isValidSignature(key, DOC_PAYLOAD, encoded)).toBe(true);
    expect(isValidSignature(key, DOC_PAYLOAD, `${DOC_SIGNATURE.slice(0, 63)}%E`)).toBe(false);
  });
});
