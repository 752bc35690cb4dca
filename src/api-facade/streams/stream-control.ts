/**
 * The control messages a stream connection takes (Binance's web-socket-streams.md, "Live
 * Subscribing/Unsubscribing"): `{"method", "params", "id"}` with method SUBSCRIBE, UNSUBSCRIBE,
 * LIST_SUBSCRIPTIONS, SET_PROPERTY or GET_PROPERTY. Parsing only: what a valid request asks for,
 * or the error frame it earns. The stream protocol has its own small codes (0 unknown property,
 * 1 bad value type, 2 invalid request, 3 invalid JSON), separate from the REST error table.
 *
 * Texts are Binance's; the line/column parts of serde's messages are computed the way serde
 * counts (1-based line and column of where parsing stopped). A text nested 128 levels deep is
 * refused as serde_json refuses it (code 3, "recursion limit exceeded", params/json-text-scan.ts)
 * before JSON.parse reads it.
 *
 * Request ids (web-socket-streams.md; CHANGELOG 2023-12-04): a 64-bit signed integer, an
 * alphanumeric string of at most 36 characters, or null, echoed as sent. An integer is read from
 * the text, not from JSON.parse's double, so 9007199254740993 and 9223372036854775807 come back
 * exactly; a fraction, an exponent or a value outside the 64-bit range is refused. An id is kept
 * as the JSON text it is answered with (`StreamRequestId`). The refusal's text still says
 * "unsigned integer": the docs' error table kept it when signed ids came in.
 */
import { exactRequestId, linePosition, nestingBeyond } from '../params/index.ts';

/** A request id as the JSON text it is echoed with: `null`, `"abc"`, `9223372036854775807`. */
export type StreamRequestId = string;

/** The id of an answer to a frame whose id could not be read. */
export const NO_REQUEST_ID: StreamRequestId = 'null';

export type StreamControl =
  | { readonly method: 'SUBSCRIBE' | 'UNSUBSCRIBE'; readonly streams: readonly string[]; readonly id: StreamRequestId }
  | { readonly method: 'LIST_SUBSCRIPTIONS'; readonly id: StreamRequestId }
  | { readonly method: 'SET_PROPERTY'; readonly property: 'combined'; readonly value: boolean; readonly id: StreamRequestId }
  | { readonly method: 'GET_PROPERTY'; readonly property: 'combined'; readonly id: StreamRequestId };

export interface StreamProtocolError {
  readonly code: 0 | 1 | 2 | 3;
  readonly msg: string;
  readonly id: StreamRequestId;
}

const METHODS = ['SUBSCRIBE', 'UNSUBSCRIBE', 'LIST_SUBSCRIPTIONS', 'SET_PROPERTY', 'GET_PROPERTY'] as const;
/** The string ids Binance accepts: alphanumeric, at most 36 characters. */
const STRING_ID = /^[A-Za-z0-9]{1,36}$/;
const isStringId = (id: string): boolean => STRING_ID.test(id);

/** A stream name's syntax (known or not): `<lower symbol>@<kind>` or an all-market `!...@arr` (USDⓈ-M: `!markPrice@arr@1s`), or a listen key. */
const STREAM_SYNTAX = /^(?:[a-z0-9]{1,40}@[A-Za-z0-9_@:+-]{1,40}|![A-Za-z0-9_]{1,40}@arr(?:@1s)?|[A-Za-z0-9]{16,128})$/;
/** The longest well-formed name (a listen key's form, STREAM_SYNTAX): what bounds a SUBSCRIBE's size. */
export const MAX_STREAM_NAME_LENGTH = 128;

export function isWellFormedStreamName(name: string): boolean {
  return STREAM_SYNTAX.test(name);
}

/** The frame for an error: `{"error": {"code", "msg"}, "id"}`. */
export function errorFrame(error: StreamProtocolError): string {
  return `{"error":${JSON.stringify({ code: error.code, msg: error.msg })},"id":${error.id}}`;
}

/** The frame for a success: `{"result", "id"}` (null result for SUBSCRIBE and the like). */
export function resultFrame(result: unknown, id: StreamRequestId): string {
  return `{"result":${JSON.stringify(result)},"id":${id}}`;
}

/** Parses one text frame from a client. */
export function parseStreamControl(text: string): StreamControl | StreamProtocolError {
  const deep = nestingBeyond(text);
  if (deep >= 0) {
    const { line, column } = linePosition(text, deep);
    return { code: 3, msg: `Invalid JSON: recursion limit exceeded at line ${line} column ${column}`, id: NO_REQUEST_ID };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const { line, column } = position(text, error);
    return { code: 3, msg: `Invalid JSON: expected value at line ${line} column ${column}`, id: NO_REQUEST_ID };
  }
  const end = position(text, null);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return invalid(`invalid type: expected struct Request at line ${end.line} column ${end.column}`, NO_REQUEST_ID);
  }
  const request = body as Record<string, unknown>;
  const id = exactRequestId(request.id, text, isStringId);
  if (id === undefined) return invalid('request ID must be an unsigned integer', NO_REQUEST_ID);
  if (!('method' in request)) return invalid(`missing field \`method\` at line ${end.line} column ${end.column}`, id);
  const method = request.method;
  if (typeof method !== 'string' || !(METHODS as readonly string[]).includes(method)) {
    const shown = typeof method === 'string' ? method : JSON.stringify(method);
    return invalid(`unknown variant \`${shown}\`, expected one of ${METHODS.map((m) => `\`${m}\``).join(', ')} at line ${end.line} column ${end.column}`, id);
  }
  const params = request.params;
  switch (method) {
    case 'SUBSCRIBE':
    case 'UNSUBSCRIBE': {
      if (!Array.isArray(params) || params.some((p) => typeof p !== 'string')) return invalid('invalid stream', id);
      if (params.some((p) => !isWellFormedStreamName(p as string))) return invalid('invalid stream', id);
      return { method, streams: params as string[], id };
    }
    case 'LIST_SUBSCRIPTIONS':
      if (params !== undefined && !(Array.isArray(params) && params.length === 0)) return invalid('too many parameters', id);
      return { method, id };
    case 'SET_PROPERTY': {
      if (!Array.isArray(params) || typeof params[0] !== 'string') return invalid('property name must be a string', id);
      if (params.length > 2) return invalid('too many parameters', id);
      if (params[0] !== 'combined') return { code: 0, msg: 'Unknown property', id };
      if (typeof params[1] !== 'boolean') return { code: 1, msg: 'Invalid value type: expected Boolean', id };
      return { method, property: 'combined', value: params[1], id };
    }
    case 'GET_PROPERTY': {
      if (!Array.isArray(params) || typeof params[0] !== 'string') return invalid('property name must be a string', id);
      if (params.length > 1) return invalid('too many parameters', id);
      if (params[0] !== 'combined') return { code: 0, msg: 'Unknown property', id };
      return { method, property: 'combined', id };
    }
  }
  return invalid('invalid stream', id);
}

function invalid(detail: string, id: StreamRequestId): StreamProtocolError {
  return { code: 2, msg: `Invalid request: ${detail}`, id };
}

/** serde-style line and column: where JSON.parse stopped (its "position N"), or the end of the text. */
function position(text: string, error: unknown): { line: number; column: number } {
  const match = error instanceof Error ? /position (\d+)/.exec(error.message) : null;
  const at = match === null ? text.length : Math.min(Number(match[1]), text.length);
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  // serde counts the character it stopped at (1-based), or the last one at the end of the input.
  const column = Math.max(1, Math.min(at + 1, text.length) - (before.lastIndexOf('\n') + 1));
  return { line, column };
}
