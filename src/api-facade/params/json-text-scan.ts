/**
 * What a client's JSON text holds that JSON.parse does not tell, found by one linear scan without
 * recursion (no text, however deep or malformed, can overflow the stack here):
 *
 * - `nestingBeyond`: where the text nests deeper than a bound. V8's JSON.parse reads any depth,
 *   but JSON.stringify and every recursive walk of the value overflow the stack near 5,000
 *   levels (~10 KB of brackets): a request body or frame nested past the bound is refused before
 *   it is parsed. The bound is serde_json's recursion limit (128), the parser of Binance's stream
 *   host, whose error texts the stream protocol copies: 127 levels are read, the 128th opening
 *   bracket is refused there ("recursion limit exceeded at line L column C", C the bracket's own
 *   1-based column). No legitimate request nests more than three levels.
 * - `topLevelMemberText`: the text of a member of the top-level object exactly as sent. A request
 *   id is echoed as sent, and JSON.parse rounds integers past 2^53 (9007199254740993 reads as
 *   ...992); Node 20's JSON.parse gives a reviver no source text. The last of repeated names
 *   wins, as in JSON.parse.
 * - `exactRequestId`: a request id as the JSON text to echo, from both.
 *
 * Strings are skipped exactly (a backslash escapes the next character). The scans do not
 * validate: callers parse the text with JSON.parse as well, or treat what they find as a hint.
 */

/** serde_json's recursion limit: the bracket that opens level 128 is refused. */
export const JSON_RECURSION_LIMIT = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/**
 * The index of the bracket that opens level `limit` (the first one refused), or -1 when the text
 * stays below it. Texts shorter than `limit` characters cannot reach it and are not scanned.
 */
export function nestingBeyond(text: string, limit = JSON_RECURSION_LIMIT): number {
  if (text.length < limit) return -1;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i);
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth >= limit) return i;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return -1;
}

/** serde_json's position of index `at`: 1-based line, and the 1-based column of that character on it. */
export function linePosition(text: string, at: number): { readonly line: number; readonly column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: at - lineStart + 1 };
}

/**
 * The text of member `name` of the top-level object (trimmed of whitespace), or undefined when
 * the top level is not an object or has no such member.
 */
export function topLevelMemberText(text: string, name: string): string | undefined {
  let depth = 0;
  let objectAtTop = false;
  let expectKey = false;
  let keyMatches = false;
  let valueStart = -1;
  let found: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (depth === 1 && expectKey) {
        keyMatches = isKey(text.slice(i, end + 1), name);
        expectKey = false;
      }
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth === 1) {
        objectAtTop = c === OPEN_BRACE;
        expectKey = objectAtTop;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 1) {
        if (valueStart >= 0) found = text.slice(valueStart, i).trim();
        return objectAtTop ? found : undefined;
      }
      depth--;
    } else if (depth === 1 && objectAtTop) {
      if (c === COLON && keyMatches) valueStart = i + 1;
      else if (c === COMMA) {
        if (valueStart >= 0) found = text.slice(valueStart, i).trim();
        valueStart = -1;
        keyMatches = false;
        expectKey = true;
      }
    }
  }
  return objectAtTop ? found : undefined;
}

/** An integer as JSON writes it: no sign but `-`, no leading zeros, no fraction or exponent. */
const JSON_INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A request id as the JSON text to echo (`null`, a string, or an integer of a signed 64-bit range
 * written exactly), or undefined for an id of another kind: `parsed` is the member as JSON.parse
 * read it (undefined when absent), `text` the whole request, where a number is read exactly.
 * `acceptString` says which strings are ids (the stream host takes short alphanumeric ones only).
 */
export function exactRequestId(parsed: unknown, text: string, acceptString: (id: string) => boolean): string | undefined {
  if (parsed === null) return 'null';
  if (typeof parsed === 'string') return acceptString(parsed) ? JSON.stringify(parsed) : undefined;
  if (typeof parsed !== 'number') return undefined;
  const raw = topLevelMemberText(text, 'id');
  if (raw === undefined || !JSON_INTEGER.test(raw)) return undefined;
  const value = BigInt(raw);
  return value >= INT64_MIN && value <= INT64_MAX ? value.toString() : undefined;
}

/** The index of the quote closing the string that opens at `start`, or the text's length if none does. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return text.length;
}

/** Whether the string token `token` (quotes included) is the key `name`, escapes decoded. */
function isKey(token: string, name: string): boolean {
  if (token.indexOf('\\') < 0) return token.length === name.length + 2 && token.slice(1, -1) === name;
  try {
    return JSON.parse(token) === name;
  } catch {
    return false;
  }
}
