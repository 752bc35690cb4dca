/**
 * The request-parameter errors of the spot REST API (binance-facts §2.2, codes -1100..-1151) by
 * what went wrong with a parameter. Their codes and texts are rows of the one error table
 * (exchange-errors.ts, where the choices among documented variants are noted).
 */
import { type ApiError, apiError, errorOf, templateOf, type ErrorTemplate } from '../core/index.ts';

export type { ErrorTemplate };

export const paramErrors = {
  /** -1100: the value does not match the parameter's wire regex; `legalRange` is that regex as text. */
  illegalChars: (name: string, legalRange: string) => apiError('ILLEGAL_CHARS', name, legalRange),
  /** -1101: a name repeated within the query string or within the body. */
  duplicate: (name: string) => apiError('DUPLICATE_PARAMETER', name),
  /** -1101: more distinct names than the endpoint declares (2018 wire capture, ticker/24hr). */
  tooMany: (expected: number, received: number) => apiError('TOO_MANY_PARAMETERS', expected, received),
  /** -1102: a mandatory parameter is absent. */
  mandatory: (name: string) => apiError('MANDATORY_PARAMETER', name),
  /** -1102: one of two alternatives is mandatory and neither was sent. */
  eitherRequired: (a: string, b: string) => apiError('EITHER_PARAMETER_REQUIRED', a, b),
  /** -1104: names the endpoint does not read; counts are distinct names, `signature` included. */
  unread: (read: number, sent: number) => apiError('UNREAD_PARAMETERS', read, sent),
  /** -1105: the name was sent with an empty value (mandatory or not: wire tests on depth and exchangeInfo). */
  empty: (name: string) => apiError('EMPTY_PARAMETER', name),
  /** -1106: the parameter is not allowed with the other values sent. */
  notRequired: (name: string) => apiError('PARAMETER_NOT_REQUIRED', name),
  /** -1108: a well-formed number outside the range of its type. */
  overflow: (name: string) => apiError('PARAMETER_OVERFLOW', name),
  /** -1111: more significant decimals than the precision allows. */
  tooMuchPrecision: (name: string) => apiError('TOO_MUCH_PRECISION', name),
  /** -1128, plain form: optional parameters that may not be combined. */
  badCombination: () => apiError('OPTIONAL_PARAMETERS_INVALID'),
  /** -1128, "both" form: one of a pair was sent without the other. */
  mustBothBeSent: (a: string, b: string) => apiError('MUST_BOTH_BE_SENT', a, b),
  /** -1128, list form: a group sent in part. */
  sendTogether: (names: readonly string[]) => apiError('SEND_TOGETHER', names),
  /** -1130: the value is well-formed text but not an accepted value. */
  invalidData: (name: string) => apiError('INVALID_PARAMETER_DATA', name),
  /** -1131: recvWindow above 60000 ms. */
  badRecvWindow: () => apiError('BAD_RECV_WINDOW'),
  /** -1135: the value passed the wire regex but is not JSON (only reachable with custom item patterns). */
  invalidJson: (name: string) => apiError('INVALID_JSON', name),
  /** -1135: a JSON request body that is not a JSON object (endpoints with `jsonBody`). */
  invalidJsonRequest: () => apiError('INVALID_JSON_REQUEST'),
  /** -1151: a symbol list naming a symbol twice. */
  duplicateSymbols: () => apiError('DUPLICATE_SYMBOLS'),
  /** An error named by the endpoint row. */
  fromTemplate: (t: ErrorTemplate): ApiError => errorOf(t),
} as const;

/**
 * The parameter-specific codes for an invalid enum value (§2.2). An ENUM parameter without one of
 * these gets -1130 "Data sent for parameter '%s' is not valid.". Which row uses which is the
 * table's choice: `type` is -1116 on order endpoints and -1139 on the ticker endpoints.
 */
export const ENUM_ERRORS = {
  timeInForce: templateOf('INVALID_TIME_IN_FORCE'),
  orderType: templateOf('INVALID_ORDER_TYPE'),
  side: templateOf('INVALID_SIDE'),
  interval: templateOf('INVALID_INTERVAL'),
  symbolStatus: templateOf('INVALID_SYMBOL_STATUS'),
  tickerType: templateOf('INVALID_TICKER_TYPE'),
  cancelRestrictions: templateOf('INVALID_CANCEL_RESTRICTIONS'),
  pegPriceType: templateOf('INVALID_PEG_PRICE_TYPE'),
  pegOffsetType: templateOf('INVALID_PEG_OFFSET_TYPE'),
} as const satisfies Record<string, ErrorTemplate>;

/** Parameter-specific codes for an empty value (§2.2), used instead of -1105 by the rows that name them. */
export const EMPTY_ERRORS = {
  newClientOrderId: templateOf('EMPTY_NEW_CLIENT_ORDER_ID'),
  origClientOrderId: templateOf('EMPTY_ORIG_CLIENT_ORDER_ID'),
} as const satisfies Record<string, ErrorTemplate>;
