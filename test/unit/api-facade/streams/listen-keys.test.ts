import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { ListenKeyStore, LISTEN_KEY_LIFETIME_US } from '../../../../src/api-facade/streams/listen-keys.ts';
import { makeFixture, T0 } from '../../../api/fixture.ts';

const openKey = (f: ReturnType<typeof makeFixture>): string => (f.demo.post('/api/v3/userDataStream').json as { listenKey: string }).listenKey;

describe('listen keys are secrets', () => {
  test('two exchanges built the same way (same seed, same commands) issue different keys of 64 hex characters', () => {
    const a = makeFixture();
    const b = makeFixture();
    const ka = openKey(a);
    const kb = openKey(b);
    expect(ka).toMatch(/^[0-9a-f]{64}$/);
    expect(kb).toMatch(/^[0-9a-f]{64}$/);
    expect(ka).not.toBe(kb);
    // Not the old derivation sha256("exsim-listen-key:<account>:<n>") for any small n.
    for (let n = 0; n < 1000; n++) {
      const old = createHash('sha256').update(`exsim-listen-key:1:${n}`).digest('hex').slice(0, 60);
      expect(ka.startsWith(old)).toBe(false);
      expect(kb.startsWith(old)).toBe(false);
    }
  });

  test('the engine state hash does not depend on the keys', () => {
    const a = makeFixture();
    const b = makeFixture();
    openKey(a);
    openKey(b);
    expect(openKey(a)).not.toBe(openKey(b));
    expect(a.backend.engine.stateHash()).toBe(b.backend.engine.stateHash());
  });

  test('a key differing in its last character is unknown; the owner gets the same key while it lives', () => {
    const store = new ListenKeyStore();
    const key = store.open(7, T0);
    const forged = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
    expect(store.accountOf(key, T0)).toBe(7);
    expect(store.accountOf(forged, T0)).toBeUndefined();
    expect(store.accountOf(key.slice(0, 60), T0)).toBeUndefined();
    expect(store.open(7, T0 + 1)).toBe(key);
    expect(store.expiryOf(key, T0 + 1)).toBe(T0 + 1 + LISTEN_KEY_LIFETIME_US);
  });

  test('closing and expiring a key are reported once, with the reason', () => {
    const store = new ListenKeyStore();
    const ended: [string, string][] = [];
    store.onKeyEnded((key, end) => ended.push([key, end]));
    const k1 = store.open(1, T0);
    store.close(1, k1, T0 + 1);
    const k2 = store.open(1, T0 + 2);
    expect(k2).not.toBe(k1);
    const k3 = store.open(1, T0 + 2 + LISTEN_KEY_LIFETIME_US); // k2 ran out: a new key
    expect(k3).not.toBe(k2);
    expect(ended).toEqual([[k1, 'closed'], [k2, 'expired']]);
  });
});
