/**
 * Stage 5 of the request pipeline (handle-request.ts) for a WebSocket API request: the key comes
 * from the `apiKey` parameter or from the connection's logged-on session, the signature from the
 * `signature` parameter, over the sorted-parameter payload (signing/ws-api-payload.ts).
 *
 * Order (the REST order, with the parameters in place of the header):
 * 1. permission NONE: nothing is checked, a key sent is ignored; null.
 * 2. No `apiKey` and a logged-on session (not for session.logon itself): the session's key, if it
 *    is still registered and permitted (else -2015, and the session is dropped, as Binance revokes
 *    it); no signature is needed (the docs: "you can omit apiKey and signature").
 * 3. `apiKey` absent → -1102 for 'apiKey' (a mandatory parameter here); not a string, malformed or
 *    unknown → -2014 / -2015 as on REST; not permitted for the method or this IP → -2015.
 * 4. Key-only methods (USER_STREAM, MARKET_DATA rows) stop here.
 * 5. `signature` absent or empty → -1102; not matching → -1022 (timingSafeEqual inside the
 *    verifiers). session.logon takes Ed25519 keys only (the docs: "Only Ed25519 keys are
 *    supported"): another key type is -2015 (the docs name no code; a choice).
 * The timestamp is stage 6, checked by the pipeline from the `timestamp` parameter, session or not.
 */
import type { RequestAuthenticator } from '../rest/index.ts';
import { paramErrors } from '../params/index.ts';
import { isPermitted, type ApiKeyEntry, type ApiKeyRegistry, type AuthenticatedKey, badApiKeyFormat, invalidSignature, rejectedApiKey, signatureMissing, isSigned, type SecurityType, permittedKey, signatureMatches, wsApiSignaturePayloads } from '../signing/index.ts';

/** The connection's logged-on key, as the authenticator sees it. */
export interface SessionKeyHolder {
  readonly sessionKey: ApiKeyEntry | undefined;
  /** The session's key stopped being valid: forget it (and its logon subscription). */
  revokeSession(): void;
}

export class WsApiAuthenticator implements RequestAuthenticator {
  readonly #params: Readonly<Record<string, unknown>>;
  readonly #permission: SecurityType;
  readonly #session: SessionKeyHolder;
  readonly #clientIp: string;
  readonly #logon: boolean;
  /** The key the request was authenticated with, once stage 5 passed (for ORDERS rate limits). */
  key: AuthenticatedKey | null = null;

  constructor(params: Readonly<Record<string, unknown>>, permission: SecurityType, session: SessionKeyHolder, clientIp: string, logon: boolean) {
    this.#params = params;
    this.#permission = permission;
    this.#session = session;
    this.#clientIp = clientIp;
    this.#logon = logon;
  }

  authenticate(rowSecurity: SecurityType, registry: ApiKeyRegistry): AuthenticatedKey | null {
    const type = this.#permission;
    if (type === 'NONE') return null;
    const apiKey = this.#params['apiKey'];
    const session = this.#session.sessionKey;
    if (apiKey === undefined && session !== undefined && !this.#logon) {
      if (registry.get(session.apiKey) !== session || !isPermitted(session, type, this.#clientIp)) {
        this.#session.revokeSession();
        throw rejectedApiKey();
      }
      return (this.key = session);
    }
    if (apiKey === undefined) throw paramErrors.mandatory('apiKey');
    if (typeof apiKey !== 'string') throw badApiKeyFormat();
    const entry = permittedKey(apiKey, type, this.#clientIp, registry);
    if (!isSigned(rowSecurity)) return (this.key = entry);

    const signature = this.#params['signature'];
    if (typeof signature !== 'string' || signature === '') throw signatureMissing();
    if (!wsApiSignaturePayloads(this.#params).some((payload) => signatureMatches(entry, payload, signature))) throw invalidSignature();
    if (this.#logon && entry.keyType !== 'ED25519') throw rejectedApiKey();
    return (this.key = entry);
  }
}
