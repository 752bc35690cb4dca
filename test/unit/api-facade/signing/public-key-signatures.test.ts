import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyRegistry, type ApiKeyEntry } from '../../../../src/api-facade/signing/api-key-registry.ts';
import { hmacSecretKey, signHmacSha256 } from '../../../../src/api-facade/signing/hmac-sha256.ts';
import { signEd25519, signRsaSha256, verifyEd25519, verifyRsaSha256 } from '../../../../src/api-facade/signing/public-key-signatures.ts';
import { isValidSignature } from '../../../../src/api-facade/signing/verify-signature.ts';
import { DOC_PAYLOAD, DOC_SECRET } from './fixtures.ts';

interface Pair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

let rsa: Pair;
let ed: Pair;
let rsaEntry: ApiKeyEntry;
let edEntry: ApiKeyEntry;

beforeAll(() => {
  rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  ed = generateKeyPairSync('ed25519');
  const registry = new ApiKeyRegistry();
  // Registered the way an operator would: PEM text, SPKI for RSA, PKCS#8 private key for Ed25519.
  rsaEntry = registry.add({ apiKey: 'rsa-key', accountId: 1, keyType: 'RSA', publicKey: rsa.publicKey.export({ type: 'spki', format: 'pem' }) });
  edEntry = registry.add({ apiKey: 'ed-key', accountId: 1, keyType: 'ED25519', publicKey: ed.privateKey.export({ type: 'pkcs8', format: 'pem' }) });
});

/** A payload whose Ed25519 signature contains every base64 special character a URL mangles. */
function payloadWithSpecialBase64(sign: (payload: string) => string): { payload: string; signature: string } {
  for (let n = 0; n < 1000; n++) {
    const payload = `${DOC_PAYLOAD}&newClientOrderId=c${n}`;
    const signature = sign(payload);
    if (signature.includes('+') && signature.includes('/') && signature.endsWith('=')) return { payload, signature };
  }
  throw new Error('no signature with +, / and = found');
}

/** `s` with the first letter's case swapped: the same bytes under a case-insensitive compare. */
function swapFirstLetterCase(s: string): string {
  const i = s.search(/[A-Za-z]/);
  const c = s.charAt(i);
  return s.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + s.slice(i + 1);
}

describe('RSA PKCS#1 v1.5 SHA-256 signatures', () => {
  it('verifies a base64 signature made with the PKCS#8 private key', () => {
    const signature = signRsaSha256(rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }), DOC_PAYLOAD);
    expect(verifyRsaSha256(rsa.publicKey, DOC_PAYLOAD, signature)).toBe(true);
    expect(verifyRsaSha256(rsa.publicKey, `${DOC_PAYLOAD}0`, signature)).toBe(false);
  });

  it('decodes a percent-encoded signature (+ / = as %2B %2F %3D) from the request', () => {
    const { payload, signature } = payloadWithSpecialBase64((p) => signRsaSha256(rsa.privateKey, p));
    expect(isValidSignature(rsaEntry, payload, encodeURIComponent(signature))).toBe(true);
  });

  it('fails an unencoded + : form decoding turns it into a space, as on the real API', () => {
    const { payload, signature } = payloadWithSpecialBase64((p) => signRsaSha256(rsa.privateKey, p));
    expect(isValidSignature(rsaEntry, payload, signature)).toBe(false);
    // `/` and `=` survive unencoded: only + has a second meaning in a form.
    expect(isValidSignature(rsaEntry, payload, signature.replaceAll('+', '%2B'))).toBe(true);
  });

  it('is case-sensitive', () => {
    const signature = signRsaSha256(rsa.privateKey, DOC_PAYLOAD);
    expect(isValidSignature(rsaEntry, DOC_PAYLOAD, encodeURIComponent(swapFirstLetterCase(signature)))).toBe(false);
  });

  it('rejects malformed base64: junk characters, missing padding, base64url, truncation', () => {
    const signature = signRsaSha256(rsa.privateKey, DOC_PAYLOAD);
    for (const bad of [`${signature}!`, signature.replace(/=+$/, ''), signature.replaceAll('+', '-').replaceAll('/', '_'), signature.slice(0, 40), '', '====']) {
      expect(verifyRsaSha256(rsa.publicKey, DOC_PAYLOAD, bad)).toBe(false);
    }
  });
});

describe('Ed25519 signatures', () => {
  it('verifies a base64 signature', () => {
    const signature = signEd25519(ed.privateKey, DOC_PAYLOAD);
    expect(verifyEd25519(ed.publicKey, DOC_PAYLOAD, signature)).toBe(true);
    expect(verifyEd25519(ed.publicKey, DOC_PAYLOAD.replace('BUY', 'SELL'), signature)).toBe(false);
  });

  it('decodes a percent-encoded signature (+ / = as %2B %2F %3D) from the request', () => {
    const { payload, signature } = payloadWithSpecialBase64((p) => signEd25519(ed.privateKey, p));
    expect(encodeURIComponent(signature)).toMatch(/%2B.*|%2F.*/);
    expect(isValidSignature(edEntry, payload, encodeURIComponent(signature))).toBe(true);
    expect(isValidSignature(edEntry, payload, encodeURIComponent(signature).toLowerCase())).toBe(false);
  });

  it('is case-sensitive', () => {
    const signature = signEd25519(ed.privateKey, DOC_PAYLOAD);
    expect(isValidSignature(edEntry, DOC_PAYLOAD, encodeURIComponent(swapFirstLetterCase(signature)))).toBe(false);
  });

  it('rejects a signature of the wrong length and malformed base64', () => {
    const signature = signEd25519(ed.privateKey, DOC_PAYLOAD);
    expect(verifyEd25519(ed.publicKey, DOC_PAYLOAD, Buffer.alloc(63).toString('base64'))).toBe(false);
    expect(verifyEd25519(ed.publicKey, DOC_PAYLOAD, `${signature}AAAA`)).toBe(false);
    expect(verifyEd25519(ed.publicKey, DOC_PAYLOAD, `${signature.slice(0, -4)} ${signature.slice(-3)}`)).toBe(false);
  });
});

describe('a signature made for another key type is invalid', () => {
  it('an HMAC hex signature sent for an RSA or Ed25519 key', () => {
    const hex = signHmacSha256(DOC_SECRET, DOC_PAYLOAD);
    expect(isValidSignature(rsaEntry, DOC_PAYLOAD, hex)).toBe(false);
    expect(isValidSignature(edEntry, DOC_PAYLOAD, hex)).toBe(false);
  });

  it('an RSA signature sent for an Ed25519 key, and the other way round', () => {
    expect(isValidSignature(edEntry, DOC_PAYLOAD, encodeURIComponent(signRsaSha256(rsa.privateKey, DOC_PAYLOAD)))).toBe(false);
    expect(isValidSignature(rsaEntry, DOC_PAYLOAD, encodeURIComponent(signEd25519(ed.privateKey, DOC_PAYLOAD)))).toBe(false);
  });

  it('a base64 signature sent for an HMAC key', () => {
    const hmacKey = { keyType: 'HMAC' as const, verificationKey: hmacSecretKey(DOC_SECRET) };
    expect(isValidSignature(hmacKey, DOC_PAYLOAD, encodeURIComponent(signEd25519(ed.privateKey, DOC_PAYLOAD)))).toBe(false);
    const hmacAsBase64 = Buffer.from(signHmacSha256(DOC_SECRET, DOC_PAYLOAD), 'hex').toString('base64');
    expect(isValidSignature(hmacKey, DOC_PAYLOAD, encodeURIComponent(hmacAsBase64))).toBe(false);
  });

  it('registering key material of the wrong algorithm is a configuration error', () => {
    const registry = new ApiKeyRegistry();
    const rsaPem = rsa.publicKey.export({ type: 'spki', format: 'pem' });
    expect(() => registry.add({ apiKey: 'k1', accountId: 1, keyType: 'ED25519', publicKey: rsaPem })).toThrow(/ED25519 key expected, got rsa/);
    expect(() => registry.add({ apiKey: 'k2', accountId: 1, keyType: 'RSA', publicKey: ed.publicKey })).toThrow(/RSA key expected, got ed25519/);
    expect(() => registry.add({ apiKey: 'k3', accountId: 1, keyType: 'RSA', publicKey: 'not a pem' })).toThrow();
  });
});
