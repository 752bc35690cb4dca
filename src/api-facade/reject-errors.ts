/**
 * One table from the engine's refusal reasons to what the real exchange answers (binance-facts
 * §1 filter strings, §2.2 codes, §2.3 matching-engine messages). The engine knows nothing of
 * codes; this is the only place reasons become wire errors.
 *
 * Context decides the code of a matching-engine refusal: -2010 NEW_ORDER_REJECTED when placing,
 * -2011 CANCEL_REJECTED when canceling, -2038 ORDER_AMEND_REJECTED when amending (keepPriority,
 * since 2025-04-07; its texts are the §2.3 ones, e.g. "Order amend (quantity increase) is not
 * supported."). MAX_NUM_ORDER_AMENDS is the one filter answered with -2038 instead of -1013
 * (binance-facts §1.1). Filter failures are -1013 before the engine either way.
 * Where the docs show a message in markdown (backticks around LOT_SIZE), the wire text here has
 * none (the literal text is unconfirmed; binance-facts §2.3).
 */
import type { RejectReason } from '../engine/reject-reason.ts';
import type { OrderType } from '../engine/types.ts';
import { ApiError } from './api-error.ts';

/** What the refused command was: it picks -2010 versus -2011 and the unknown-order text. */
export type RejectContext = 'place' | 'cancel' | 'query' | 'amend';

type Rule = { kind: 'engine'; msg: string } | { kind: 'fixed'; status: number; code: number; msg: string };

const ENGINE = (msg: string): Rule => ({ kind: 'engine', msg });
const FIXED = (status: number, code: number, msg: string): Rule => ({ kind: 'fixed', status, code, msg });

/** Every reason has a row: the Record type makes a new reason a compile error until mapped. */
const RULES: Record<Exclude<RejectReason, `FILTER_${string}`>, Rule> = {
  UNKNOWN_SYMBOL: FIXED(400, -1121, 'Invalid symbol.'),
  UNKNOWN_ACCOUNT: FIXED(401, -2015, 'Invalid API-key, IP, or permissions for action.'),
  ACCOUNT_EXISTS: FIXED(400, -1000, 'An unknown error occurred while processing the request.'),
  UNKNOWN_ASSET: FIXED(400, -1000, 'An unknown error occurred while processing the request.'),
  UNKNOWN_ORDER: ENGINE('Unknown order sent.'),
  DUPLICATE_ORDER: ENGINE('Duplicate order sent.'),
  MARKET_CLOSED: ENGINE('Market is closed.'),
  INSUFFICIENT_BALANCE: ENGINE('Account has insufficient balance for requested action.'),
  ACCOUNT_CANNOT_TRADE: ENGINE('This account may not place or cancel orders.'),
  SYMBOL_NOT_PERMITTED: ENGINE('This symbol is not permitted for this account.'),
  ORDER_TYPE_NOT_SUPPORTED: ENGINE('Unsupported order combination'), // refined by order type below
  QUOTE_ORDER_QTY_MARKET_NOT_SUPPORTED: ENGINE('Quote order qty market orders are not support for this symbol.'),
  UNSUPPORTED_ORDER_COMBINATION: FIXED(400, -1014, 'Unsupported order combination.'),
  STP_MODE_NOT_ALLOWED: FIXED(400, -1013, 'This symbol does not allow the specified self-trade prevention mode.'),
  NOTIONAL_NOT_POSITIVE: ENGINE('Price * QTY is zero or less.'),
  WOULD_MATCH_AND_TAKE: ENGINE('Order would immediately match and take.'),
  CANCEL_ID_MISSING: FIXED(400, -1102, "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!"),
  CANCEL_RESTRICTIONS_NOT_MET: ENGINE('Order was not canceled due to cancel restrictions.'),
  LIQUIDITY_BELOW_LOT_SIZE: ENGINE('Order book liquidity is less than LOT_SIZE filter minimum quantity.'),
  LIQUIDITY_BELOW_MARKET_LOT_SIZE: ENGINE('Order book liquidity is less than MARKET_LOT_SIZE filter minimum quantity.'),
  LIQUIDITY_BELOW_SYMBOL_MIN_QTY: ENGINE('Order book liquidity is less than symbol minimum quantity.'),
  INVALID_AMOUNT: FIXED(400, -1102, 'Field value was empty or malformed.'),
  STOP_PRICE_WOULD_TRIGGER_IMMEDIATELY: ENGINE('Order would trigger immediately.'),
  TRAILING_STOP_NOT_SUPPORTED: ENGINE('Trailing stop orders are not supported for this symbol.'),
  ICEBERG_NOT_SUPPORTED: ENGINE('Iceberg orders are not supported for this symbol.'),
  ICEBERG_QTY_EXCEEDS_QTY: ENGINE('IcebergQty exceeds QTY.'),
  PEG_NOT_SUPPORTED: ENGINE('Pegged orders are not supported for this symbol.'),
  PEG_NOT_ALLOWED_FOR_TYPE: ENGINE('This order type may not use pegged price.'),
  PEG_NOT_ALLOWED_WITH_TYPE: ENGINE('This price peg cannot be used with this order type.'),
  PEG_LIQUIDITY_TOO_LOW: ENGINE('Order book liquidity is too low for this pegged order.'),
  OCO_NOT_SUPPORTED: ENGINE('OCO orders are not supported for this symbol'),
  // The docs list no OTO-specific text; the OCO wording is the closest documented one.
  OTO_NOT_SUPPORTED: ENGINE('OTO orders are not supported for this symbol.'),
  OPO_NOT_SUPPORTED: ENGINE('OPO orders are not supported for this symbol.'),
  OCO_ORDER_TYPE_REJECTED: FIXED(400, -1158, 'Order type not supported in OCO.'),
  OCO_BOTH_LIMIT: FIXED(400, -1168, 'At least one OCO order must be contingent.'),
  OCO_ICEBERG_NEEDS_GTC: FIXED(400, -1160, "Parameter 'icebergQty' is not supported if 'timeInForce' is not GTC."),
  BUY_OCO_LIMIT_MUST_BE_BELOW: FIXED(400, -1165, 'A limit order in a buy OCO must be below.'),
  SELL_OCO_LIMIT_MUST_BE_ABOVE: FIXED(400, -1166, 'A limit order in a sell OCO must be above.'),
  BUY_OCO_STOP_LOSS_MUST_BE_ABOVE: FIXED(400, -1196, 'A stop loss order in a buy OCO must be above.'),
  SELL_OCO_STOP_LOSS_MUST_BE_BELOW: FIXED(400, -1197, 'A stop loss order in a sell OCO must be below.'),
  BUY_OCO_TAKE_PROFIT_MUST_BE_BELOW: FIXED(400, -1198, 'A take profit order in a buy OCO must be below.'),
  SELL_OCO_TAKE_PROFIT_MUST_BE_ABOVE: FIXED(400, -1199, 'A take profit order in a sell OCO must be above.'),
  OCO_BAD_PRICES: ENGINE('The relationship of the prices for the orders is not correct.'),
  OPO_WORKING_MUST_BE_BUY: FIXED(400, -1222, 'Working order in an OPO list must be a bid.'),
  OPO_PENDING_MUST_BE_SELL: FIXED(400, -1223, 'Pending orders in an OPO list must be asks.'),
  ORDER_LIST_BAD_WORKING_TYPE: FIXED(400, -1116, 'Invalid orderType.'),
  ORDER_LIST_BAD_LEG_COUNT: FIXED(400, -1102, 'A mandatory parameter was not sent, was empty/null, or malformed.'),
  UNKNOWN_ORDER_LIST: ENGINE('Order list does not exist.'),
  DUPLICATE_ORDER_LIST: ENGINE('Duplicate order sent.'),
  CANCEL_REPLACE_NOT_SUPPORTED: ENGINE('Order cancel-replace is not supported for this symbol.'),
  AMEND_NOT_SUPPORTED: ENGINE('Order amend is not supported for this symbol.'),
  AMEND_QTY_INCREASE: ENGINE('Order amend (quantity increase) is not supported.'),
  AMEND_NO_CHANGE: ENGINE('The requested action would change no state; rejecting'),
  AMEND_PENDING_OPO: ENGINE('Order amend (pending OPO order) is not supported.'),
  CLIENT_ORDER_ID_MISMATCH: FIXED(400, -2039, 'Client order ID is not correct for this order ID.'),
};

/** The "not supported for this symbol" texts of §2.3, by order type. */
const TYPE_NOT_SUPPORTED: Partial<Record<OrderType, string>> = {
  MARKET: 'Market orders are not supported for this symbol.',
  STOP_LOSS: 'Stop loss orders are not supported for this symbol.',
  STOP_LOSS_LIMIT: 'Stop loss limit orders are not supported for this symbol.',
  TAKE_PROFIT: 'Take profit orders are not supported for this symbol.',
  TAKE_PROFIT_LIMIT: 'Take profit limit orders are not supported for this symbol.',
};

/**
 * The wire error for an engine refusal. `orderType` refines ORDER_TYPE_NOT_SUPPORTED; the
 * context picks -2010 / -2011, and for queries an unknown order is -2013 "Order does not exist.".
 */
export function rejectToApiError(reason: RejectReason, context: RejectContext, orderType?: OrderType): ApiError {
  if (reason === 'FILTER_MAX_NUM_ORDER_AMENDS') return new ApiError(400, -2038, 'Filter failure: MAX_NUM_ORDER_AMENDS');
  if (reason.startsWith('FILTER_')) return new ApiError(400, -1013, `Filter failure: ${reason.slice('FILTER_'.length)}`);
  const rule = RULES[reason as keyof typeof RULES];
  if (rule.kind === 'fixed') return new ApiError(rule.status, rule.code, rule.msg);
  if (reason === 'UNKNOWN_ORDER' && context === 'query') return new ApiError(400, -2013, 'Order does not exist.');
  if (reason === 'ORDER_TYPE_NOT_SUPPORTED') {
    const text = orderType === undefined ? undefined : TYPE_NOT_SUPPORTED[orderType];
    if (text === undefined) return new ApiError(400, -1014, 'Unsupported order combination.');
    return new ApiError(400, -2010, text);
  }
  const code = context === 'place' ? -2010 : context === 'amend' ? -2038 : -2011;
  return new ApiError(400, code, rule.msg);
}
