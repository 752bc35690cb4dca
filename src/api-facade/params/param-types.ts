/**
 * Parameter kinds and their parsers, each refusing a bad value with the code and text Binance
 * sends. A parser sees a non-empty value only: absent and empty values are the schema's business
 * (param-schema.ts), so every kind answers them alike.
 *
 * Kinds and rules (wire regexes are quoted from real -1100 answers):
 * - STRING: any text, or text matching an optional `pattern` (-1100 with its legal range).
 *   `SYMBOL_PATTERN` is symbol's: '^[A-Z0-9-_.]{1,20}$' on the wire (2022), widened here to admit
 *   non-ASCII characters because the spec (item 9) allows non-ASCII symbol names; the message
 *   keeps the last text seen on the wire.
 * - LONG, INT: '^[0-9]{1,20}$' (-1100; `limit=-1`, `fromId=-1`, `orderId=abc` on the wire). A
 *   well-formed value beyond the type's range (LONG: 2^63-1, INT: 2^31-1) is -1108 "overflowed":
 *   the docs name the code but show no case; this is the choice. Values are returned as numbers:
 *   exact up to 2^53, rounded above — harmless, since every simulated id and time is far below
 *   and an out-of-range id or time fails its own check (unknown order, -1021) either way.
 * - DECIMAL: '^([0-9]{1,20})(\.[0-9]{1,20})?$' (-1100; so no sign, exponent, or leading '.').
 *   Returned as a `DecimalParam`: `units(precision)` gives integer units via parseUnits and
 *   throws -1111 "has too much precision" when more significant decimals than `precision` were
 *   sent (trailing zeros are not significant: "0.10000000000" is 0.1), or -1108 when the units do
 *   not fit a safe integer. The endpoint row may name a `precision` (a number, or a function of
 *   the values parsed before it) so that -1111 comes in the parse order; otherwise the handler
 *   calls `units` once it knows the symbol.
 * - ENUM: exact, case-sensitive values (kline intervals are documented case-sensitive; order
 *   enums likewise); anything else is the row's `invalid` error (see ENUM_ERRORS) or -1130.
 * - BOOLEAN: "true" or "false", case-insensitively: the docs show lowercase, but Python clients
 *   send `True`/`False` (str(bool)) and are not known to fail. Anything else ("1", "yes") is -1130:
 *   no wire capture shows this case; -1130 is the generic invalid-value code.
 * - JSON_ARRAY: '^\[("ITEM"(,"ITEM"){0,}){0,1}\]$', no spaces. Sent percent-encoded or not, the
 *   decoded text is what is matched. A mismatch is -1100 with that legal range (wire: go-binance
 *   #267); the empty list `[]` is -1100 too although the regex admits it (wire: go-binance #477,
 *   a 154-byte body, exactly this message). A repeated item is -1151. `acceptBare` lets a single
 *   unbracketed item through (exchangeInfo `permissions` is "ENUM or array").
 * - RECV_WINDOW: DECIMAL with at most 3 decimals (µs resolution, since 2025-08-12) and at most
 *   60000 ms: illegal text -1100 (the DECIMAL range), a 4th significant decimal -1111, more than
 *   60000 -1131. Returned in microseconds.
 * - TIMESTAMP: a LONG in ms or µs (since 2024-12-17). The docs do not say how the server tells
 *   them apart (facts §12); here by magnitude: below 10^15 is ms (13 digits until the year 33658),
 *   from 10^15 on is µs (16 digits from 2001 on). Returned as both, plus the unit read.
 */
import { parseUnits } from '../../engine/index.ts';
import { type ErrorTemplate, paramErrors } from './param-errors.ts';

/** A regex with the text Binance shows for it in a -1100 message. */
export interface LegalRange {
  readonly regex: RegExp;
  readonly text: string;
}

/** An item pattern for JSON_ARRAY: a regex fragment (no anchors) and its wire text. */
export interface ItemRange {
  readonly source: string;
  readonly text: string;
}

/** Values parsed so far, by name: what `required` functions, `precision` functions and rules see. */
export type ParsedSoFar = Readonly<Record<string, unknown>>;

/** `true`: checked when the parameter is read. A function: checked after all are read (see param-schema.ts). */
export type Requirement = boolean | ((values: ParsedSoFar) => boolean);

interface BaseSpec {
  readonly name: string;
  readonly required?: Requirement;
  /** Error for an empty value instead of -1105 (e.g. EMPTY_ERRORS.newClientOrderId). */
  readonly empty?: ErrorTemplate;
}

export interface StringSpec extends BaseSpec {
  readonly kind: 'STRING';
  readonly pattern?: LegalRange;
}
export interface LongSpec extends BaseSpec {
  readonly kind: 'LONG';
}
export interface IntSpec extends BaseSpec {
  readonly kind: 'INT';
}
export interface DecimalSpec extends BaseSpec {
  readonly kind: 'DECIMAL';
  /** Checked at parse time when it resolves to a number; `undefined` (e.g. unknown symbol) defers to the handler. */
  readonly precision?: number | ((values: ParsedSoFar) => number | undefined);
}
export interface EnumSpec<V extends string = string> extends BaseSpec {
  readonly kind: 'ENUM';
  readonly values: readonly V[];
  /** Error for a value outside `values`; -1130 when absent. */
  readonly invalid?: ErrorTemplate;
}
export interface BooleanSpec extends BaseSpec {
  readonly kind: 'BOOLEAN';
}
export interface JsonArraySpec extends BaseSpec {
  readonly kind: 'JSON_ARRAY';
  /** Item pattern; symbols by default. */
  readonly item?: ItemRange;
  /** Accept one unbracketed item as a one-item list. */
  readonly acceptBare?: boolean;
}
export interface RecvWindowSpec extends BaseSpec {
  readonly kind: 'RECV_WINDOW';
}
export interface TimestampSpec extends BaseSpec {
  readonly kind: 'TIMESTAMP';
}

export type ParamSpec =
  | StringSpec
  | LongSpec
  | IntSpec
  | DecimalSpec
  | EnumSpec
  | BooleanSpec
  | JsonArraySpec
  | RecvWindowSpec
  | TimestampSpec;


/** A validated decimal parameter; see the header for `units`. */
export interface DecimalParam {
  readonly name: string;
  /** The text as sent (validated against the DECIMAL regex). */
  readonly text: string;
  /** Integer units at `precision` decimals; -1111 on too many significant decimals, -1108 if too large. */
  units(precision: number): number;
}

export interface TimestampParam {
  /** Milliseconds, floored when µs were sent. */
  readonly ms: number;
  /** Microseconds. */
  readonly us: number;
  /** The unit the client sent. */
  readonly unit: 'ms' | 'us';
}

/** The value type a spec parses to. */
export type ValueOf<S extends ParamSpec> = S extends { readonly kind: 'STRING' }
  ? string
  : S extends { readonly kind: 'LONG' | 'INT' }
    ? number
    : S extends { readonly kind: 'DECIMAL' }
      ? DecimalParam
      : S extends { readonly kind: 'ENUM'; readonly values: readonly (infer V)[] }
        ? V
        : S extends { readonly kind: 'BOOLEAN' }
          ? boolean
          : S extends { readonly kind: 'JSON_ARRAY' }
            ? readonly string[]
            : S extends { readonly kind: 'RECV_WINDOW' }
              ? number
              : S extends { readonly kind: 'TIMESTAMP' }
                ? TimestampParam
                : never;

// ---------------------------------------------------------------------------------------------
// Wire patterns

export const INTEGER_RANGE: LegalRange = { regex: /^[0-9]{1,20}$/, text: '^[0-9]{1,20}$' };
export const DECIMAL_RANGE: LegalRange = {
  regex: /^([0-9]{1,20})(\.[0-9]{1,20})?$/,
  text: '^([0-9]{1,20})(\\.[0-9]{1,20})?$',
};
/** One symbol character: the wire set plus any non-ASCII character (spec item 9). */
const SYMBOL_CHAR = '(?:[A-Z0-9\\-_.]|[^\\u0000-\\u007F])';
export const SYMBOL_PATTERN: LegalRange = {
  regex: new RegExp(`^${SYMBOL_CHAR}{1,20}$`, 'u'),
  text: '^[A-Z0-9-_.]{1,20}$',
};
export const SYMBOL_ITEM: ItemRange = { source: `${SYMBOL_CHAR}{1,20}`, text: '[A-Z0-9-_.]{1,20}' };

const INT64_MAX = 2n ** 63n - 1n;
const INT32_MAX = 2n ** 31n - 1n;
/** Digit counts that can never exceed the maximum (10^18 < 2^63, 10^9 < 2^31). */
const INT64_SAFE_DIGITS = 18;
const INT32_SAFE_DIGITS = 9;
/** Below this a TIMESTAMP is ms, from it on µs (see header). */
const MICROS_FROM = 1e15;
export const RECV_WINDOW_MAX_US = 60_000_000;
const RECV_WINDOW_DECIMALS = 3;

// ---------------------------------------------------------------------------------------------
// Parsers: (spec, non-empty text, values parsed so far) -> value, or throw ApiError.

/** Digits of '^[0-9]{1,20}$' text as a number; BigInt only where a range check needs it (hot path). */
function integerValue(name: string, text: string, max: bigint, safeDigits: number): number {
  if (!INTEGER_RANGE.regex.test(text)) throw paramErrors.illegalChars(name, INTEGER_RANGE.text);
  if (text.length <= safeDigits) return Number(text);
  const n = BigInt(text);
  if (n > max) throw paramErrors.overflow(name);
  return Number(n);
}

/** Decimals after the dot, trailing zeros not counted (read from the end: no slice, no regex replace). */
function significantDecimals(text: string): number {
  const dot = text.indexOf('.');
  if (dot < 0) return 0;
  let end = text.length;
  while (end > dot + 1 && text.charCodeAt(end - 1) === ZERO) end--;
  return end - dot - 1;
}

const ZERO = 0x30;

/**
 * Units of DECIMAL text (already matched DECIMAL_RANGE, at most `precision` significant decimals)
 * by digit arithmetic on the string: the whole part and the fraction padded to `precision` read as
 * one integer. Number() rounds correctly, so a result that is a safe integer is exact; anything
 * larger is left to parseUnits (undefined). Price and quantity are parsed on every order, and
 * decimal.js costs several µs per value where this costs tens of ns.
 */
function plainUnits(text: string, precision: number): number | undefined {
  const dot = text.indexOf('.');
  // Digits past `precision` are zeros here (significantDecimals checked them), so cutting is exact.
  const digits = dot < 0 ? text + '0'.repeat(precision) : text.slice(0, dot) + text.slice(dot + 1, dot + 1 + precision).padEnd(precision, '0');
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Validates DECIMAL text and wraps it; `units` is exact (digit arithmetic, else decimal.js via parseUnits). */
export function decimalParam(name: string, text: string): DecimalParam {
  if (!DECIMAL_RANGE.regex.test(text)) throw paramErrors.illegalChars(name, DECIMAL_RANGE.text);
  const decimals = significantDecimals(text);
  return {
    name,
    text,
    units(precision: number): number {
      if (decimals > precision) throw paramErrors.tooMuchPrecision(name);
      const n = plainUnits(text, precision) ?? parseUnits(text, precision);
      if (n === null) throw paramErrors.overflow(name);
      return n;
    },
  };
}

function parseDecimal(spec: DecimalSpec, text: string, values: ParsedSoFar): DecimalParam {
  const value = decimalParam(spec.name, text);
  const precision = typeof spec.precision === 'function' ? spec.precision(values) : spec.precision;
  if (precision !== undefined) value.units(precision); // throws -1111 / -1108 now, in parse order
  return value;
}

function parseEnum(spec: EnumSpec, text: string): string {
  if (spec.values.includes(text)) return text;
  throw spec.invalid === undefined ? paramErrors.invalidData(spec.name) : paramErrors.fromTemplate(spec.invalid);
}

function parseBoolean(name: string, text: string): boolean {
  const lower = text.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  throw paramErrors.invalidData(name);
}

interface ArrayRange extends LegalRange {
  /** One bare item, for `acceptBare`. */
  readonly single: RegExp;
}

function arrayRange(item: ItemRange): ArrayRange {
  return {
    regex: new RegExp(`^\\[("${item.source}"(,"${item.source}")*)?\\]$`, 'u'),
    text: `^\\[("${item.text}"(,"${item.text}"){0,}){0,1}\\]$`,
    single: new RegExp(`^${item.source}$`, 'u'),
  };
}
/** Compiled once per item pattern: the table's specs live for the process. */
const ARRAY_RANGES = new WeakMap<ItemRange, ArrayRange>();
function arrayRangeOf(item: ItemRange): ArrayRange {
  let range = ARRAY_RANGES.get(item);
  if (range === undefined) {
    range = arrayRange(item);
    ARRAY_RANGES.set(item, range);
  }
  return range;
}

function parseJsonArray(spec: JsonArraySpec, text: string): readonly string[] {
  const range = arrayRangeOf(spec.item ?? SYMBOL_ITEM);
  let items: unknown;
  if (spec.acceptBare === true && !text.startsWith('[')) {
    if (!range.single.test(text)) throw paramErrors.illegalChars(spec.name, range.text);
    items = [text];
  } else {
    if (!range.regex.test(text)) throw paramErrors.illegalChars(spec.name, range.text);
    try {
      items = JSON.parse(text);
    } catch {
      throw paramErrors.invalidJson(spec.name);
    }
  }
  if (!Array.isArray(items) || !items.every((x): x is string => typeof x === 'string')) throw paramErrors.invalidJson(spec.name);
  // The wire answers `[]` with the same -1100 although the regex admits it (see header).
  if (items.length === 0) throw paramErrors.illegalChars(spec.name, range.text);
  if (new Set(items).size !== items.length) throw paramErrors.duplicateSymbols();
  return items;
}

function parseRecvWindow(name: string, text: string): number {
  const value = decimalParam(name, text);
  // 20 integer digits would overflow the units (-1108); any value that long is simply too big.
  const whole = text.split('.')[0] ?? '';
  if (whole.replace(/^0+/, '').length > 5) throw paramErrors.badRecvWindow();
  const us = value.units(RECV_WINDOW_DECIMALS);
  if (us > RECV_WINDOW_MAX_US) throw paramErrors.badRecvWindow();
  return us;
}

function parseTimestamp(name: string, text: string): TimestampParam {
  const n = integerValue(name, text, INT64_MAX, INT64_SAFE_DIGITS);
  if (n < MICROS_FROM) return { ms: n, us: n * 1000, unit: 'ms' };
  return { ms: Math.floor(n / 1000), us: n, unit: 'us' };
}

/** Parses one non-empty value according to its spec. */
export function parseValue(spec: ParamSpec, text: string, values: ParsedSoFar): unknown {
  switch (spec.kind) {
    case 'STRING':
      if (spec.pattern !== undefined && !spec.pattern.regex.test(text)) throw paramErrors.illegalChars(spec.name, spec.pattern.text);
      return text;
    case 'LONG':
      return integerValue(spec.name, text, INT64_MAX, INT64_SAFE_DIGITS);
    case 'INT':
      return integerValue(spec.name, text, INT32_MAX, INT32_SAFE_DIGITS);
    case 'DECIMAL':
      return parseDecimal(spec, text, values);
    case 'ENUM':
      return parseEnum(spec, text);
    case 'BOOLEAN':
      return parseBoolean(spec.name, text);
    case 'JSON_ARRAY':
      return parseJsonArray(spec, text);
    case 'RECV_WINDOW':
      return parseRecvWindow(spec.name, text);
    case 'TIMESTAMP':
      return parseTimestamp(spec.name, text);
  }
}
