/**
 * An answer as a client would read it off the wire, without the wire: `jsonValueOf(x)` is a new
 * tree equal to `JSON.parse(JSON.stringify(x))`, built directly.
 *
 * Why: a strategy in a backtest calls the facade tens of thousands of times a simulated day
 * through the in-process client, and serialising each answer to text only to parse it back was
 * a fifth of a grid backtest (stringify in handleRequest, parse in the client, and the garbage of
 * both). The copy keeps what the round trip gave: the strategy gets values of its own (mutating
 * them cannot touch the exchange's state) holding only what JSON carries.
 *
 * JSON.stringify's rules, followed here: `toJSON(key)` is called where an object or bigint has
 * one; Number, String and Boolean wrappers unwrap; a non-finite number becomes null and -0
 * becomes 0; an object keeps its own enumerable string keys in their order, without the ones
 * whose value is undefined, a function or a symbol; in an array those become null; a bigint
 * throws a TypeError, and so does a cycle (as a RangeError here: the recursion runs out of
 * stack; either way the caller's catch answers the request with -1000). A top-level value that
 * JSON.stringify drops (undefined, a function, a symbol) is undefined.
 */
import { JsonAnswer, JsonText } from './json-text.ts';

export function jsonValueOf(value: unknown): unknown {
  return copy(value, '');
}

/** What a handler returned, as the client reads it: a JsonText is parsed, a JsonAnswer's value or anything else copied. */
export function answerValueOf(body: unknown): unknown {
  if (body instanceof JsonText) return JSON.parse(body.text);
  if (body instanceof JsonAnswer) return body.copy?.(body.value) ?? copy(body.value, '');
  return copy(body ?? {}, '');
}

function copy(input: unknown, key: string | number): unknown {
  let value = input;
  if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (key: string) => unknown).call(value, String(key));
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      if (value === null) return null;
      if (Array.isArray(value)) return copyArray(value);
      if (value instanceof Number || value instanceof String || value instanceof Boolean) return copy(value.valueOf(), key);
      return copyObject(value as Record<string, unknown>);
    default:
      return undefined; // undefined, function, symbol: dropped by the caller
  }
}

function copyArray(input: readonly unknown[]): unknown[] {
  const out = new Array<unknown>(input.length);
  for (let i = 0; i < input.length; i++) {
    const element = copy(input[i], i);
    out[i] = element === undefined ? null : element;
  }
  return out;
}

function copyObject(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // for-in with an own-key check visits Object.keys' keys in its order, without building the array.
  for (const key in input) {
    if (!Object.hasOwn(input, key)) continue;
    const element = copy(input[key], key);
    if (element === undefined) continue;
    // JSON.parse makes "__proto__" an own property; an assignment would set the prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: element, enumerable: true, writable: true, configurable: true });
    else out[key] = element;
  }
  return out;
}
