import { describe, expect, it } from 'vitest';
import { decodeGeneratedOrderId, generateClientOrderId } from '../../../src/engine/client-order-id.ts';

// Generated ids: exsim<symbol>o<orderId> / exsim<symbol>c<orderId>, inside the exchange's alphabet.
const FORMAT = /^exsim\d+[oc][1-9]\d*$/;
const EXCHANGE_ALPHABET = /^[.A-Z:/a-z0-9_-]{1,36}$/;

describe('generateClientOrderId', () => {
  it('gives a short id in the exchange clientOrderId alphabet', () => {
    for (const [s, id, p] of [[0, 1, 0], [3, 123456, 1], [0, 62 ** 8 - 1, 0], [7, 2 ** 31, 0]] as const) {
      expect(generateClientOrderId(s, id, p)).toMatch(FORMAT);
      expect(generateClientOrderId(s, id, p)).toMatch(EXCHANGE_ALPHABET);
    }
    expect(generateClientOrderId(1, 42, 0)).toBe('exsim1o42');
    expect(generateClientOrderId(1, 42, 1)).toBe('exsim1c42');
  });

  it('is the prefix and the id in decimal, whatever the id (the cached thousands included)', () => {
    const ids = [1, 9, 10, 999, 1000, 1001, 1999, 2000, 12_345, 99_999, 100_000, 256_000, 256_999, 257_000, 1_000_000, 123_456_789, 2 ** 31, 2 ** 53 - 1];
    for (let id = 1; id <= 300_000; id += 997) ids.push(id);
    for (let round = 0; round < 2; round++) {
      for (const id of ids) {
        for (const p of [0, 1, 2]) expect(generateClientOrderId(3, id, p)).toBe(`exsim3${'ocl'[p]}${String(id)}`);
      }
    }
  });

  it('is deterministic', () => {
    expect(generateClientOrderId(2, 99, 0)).toBe(generateClientOrderId(2, 99, 0));
  });

  it('never collides over the first 100k ids of two symbols (and both purposes)', () => {
    const seen = new Set<string>();
    for (let s = 0; s < 2; s++) {
      for (let id = 1; id <= 100_000; id++) {
        const text = generateClientOrderId(s, id, 0);
        if (!FORMAT.test(text)) throw new Error(`bad id ${text}`);
        seen.add(text);
      }
    }
    expect(seen.size).toBe(200_000);
    for (let id = 1; id <= 100_000; id++) seen.add(generateClientOrderId(0, id, 1));
    expect(seen.size).toBe(300_000);
  });

  it('differs between symbols and between purposes for the same id', () => {
    const ids = new Set([generateClientOrderId(0, 5, 0), generateClientOrderId(1, 5, 0), generateClientOrderId(0, 5, 1)]);
    expect(ids.size).toBe(3);
  });

  it('decodes back to its orderId, and only for the symbol that made it', () => {
    const text = generateClientOrderId(1, 4242, 0);
    expect(decodeGeneratedOrderId(text, 1)).toBe(4242);
    expect(decodeGeneratedOrderId(text, 0)).toBeNull();
    expect(decodeGeneratedOrderId(generateClientOrderId(1, 4242, 1), 1)).toBeNull();
    expect(decodeGeneratedOrderId('my-own-id', 1)).toBeNull();
    expect(decodeGeneratedOrderId('exsim1o0042', 1)).toBeNull();
    expect(decodeGeneratedOrderId('exsim1o', 1)).toBeNull();
  });
});
