/**
 * RSA and Ed25519 signatures (binance-facts §9; spec, Authentication 6).
 *
 * Rules:
 * - RSA: RSASSA-PKCS1-v1_5 with SHA-256 over the payload; Ed25519: pure Ed25519 over the
 *   payload. Both signatures travel as standard base64 (then percent-encoded in the request,
 *   undone by signature-encoding before we get here) and are case-sensitive: base64 case is
 *   part of the value, so the decoded bytes are verified as they are.
 * - Verification uses only the account's public key (the client keeps the private key), so there
 *   is no secret to leak through timing and `crypto.verify` is used as is.
 * - A signature of the wrong length, or from another key type (an HMAC hex string sent for an
 *   Ed25519 key, an RSA signature for an Ed25519 key) is simply not valid: false, never a throw
 *   reaching the client.
 */
import { constants, createPrivateKey, sign, verify, type KeyObject } from 'node:crypto';
import { decodeBase64 } from './signature-encoding.ts';

/** True when `signature` (decoded base64 text) is an RSA PKCS#1 v1.5 SHA-256 signature of `payload`. */
export function verifyRsaSha256(publicKey: KeyObject, payload: string, signature: string): boolean {
  const bytes = decodeBase64(signature);
  if (bytes === undefined) return false;
  try {
    return verify('sha256', Buffer.from(payload, 'latin1'), { key: publicKey, padding: constants.RSA_PKCS1_PADDING }, bytes);
  } catch {
    return false;
  }
}

/** True when `signature` (decoded base64 text) is an Ed25519 signature of `payload`. */
export function verifyEd25519(publicKey: KeyObject, payload: string, signature: string): boolean {
  const bytes = decodeBase64(signature);
  if (bytes === undefined) return false;
  try {
    return verify(null, Buffer.from(payload, 'latin1'), publicKey, bytes);
  } catch {
    return false;
  }
}

/** The base64 RSA signature a client computes with its PKCS#8 private key (tests, in-process client). */
export function signRsaSha256(privateKey: KeyObject | string, payload: string): string {
  return sign('sha256', Buffer.from(payload, 'latin1'), { key: typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey, padding: constants.RSA_PKCS1_PADDING }).toString('base64');
}

/** The base64 Ed25519 signature a client computes with its private key (tests, in-process client). */
export function signEd25519(privateKey: KeyObject | string, payload: string): string {
  return sign(null, Buffer.from(payload, 'latin1'), privateKey).toString('base64');
}
