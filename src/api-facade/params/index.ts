/**
 * Request parameters, wherever they come from (a query string and a form body, or a WebSocket
 * API request's JSON `params`): collected raw (`raw-params.ts`), then parsed against a declared
 * schema of kinds with Binance's exact -11xx errors in its order (`param-schema.ts` header), and
 * the pairing rules between parameters (`param-rules.ts`).
 *
 * `json-text-scan.ts` reads what JSON.parse does not tell of a client's JSON text (its nesting
 * depth, a member's exact text), for every transport that takes JSON (request bodies, WebSocket
 * API frames, stream control messages).
 *
 * Rules: imports only core/. Pure.
 */
export { collectJsonParams, collectRawParams, type ParamSource, type RawParams } from './raw-params.ts';
export { defineSchema, parseParams, withSigned, type ParamSchema, type ParsedParams } from './param-schema.ts';
export { SYMBOL_PATTERN, type DecimalParam, type ParamSpec, type ParsedSoFar, type TimestampParam } from './param-types.ts';
export { EMPTY_ERRORS, ENUM_ERRORS, paramErrors } from './param-errors.ts';
export { bothOrNeither, eitherRequired, exclusive, invalidWhen, notAllowedWhen, requiredWhen, supportedCombinations, type ParamRule } from './param-rules.ts';
export { exactRequestId, JSON_RECURSION_LIMIT, linePosition, nestingBeyond, topLevelMemberText } from './json-text-scan.ts';
