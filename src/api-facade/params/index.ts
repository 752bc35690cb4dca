/**
 * Request parameters, wherever they come from (a query string and a form body, or a WebSocket
 * API request's JSON `params`): collected raw (`raw-params.ts`), then parsed against a declared
 * schema of kinds with Binance's exact -11xx errors in its order (`param-schema.ts` header), and
 * the pairing rules between parameters (`param-rules.ts`).
 *
 * Rules: imports only core/. Pure.
 */
export { collectJsonParams, collectRawParams, type ParamSource, type RawParams } from './raw-params.ts';
export { defineSchema, parseParams, withSigned, type ParamSchema, type ParsedParams } from './param-schema.ts';
export { SYMBOL_PATTERN, type DecimalParam, type ParamSpec, type ParsedSoFar, type TimestampParam } from './param-types.ts';
export { EMPTY_ERRORS, ENUM_ERRORS, paramErrors } from './param-errors.ts';
export { bothOrNeither, eitherRequired, exclusive, invalidWhen, notAllowedWhen, requiredWhen, supportedCombinations, type ParamRule } from './param-rules.ts';
