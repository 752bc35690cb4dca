/**
 * The request-parameter errors of the spot REST API (binance-facts §2.2, codes -1100..-1151), as
 * `ApiError`s with HTTP 400. Every parameter refusal of the facade is built here, so a message
 * text lives in exactly one place.
 *
 * Texts are the wire texts; where the docs list several variants the one used is noted:
 * - -1101 on a repeated name: the docs list "Duplicate values for a parameter detected." (also on
 *   the wire in 2018), but the newest wire capture (sieblyio/binance#507, 2025-01-30, repeated
 *   `symbols[]`) reads "Duplicate values for parameter 'symbols[]'." — the simulator targets the
 *   current API, so it names the parameter. `DUPLICATE_PARAMETER_DOC_TEXT` keeps the older text.
 * - -1131 BAD_RECV_WINDOW is not in the current error list (facts §12). Wire captures from
 *   2019 to 2023 show "'recvWindow' must be less than 60000." with HTTP 400; used as is, though
 *   60000 itself is accepted (the docs' maximum is inclusive).
 * - -1145: the spec's Errors table gives "Invalid cancelRestrictions" (no final period), which is
 *   the REST docs' example body; the errors.md sentence with backticks is not used.
 * - -1128 "Fields [%s] must be sent together or omitted entirely.": the list separator inside
 *   the brackets is not shown anywhere; ", " is a guess.
 */
import { ApiError } from '../api-error.ts';

/** Every parameter error is a malformed request: 400 (facts §2.1: 4XX, 400 on the wire). */
const STATUS = 400;

const err = (code: number, msg: string): ApiError => new ApiError(STATUS, code, msg);

/** An error an endpoint row can name for a particular parameter (an invalid enum value, an empty id). */
export interface ErrorTemplate {
  readonly code: number;
  readonly msg: string;
}

export const DUPLICATE_PARAMETER_DOC_TEXT = 'Duplicate values for a parameter detected.';

export const paramErrors = {
  /** -1100: the value does not match the parameter's wire regex; `legalRange` is that regex as text. */
  illegalChars: (name: string, legalRange: string) =>
    err(-1100, `Illegal characters found in parameter '${name}'; legal range is '${legalRange}'.`),
  /** -1101: a name repeated within the query string or within the body. */
  duplicate: (name: string) => err(-1101, `Duplicate values for parameter '${name}'.`),
  /** -1101: more distinct names than the endpoint declares (2018 wire capture, ticker/24hr). */
  tooMany: (expected: number, received: number) =>
    err(-1101, `Too many parameters; expected '${expected}' and received '${received}'.`),
  /** -1102: a mandatory parameter is absent. */
  mandatory: (name: string) => err(-1102, `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`),
  /** -1102: one of two alternatives is mandatory and neither was sent. */
  eitherRequired: (a: string, b: string) => err(-1102, `Param '${a}' or '${b}' must be sent, but both were empty/null!`),
  /** -1104: names the endpoint does not read; counts are distinct names, `signature` included. */
  unread: (read: number, sent: number) =>
    err(-1104, `Not all sent parameters were read; read '${read}' parameter(s) but was sent '${sent}'.`),
  /** -1105: the name was sent with an empty value (mandatory or not: wire tests on depth and exchangeInfo). */
  empty: (name: string) => err(-1105, `Parameter '${name}' was empty.`),
  /** -1106: the parameter is not allowed with the other values sent. */
  notRequired: (name: string) => err(-1106, `Parameter '${name}' sent when not required.`),
  /** -1108: a well-formed number outside the range of its type. */
  overflow: (name: string) => err(-1108, `Parameter '${name}' overflowed.`),
  /** -1111: more significant decimals than the precision allows. */
  tooMuchPrecision: (name: string) => err(-1111, `Parameter '${name}' has too much precision.`),
  /** -1128, plain form: optional parameters that may not be combined. */
  badCombination: () => err(-1128, 'Combination of optional parameters invalid.'),
  /** -1128, "both" form: one of a pair was sent without the other. */
  mustBothBeSent: (a: string, b: string) =>
    err(-1128, `Combination of optional fields invalid. Recommendation: '${a}' and '${b}' must both be sent.`),
  /** -1128, list form: a group sent in part. */
  sendTogether: (names: readonly string[]) => err(-1128, `Fields [${names.join(', ')}] must be sent together or omitted entirely.`),
  /** -1130: the value is well-formed text but not an accepted value. */
  invalidData: (name: string) => err(-1130, `Data sent for parameter '${name}' is not valid.`),
  /** -1131: recvWindow above 60000 ms. */
  badRecvWindow: () => err(-1131, "'recvWindow' must be less than 60000."),
  /** -1135: the value passed the wire regex but is not JSON (only reachable with custom item patterns). */
  invalidJson: (name: string) => err(-1135, `JSON sent for parameter '${name}' is not valid`),
  /** -1135: a JSON request body that is not a JSON object (endpoints with `jsonBody`). */
  invalidJsonRequest: () => err(-1135, 'Invalid JSON Request'),
  /** -1151: a symbol list naming a symbol twice. */
  duplicateSymbols: () => err(-1151, 'Symbol is present multiple times in the list.'),
  /** An error named by the endpoint row. */
  fromTemplate: (t: ErrorTemplate) => err(t.code, t.msg),
} as const;

/**
 * The parameter-specific codes for an invalid enum value (§2.2). An ENUM parameter without one of
 * these gets -1130 "Data sent for parameter '%s' is not valid.". Which row uses which is the
 * table's choice: `type` is -1116 on order endpoints and -1139 on the ticker endpoints.
 */
export const ENUM_ERRORS = {
  timeInForce: { code: -1115, msg: 'Invalid timeInForce.' },
  orderType: { code: -1116, msg: 'Invalid orderType.' },
  side: { code: -1117, msg: 'Invalid side.' },
  interval: { code: -1120, msg: 'Invalid interval.' },
  symbolStatus: { code: -1122, msg: 'Invalid symbolStatus.' },
  tickerType: { code: -1139, msg: 'Invalid ticker type.' },
  cancelRestrictions: { code: -1145, msg: 'Invalid cancelRestrictions' },
  pegPriceType: { code: -1210, msg: 'Invalid pegPriceType.' },
  pegOffsetType: { code: -1211, msg: 'Invalid pegOffsetType.' },
} as const satisfies Record<string, ErrorTemplate>;

/** Parameter-specific codes for an empty value (§2.2), used instead of -1105 by the rows that name them. */
export const EMPTY_ERRORS = {
  newClientOrderId: { code: -1118, msg: 'New client order ID was empty.' },
  origClientOrderId: { code: -1119, msg: 'Original client order ID was empty.' },
} as const satisfies Record<string, ErrorTemplate>;
