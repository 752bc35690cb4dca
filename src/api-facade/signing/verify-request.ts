/**
 * Authenticate one request: API key, permissions, IP and signature, in the real API's order.
 *
 * Order of checks (the first failure answers):
 * 1. NONE: nothing is checked and any key sent is ignored (public endpoints work with or
 *    without a header, as on Binance); result null.
 * 2. Key presence and format: `X-MBX-APIKEY` missing, empty, sent twice, or not well-formed
 *    (see api-key-registry) → -2014 "API-key format invalid." (401).
 * 3. Key known, permitted for the endpoint's security type, and the client IP allowed →
 *    otherwise -2015 "Invalid API-key, IP, or permissions for action." (401). One answer for
 *    all three, so a caller cannot probe which keys exist.
 * 4. MARKET_DATA and USER_STREAM stop here: key only, a `signature` sent along is ignored.
 * 5. SIGNED (TRADE, USER_DATA): build the payload from the raw query and body (-1100 for an
 *    unencoded non-ASCII/control character, -1101 for `signature` twice in one part), then
 *    `signature` missing or empty → -1102 "Mandatory parameter 'signature' was not sent,
 *    was empty/null, or malformed." (400).
 * 6. Signature verified with the key's algorithm → otherwise -1022 "Signature for this request
 *    is not valid." (400).
 *
 * Not here: `timestamp` / `recvWindow` (the timing module runs after this), parameter parsing.
 * No clock and no randomness are read: the same request always gets the same answer.
 */
import { isPermitted, type ApiKeyEntry, type ApiKeyRegistry, type AuthenticatedKey } from './api-key-registry.ts';
import { badApiKeyFormat, rejectedApiKey, signatureMissing } from './auth-errors.ts';
import { isSigned, type KeyedSecurityType, type SecurityType } from './security-type.ts';
import { signaturePayload } from './signature-payload.ts';
import { verifySignature } from './verify-signature.ts';

/** Header map as node:http gives it (lowercase names); other casings are found too. */
export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

export const API_KEY_HEADER = 'x-mbx-apikey';

export interface AuthRequest {
  readonly securityType: SecurityType;
  readonly headers: RequestHeaders;
  /** Query string as received, without `?`; '' when none. */
  readonly rawQuery: string;
  /** `application/x-www-form-urlencoded` body as received; '' when none. */
  readonly rawBody: string;
  /** Remote address; undefined for an in-process caller (then an IP-restricted key is refused). */
  readonly clientIp: string | undefined;
}

/** The single X-MBX-APIKEY value, or undefined when absent or sent more than once. */
export function apiKeyHeader(headers: RequestHeaders): string | undefined {
  let value = headers[API_KEY_HEADER];
  if (value === undefined) {
    // In-process callers may write `X-MBX-APIKEY`; HTTP header names are case-insensitive.
    for (const name of Object.keys(headers)) {
      if (name.toLowerCase() === API_KEY_HEADER) {
        value = headers[name];
        break;
      }
    }
  }
  if (typeof value === 'string' || value === undefined) return value;
  return value.length === 1 ? value[0] : undefined;
}

/** The authenticated key (and so the account), null for NONE; throws the ApiError otherwise. */
export function verifyRequest(request: AuthRequest, registry: ApiKeyRegistry): AuthenticatedKey | null {
  const type = request.securityType;
  if (type === 'NONE') return null;

  const entry = permittedKey(apiKeyHeader(request.headers), type, request.clientIp, registry);
  if (!isSigned(type)) return entry;

  const { payload, signature } = signaturePayload(request.rawQuery, request.rawBody);
  if (signature === undefined || signature === '') throw signatureMissing();
  verifySignature(entry, payload, signature);
  return entry;
}

/**
 * Steps 2 and 3 of the order above, for any transport (the WebSocket API sends the key as its
 * `apiKey` parameter): the registered key, permitted for `type` from `clientIp`; -2014 / -2015.
 */
export function permittedKey(apiKey: string | undefined, type: KeyedSecurityType, clientIp: string | undefined, registry: ApiKeyRegistry): ApiKeyEntry {
  if (apiKey === undefined || apiKey === '') throw badApiKeyFormat();
  // A registered key is well-formed by definition (api-key-registry), so the format is only
  // looked at for an unknown key: -2014 when malformed, -2015 otherwise.
  const entry: ApiKeyEntry | undefined = registry.get(apiKey);
  if (entry === undefined) throw registry.isWellFormed(apiKey) ? rejectedApiKey() : badApiKeyFormat();
  if (!isPermitted(entry, type, clientIp)) throw rejectedApiKey();
  return entry;
}
