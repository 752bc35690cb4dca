import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, ApiKeyRegistry, isPermitted, normalizeIp } from '../../../../src/api-facade/signing/api-key-registry.ts';
import { DOC_API_KEY, DOC_SECRET } from './fixtures.ts';

const hmac = (apiKey: string, extra: object = {}) => ({ apiKey, accountId: 7, keyType: 'HMAC' as const, secretKey: DOC_SECRET, ...extra });

describe('API key format (-2014 versus -2015)', () => {
  const registry = new ApiKeyRegistry([hmac('exsim-demo-key')]);

  it('any 64-letter-and-digit key is well-formed, registered or not (Binance format)', () => {
    expect(registry.isWellFormed(DOC_API_KEY)).toBe(true);
    expect(registry.isWellFormed('A'.repeat(64))).toBe(true);
  });

  it('a configured key outside the Binance format is well-formed because it is registered', () => {
    expect(registry.isWellFormed('exsim-demo-key')).toBe(true);
  });

  it('anything else is malformed: wrong length, other characters, a typo of a short configured key', () => {
    for (const bad of ['A'.repeat(63), 'A'.repeat(65), `${'A'.repeat(63)}-`, `${'A'.repeat(63)} `, 'exsim-demo-kee', 'EXSIM-DEMO-KEY', '']) {
      expect(registry.isWellFormed(bad)).toBe(false);
    }
  });

  it('configured keys must be 1..256 visible ASCII characters and unique', () => {
    const r = new ApiKeyRegistry();
    expect(() => r.add(hmac(''))).toThrow(/visible ASCII/);
    expect(() => r.add(hmac('has space'))).toThrow(/visible ASCII/);
    expect(() => r.add(hmac('ключ'))).toThrow(/visible ASCII/);
    expect(() => r.add(hmac('k'.repeat(257)))).toThrow(/visible ASCII/);
    r.add(hmac('k'.repeat(256)));
    r.add(hmac('dup'));
    expect(() => r.add(hmac('dup'))).toThrow(/already registered/);
  });

  it('keys are case-sensitive', () => {
    const r = new ApiKeyRegistry([hmac(DOC_API_KEY)]);
    expect(r.get(DOC_API_KEY)?.accountId).toBe(7);
    expect(r.get(DOC_API_KEY.toLowerCase())).toBeUndefined();
  });

  it('rejects an empty HMAC secret and a non-integer account id', () => {
    const r = new ApiKeyRegistry();
    expect(() => r.add({ ...hmac('a'), secretKey: '' })).toThrow(/empty HMAC secret/);
    expect(() => r.add({ ...hmac('b'), accountId: 1.5 })).toThrow(/accountId/);
  });

  it('a removed key is gone', () => {
    const r = new ApiKeyRegistry([hmac('gone')]);
    expect(r.remove('gone')).toBe(true);
    expect(r.get('gone')).toBeUndefined();
  });
});

describe('key permissions per security type', () => {
  it('grant every keyed security type by default', () => {
    const entry = new ApiKeyRegistry().add(hmac('k'));
    expect(entry.permissions).toEqual(ALL_PERMISSIONS);
    expect(entry.permissions).toEqual({ TRADE: true, USER_DATA: true, USER_STREAM: true, MARKET_DATA: true });
  });

  it('take the named restrictions over the defaults (Binance: trading not enabled yet)', () => {
    const entry = new ApiKeyRegistry().add(hmac('k', { permissions: { TRADE: false } }));
    expect(isPermitted(entry, 'TRADE', undefined)).toBe(false);
    expect(isPermitted(entry, 'USER_DATA', undefined)).toBe(true);
    expect(isPermitted(entry, 'USER_STREAM', undefined)).toBe(true);
    expect(isPermitted(entry, 'MARKET_DATA', undefined)).toBe(true);
  });

  it('can make a TRADE-only key', () => {
    const entry = new ApiKeyRegistry().add(hmac('k', { permissions: { USER_DATA: false, USER_STREAM: false, MARKET_DATA: false } }));
    expect(isPermitted(entry, 'TRADE', undefined)).toBe(true);
    expect(isPermitted(entry, 'USER_DATA', undefined)).toBe(false);
  });
});

describe('IP restriction', () => {
  it('allows only the listed addresses, IPv4-mapped IPv6 matching plain IPv4', () => {
    const entry = new ApiKeyRegistry().add(hmac('k', { ipRestrict: ['10.0.0.1', '2001:DB8::1'] }));
    expect(isPermitted(entry, 'TRADE', '10.0.0.1')).toBe(true);
    expect(isPermitted(entry, 'TRADE', '::ffff:10.0.0.1')).toBe(true);
    expect(isPermitted(entry, 'TRADE', '2001:db8::1')).toBe(true);
    expect(isPermitted(entry, 'TRADE', '10.0.0.2')).toBe(false);
    expect(isPermitted(entry, 'TRADE', undefined)).toBe(false);
  });

  it('still needs the permission from an allowed address', () => {
    const entry = new ApiKeyRegistry().add(hmac('k', { ipRestrict: ['10.0.0.1'], permissions: { TRADE: false } }));
    expect(isPermitted(entry, 'TRADE', '10.0.0.1')).toBe(false);
  });

  it('refuses an empty list or a non-address at registration', () => {
    expect(() => new ApiKeyRegistry().add(hmac('k', { ipRestrict: [] }))).toThrow(/empty ipRestrict/);
    expect(() => new ApiKeyRegistry().add(hmac('k', { ipRestrict: ['10.0.0.0/8'] }))).toThrow(/not an IP address/);
  });

  it('normalizes addresses for comparison', () => {
    expect(normalizeIp('::FFFF:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeIp('::ffff:abcd')).toBe('::ffff:abcd');
    expect(normalizeIp('FE80::1')).toBe('fe80::1');
  });
});
