/**
 * Request authentication for the API facade: API keys, permissions, IP restriction and
 * HMAC / RSA / Ed25519 signatures over the raw query + body. `verifyRequest` is the entry point;
 * the rest is exported for the in-process client (signing) and for tests.
 */
export { ApiKeyRegistry, ALL_PERMISSIONS, isPermitted, normalizeIp } from './api-key-registry.ts';
export type {
  ApiKeyConfig,
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
export { isValidSignature, verifySignature } from './verify-signature.ts';
export { API_KEY_HEADER, apiKeyHeader, verifyRequest } from './verify-request.ts';
export type { AuthRequest, RequestHeaders } from './verify-request.ts';
