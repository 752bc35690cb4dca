/**
 * Every error the simulated exchange answers, in one keyed table (HTTP status, Binance `code`,
 * message or a function for a parametrised message), as fastify keeps its lib/errors.js. Sites
 * name a key (`apiError('INVALID_SYMBOL')`); no other module builds an ApiError from a literal
 * code (test/unit/api-facade/core/exchange-errors.test.ts checks both that and that each code/message
 * pair is written once). The WebSocket API answers from the same table.
 *
 * Texts are the wire texts, byte for byte (binance-facts §2.2, §2.3; clients match on them).
 * Choices where the docs are silent or list variants:
 * - -1101 on a repeated name: the docs list "Duplicate values for a parameter detected." (also on
 *   the wire in 2018), but the newest wire capture (sieblyio/binance#507, 2025-01-30, repeated
 *   `symbols[]`) names the parameter; the simulator targets the current API. The older text is
 *   still what a repeated `signature` answers (DUPLICATE_SIGNATURE).
 * - -1131 BAD_RECV_WINDOW is not in the current error list (facts §12). Wire captures from 2019
 *   to 2023 show "'recvWindow' must be less than 60000." with HTTP 400; used as is, though 60000
 *   itself is accepted (the docs' maximum is inclusive).
 * - -1145: the spec's Errors table gives "Invalid cancelRestrictions" (no final period), which is
 *   the REST docs' example body; the errors.md sentence with backticks is not used.
 * - -1128 "Fields [%s] must be sent together or omitted entirely.": the list separator inside the
 *   brackets is not shown anywhere; ", " is a guess.
 * - -2014 and -2015 are 401 (what Binance sends for key problems, and what client libraries map
 *   to their authentication exceptions); parameter and signature errors are 400.
 * - Matching-engine texts (§2.3) are answered under the code of what was refused: -2010
 *   NEW_ORDER_REJECTED when placing, -2011 CANCEL_REJECTED when canceling, -2038
 *   ORDER_AMEND_REJECTED when amending. Where the docs show a text in markdown (backticks around
 *   LOT_SIZE) the wire text has none (unconfirmed; §2.3).
 */
import { ApiError } from './api-error.ts';

type Message = string | ((...args: never[]) => string);

/** One row: what the client receives. */
export interface ErrorDef<M extends Message = Message> {
  readonly status: number;
  readonly code: number;
  readonly msg: M;
}

const row = <M extends Message>(status: number, code: number, msg: M): ErrorDef<M> => ({ status, code, msg });
/** Request errors are 400 (facts §2.1: 4XX, 400 on the wire). */
const bad = <M extends Message>(code: number, msg: M): ErrorDef<M> => row(400, code, msg);

/** The matching engine's refusal texts (§2.3), answered under -2010, -2011 or -2038 by context. */
export const MATCHING_ENGINE_MESSAGES = {
  UNKNOWN_ORDER: 'Unknown order sent.',
  DUPLICATE_ORDER: 'Duplicate order sent.',
  MARKET_CLOSED: 'Market is closed.',
  INSUFFICIENT_BALANCE: 'Account has insufficient balance for requested action.',
  ACCOUNT_CANNOT_TRADE: 'This account may not place or cancel orders.',
  SYMBOL_NOT_PERMITTED: 'This symbol is not permitted for this account.',
  MARKET_NOT_SUPPORTED: 'Market orders are not supported for this symbol.',
  STOP_LOSS_NOT_SUPPORTED: 'Stop loss orders are not supported for this symbol.',
  STOP_LOSS_LIMIT_NOT_SUPPORTED: 'Stop loss limit orders are not supported for this symbol.',
  TAKE_PROFIT_NOT_SUPPORTED: 'Take profit orders are not supported for this symbol.',
  TAKE_PROFIT_LIMIT_NOT_SUPPORTED: 'Take profit limit orders are not supported for this symbol.',
  QUOTE_ORDER_QTY_MARKET_NOT_SUPPORTED: 'Quote order qty market orders are not support for this symbol.',
  NOTIONAL_NOT_POSITIVE: 'Price * QTY is zero or less.',
  WOULD_MATCH_AND_TAKE: 'Order would immediately match and take.',
  CANCEL_RESTRICTIONS_NOT_MET: 'Order was not canceled due to cancel restrictions.',
  LIQUIDITY_BELOW_LOT_SIZE: 'Order book liquidity is less than LOT_SIZE filter minimum quantity.',
  LIQUIDITY_BELOW_MARKET_LOT_SIZE: 'Order book liquidity is less than MARKET_LOT_SIZE filter minimum quantity.',
  LIQUIDITY_BELOW_SYMBOL_MIN_QTY: 'Order book liquidity is less than symbol minimum quantity.',
  STOP_PRICE_WOULD_TRIGGER_IMMEDIATELY: 'Order would trigger immediately.',
  TRAILING_STOP_NOT_SUPPORTED: 'Trailing stop orders are not supported for this symbol.',
  ICEBERG_NOT_SUPPORTED: 'Iceberg orders are not supported for this symbol.',
  ICEBERG_QTY_EXCEEDS_QTY: 'IcebergQty exceeds QTY.',
  PEG_NOT_SUPPORTED: 'Pegged orders are not supported for this symbol.',
  PEG_NOT_ALLOWED_FOR_TYPE: 'This order type may not use pegged price.',
  PEG_NOT_ALLOWED_WITH_TYPE: 'This price peg cannot be used with this order type.',
  PEG_LIQUIDITY_TOO_LOW: 'Order book liquidity is too low for this pegged order.',
  OCO_NOT_SUPPORTED: 'OCO orders are not supported for this symbol',
  // The docs list no OTO-specific text; the OCO wording is the closest documented one.
  OTO_NOT_SUPPORTED: 'OTO orders are not supported for this symbol.',
  OPO_NOT_SUPPORTED: 'OPO orders are not supported for this symbol.',
  OCO_BAD_PRICES: 'The relationship of the prices for the orders is not correct.',
  UNKNOWN_ORDER_LIST: 'Order list does not exist.',
  CANCEL_REPLACE_NOT_SUPPORTED: 'Order cancel-replace is not supported for this symbol.',
  AMEND_NOT_SUPPORTED: 'Order amend is not supported for this symbol.',
  AMEND_QTY_INCREASE: 'Order amend (quantity increase) is not supported.',
  AMEND_NO_CHANGE: 'The requested action would change no state; rejecting',
  AMEND_PENDING_OPO: 'Order amend (pending OPO order) is not supported.',
  // The one filter answered under -2038 instead of -1013 (binance-facts §1.1).
  MAX_NUM_ORDER_AMENDS: 'Filter failure: MAX_NUM_ORDER_AMENDS',
} as const;

export type MatchingEngineMessage = keyof typeof MATCHING_ENGINE_MESSAGES;

const matchingEngine = (m: MatchingEngineMessage): string => MATCHING_ENGINE_MESSAGES[m];

export const EXCHANGE_ERRORS = {
  // -10xx: general server or network issues
  UNKNOWN_ERROR: row(500, -1000, 'An unknown error occurred while processing the request.'),
  UNKNOWN_ENDPOINT: row(404, -1000, (method: string, path: string) => `Unknown endpoint: ${method} ${path}`),
  FIREWALL_BLOCKED: row(403, -1000, 'Request blocked by the web application firewall.'),
  REQUEST_BODY_TOO_LARGE: row(413, -1000, 'Request body too large.'),
  // WebSocket stream URLs (/ws/<name>, /stream?streams=): a name this market does not serve, too many names.
  TOO_MANY_STREAMS: row(400, -1000, (limit: number) => `Too many streams; a connection carries at most ${limit}.`),
  // Requests node:http could not parse (answered as JSON like every other refusal).
  MALFORMED_HTTP_REQUEST: row(400, -1000, 'Malformed HTTP request.'),
  MISSING_HOST_HEADER: row(400, -1000, 'Malformed HTTP request: an HTTP/1.1 request must send a Host header.'),
  REQUEST_HEADERS_TOO_LARGE: row(431, -1000, 'Request header fields too large.'),
  REQUEST_URI_TOO_LONG: row(414, -1000, 'Request URI too long.'),
  REQUEST_TIMEOUT: row(408, -1000, 'Request timed out.'),
  // WebSocket API frames that are not a request (ws-api/): not JSON, not an object, a bad id,
  // method or params (-1135 is the JSON request error), or a method the API does not have. The
  // docs show neither answer; these are choices (see ws-api/ws-api-connection.ts).
  WS_API_UNKNOWN_METHOD: bad(-1000, (method: string) => `Unknown method: ${method}`),
  UNAUTHORIZED: row(401, -1002, 'You are not authorized to execute this request.'),
  // exsim's control plane (/exsim/v1/..., src/serve/control/control-plane.ts): not Binance's; its own texts.
  CONTROL_DISABLED: row(403, -1002, 'The exsim control API is off: start the server with --admin-key.'),
  CLOCK_RUNNING: bad(-1000, 'The clock is running: pause it (POST /exsim/v1/clock/pause) or serve with --clock manual to move it by hand.'),
  CONTROL_REFUSED: bad(-1000, (why: string) => `Control request refused: ${why}`),
  CONTROL_AUTH_FAILURES: row(
    429,
    -1003,
    (limit: number, seconds: number) => `Too many failed control authentications; current limit is ${limit} per ${seconds} seconds per IP.`,
  ),
  TOO_MUCH_REQUEST_WEIGHT: row(
    429,
    -1003,
    (limit: number, period: string) =>
      `Too much request weight used; current limit is ${limit} request weight per ${period}. Please use WebSocket Streams for live updates to avoid polling the API.`,
  ),
  TOO_MANY_REQUESTS: row(
    429,
    -1003,
    (limit: number, period: string) =>
      `Too many requests; current limit is ${limit} requests per ${period}. Please use WebSocket Streams for live updates to avoid polling the API.`,
  ),
  IP_BANNED: row(
    418,
    -1003,
    (untilMs: number) => `Way too much request weight used; IP banned until ${untilMs}. Please use WebSocket Streams for live updates to avoid bans.`,
  ),
  TOO_MUCH_UID_WEIGHT: row(
    429,
    -1003,
    (limit: number, intervalNum: number, interval: string) => `Too much request weight used; current limit is ${limit} request weight per ${intervalNum} ${interval} per UID.`,
  ),
  TOO_MANY_FUNDING_RATE_REQUESTS: row(
    429,
    -1003,
    (limit: number, intervalNum: number, interval: string) => `Too many requests; current limit of funding rate endpoints is ${limit} requests per ${intervalNum} ${interval}.`,
  ),
  // WebSocket handshakes past the per-IP limits (Binance: 300 attempts per 5 minutes per IP).
  TOO_MANY_CONNECTION_ATTEMPTS: row(429, -1003, (limit: number, minutes: number) => `Too many connection attempts; current limit is ${limit} per ${minutes} MINUTE per IP.`),
  TOO_MANY_OPEN_CONNECTIONS: row(429, -1003, (limit: number) => `Too many open connections; current limit is ${limit} per IP.`),
  ENGINE_TIMEOUT: row(503, -1007, 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.'),
  FILTER_FAILURE: bad(-1013, (filter: string) => `Filter failure: ${filter}`),
  STP_MODE_NOT_ALLOWED: bad(-1013, 'This symbol does not allow the specified self-trade prevention mode.'),
  UNSUPPORTED_ORDER_COMBINATION: bad(-1014, 'Unsupported order combination.'),
  TOO_MANY_ORDERS: row(429, -1015, (limit: number, period: string) => `Too many new orders; current limit is ${limit} orders per ${period}.`),
  TIMESTAMP_OUTSIDE_RECV_WINDOW: bad(-1021, 'Timestamp for this request is outside of the recvWindow.'),
  TIMESTAMP_AHEAD_OF_SERVER: bad(-1021, "Timestamp for this request was 1000ms ahead of the server's time."),
  INVALID_SIGNATURE: bad(-1022, 'Signature for this request is not valid.'),
  // -11xx: request issues
  ILLEGAL_CHARS_IN_PAYLOAD: bad(-1100, 'Illegal characters found in a parameter.'),
  ILLEGAL_CHARS: bad(-1100, (name: string, legalRange: string) => `Illegal characters found in parameter '${name}'; legal range is '${legalRange}'.`),
  DUPLICATE_SIGNATURE: bad(-1101, 'Duplicate values for a parameter detected.'),
  DUPLICATE_PARAMETER: bad(-1101, (name: string) => `Duplicate values for parameter '${name}'.`),
  TOO_MANY_PARAMETERS: bad(-1101, (expected: number, received: number) => `Too many parameters; expected '${expected}' and received '${received}'.`),
  MANDATORY_PARAMETER: bad(-1102, (name: string) => `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`),
  EITHER_PARAMETER_REQUIRED: bad(-1102, (a: string, b: string) => `Param '${a}' or '${b}' must be sent, but both were empty/null!`),
  MALFORMED_FIELD: bad(-1102, 'Field value was empty or malformed.'),
  MANDATORY_PARAMETER_MISSING: bad(-1102, 'A mandatory parameter was not sent, was empty/null, or malformed.'),
  PEG_OFFSET_TOO_LARGE: bad(-1102, (name: string, max: number) => `'${name}' contains unexpected value. Cannot be greater than ${max}.`),
  UNREAD_PARAMETERS: bad(-1104, (read: number, sent: number) => `Not all sent parameters were read; read '${read}' parameter(s) but was sent '${sent}'.`),
  EMPTY_PARAMETER: bad(-1105, (name: string) => `Parameter '${name}' was empty.`),
  PARAMETER_NOT_REQUIRED: bad(-1106, (name: string) => `Parameter '${name}' sent when not required.`),
  PARAMETER_OVERFLOW: bad(-1108, (name: string) => `Parameter '${name}' overflowed.`),
  TOO_MUCH_PRECISION: bad(-1111, (name: string) => `Parameter '${name}' has too much precision.`),
  INVALID_TIME_IN_FORCE: bad(-1115, 'Invalid timeInForce.'),
  INVALID_ORDER_TYPE: bad(-1116, 'Invalid orderType.'),
  INVALID_SIDE: bad(-1117, 'Invalid side.'),
  EMPTY_NEW_CLIENT_ORDER_ID: bad(-1118, 'New client order ID was empty.'),
  EMPTY_ORIG_CLIENT_ORDER_ID: bad(-1119, 'Original client order ID was empty.'),
  INVALID_INTERVAL: bad(-1120, 'Invalid interval.'),
  INVALID_SYMBOL: bad(-1121, 'Invalid symbol.'),
  INVALID_SYMBOL_STATUS: bad(-1122, 'Invalid symbolStatus.'),
  INVALID_LISTEN_KEY: bad(-1125, 'This listenKey does not exist.'),
  TIME_SPAN_TOO_LONG: bad(-1127, (hours: number) => `More than ${hours} hours between startTime and endTime.`),
  OPTIONAL_PARAMETERS_INVALID: bad(-1128, 'Combination of optional parameters invalid.'),
  STOP_LIMIT_TIME_IN_FORCE_MISSING: bad(-1128, "Combination of optional parameters invalid. Recommendation: 'stopLimitTimeInForce' should also be sent."),
  MUST_BOTH_BE_SENT: bad(-1128, (a: string, b: string) => `Combination of optional fields invalid. Recommendation: '${a}' and '${b}' must both be sent.`),
  SEND_TOGETHER: bad(-1128, (names: readonly string[]) => `Fields [${names.join(', ')}] must be sent together or omitted entirely.`),
  INVALID_PARAMETER_DATA: bad(-1130, (name: string) => `Data sent for parameter '${name}' is not valid.`),
  BAD_RECV_WINDOW: bad(-1131, "'recvWindow' must be less than 60000."),
  BAD_STRATEGY_TYPE: bad(-1134, 'strategyType was less than 1000000.'),
  INVALID_JSON: bad(-1135, (name: string) => `JSON sent for parameter '${name}' is not valid`),
  INVALID_JSON_REQUEST: bad(-1135, 'Invalid JSON Request'),
  INVALID_TICKER_TYPE: bad(-1139, 'Invalid ticker type.'),
  INVALID_CANCEL_RESTRICTIONS: bad(-1145, 'Invalid cancelRestrictions'),
  DUPLICATE_SYMBOLS: bad(-1151, 'Symbol is present multiple times in the list.'),
  OCO_ORDER_TYPE_REJECTED: bad(-1158, 'Order type not supported in OCO.'),
  OCO_ICEBERG_NEEDS_GTC: bad(-1160, "Parameter 'icebergQty' is not supported if 'timeInForce' is not GTC."),
  BUY_OCO_LIMIT_MUST_BE_BELOW: bad(-1165, 'A limit order in a buy OCO must be below.'),
  SELL_OCO_LIMIT_MUST_BE_ABOVE: bad(-1166, 'A limit order in a sell OCO must be above.'),
  OCO_BOTH_LIMIT: bad(-1168, 'At least one OCO order must be contingent.'),
  INVALID_TIME_UNIT: bad(-1194, 'Invalid value for time unit; expected either MICROSECOND or MILLISECOND.'),
  BUY_OCO_STOP_LOSS_MUST_BE_ABOVE: bad(-1196, 'A stop loss order in a buy OCO must be above.'),
  SELL_OCO_STOP_LOSS_MUST_BE_BELOW: bad(-1197, 'A stop loss order in a sell OCO must be below.'),
  BUY_OCO_TAKE_PROFIT_MUST_BE_BELOW: bad(-1198, 'A take profit order in a buy OCO must be below.'),
  SELL_OCO_TAKE_PROFIT_MUST_BE_ABOVE: bad(-1199, 'A take profit order in a sell OCO must be above.'),
  INVALID_PEG_PRICE_TYPE: bad(-1210, 'Invalid pegPriceType.'),
  INVALID_PEG_OFFSET_TYPE: bad(-1211, 'Invalid pegOffsetType.'),
  SYMBOL_STATUS_MISMATCH: bad(-1220, "The symbol's status does not match the requested symbolStatus."),
  OPO_WORKING_MUST_BE_BUY: bad(-1222, 'Working order in an OPO list must be a bid.'),
  OPO_PENDING_MUST_BE_SELL: bad(-1223, 'Pending orders in an OPO list must be asks.'),
  PENDING_PARAMETER_NOT_REQUIRED: bad(-1225, (name: string) => `Pending orders should not include the '${name}' tag.`),
  // -20xx: processing issues
  NEW_ORDER_REJECTED: bad(-2010, matchingEngine),
  CANCEL_REJECTED: bad(-2011, matchingEngine),
  NO_SUCH_ORDER: bad(-2013, 'Order does not exist.'),
  NO_SUCH_ORDER_LIST: bad(-2013, 'Order list does not exist.'),
  BAD_API_KEY_FORMAT: row(401, -2014, 'API-key format invalid.'),
  REJECTED_API_KEY: row(401, -2015, 'Invalid API-key, IP, or permissions for action.'),
  // Status 400 (both parts failed) or 429 (STOP_ON_FAILURE over the order limit): cancel-replace.ts.
  CANCEL_REPLACE_FAILED: bad(-2022, 'Order cancel-replace failed.'),
  // Status 409, or 429 as above.
  CANCEL_REPLACE_PARTIALLY_FAILED: row(409, -2021, 'Order cancel-replace partially failed.'),
  ORDER_AMEND_REJECTED: bad(-2038, matchingEngine),
  CLIENT_ORDER_ID_MISMATCH: bad(-2039, 'Client order ID is not correct for this order ID.'),
  // WebSocket API user data stream subscriptions (errors.md -2035, -2036, -2042; -1191 for the 1000 active).
  SUBSCRIPTION_ACTIVE: bad(-2035, 'User Data Stream subscription already active.'),
  SUBSCRIPTION_INACTIVE: bad(-2036, 'User Data Stream subscription not active.'),
  MAXIMUM_SUBSCRIPTION_IDS: bad(-2042, 'Maximum subscription ID reached for this connection.'),
  TOO_MANY_SUBSCRIPTIONS: bad(-1191, (limit: number) => `Too many subscriptions. Connection may create up to '${limit}' subscriptions at a time.`),
  NO_REFERENCE_PRICE: bad(-2043, "This symbol doesn't have a reference price."),
  // ---- USDⓈ-M futures (/fapi; futures facts §5, §8: each filter rule has its own code, not -1013) ----
  // The futures -1125 names the futures POST; the backticks are in the documented text.
  FUTURES_INVALID_LISTEN_KEY: bad(-1125, 'This listenKey does not exist. Please use `POST /fapi/v1/listenKey` to recreate `listenKey`'),
  FUTURES_PRECISION_OVER_MAX: bad(-1111, 'Precision is over the maximum defined for this asset.'),
  FUTURES_BALANCE_INSUFFICIENT: bad(-2018, 'Balance is insufficient.'),
  FUTURES_MARGIN_INSUFFICIENT: bad(-2019, 'Margin is insufficient.'),
  FUTURES_WOULD_IMMEDIATELY_TRIGGER: bad(-2021, 'Order would immediately trigger.'),
  FUTURES_REDUCE_ONLY_REJECTED: bad(-2022, 'ReduceOnly Order is rejected.'),
  FUTURES_MAX_OPEN_ORDERS: bad(-2025, 'Reach max open order limit.'),
  FUTURES_MAX_POSITION_AT_LEVERAGE: bad(-2027, 'Exceeded the maximum allowable position at current leverage.'),
  FUTURES_LEVERAGE_TOO_SMALL: bad(-2028, 'Leverage is smaller than permitted: insufficient margin balance.'),
  // The engine's choice for reduceOnly in hedge mode (§4: not accepted there; the code is not documented).
  FUTURES_REDUCE_ONLY_IN_HEDGE_MODE: bad(-1106, "Parameter 'reduceonly' sent when not required."),
  FUTURES_INVALID_LEVERAGE: bad(-4028, (leverage: number) => `Leverage ${leverage} is not valid`),
  FUTURES_CLIENT_ORDER_ID_INVALID: bad(-4015, 'Client order id is not valid.'),
  // A newClientOrderId already used by an open order (Binance's DUPLICATED_CLIENT_ORDER_ID, text as its answers show it).
  FUTURES_CLIENT_ORDER_ID_DUPLICATED: bad(-4116, 'ClientOrderId is duplicated.'),
  FUTURES_INVALID_SYMBOL_STATUS: bad(-1122, 'Invalid symbol status.'),
  // The 200-conditional-order cap (CL 2025-12-29) kept the old stop-limit code and text.
  FUTURES_MAX_ALGO_ORDERS: bad(-4045, 'Reach max stop order limit.'),
  // Binance's name PRICE_LESS_THAN_ZERO; sent for a price of zero (a minus sign is -1100 before it).
  FUTURES_PRICE_LESS_THAN_ZERO: bad(-4001, 'Price less than 0.'),
  FUTURES_PRICE_GREATER_THAN_MAX: bad(-4002, 'Price greater than max price.'),
  FUTURES_QUANTITY_LESS_THAN_ZERO: bad(-4003, 'Quantity less than zero.'),
  FUTURES_QUANTITY_LESS_THAN_MIN: bad(-4004, 'Quantity less than min quantity.'),
  FUTURES_QUANTITY_GREATER_THAN_MAX: bad(-4005, 'Quantity greater than max quantity.'),
  FUTURES_PRICE_LESS_THAN_MIN: bad(-4013, 'Price less than min price.'),
  FUTURES_PRICE_NOT_TICK: bad(-4014, 'Price not increased by tick size.'),
  FUTURES_PRICE_ABOVE_MULTIPLIER_CAP: bad(-4016, 'Price is higher than mark price multiplier cap.'),
  FUTURES_QUANTITY_NOT_STEP: bad(-4023, 'Qty not increased by step size.'),
  FUTURES_PRICE_BELOW_MULTIPLIER_FLOOR: bad(-4024, 'Price is lower than mark price multiplier floor.'),
  FUTURES_NO_NEED_TO_CHANGE_MARGIN_TYPE: bad(-4046, 'No need to change margin type.'),
  FUTURES_MARGIN_TYPE_OPEN_ORDERS: bad(-4047, 'Margin type cannot be changed if there exists open orders.'),
  FUTURES_MARGIN_TYPE_POSITION: bad(-4048, 'Margin type cannot be changed if there exists position.'),
  FUTURES_ADD_MARGIN_ISOLATED_ONLY: bad(-4049, 'Add margin only support for isolated position.'),
  FUTURES_ISOLATED_BALANCE_INSUFFICIENT: bad(-4051, 'Isolated balance insufficient.'),
  FUTURES_NO_NEED_TO_CHANGE_POSITION_SIDE: bad(-4059, 'No need to change position side.'),
  FUTURES_INVALID_POSITION_SIDE: bad(-4060, 'Invalid position side.'),
  FUTURES_POSITION_SIDE_MISMATCH: bad(-4061, "Order's position side does not match user's setting."),
  FUTURES_POSITION_SIDE_OPEN_ORDERS: bad(-4067, 'Position side cannot be changed if there exists open orders.'),
  FUTURES_POSITION_SIDE_POSITION: bad(-4068, 'Position side cannot be changed if there exists position.'),
  FUTURES_REDUCE_ONLY_FAILED: bad(-4118, 'ReduceOnly Order Failed. Please check your existing position and open orders'),
  FUTURES_USE_ALGO_ORDER_API: bad(-4120, 'Order type not supported for this endpoint. Please use the Algo Order API endpoints instead.'),
  FUTURES_PERCENT_PRICE_COUNTERPARTY: bad(-4131, "The counterparty's best price does not meet the PERCENT_PRICE filter limit"),
  FUTURES_ISOLATED_LEVERAGE_REDUCTION: bad(-4161, 'Leverage reduction is not supported in Isolated Margin Mode with open positions'),
  FUTURES_MIN_NOTIONAL: bad(-4164, (notional: string) => `Order's notional must be no smaller than ${notional} (unless you choose reduce only)`),
  FUTURES_FOK_REJECTED: bad(-5021, 'Due to the order could not be filled immediately, the FOK order has been rejected.'),
  FUTURES_GTX_REJECTED: bad(-5022, 'Due to the order could not be executed as maker, the Post Only order will be rejected.'),
  FUTURES_ONLY_LIMIT_ORDER: bad(-5025, 'Only limit order is supported.'),
  FUTURES_NO_NEED_TO_MODIFY: bad(-5027, 'No need to modify the order.'),
  // The code is Binance's (change log 2026-09-15); its text is not published (**chosen**).
  FUTURES_MODIFY_NOT_REDUCE_ONLY: bad(-5047, 'The original order is not a reduce only order.'),
  FUTURES_GTD_OUT_OF_BOUNDS: bad(
    -5040,
    'The goodTillDate timestamp must be greater than the current time plus 600 seconds and smaller than 253402300799000 (UTC 9999-12-31 23:59:59)',
  ),
  // /sapi transfers between the spot and futures wallets (a /sapi code: the amount exceeds what the source wallet can give).
  ASSET_TRANSFER_INSUFFICIENT: bad(-5013, 'Asset transfer failed: insufficient balance'),
  // -160xx: fiat
  FIAT_NOT_ENOUGH_LIMIT: bad(-16007, 'Not enough limit.'),
  FIAT_NOT_KYC: bad(-16009, 'Not passed KYC or KYB.'),
  FIAT_NOT_SUPPORTED: bad(-16010, 'Currency or payment method not supported.'),
  FIAT_NO_CHANNEL: bad(-16012, 'No channel supported.'),
} as const satisfies Record<string, ErrorDef>;

export type ErrorKey = keyof typeof EXCHANGE_ERRORS;
type ArgsOf<K extends ErrorKey> = (typeof EXCHANGE_ERRORS)[K]['msg'] extends (...args: infer A) => string ? A : [];
/** Keys whose message is fixed text (usable as a parameter row's `empty` / `invalid` error). */
export type FixedErrorKey = { [K in ErrorKey]: (typeof EXCHANGE_ERRORS)[K]['msg'] extends string ? K : never }[ErrorKey];

/** A fresh ApiError for `key` (a fresh one each time: a caller may attach `data`). */
export function apiError<K extends ErrorKey>(key: K, ...args: ArgsOf<K>): ApiError {
  const def: ErrorDef = EXCHANGE_ERRORS[key];
  const msg = typeof def.msg === 'string' ? def.msg : (def.msg as (...a: readonly unknown[]) => string)(...args);
  return new ApiError(def.status, def.code, msg);
}

/** The same error with another HTTP status and/or a `data` body (cancel-replace, engine refusals). */
export function withDetails(error: ApiError, details: { readonly status?: number; readonly data?: unknown }): ApiError {
  return new ApiError(details.status ?? error.status, error.code, error.msg, details.data ?? error.data);
}

/**
 * A parameter row's own error for an empty or invalid value: the code and text of a fixed-text
 * row, without its status (every parameter error is a 400).
 */
export interface ErrorTemplate {
  readonly code: number;
  readonly msg: string;
}

export function templateOf(key: FixedErrorKey): ErrorTemplate {
  const def = EXCHANGE_ERRORS[key];
  return { code: def.code, msg: def.msg };
}

/** The error a parameter row's template names (400). */
export function errorOf(template: ErrorTemplate): ApiError {
  return new ApiError(400, template.code, template.msg);
}
