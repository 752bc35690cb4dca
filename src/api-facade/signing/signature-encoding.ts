/**
 * Decoding a `signature` parameter into the bytes a verifier compares (binance-facts §9).
 *
 * Rules:
 * - The parameter value is form-decoded first: `%XX` escapes become bytes and `+` becomes a
 *   space, as every form parser (and Binance's) reads it. RSA and Ed25519 signatures are base64
 *   and contain `+`, `/`, `=`, so clients must percent-encode them (`%2B`, `%2F`, `%3D`); a raw
 *   `+` turns into a space and the signature is then malformed, as on the real exchange.
 * - HMAC-SHA256 signatures are exactly 64 hex digits, either case (checked case-insensitively
 *   by comparing the decoded bytes, never the text).
 * - RSA / Ed25519 signatures are standard base64 (RFC 4648 §4, padded, no whitespace, no
 *   base64url). `Buffer.from(s, 'base64')` silently skips junk characters, so the alphabet and
 *   padding are checked first: a malformed value must be refused, not half-decoded.
 * - Every malformed value yields undefined; the caller answers -1022 for it, exactly as for a
 *   wrong signature, so a client cannot tell "bad encoding" from "bad signature".
 */

/** Form-decode a raw parameter value; undefined when an escape is malformed or not UTF-8. */
export function formDecode(raw: string): string | undefined {
  // No escapes and no `+`: the common hex signature, returned without allocating.
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

/**
 * Decodes a hex HMAC-SHA256 signature (exactly 64 hex digits, either case) into `out`'s first 32
 * bytes; false for anything else (`out` then holds junk). Natively, without a regex (which was
 * twice the cost of the decoding): 64 ASCII characters whose hex decoding fills all 32 bytes, as
 * Buffer's hex decoder stops at the first pair that is not two hex digits. ASCII first, because
 * that decoder reads a wider character by its low byte alone ('\u0130' as '0').
 */
export function decodeHexSha256(text: string, out: Buffer): boolean {
  return text.length === 64 && Buffer.byteLength(text, 'utf8') === 64 && out.write(text, 0, 'hex') === 32;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes of a strict, padded, non-empty standard base64 string, or undefined. */
export function decodeBase64(text: string): Buffer | undefined {
  return text.length > 0 && BASE64.test(text) ? Buffer.from(text, 'base64') : undefined;
}
