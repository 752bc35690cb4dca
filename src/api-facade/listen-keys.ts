/**
 * Legacy user-data-stream listen keys (POST/PUT/DELETE /api/v3/userDataStream) on simulated time.
 *
 * Rules (binance-facts §6.1): a key lives 60 minutes from its creation or last keepalive; POST
 * for an account that has a live key returns that key and extends it (Binance answers the same
 * key while it is valid); PUT extends; DELETE closes. An unknown, closed or expired key is -1125
 * "This listenKey does not exist." (400).
 * Keys are 60 characters derived by SHA-256 from (account, creation sequence): deterministic, and
 * not guessable from the account id alone by a client that does not know the sequence.
 * The stream itself is served by user-stream/user-stream-socket.ts at /ws/<listenKey>.
 */
import { createHash } from 'node:crypto';
import type { ApiError } from './api-error.ts';
import { apiError } from './exchange-errors.ts';

export const LISTEN_KEY_LIFETIME_US = 60 * 60 * 1_000_000;

const invalidListenKey = (): ApiError => apiError('INVALID_LISTEN_KEY');

interface KeyState {
  readonly accountId: number;
  expiresAt: number;
}

export class ListenKeyStore {
  readonly #keys = new Map<string, KeyState>();
  #sequence = 0;

  /** POST: the account's live key (extended), or a new one. */
  open(accountId: number, nowUs: number): string {
    for (const [key, st] of this.#keys) {
      if (st.accountId === accountId && nowUs < st.expiresAt) {
        st.expiresAt = nowUs + LISTEN_KEY_LIFETIME_US;
        return key;
      }
    }
    this.#sequence++;
    const key = createHash('sha256').update(`exsim-listen-key:${accountId}:${this.#sequence}`).digest('hex').slice(0, 60);
    this.#keys.set(key, { accountId, expiresAt: nowUs + LISTEN_KEY_LIFETIME_US });
    return key;
  }

  /** PUT: extends a live key of this account; -1125 otherwise. */
  keepAlive(accountId: number, key: string, nowUs: number): void {
    this.#live(accountId, key, nowUs).expiresAt = nowUs + LISTEN_KEY_LIFETIME_US;
  }

  /** DELETE: closes a live key of this account; -1125 otherwise. */
  close(accountId: number, key: string, nowUs: number): void {
    this.#live(accountId, key, nowUs);
    this.#keys.delete(key);
  }

  /** The account of a live key at `nowUs`, or undefined (unknown, closed or expired). */
  accountOf(key: string, nowUs: number): number | undefined {
    const st = this.#keys.get(key);
    return st !== undefined && nowUs < st.expiresAt ? st.accountId : undefined;
  }

  /** Whether `key` was known and ran out of time (as opposed to closed by DELETE or never made). */
  hasExpired(key: string, nowUs: number): boolean {
    const st = this.#keys.get(key);
    return st !== undefined && nowUs >= st.expiresAt;
  }

  /** Whether `key` is live at `nowUs`. */
  isLive(key: string, nowUs: number): boolean {
    const st = this.#keys.get(key);
    return st !== undefined && nowUs < st.expiresAt;
  }

  #live(accountId: number, key: string, nowUs: number): KeyState {
    const st = this.#keys.get(key);
    if (st === undefined || st.accountId !== accountId || nowUs >= st.expiresAt) {
      if (st !== undefined && nowUs >= st.expiresAt) this.#keys.delete(key);
      throw invalidListenKey();
    }
    return st;
  }
}
