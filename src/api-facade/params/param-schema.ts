/**
 * An endpoint's declared parameters and the one function that reads a request against them.
 *
 * A row of the endpoint table declares its parameters as object literals, in the order of the
 * endpoint's parameter table in the docs, and the cross-parameter rules that apply:
 *
 *   const NEW_ORDER = defineSchema(withSigned([
 *     { name: 'symbol', kind: 'STRING', required: true, pattern: SYMBOL_PATTERN },
 *     { name: 'side', kind: 'ENUM', required: true, values: ['BUY', 'SELL'], invalid: ENUM_ERRORS.side },
 *     { name: 'type', kind: 'ENUM', required: true, values: ORDER_TYPES, invalid: ENUM_ERRORS.orderType },
 *     { name: 'price', kind: 'DECIMAL', required: (p) => p['type'] === 'LIMIT' },
 *     ...
 *   ]), [bothOrNeither('pegOffsetType', 'pegOffsetValue')]);
 *   const p = parseParams(NEW_ORDER, raw);   // p.symbol: string; p.side: 'BUY' | 'SELL'; p.price?: DecimalParam
 *
 * Order of errors (Binance reads parameters one at a time and counts them afterwards; every step
 * below is backed by a wire capture unless marked as a choice):
 *  1. -1101 "Duplicate values ..." while collecting (raw-params.ts).
 *  2. -1101 "Too many parameters; expected 'D' and received 'S'." when more distinct names were
 *     sent than the endpoint declares (2018 capture: ticker/24hr?symbol=..&limit=1).
 *  3. Each declared parameter in declaration order (the order between parameters is a choice):
 *     absent and `required: true` → -1102 (depth without symbol); sent empty → -1105, mandatory
 *     or not (depth?symbol= and exchangeInfo?symbol= on the wire), or the row's `empty` error;
 *     otherwise the kind's parser (-1100, -1108, -1111, -1115.., -1130, -1131, -1151).
 *  4. -1104 "Not all sent parameters were read; read 'R' parameter(s) but was sent 'S'." when a
 *     sent name is not declared. Counts are distinct names, `signature` included (connector-python
 *     #172: 6 order params, one misspelt, + timestamp + signature → read 7, sent 8). Binance REST
 *     does not answer -1103 UNKNOWN_PARAM; unknown names are refused, not ignored, on public and
 *     signed endpoints alike (exchangeInfo?BTCUSDT → read 0, sent 1). Signed endpoints accept
 *     `timestamp`, `recvWindow` and `signature` because `withSigned` declares them.
 *  5. Requirements given as functions, in declaration order (-1102), then the rules in the order
 *     listed (param-rules.ts). They see only parsed values.
 * Nothing here reads a clock or draws a random number: the same request always gets the same answer.
 */
import { ApiError } from '../core/index.ts';
import { paramErrors } from './param-errors.ts';
import type { ParamRule } from './param-rules.ts';
import { type ParamSpec, type ParsedSoFar, type ValueOf, parseValue } from './param-types.ts';
import type { RawParams } from './raw-params.ts';

export interface ParamSchema<S extends readonly ParamSpec[] = readonly ParamSpec[]> {
  readonly params: S;
  readonly rules: readonly ParamRule[];
  /**
   * The USDⓈ-M futures rows' wording: -1102 "Mandatory parameter '%s' ..." and -1106 "Parameter
   * '%s' sent when not required." name the parameter in lower case ('timeinforce', 'reduceonly',
   * as Binance's futures answers show). Absent (spot): the name as declared.
   */
  readonly lowerCaseNames?: true;
}

type RequiredName<P extends ParamSpec> = P extends { readonly required: true } ? P['name'] : never;
type OptionalName<P extends ParamSpec> = P extends { readonly required: true } ? never : P['name'];

/** The typed result: `required: true` parameters are always present, all others optional. */
export type ParsedParams<S extends readonly ParamSpec[]> = {
  readonly [P in S[number] as RequiredName<P>]: ValueOf<P>;
} & {
  readonly [P in S[number] as OptionalName<P>]?: ValueOf<P>;
};

/**
 * Declares an endpoint's parameters. The `const` type parameter keeps names, kinds and enum
 * values as literals, so `parseParams` returns a precisely typed object without annotations.
 */
export function defineSchema<const S extends readonly ParamSpec[]>(params: S, rules: readonly ParamRule[] = [], options: { readonly lowerCaseNames?: boolean } = {}): ParamSchema<S> {
  const seen = new Set<string>();
  for (const p of params) {
    // A table bug, not a client error: fail loudly when the table is built.
    if (seen.has(p.name)) throw new Error(`parameter '${p.name}' declared twice`);
    seen.add(p.name);
  }
  return options.lowerCaseNames === true ? { params, rules, lowerCaseNames: true } : { params, rules };
}

/** -1102 / -1106 texts that name one parameter: the same error, the name lowered (ParamSchema.lowerCaseNames). */
function withLowerCaseName(e: unknown): unknown {
  if (!(e instanceof ApiError)) return e;
  const name = /'([^']*)'/.exec(e.msg)?.[1];
  if (name === undefined) return e;
  if (e.code === -1102 && e.msg === paramErrors.mandatory(name).msg) return paramErrors.mandatory(name.toLowerCase());
  if (e.code === -1106 && e.msg === paramErrors.notRequired(name).msg) return paramErrors.notRequired(name.toLowerCase());
  return e;
}

/**
 * The parameters every SIGNED (TRADE, USER_DATA) endpoint takes besides its own (spec, Endpoints
 * preamble). They come first: the signed-request checks run before the endpoint's own (a choice;
 * the docs do not order them). `signature` is only declared here so that it counts as read; it is
 * verified over the raw bytes by the signature module.
 */
export const SIGNED_PARAMS = [
  { name: 'timestamp', kind: 'TIMESTAMP', required: true },
  { name: 'recvWindow', kind: 'RECV_WINDOW' },
  { name: 'signature', kind: 'STRING', required: true },
] as const satisfies readonly ParamSpec[];

/** An endpoint's own parameters preceded by SIGNED_PARAMS. */
export function withSigned<const S extends readonly ParamSpec[]>(params: S): readonly [...typeof SIGNED_PARAMS, ...S] {
  return [...SIGNED_PARAMS, ...params];
}

/** Reads a request's parameters against a schema; throws the first ApiError in the order above. */
export function parseParams<S extends readonly ParamSpec[]>(schema: ParamSchema<S>, raw: RawParams): ParsedParams<S> {
  if (schema.lowerCaseNames !== true) return parseAsDeclared(schema, raw);
  try {
    return parseAsDeclared(schema, raw);
  } catch (e) {
    throw withLowerCaseName(e);
  }
}

function parseAsDeclared<S extends readonly ParamSpec[]>(schema: ParamSchema<S>, raw: RawParams): ParsedParams<S> {
  const sent = raw.values;
  const declared = schema.params.length;
  if (sent.size > declared) throw paramErrors.tooMany(declared, sent.size);

  const values: Record<string, unknown> = {};
  let read = 0;
  for (const spec of schema.params) {
    const text = sent.get(spec.name);
    if (text === undefined) {
      if (spec.required === true) throw paramErrors.mandatory(spec.name);
      continue;
    }
    read++;
    if (text === '') throw spec.empty === undefined ? paramErrors.empty(spec.name) : paramErrors.fromTemplate(spec.empty);
    values[spec.name] = parseValue(spec, text, values);
  }
  if (read < sent.size) throw paramErrors.unread(read, sent.size);

  const parsed: ParsedSoFar = values;
  for (const spec of schema.params) {
    if (typeof spec.required === 'function' && values[spec.name] === undefined && spec.required(parsed)) {
      throw paramErrors.mandatory(spec.name);
    }
  }
  for (const rule of schema.rules) rule(parsed);
  return values as ParsedParams<S>;
}
