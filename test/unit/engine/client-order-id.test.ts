import { describe, expect, it } from 'vitest';
import { decodeGeneratedOrderId, generateClientOrderId } from '../../../src/engine/client-order-id.ts';

const FORMAT = /^[A-Za-z0-9]{22}$/;

describe('generateClientOrderId', () => {
  it('gives 22 alphanumeric characters', () => {
    for (const [s, id, p] of [[0, 1, 0], [3, 123456, 1], [0, 62 ** 8 - 1, 0], [7, 2 ** 31, 0]] as const) {
      expect(generateClientOrderId(s, id, p)).toMatch(FORMAT);
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
    expect(decodeGeneratedOrderId('AAAAAAAAAAAAAAAAAAAAAB', 1)).toBeNull();
  });
});
