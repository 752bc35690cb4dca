/**
 * Answers a handler serializes itself. handleRequest sends a JsonText's `text` as the body
 * instead of JSON.stringify-ing the handler's value.
 *
 * Why: on Node 20 JSON.stringify costs ~45 ns per string value, and some hot answers are almost
 * all strings (depth's 2 x limit [price, qty] pairs: ~3.8 us of stringify for limit=20).
 * Rule: `text` must be byte for byte what JSON.stringify would give for the same value
 * (tests compare it with JSON.stringify(JSON.parse(text))).
 */
import { formatUnits } from '../../engine/index.ts';

export class JsonText {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}

/**
 * An answer kept as its value, with a writer of its JSON text: the in-process client copies the
 * value (answerValueOf, no text at all), a transport asks for `text`. Rules: `write(value)` must be
 * byte for byte JSON.stringify(value), and `copy(value)`, when given, equal to
 * JSON.parse(JSON.stringify(value)) and the caller's own, or undefined to have answerValueOf copy
 * it generically. For a hot answer of a known shape (a
 * placement), a writer that knows the shape was ~3x faster than JSON.stringify on Node 20, and a
 * copier that knows it ~2x faster than the generic copy.
 */
export class JsonAnswer<T extends object = object> {
  readonly value: T;
  readonly #write: (value: T) => string;
  /** The value's copy for the in-process client; undefined: answerValueOf's generic copy. */
  readonly copy: ((value: T) => unknown) | undefined;

  constructor(value: T, write: (value: T) => string, copy?: (value: T) => unknown) {
    this.value = value;
    this.#write = write;
    this.copy = copy;
  }

  get text(): string {
    return this.#write(this.value);
  }
}

/** The JSON text a transport sends for a handler's answer. */
export function answerText(body: unknown): string {
  return body instanceof JsonText || body instanceof JsonAnswer ? body.text : JSON.stringify(body ?? {});
}

/** No JSON escaping needed: no quote, backslash, control character or surrogate. */
const PLAIN_STRING = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** A string as JSON.stringify writes it (quoted as is when nothing needs escaping). */
export function jsonString(text: string): string {
  return PLAIN_STRING.test(text) ? `"${text}"` : JSON.stringify(text);
}

/**
 * `[["price","qty"],...]` for [price, quantity] levels in units. Decimal text (digits, '.',
 * '-') needs no JSON escaping, so each value is quoted as is.
 */
export function decimalPairsJson(levels: readonly (readonly [number, number])[], pricePrecision: number, qtyPrecision: number): string {
  let out = '[';
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i]!;
    if (i > 0) out += ',';
    out += `["${formatUnits(level[0], pricePrecision)}","${formatUnits(level[1], qtyPrecision)}"]`;
  }
  return `${out}]`;
}
