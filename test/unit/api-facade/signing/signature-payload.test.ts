import { describe, expect, it } from 'vitest';
import { signaturePayload } from '../../../../src/api-facade/signing/signature-payload.ts';
import { DOC_PAYLOAD, DOC_SIGNATURE, E1100, E1101, MIXED_BODY, MIXED_QUERY, NON_ASCII_SYMBOL, rejection } from './fixtures.ts';

describe('the signed payload is the raw query and body with the signature removed', () => {
  it('a query-signed request signs the query without its trailing signature', () => {
    expect(signaturePayload(`${DOC_PAYLOAD}&signature=${DOC_SIGNATURE}`, '')).toEqual({ payload: DOC_PAYLOAD, signature: DOC_SIGNATURE });
  });

  it('a body-signed request signs the body without its signature', () => {
    expect(signaturePayload('', `${DOC_PAYLOAD}&signature=${DOC_SIGNATURE}`)).toEqual({ payload: DOC_PAYLOAD, signature: DOC_SIGNATURE });
  });

  it('query and body are concatenated with no separator between them', () => {
    expect(signaturePayload(MIXED_QUERY, `${MIXED_BODY}&signature=abc`).payload).toBe(`${MIXED_QUERY}${MIXED_BODY}`);
    expect(signaturePayload(`${MIXED_QUERY}&signature=abc`, MIXED_BODY).payload).toBe(`${MIXED_QUERY}${MIXED_BODY}`);
  });

  it('a signature in the middle is cut out with one joining &', () => {
    expect(signaturePayload('a=1&signature=abc&b=2', '')).toEqual({ payload: 'a=1&b=2', signature: 'abc' });
    expect(signaturePayload('signature=abc&a=1', '')).toEqual({ payload: 'a=1', signature: 'abc' });
    expect(signaturePayload('signature=abc', '')).toEqual({ payload: '', signature: 'abc' });
  });

  it('keeps the client encoding byte for byte (no decode, no re-encode)', () => {
    const q = 'symbols=%5B%22BTCUSDT%22,%22ETHUSDT%22%5D&note=a+b%20c&empty=&&timestamp=1';
    expect(signaturePayload(`${q}&signature=x`, '').payload).toBe(q);
    expect(signaturePayload('symbols=["BTCUSDT","ETHUSDT"]&signature=x', '').payload).toBe('symbols=["BTCUSDT","ETHUSDT"]');
  });

  it('keeps the signature value percent-encoded (decoding is the verifier’s job)', () => {
    expect(signaturePayload('a=1&signature=ab%2Bcd%2F%3D%3D', '').signature).toBe('ab%2Bcd%2F%3D%3D');
  });

  it('reports an absent signature as undefined and an empty one as empty', () => {
    expect(signaturePayload(DOC_PAYLOAD, '')).toEqual({ payload: DOC_PAYLOAD, signature: undefined });
    expect(signaturePayload('a=1&signature=', '').signature).toBe('');
    expect(signaturePayload('a=1&signature', '')).toEqual({ payload: 'a=1', signature: '' });
  });

  it('matches the parameter name exactly: Signature, mysignature and a value "signature" are ordinary', () => {
    const q = 'Signature=1&mysignature=2&note=signature&%73ignature=3';
    expect(signaturePayload(q, '')).toEqual({ payload: q, signature: undefined });
  });

  it('a signature in both query and body: the query value wins and both are left out', () => {
    expect(signaturePayload('a=1&signature=fromQuery', 'b=2&signature=fromBody')).toEqual({ payload: 'a=1b=2', signature: 'fromQuery' });
  });

  it('a signature twice in the same part is -1101', () => {
    expect(rejection(() => signaturePayload('a=1&signature=x&signature=y', ''))).toEqual(E1101);
    expect(rejection(() => signaturePayload('', 'signature=x&signature=y'))).toEqual(E1101);
  });
});

describe('non-ASCII must be percent-encoded before signing', () => {
  it('a raw non-ASCII symbol in the query or body is -1100 with HTTP 400', () => {
    expect(rejection(() => signaturePayload(`symbol=${NON_ASCII_SYMBOL}&signature=x`, ''))).toEqual(E1100);
    expect(rejection(() => signaturePayload('', `symbol=${NON_ASCII_SYMBOL}&signature=x`))).toEqual(E1100);
    // A latin1-decoded byte above 0x7E is refused too, even inside the signature value.
    expect(rejection(() => signaturePayload('a=1&signature=\u00e9', ''))).toEqual(E1100);
  });

  it('a raw space, tab, newline or other control character is -1100', () => {
    for (const c of [' ', '\t', '\n', '\r', '\u0000', '\u007f']) {
      expect(rejection(() => signaturePayload(`a=x${c}y`, ''))).toEqual(E1100);
      expect(rejection(() => signaturePayload('', `a=x${c}y`))).toEqual(E1100);
    }
  });
});
