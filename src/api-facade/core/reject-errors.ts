/**
 * One table from the engine's refusal reasons to rows of the error table (exchange-errors.ts:
 * binance-facts §1 filter strings, §2.2 codes, §2.3 matching-engine messages). The engine knows
 * nothing of codes; this is the only place reasons become wire errors.
 *
 * Context decides the code of a matching-engine refusal: -2010 NEW_ORDER_REJECTED when placing,
 * -2011 CANCEL_REJECTED when canceling, -2038 ORDER_AMEND_REJECTED when amending (keepPriority,
 * since 2025-04-07; its texts are the §2.3 ones, e.g. "Order amend (quantity increase) is not
 * supported."). MAX_NUM_ORDER_AMENDS is the one filter answered with -2038 instead of -1013
 * (binance-facts §1.1). Filter failures are -1013 before the engine either way.
 * Where the docs show a message in markdown (backticks around LOT_SIZE), the wire text here has
 * none (the literal text is unconfirmed; binance-facts §2.3).
 */
import type { RejectReason, OrderType } from '../../engine/index.ts';
import type { ApiError } from './api-error.ts';
import { apiError, withDetails, type MatchingEngineMessage } from './exchange-errors.ts';

/** What the refused command was: it picks -2010 versus -2011 and the unknown-order text. */
export type RejectContext = 'place' | 'cancel' | 'query' | 'amend';

/** A matching-engine text (code by context), or an error of its own whatever the context. */
type Rule = MatchingEngineMessage | (() => ApiError);

/** Every reason has a row: the Record type makes a new reason a compile error until mapped. */
// Futures reasons (FUTURES_*) come only from margin symbols, which the /fapi rows answer with
// futures/trading/futures-reject-codes.ts; a spot row never meets one.
const RULES: Record<Exclude<RejectReason, `FILTER_${string}` | `FUTURES_${string}`>, Rule> = {
  UNKNOWN_SYMBOL: () => apiError('INVALID_SYMBOL'),
  UNKNOWN_ACCOUNT: () => apiError('REJECTED_API_KEY'),
  ACCOUNT_EXISTS: () => withDetails(apiError('UNKNOWN_ERROR'), { status: 400 }),
  UNKNOWN_ASSET: () => withDetails(apiError('UNKNOWN_ERROR'), { status: 400 }),
  UNKNOWN_ORDER: 'UNKNOWN_ORDER',
  DUPLICATE_ORDER: 'DUPLICATE_ORDER',
  MARKET_CLOSED: 'MARKET_CLOSED',
  INSUFFICIENT_BALANCE: 'INSUFFICIENT_BALANCE',
  ACCOUNT_CANNOT_TRADE: 'ACCOUNT_CANNOT_TRADE',
  SYMBOL_NOT_PERMITTED: 'SYMBOL_NOT_PERMITTED',
  ORDER_TYPE_NOT_SUPPORTED: () => apiError('UNSUPPORTED_ORDER_COMBINATION'), // refined by order type below
  QUOTE_ORDER_QTY_MARKET_NOT_SUPPORTED: 'QUOTE_ORDER_QTY_MARKET_NOT_SUPPORTED',
  UNSUPPORTED_ORDER_COMBINATION: () => apiError('UNSUPPORTED_ORDER_COMBINATION'),
  STP_MODE_NOT_ALLOWED: () => apiError('STP_MODE_NOT_ALLOWED'),
  NOTIONAL_NOT_POSITIVE: 'NOTIONAL_NOT_POSITIVE',
  WOULD_MATCH_AND_TAKE: 'WOULD_MATCH_AND_TAKE',
  CANCEL_ID_MISSING: () => apiError('EITHER_PARAMETER_REQUIRED', 'origClientOrderId', 'orderId'),
  CANCEL_RESTRICTIONS_NOT_MET: 'CANCEL_RESTRICTIONS_NOT_MET',
  LIQUIDITY_BELOW_LOT_SIZE: 'LIQUIDITY_BELOW_LOT_SIZE',
  LIQUIDITY_BELOW_MARKET_LOT_SIZE: 'LIQUIDITY_BELOW_MARKET_LOT_SIZE',
  LIQUIDITY_BELOW_SYMBOL_MIN_QTY: 'LIQUIDITY_BELOW_SYMBOL_MIN_QTY',
  INVALID_AMOUNT: () => apiError('MALFORMED_FIELD'),
  STOP_PRICE_WOULD_TRIGGER_IMMEDIATELY: 'STOP_PRICE_WOULD_TRIGGER_IMMEDIATELY',
  TRAILING_STOP_NOT_SUPPORTED: 'TRAILING_STOP_NOT_SUPPORTED',
  ICEBERG_NOT_SUPPORTED: 'ICEBERG_NOT_SUPPORTED',
  ICEBERG_QTY_EXCEEDS_QTY: 'ICEBERG_QTY_EXCEEDS_QTY',
  PEG_NOT_SUPPORTED: 'PEG_NOT_SUPPORTED',
  PEG_NOT_ALLOWED_FOR_TYPE: 'PEG_NOT_ALLOWED_FOR_TYPE',
  PEG_NOT_ALLOWED_WITH_TYPE: 'PEG_NOT_ALLOWED_WITH_TYPE',
  PEG_LIQUIDITY_TOO_LOW: 'PEG_LIQUIDITY_TOO_LOW',
  OCO_NOT_SUPPORTED: 'OCO_NOT_SUPPORTED',
  OTO_NOT_SUPPORTED: 'OTO_NOT_SUPPORTED',
  OPO_NOT_SUPPORTED: 'OPO_NOT_SUPPORTED',
  OCO_ORDER_TYPE_REJECTED: () => apiError('OCO_ORDER_TYPE_REJECTED'),
  OCO_BOTH_LIMIT: () => apiError('OCO_BOTH_LIMIT'),
  OCO_ICEBERG_NEEDS_GTC: () => apiError('OCO_ICEBERG_NEEDS_GTC'),
  BUY_OCO_LIMIT_MUST_BE_BELOW: () => apiError('BUY_OCO_LIMIT_MUST_BE_BELOW'),
  SELL_OCO_LIMIT_MUST_BE_ABOVE: () => apiError('SELL_OCO_LIMIT_MUST_BE_ABOVE'),
  BUY_OCO_STOP_LOSS_MUST_BE_ABOVE: () => apiError('BUY_OCO_STOP_LOSS_MUST_BE_ABOVE'),
  SELL_OCO_STOP_LOSS_MUST_BE_BELOW: () => apiError('SELL_OCO_STOP_LOSS_MUST_BE_BELOW'),
  BUY_OCO_TAKE_PROFIT_MUST_BE_BELOW: () => apiError('BUY_OCO_TAKE_PROFIT_MUST_BE_BELOW'),
  SELL_OCO_TAKE_PROFIT_MUST_BE_ABOVE: () => apiError('SELL_OCO_TAKE_PROFIT_MUST_BE_ABOVE'),
  OCO_BAD_PRICES: 'OCO_BAD_PRICES',
  OPO_WORKING_MUST_BE_BUY: () => apiError('OPO_WORKING_MUST_BE_BUY'),
  OPO_PENDING_MUST_BE_SELL: () => apiError('OPO_PENDING_MUST_BE_SELL'),
  ORDER_LIST_BAD_WORKING_TYPE: () => apiError('INVALID_ORDER_TYPE'),
  ORDER_LIST_BAD_LEG_COUNT: () => apiError('MANDATORY_PARAMETER_MISSING'),
  UNKNOWN_ORDER_LIST: 'UNKNOWN_ORDER_LIST',
  DUPLICATE_ORDER_LIST: 'DUPLICATE_ORDER',
  CANCEL_REPLACE_NOT_SUPPORTED: 'CANCEL_REPLACE_NOT_SUPPORTED',
  AMEND_NOT_SUPPORTED: 'AMEND_NOT_SUPPORTED',
  AMEND_QTY_INCREASE: 'AMEND_QTY_INCREASE',
  AMEND_NO_CHANGE: 'AMEND_NO_CHANGE',
  AMEND_PENDING_OPO: 'AMEND_PENDING_OPO',
  CLIENT_ORDER_ID_MISMATCH: () => apiError('CLIENT_ORDER_ID_MISMATCH'),
};

/** The "not supported for this symbol" texts of §2.3, by order type. */
const TYPE_NOT_SUPPORTED: Partial<Record<OrderType, MatchingEngineMessage>> = {
  MARKET: 'MARKET_NOT_SUPPORTED',
  STOP_LOSS: 'STOP_LOSS_NOT_SUPPORTED',
  STOP_LOSS_LIMIT: 'STOP_LOSS_LIMIT_NOT_SUPPORTED',
  TAKE_PROFIT: 'TAKE_PROFIT_NOT_SUPPORTED',
  TAKE_PROFIT_LIMIT: 'TAKE_PROFIT_LIMIT_NOT_SUPPORTED',
};

/** A matching-engine text under the code of what was refused. */
export function matchingEngineError(message: MatchingEngineMessage, context: RejectContext): ApiError {
  if (context === 'place') return apiError('NEW_ORDER_REJECTED', message);
  if (context === 'amend') return apiError('ORDER_AMEND_REJECTED', message);
  return apiError('CANCEL_REJECTED', message);
}

/**
 * The wire error for an engine refusal. `orderType` refines ORDER_TYPE_NOT_SUPPORTED; the
 * context picks -2010 / -2011, and for queries an unknown order is -2013 "Order does not exist.".
 */
export function rejectToApiError(reason: RejectReason, context: RejectContext, orderType?: OrderType): ApiError {
  if (reason === 'FILTER_MAX_NUM_ORDER_AMENDS') return apiError('ORDER_AMEND_REJECTED', 'MAX_NUM_ORDER_AMENDS');
  if (reason.startsWith('FILTER_')) return apiError('FILTER_FAILURE', reason.slice('FILTER_'.length));
  if (reason === 'ORDER_TYPE_NOT_SUPPORTED') {
    const message = orderType === undefined ? undefined : TYPE_NOT_SUPPORTED[orderType];
    if (message !== undefined) return apiError('NEW_ORDER_REJECTED', message);
  }
  const rule = RULES[reason as keyof typeof RULES];
  if (rule === undefined) return withDetails(apiError('UNKNOWN_ERROR'), { status: 400 });
  if (typeof rule === 'function') return rule();
  if (reason === 'UNKNOWN_ORDER' && context === 'query') return apiError('NO_SUCH_ORDER');
  return matchingEngineError(rule, context);
}
