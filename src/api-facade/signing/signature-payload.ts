/**
 * The exact string a client signed (spec, Authentication 5; binance-facts §9).
 *
 * Rules:
 * - payload = raw query string + raw form body, concatenated with NO separator (a mixed request
 *   has no `&` between the parts), each exactly as received on the wire: still percent-encoded,
 *   in the order sent. We never decode and re-encode: clients differ in what they percent-encode
 *   (`%20` vs `+`, encoded or raw `[`, `"`, `,` ...) and the signature covers their bytes, so the
 *   raw strings are the only thing that can be verified.
 * - The `signature` parameter is removed from wherever it appears (it is normally last; a
 *   signature in the middle of a part is cut out together with one joining `&`). The name is
 *   matched raw and case-sensitively: `Signature` or `%73ignature` are ordinary parameters.
 * - `signature` sent twice in the same part is -1101 (duplicate values). Sent in both query and
 *   body, the query value wins as for every parameter (binance-facts §9), and both occurrences
 *   are left out of the payload.
 * - Non-ASCII must be percent-encoded as UTF-8 before signing (`１２３４５６` is sent as
 *   `%EF%BC%91...`). Binance signs and checks ASCII only, so a raw non-ASCII character, a raw
 *   space or a control character anywhere in either part is refused with -1100 "Illegal
 *   characters found in a parameter." before any signature work. (The HTTP layer should decode
 *   the body as latin1 so each byte is one char; a UTF-8 decode gives non-ASCII chars too, and
 *   either way such bytes are refused.)
 *
 * Inputs: `rawQuery` without the leading `?` ('' when none); `rawBody` the form body as
 * received ('' when none, or when the body is not `application/x-www-form-urlencoded`, which the
 * caller decides).
 */
import { duplicateParameter, illegalChars } from './auth-errors.ts';

export interface SignaturePayload {
  /** The signed string: query and body with `signature` removed, concatenated. */
  readonly payload: string;
  /** The `signature` value as sent (still percent-encoded), or undefined when absent. */
  readonly signature: string | undefined;
}

const SIGNATURE_NAME = 'signature';

/** Anything outside visible ASCII (0x21..0x7E) must have been percent-encoded by the client. */
const ILLEGAL = /[^\x21-\x7e]/;

interface Part {
  readonly rest: string;
  readonly signature: string | undefined;
}

/** One part (query or body) without its `signature` parameter, and that parameter's raw value. */
function splitPart(raw: string): Part {
  // Fast path: most parts of most requests carry no signature (the body of a query-signed POST).
  const at = parameterAt(raw, 0);
  if (at < 0) return { rest: raw, signature: undefined };
  // One `signature` parameter (the usual last one): cut it and one joining `&` out by position,
  // which is what splitting on `&` and joining the other segments gives.
  if (parameterAt(raw, at + SIGNATURE_NAME.length) < 0) {
    let end = raw.indexOf('&', at);
    if (end < 0) end = raw.length;
    const eq = at + SIGNATURE_NAME.length;
    const signature = eq < end ? raw.slice(eq + 1, end) : '';
    const rest = at === 0 ? raw.slice(end + 1) : raw.slice(0, at - 1) + raw.slice(end);
    return { rest, signature };
  }
  return splitSegments(raw);
}

/** Where a `signature` parameter (the whole name of a segment) starts at or after `from`; -1 if none. */
function parameterAt(raw: string, from: number): number {
  for (let at = raw.indexOf(SIGNATURE_NAME, from); at >= 0; at = raw.indexOf(SIGNATURE_NAME, at + 1)) {
    const after = at + SIGNATURE_NAME.length;
    const startsSegment = at === 0 || raw.charCodeAt(at - 1) === AMP;
    const endsName = after === raw.length || raw.charCodeAt(after) === EQ || raw.charCodeAt(after) === AMP;
    if (startsSegment && endsName) return at;
  }
  return -1;
}

const AMP = 0x26;
const EQ = 0x3d;

/** The general case (`signature` more than once): split on `&`, -1101 on the second. */
function splitSegments(raw: string): Part {
  const kept: string[] = [];
  let signature: string | undefined;
  for (const segment of raw.split('&')) {
    const eq = segment.indexOf('=');
    const name = eq < 0 ? segment : segment.slice(0, eq);
    if (name !== SIGNATURE_NAME) {
      kept.push(segment);
      continue;
    }
    if (signature !== undefined) throw duplicateParameter();
    signature = eq < 0 ? '' : segment.slice(eq + 1);
  }
  // Joining the kept segments keeps every other byte (empty segments, a trailing `&`) as sent.
  return { rest: signature === undefined ? raw : kept.join('&'), signature };
}

/**
 * The signed payload and the raw signature of a request. Throws -1100 for an unencoded
 * non-ASCII/control/space character and -1101 for `signature` twice in one part.
 */
export function signaturePayload(rawQuery: string, rawBody: string): SignaturePayload {
  if (ILLEGAL.test(rawQuery) || ILLEGAL.test(rawBody)) throw illegalChars();
  const query = splitPart(rawQuery);
  const body = splitPart(rawBody);
  return { payload: query.rest + body.rest, signature: query.signature ?? body.signature };
}
