/**
 * Legacy user-data-stream listen keys (POST/PUT/DELETE /api/v3/userDataStream) on simulated time.
 *
 * Rules (binance-facts §6.1): a key lives 60 minutes from its creation or last keepalive; POST
 * for an account that has a live key returns that key and extends it (Binance answers the same
 * key while it is valid); PUT extends; DELETE closes. An unknown, closed or expired key is -1125
 * "This listenKey does not exist." (400).
 *
 * Keys are secrets: whoever holds one reads the account's executions and balances over
 * /ws/<listenKey> with no API key. So a key is 64 hex characters (256 bits) from node:crypto's
 * CSPRNG, unrelated to the account, the seed or how many keys came before. They are deliberately
 * outside the deterministic state: the engine never sees them, the state hash and the journal do
 * not contain them, and a restored server re-issues keys (clients POST again, as after any
 * reconnect). Everything else about a key (its account, its expiry) is simulated-time state.
 *
 * Lookups go through the key's SHA-256: the map is keyed by the digest, so how long a lookup
 * takes depends on the digest of what the client sent, not on how many leading characters of a
 * real key it guessed; the found key is then compared with `timingSafeEqual`.
 *
 * Each account has at most one key (POST returns the live one), so the store holds at most one
 * entry per account that ever opened a stream. Closing or expiring a key is reported to
 * `onKeyEnded` listeners (the WebSocket side closes the key's connections).
 * The stream itself is served by transport/stream-sockets.ts at /ws/<listenKey> (or as a stream name on any stream connection).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type ApiError, apiError, type FixedErrorKey } from '../core/index.ts';

export const LISTEN_KEY_LIFETIME_US = 60 * 60 * 1_000_000;
/** Random bytes per key: 32 (64 hex characters; Binance's keys are 60). */
const KEY_BYTES = 32;


interface KeyState {
  readonly key: string;
  readonly accountId: number;
  expiresAt: number;
}

/** Why a key stopped: closed by DELETE, or out of time. */
export type KeyEnd = 'closed' | 'expired';

const digestOf = (key: string): string => createHash('sha256').update(key, 'latin1').digest('base64');

export class ListenKeyStore {
  /** The -1125 of this API: spot's text, or the futures API's (which names its POST). */
  readonly #unknownKey: FixedErrorKey;

  constructor(unknownKey: FixedErrorKey = 'INVALID_LISTEN_KEY') {
    this.#unknownKey = unknownKey;
  }

  readonly #byDigest = new Map<string, KeyState>();
  readonly #digestByAccount = new Map<number, string>();
  readonly #endListeners: ((key: string, end: KeyEnd) => void)[] = [];

  /** POST: the account's live key (extended), or a new one. */
  open(accountId: number, nowUs: number): string {
    const current = this.#digestByAccount.get(accountId);
    const st = current === undefined ? undefined : this.#byDigest.get(current);
    if (st !== undefined && nowUs < st.expiresAt) {
      st.expiresAt = nowUs + LISTEN_KEY_LIFETIME_US;
      return st.key;
    }
    if (st !== undefined) this.#end(st, 'expired');
    // determinism-ok: listen keys are secrets, not simulated state (see header)
    const key = randomBytes(KEY_BYTES).toString('hex');
    const digest = digestOf(key);
    this.#byDigest.set(digest, { key, accountId, expiresAt: nowUs + LISTEN_KEY_LIFETIME_US });
    this.#digestByAccount.set(accountId, digest);
    return key;
  }

  /** The account's live key at `nowUs`, or undefined. */
  liveKeyOf(accountId: number, nowUs: number): string | undefined {
    const digest = this.#digestByAccount.get(accountId);
    const st = digest === undefined ? undefined : this.#byDigest.get(digest);
    return st !== undefined && nowUs < st.expiresAt ? st.key : undefined;
  }

  /** PUT: extends a live key of this account; -1125 otherwise. */
  keepAlive(accountId: number, key: string, nowUs: number): void {
    this.#live(accountId, key, nowUs).expiresAt = nowUs + LISTEN_KEY_LIFETIME_US;
  }

  /** DELETE: closes a live key of this account; -1125 otherwise. */
  close(accountId: number, key: string, nowUs: number): void {
    this.#end(this.#live(accountId, key, nowUs), 'closed');
  }

  /** The account of a live key at `nowUs`, or undefined (unknown, closed or expired). */
  accountOf(key: string, nowUs: number): number | undefined {
    const st = this.#find(key);
    return st !== undefined && nowUs < st.expiresAt ? st.accountId : undefined;
  }

  /** When a live key runs out (µs), or undefined when it is unknown, closed or expired. */
  expiryOf(key: string, nowUs: number): number | undefined {
    const st = this.#find(key);
    return st !== undefined && nowUs < st.expiresAt ? st.expiresAt : undefined;
  }

  /** Whether `key` was known and ran out of time (as opposed to closed by DELETE or never made). */
  hasExpired(key: string, nowUs: number): boolean {
    const st = this.#find(key);
    return st !== undefined && nowUs >= st.expiresAt;
  }

  /** Whether `key` is live at `nowUs`. */
  isLive(key: string, nowUs: number): boolean {
    const st = this.#find(key);
    return st !== undefined && nowUs < st.expiresAt;
  }

  /** Calls `listener` when a key is closed by DELETE or dropped after it expired. */
  onKeyEnded(listener: (key: string, end: KeyEnd) => void): void {
    this.#endListeners.push(listener);
  }

  #find(key: string): KeyState | undefined {
    const st = this.#byDigest.get(digestOf(key));
    if (st === undefined) return undefined;
    const a = Buffer.from(st.key, 'latin1');
    const b = Buffer.from(key, 'latin1');
    return a.length === b.length && timingSafeEqual(a, b) ? st : undefined;
  }

  #live(accountId: number, key: string, nowUs: number): KeyState {
    const st = this.#find(key);
    if (st === undefined || st.accountId !== accountId || nowUs >= st.expiresAt) {
      if (st !== undefined && nowUs >= st.expiresAt) this.#end(st, 'expired');
      throw this.#invalid();
    }
    return st;
  }

  #invalid(): ApiError {
    return apiError(this.#unknownKey);
  }

  #end(st: KeyState, end: KeyEnd): void {
    const digest = digestOf(st.key);
    if (this.#byDigest.get(digest) !== st) return;
    this.#byDigest.delete(digest);
    if (this.#digestByAccount.get(st.accountId) === digest) this.#digestByAccount.delete(st.accountId);
    for (const listener of this.#endListeners) listener(st.key, end);
  }
}
