/**
 * HMAC-SHA256 signatures (binance-facts §9; spec, Authentication 6).
 *
 * Rules:
 * - signature = hex(HMAC-SHA256(secretKey, payload)); the secret and payload are case-sensitive,
 *   the hex signature is not (`C8DB...` is as good as `c8db...`).
 * - The comparison is constant-time: both sides are decoded to 32-byte buffers and compared
 *   with `crypto.timingSafeEqual`. A string compare (`===`, `localeCompare`) would stop at the
 *   first differing character and let a client learn the expected signature byte by byte from
 *   response times. Only a value that is not 64 hex digits returns early, and that length is
 *   public (it is the size of every SHA-256 digest), so the early exit reveals nothing secret.
 * - The payload is ASCII (signature-payload refuses anything else), so its bytes are the same
 *   under latin1 and UTF-8.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { decodeHexSha256 } from './signature-encoding.ts';

/**
 * The secret's bytes, built once per key. A Buffer rather than a KeyObject: createHmac is about
 * 20% faster with it, and HMAC is most of the cost of a signed request in-process.
 */
export function hmacSecretKey(secretKey: string): Buffer {
  return Buffer.from(secretKey, 'utf8');
}

/** The lowercase hex signature a client computes; used by tests and the in-process client. */
export function signHmacSha256(secretKey: string | Buffer, payload: string): string {
  return createHmac('sha256', secretKey).update(payload, 'latin1').digest('hex');
}

/** True when `signature` (decoded text, hex of either case) is the HMAC of `payload` under `secret`. */
export function verifyHmacSha256(secret: Buffer, payload: string, signature: string): boolean {
  const given = decodeHexSha256(signature);
  if (given === undefined) return false;
  const expected = createHmac('sha256', secret).update(payload, 'latin1').digest();
  // Both are 32 bytes here; timingSafeEqual would throw on a length mismatch, never short-circuit.
  return timingSafeEqual(expected, given);
}
