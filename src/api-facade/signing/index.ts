/**
 * Request authentication for the API facade: API keys, permissions, IP restriction and
 * HMAC / RSA / Ed25519 signatures over the raw query + body (REST) or the sorted payload (the
 * WebSocket API, `ws-api-payload.ts`). `verifyRequest` is REST's entry point; the WebSocket API's
 * authenticator builds on the same parts; the in-process client signs with them.
 *
 * Rules: imports only core/. Pure (constant-time comparisons).
 */
export { ApiKeyRegistry, ALL_PERMISSIONS, isPermitted, normalizeIp } from './api-key-registry.ts';
export type {
  ApiKeyConfig,
  StoredApiKey,
  ApiKeyEntry,
  ApiKeyType,
  AuthenticatedKey,
  HmacKeyConfig,
  HmacKeyEntry,
  KeyPermissions,
  PublicKeyConfig,
  PublicKeyEntry,
  VerificationKey,
} from './api-key-registry.ts';
export { signHmacSha256, verifyHmacSha256 } from './hmac-sha256.ts';
export { signEd25519, signRsaSha256, verifyEd25519, verifyRsaSha256 } from './public-key-signatures.ts';
export { isSigned, KEYED_SECURITY_TYPES } from './security-type.ts';
export type { KeyedSecurityType, SecurityType } from './security-type.ts';
export { signaturePayload } from './signature-payload.ts';
export type { SignaturePayload } from './signature-payload.ts';
export { isValidSignature, signatureMatches, verifySignature } from './verify-signature.ts';
export { API_KEY_HEADER, apiKeyHeader, permittedKey, verifyRequest } from './verify-request.ts';
export { badApiKeyFormat, invalidSignature, rejectedApiKey, signatureMissing } from './auth-errors.ts';
export { valueText, wsApiSignaturePayloads } from './ws-api-payload.ts';
export type { AuthRequest, RequestHeaders } from './verify-request.ts';
