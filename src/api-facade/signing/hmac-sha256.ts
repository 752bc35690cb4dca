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
 *
 * Speed (HMAC was the largest single cost of a signed request in-process): the HMAC is computed
 * by its definition (RFC 2104), H((K ^ opad) || H((K ^ ipad) || payload)), with two one-shot
 * `crypto.hash` calls over padded keys prepared once per key, instead of `createHmac` (whose
 * object setup costs more than the hashing). Every request still hashes its own payload in full
 * and compares all 32 bytes with timingSafeEqual; nothing about a signature is cached. Keys the
 * string path cannot carry (non-ASCII or longer than a block), payloads that are not ASCII, and
 * Node versions without `crypto.hash` (< 20.12) use `createHmac`. A property test checks both
 * paths against `createHmac`.
 */
import * as nodeCrypto from 'node:crypto';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { decodeHexSha256 } from './signature-encoding.ts';

/**
 * The secret's bytes, built once per key. A Buffer rather than a KeyObject: createHmac is about
 * 20% faster with it. Its bytes must not change once used (the padded keys are derived once).
 */
export function hmacSecretKey(secretKey: string): Buffer {
  return Buffer.from(secretKey, 'utf8');
}

/** SHA-256's block size, bytes. */
const BLOCK = 64;
const DIGEST = 32;

/** A key prepared for the one-shot path: K ^ ipad as an ASCII string, K ^ opad with room for the inner digest. */
interface PaddedKey {
  readonly inner: string;
  /** Bytes 0..63: K ^ opad; bytes 64..95: the inner digest of the request being checked. */
  readonly outer: Buffer;
}

/** One-shot hashing (Node >= 20.12, 21.7); undefined before (read off the namespace: a named import would not link there). */
const oneShot: typeof nodeCrypto.hash | undefined = (nodeCrypto as Partial<typeof nodeCrypto>).hash;
const PADDED = new WeakMap<Buffer, PaddedKey | null>();
/** ASCII only: its UTF-8 length is its length (a native count, ~3x cheaper than a regex over the payload). */
function isAscii(text: string): boolean {
  return Buffer.byteLength(text, 'utf8') === text.length;
}

/** K ^ ipad and K ^ opad, or null when the one-shot path cannot carry this key (see header). */
function padKey(secret: Buffer): PaddedKey | null {
  if (oneShot === undefined || secret.length > BLOCK) return null;
  const inner = Buffer.alloc(BLOCK);
  const outer = Buffer.alloc(BLOCK + DIGEST);
  for (let i = 0; i < BLOCK; i++) {
    const b = secret[i] ?? 0;
    // A UTF-8 string input is hashed as its UTF-8 bytes: the same bytes only for ASCII.
    if (b > 0x7f) return null;
    inner[i] = b ^ 0x36;
    outer[i] = b ^ 0x5c;
  }
  return { inner: inner.toString('latin1'), outer };
}

function paddedKey(secret: Buffer): PaddedKey | null {
  let padded = PADDED.get(secret);
  if (padded === undefined) {
    padded = padKey(secret);
    PADDED.set(secret, padded);
  }
  return padded;
}

/** The HMAC's 32 bytes as a latin1 string, by the one-shot path; undefined when it does not apply. */
function oneShotHmac(secret: Buffer, payload: string, encoding: 'latin1' | 'hex'): string | undefined {
  if (oneShot === undefined || !isAscii(payload)) return undefined;
  const key = paddedKey(secret);
  if (key === null) return undefined;
  key.outer.write(oneShot('sha256', key.inner + payload, 'latin1'), BLOCK, 'latin1');
  return oneShot('sha256', key.outer, encoding);
}

/** The lowercase hex signature a client computes; used by tests and the in-process client. */
export function signHmacSha256(secretKey: string | Buffer, payload: string): string {
  if (typeof secretKey !== 'string') {
    const fast = oneShotHmac(secretKey, payload, 'hex');
    if (fast !== undefined) return fast;
  }
  return createHmac('sha256', secretKey).update(payload, 'latin1').digest('hex');
}

/** Scratch buffers of verifyHmacSha256 (synchronous, so never shared between two calls). */
const GIVEN = Buffer.alloc(DIGEST);
const EXPECTED = Buffer.alloc(DIGEST);

/** True when `signature` (decoded text, hex of either case) is the HMAC of `payload` under `secret`. */
export function verifyHmacSha256(secret: Buffer, payload: string, signature: string): boolean {
  if (!decodeHexSha256(signature, GIVEN)) return false;
  const fast = oneShotHmac(secret, payload, 'latin1');
  if (fast !== undefined) EXPECTED.write(fast, 0, 'latin1');
  else createHmac('sha256', secret).update(payload, 'latin1').digest().copy(EXPECTED);
  // Both are 32 bytes here; timingSafeEqual would throw on a length mismatch, never short-circuit.
  return timingSafeEqual(EXPECTED, GIVEN);
}
