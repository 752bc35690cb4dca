/**
 * Check a request's `signature` value against the key's type and material; -1022 when it fails.
 *
 * Rules:
 * - The raw parameter value is form-decoded first (percent-encoded base64 from RSA/Ed25519
 *   clients; harmless for hex), then verified by the key's own algorithm only: a signature made
 *   for another key type is simply invalid.
 * - Wrong, malformed (not hex / not base64 / bad percent escape) and wrong-type signatures all get
 *   the same -1022 "Signature for this request is not valid." with HTTP 400.
 */
import type { VerificationKey } from './api-key-registry.ts';
import { invalidSignature } from './auth-errors.ts';
import { verifyHmacSha256 } from './hmac-sha256.ts';
import { verifyEd25519, verifyRsaSha256 } from './public-key-signatures.ts';
import { formDecode } from './signature-encoding.ts';

/** True when `rawSignature` (as sent, percent-encoded) signs `payload` under the key. */
export function isValidSignature(key: VerificationKey, payload: string, rawSignature: string): boolean {
  const signature = formDecode(rawSignature);
  if (signature === undefined) return false;
  return signatureMatches(key, payload, signature);
}

/**
 * True when `signature`, as the client wrote it (hex for HMAC, base64 otherwise; nothing to
 * decode, as in a WebSocket API request's JSON), signs `payload` under the key's own algorithm.
 */
export function signatureMatches(key: VerificationKey, payload: string, signature: string): boolean {
  switch (key.keyType) {
    case 'HMAC':
      return verifyHmacSha256(key.verificationKey, payload, signature);
    case 'RSA':
      return verifyRsaSha256(key.verificationKey, payload, signature);
    case 'ED25519':
      return verifyEd25519(key.verificationKey, payload, signature);
  }
}

/** Throws -1022 unless `rawSignature` signs `payload` under the key. */
export function verifySignature(key: VerificationKey, payload: string, rawSignature: string): void {
  if (!isValidSignature(key, payload, rawSignature)) throw invalidSignature();
}
