import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiKeyRegistry } from '../../../../src/api-facade/signing/api-key-registry.ts';
import { signHmacSha256 } from '../../../../src/api-facade/signing/hmac-sha256.ts';
import { signEd25519, signRsaSha256 } from '../../../../src/api-facade/signing/public-key-signatures.ts';
import type { SecurityType } from '../../../../src/api-facade/signing/security-type.ts';
import { verifyRequest, type AuthRequest } from '../../../../src/api-facade/signing/verify-request.ts';
import {
  DOC_API_KEY,
  DOC_PAYLOAD,
  DOC_SECRET,
  DOC_SIGNATURE,
  E1022,
  E1100,
  E1102,
  E2014,
  E2015,
  MIXED_BODY,
  MIXED_QUERY,
  MIXED_SIGNATURE,
  NON_ASCII_SIGNATURE,
  NON_ASCII_SYMBOL,
  NON_ASCII_SYMBOL_ENCODED,
  rejection,
} from './fixtures.ts';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ed = generateKeyPairSync('ed25519');
const UNKNOWN_KEY = 'Z'.repeat(64);
const READ_ONLY_KEY = 'R'.repeat(64);
const RESTRICTED_KEY = 'I'.repeat(64);

const registry = new ApiKeyRegistry([
  { apiKey: DOC_API_KEY, accountId: 11, keyType: 'HMAC', secretKey: DOC_SECRET },
  { apiKey: 'exsim-demo-key', accountId: 1, keyType: 'HMAC', secretKey: DOC_SECRET },
  { apiKey: READ_ONLY_KEY, accountId: 12, keyType: 'HMAC', secretKey: DOC_SECRET, permissions: { TRADE: false } },
  { apiKey: RESTRICTED_KEY, accountId: 13, keyType: 'HMAC', secretKey: DOC_SECRET, ipRestrict: ['203.0.113.7'] },
  { apiKey: 'rsa-key', accountId: 14, keyType: 'RSA', publicKey: rsa.publicKey.export({ type: 'spki', format: 'pem' }) },
  { apiKey: 'ed-key', accountId: 15, keyType: 'ED25519', publicKey: ed.publicKey.export({ type: 'spki', format: 'pem' }) },
]);

function request(securityType: SecurityType, over: Partial<AuthRequest> & { apiKey?: string } = {}): AuthRequest {
  const { apiKey = DOC_API_KEY, ...rest } = over;
  return {
    securityType,
    headers: { 'x-mbx-apikey': apiKey },
    rawQuery: `${DOC_PAYLOAD}&signature=${DOC_SIGNATURE}`,
    rawBody: '',
    clientIp: '127.0.0.1',
    ...rest,
  };
}

const verify = (r: AuthRequest) => verifyRequest(r, registry);
const KEYED: SecurityType[] = ['TRADE', 'USER_DATA', 'USER_STREAM', 'MARKET_DATA'];
const SIGNED: SecurityType[] = ['TRADE', 'USER_DATA'];

describe('authenticated requests', () => {
  it('a query-signed HMAC request yields its account', () => {
    expect(verify(request('TRADE'))).toMatchObject({ accountId: 11, apiKey: DOC_API_KEY, keyType: 'HMAC' });
  });

  it('a body-signed HMAC request (signature in the body) is accepted', () => {
    expect(verify(request('TRADE', { rawQuery: '', rawBody: `${DOC_PAYLOAD}&signature=${DOC_SIGNATURE}` }))?.accountId).toBe(11);
  });

  it('a mixed request is signed over query + body with no separator', () => {
    expect(verify(request('TRADE', { rawQuery: MIXED_QUERY, rawBody: `${MIXED_BODY}&signature=${MIXED_SIGNATURE}` }))?.accountId).toBe(11);
  });

  it('the non-ASCII symbol request is accepted percent-encoded', () => {
    const q = DOC_PAYLOAD.replace('LTCBTC', NON_ASCII_SYMBOL_ENCODED);
    expect(verify(request('TRADE', { rawQuery: `${q}&signature=${NON_ASCII_SIGNATURE}` }))?.accountId).toBe(11);
  });

  it('an upper-case hex signature is accepted', () => {
    expect(verify(request('USER_DATA', { rawQuery: `${DOC_PAYLOAD}&signature=${DOC_SIGNATURE.toUpperCase()}` }))?.accountId).toBe(11);
  });

  it('the configured demo key works though it is not in Binance format', () => {
    expect(verify(request('TRADE', { apiKey: 'exsim-demo-key' }))?.accountId).toBe(1);
  });

  it('percent-encoded base64 RSA and Ed25519 signatures, in the query or the body', () => {
    const rsaSig = encodeURIComponent(signRsaSha256(rsa.privateKey, DOC_PAYLOAD));
    const edSig = encodeURIComponent(signEd25519(ed.privateKey, MIXED_QUERY + MIXED_BODY));
    expect(verify(request('TRADE', { apiKey: 'rsa-key', rawQuery: `${DOC_PAYLOAD}&signature=${rsaSig}` }))?.accountId).toBe(14);
    expect(verify(request('TRADE', { apiKey: 'ed-key', rawQuery: MIXED_QUERY, rawBody: `${MIXED_BODY}&signature=${edSig}` }))?.accountId).toBe(15);
  });

  it('finds the key header in any casing', () => {
    expect(verify(request('TRADE', { headers: { 'X-MBX-APIKEY': DOC_API_KEY } }))?.accountId).toBe(11);
    expect(verify(request('TRADE', { headers: { 'x-mbx-apikey': [DOC_API_KEY] } }))?.accountId).toBe(11);
  });

  it('MARKET_DATA and USER_STREAM need a valid key but no signature (one sent is ignored)', () => {
    for (const type of ['MARKET_DATA', 'USER_STREAM'] as const) {
      expect(verify(request(type, { rawQuery: '' }))?.accountId).toBe(11);
      expect(verify(request(type, { rawQuery: 'signature=garbage' }))?.accountId).toBe(11);
    }
  });

  it('NONE checks nothing and returns null, even with a bad key or signature', () => {
    expect(verify(request('NONE'))).toBeNull();
    expect(verify(request('NONE', { headers: {}, rawQuery: '' }))).toBeNull();
    expect(verify(request('NONE', { apiKey: 'bad key', rawQuery: 'signature=bad' }))).toBeNull();
  });

  it('answers the same request the same way every time (no clock, no randomness)', () => {
    const r = request('TRADE');
    expect(verify(r)).toBe(verify(r));
    expect(rejection(() => verify({ ...r, rawQuery: DOC_PAYLOAD }))).toEqual(rejection(() => verify({ ...r, rawQuery: DOC_PAYLOAD })));
  });
});

describe('-2014 API-key format invalid. (HTTP 401)', () => {
  it('no X-MBX-APIKEY header on every keyed security type', () => {
    for (const type of KEYED) expect(rejection(() => verify(request(type, { headers: {} })))).toEqual(E2014);
  });

  it('an empty header, or the header sent twice', () => {
    expect(rejection(() => verify(request('TRADE', { apiKey: '' })))).toEqual(E2014);
    expect(rejection(() => verify(request('TRADE', { headers: { 'x-mbx-apikey': [DOC_API_KEY, DOC_API_KEY] } })))).toEqual(E2014);
    // node:http joins a repeated unknown header with ", ": malformed as well.
    expect(rejection(() => verify(request('TRADE', { apiKey: `${DOC_API_KEY}, ${DOC_API_KEY}` })))).toEqual(E2014);
  });

  it('an unregistered key not in Binance format (wrong length, bad characters, a typo of the demo key)', () => {
    for (const apiKey of [DOC_API_KEY.slice(1), `${DOC_API_KEY}A`, `${DOC_API_KEY.slice(1)}_`, ` ${DOC_API_KEY}`, 'exsim-demo-kee']) {
      expect(rejection(() => verify(request('USER_DATA', { apiKey })))).toEqual(E2014);
    }
  });
});

describe('-2015 Invalid API-key, IP, or permissions for action. (HTTP 401)', () => {
  it('a well-formed unknown key on every keyed security type', () => {
    for (const type of KEYED) expect(rejection(() => verify(request(type, { apiKey: UNKNOWN_KEY })))).toEqual(E2015);
  });

  it('a key with another letter case is unknown (keys are case-sensitive)', () => {
    expect(rejection(() => verify(request('TRADE', { apiKey: DOC_API_KEY.toUpperCase() })))).toEqual(E2015);
  });

  it('a key without the permission for the security type (TRADE disabled)', () => {
    const sig = signHmacSha256(DOC_SECRET, DOC_PAYLOAD);
    expect(rejection(() => verify(request('TRADE', { apiKey: READ_ONLY_KEY, rawQuery: `${DOC_PAYLOAD}&signature=${sig}` })))).toEqual(E2015);
    expect(verify(request('USER_DATA', { apiKey: READ_ONLY_KEY, rawQuery: `${DOC_PAYLOAD}&signature=${sig}` }))?.accountId).toBe(12);
  });

  it('a client IP outside the key’s ipRestrict, or no IP at all', () => {
    expect(rejection(() => verify(request('TRADE', { apiKey: RESTRICTED_KEY, clientIp: '203.0.113.8' })))).toEqual(E2015);
    expect(rejection(() => verify(request('TRADE', { apiKey: RESTRICTED_KEY, clientIp: undefined })))).toEqual(E2015);
    expect(verify(request('TRADE', { apiKey: RESTRICTED_KEY, clientIp: '::ffff:203.0.113.7' }))?.accountId).toBe(13);
  });
});

describe("-1102 Mandatory parameter 'signature' ... (HTTP 400)", () => {
  it('a signed endpoint without a signature', () => {
    for (const type of SIGNED) expect(rejection(() => verify(request(type, { rawQuery: DOC_PAYLOAD })))).toEqual(E1102);
  });

  it('an empty signature in the query or the body', () => {
    expect(rejection(() => verify(request('TRADE', { rawQuery: `${DOC_PAYLOAD}&signature=` })))).toEqual(E1102);
    expect(rejection(() => verify(request('TRADE', { rawQuery: '', rawBody: `${DOC_PAYLOAD}&signature` })))).toEqual(E1102);
  });
});

describe('-1022 Signature for this request is not valid. (HTTP 400)', () => {
  it('a signature with one character changed', () => {
    const bad = `${DOC_SIGNATURE.slice(0, -1)}${DOC_SIGNATURE.endsWith('1') ? '2' : '1'}`;
    for (const type of SIGNED) expect(rejection(() => verify(request(type, { rawQuery: `${DOC_PAYLOAD}&signature=${bad}` })))).toEqual(E1022);
  });

  it('a payload with one character changed', () => {
    expect(rejection(() => verify(request('TRADE', { rawQuery: `${DOC_PAYLOAD.replace('0.1', '0.2')}&signature=${DOC_SIGNATURE}` })))).toEqual(E1022);
  });

  it('mixed request signed with & between query and body', () => {
    const sig = signHmacSha256(DOC_SECRET, `${MIXED_QUERY}&${MIXED_BODY}`);
    expect(rejection(() => verify(request('TRADE', { rawQuery: MIXED_QUERY, rawBody: `${MIXED_BODY}&signature=${sig}` })))).toEqual(E1022);
  });

  it('a client that signed the decoded text instead of the bytes it sent', () => {
    const sent = DOC_PAYLOAD.replace('LTCBTC', 'LTC%42TC');
    expect(rejection(() => verify(request('TRADE', { rawQuery: `${sent}&signature=${DOC_SIGNATURE}` })))).toEqual(E1022);
  });

  it('malformed hex, malformed base64, a bad percent escape', () => {
    const rsaSig = signRsaSha256(rsa.privateKey, DOC_PAYLOAD);
    expect(rejection(() => verify(request('TRADE', { rawQuery: `${DOC_PAYLOAD}&signature=xyz` })))).toEqual(E1022);
    expect(rejection(() => verify(request('TRADE', { rawQuery: `${DOC_PAYLOAD}&signature=${DOC_SIGNATURE}%ZZ` })))).toEqual(E1022);
    expect(rejection(() => verify(request('TRADE', { apiKey: 'rsa-key', rawQuery: `${DOC_PAYLOAD}&signature=${encodeURIComponent(rsaSig)}%21` })))).toEqual(E1022);
  });

  it('a signature of the wrong key type', () => {
    const edSig = encodeURIComponent(signEd25519(ed.privateKey, DOC_PAYLOAD));
    expect(rejection(() => verify(request('TRADE', { apiKey: 'rsa-key' })))).toEqual(E1022);
    expect(rejection(() => verify(request('TRADE', { apiKey: 'rsa-key', rawQuery: `${DOC_PAYLOAD}&signature=${edSig}` })))).toEqual(E1022);
    expect(rejection(() => verify(request('TRADE', { rawQuery: `${DOC_PAYLOAD}&signature=${edSig}` })))).toEqual(E1022);
  });
});

describe('the order of the checks', () => {
  it('key format before key lookup before signature presence before signature validity', () => {
    const noSig = { rawQuery: DOC_PAYLOAD };
    const badSig = { rawQuery: `${DOC_PAYLOAD}&signature=00` };
    expect(rejection(() => verify(request('TRADE', { ...noSig, headers: {} })))).toEqual(E2014);
    expect(rejection(() => verify(request('TRADE', { ...badSig, apiKey: 'short' })))).toEqual(E2014);
    expect(rejection(() => verify(request('TRADE', { ...noSig, apiKey: UNKNOWN_KEY })))).toEqual(E2015);
    expect(rejection(() => verify(request('TRADE', { ...badSig, apiKey: READ_ONLY_KEY })))).toEqual(E2015);
    expect(rejection(() => verify(request('TRADE', { ...badSig, apiKey: RESTRICTED_KEY })))).toEqual(E2015);
    expect(rejection(() => verify(request('TRADE', noSig)))).toEqual(E1102);
    expect(rejection(() => verify(request('TRADE', badSig)))).toEqual(E1022);
  });

  it('an unencoded non-ASCII character is -1100 after the key checks, before the signature checks', () => {
    const raw = DOC_PAYLOAD.replace('LTCBTC', NON_ASCII_SYMBOL);
    expect(rejection(() => verify(request('TRADE', { rawQuery: `${raw}&signature=${NON_ASCII_SIGNATURE}` })))).toEqual(E1100);
    expect(rejection(() => verify(request('TRADE', { rawQuery: raw })))).toEqual(E1100);
    expect(rejection(() => verify(request('TRADE', { rawQuery: raw, apiKey: UNKNOWN_KEY })))).toEqual(E2015);
  });
});
