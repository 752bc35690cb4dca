/**
 * How the /fapi rows answer an engine refusal: each futures reject reason (the engine's
 * FuturesRejectReason) as its row of the error table, with its own -40xx/-20xx code (futures facts
 * §5, §8), never spot's -1013 / -2010. Reasons futures shares with spot (unknown order, duplicate
 * client id, closed market) answer with the futures codes too. The Record type makes a new
 * engine reason a compile error here until it is mapped.
 *
 * `futuresRefusal(context)` is the `Refusal` a /fapi handler passes to `call.send`.
 */
import type { FuturesRejectReason, RejectReason } from '../../../engine/index.ts';
import { type ApiError, apiError } from '../../core/index.ts';

const RULES: Record<FuturesRejectReason, (notional: string, leverage: number) => ApiError> = {
  FUTURES_NOT_A_MARGIN_SYMBOL: () => apiError('INVALID_SYMBOL'),
  FUTURES_INVALID_ORDER_TYPE: () => apiError('INVALID_ORDER_TYPE'),
  FUTURES_QTY_NOT_POSITIVE: () => apiError('FUTURES_QUANTITY_LESS_THAN_ZERO'),
  FUTURES_PRICE_LESS_THAN_MIN: () => apiError('FUTURES_PRICE_LESS_THAN_MIN'),
  FUTURES_PRICE_GREATER_THAN_MAX: () => apiError('FUTURES_PRICE_GREATER_THAN_MAX'),
  FUTURES_PRICE_NOT_ON_TICK: () => apiError('FUTURES_PRICE_NOT_TICK'),
  FUTURES_QTY_LESS_THAN_MIN: () => apiError('FUTURES_QUANTITY_LESS_THAN_MIN'),
  FUTURES_QTY_GREATER_THAN_MAX: () => apiError('FUTURES_QUANTITY_GREATER_THAN_MAX'),
  FUTURES_QTY_NOT_ON_STEP: () => apiError('FUTURES_QUANTITY_NOT_STEP'),
  FUTURES_MAX_OPEN_ORDERS: () => apiError('FUTURES_MAX_OPEN_ORDERS'),
  FUTURES_MIN_NOTIONAL: (notional) => apiError('FUTURES_MIN_NOTIONAL', notional),
  FUTURES_PRICE_ABOVE_MARK_CAP: () => apiError('FUTURES_PRICE_ABOVE_MULTIPLIER_CAP'),
  FUTURES_PRICE_BELOW_MARK_FLOOR: () => apiError('FUTURES_PRICE_BELOW_MULTIPLIER_FLOOR'),
  FUTURES_COUNTERPARTY_PRICE_OUTSIDE_PERCENT_PRICE: () => apiError('FUTURES_PERCENT_PRICE_COUNTERPARTY'),
  FUTURES_POSITION_SIDE_MISMATCH: () => apiError('FUTURES_POSITION_SIDE_MISMATCH'),
  FUTURES_REDUCE_ONLY_REJECTED: () => apiError('FUTURES_REDUCE_ONLY_REJECTED'),
  FUTURES_REDUCE_ONLY_IN_HEDGE_MODE: () => apiError('FUTURES_REDUCE_ONLY_IN_HEDGE_MODE'),
  FUTURES_MARGIN_INSUFFICIENT: () => apiError('FUTURES_MARGIN_INSUFFICIENT'),
  FUTURES_MAX_POSITION_AT_LEVERAGE: () => apiError('FUTURES_MAX_POSITION_AT_LEVERAGE'),
  FUTURES_LEVERAGE_TOO_SMALL: () => apiError('FUTURES_LEVERAGE_TOO_SMALL'),
  FUTURES_INVALID_LEVERAGE: (_n, leverage) => apiError('FUTURES_INVALID_LEVERAGE', leverage),
  FUTURES_POST_ONLY_WOULD_TAKE: () => apiError('FUTURES_GTX_REJECTED'),
  FUTURES_FOK_UNFILLABLE: () => apiError('FUTURES_FOK_REJECTED'),
  FUTURES_GTD_OUT_OF_BOUNDS: () => apiError('FUTURES_GTD_OUT_OF_BOUNDS'),
  FUTURES_BALANCE_INSUFFICIENT: () => apiError('FUTURES_BALANCE_INSUFFICIENT'),
  FUTURES_ASSET_NOT_SUPPORTED: () => apiError('MANDATORY_PARAMETER', 'asset'),
  FUTURES_NO_NEED_TO_CHANGE_MARGIN_TYPE: () => apiError('FUTURES_NO_NEED_TO_CHANGE_MARGIN_TYPE'),
  FUTURES_MARGIN_TYPE_OPEN_ORDERS: () => apiError('FUTURES_MARGIN_TYPE_OPEN_ORDERS'),
  FUTURES_MARGIN_TYPE_POSITION: () => apiError('FUTURES_MARGIN_TYPE_POSITION'),
  FUTURES_ADD_MARGIN_ONLY_ISOLATED: () => apiError('FUTURES_ADD_MARGIN_ISOLATED_ONLY'),
  FUTURES_ISOLATED_BALANCE_INSUFFICIENT: () => apiError('FUTURES_ISOLATED_BALANCE_INSUFFICIENT'),
  FUTURES_NO_NEED_TO_CHANGE_POSITION_SIDE: () => apiError('FUTURES_NO_NEED_TO_CHANGE_POSITION_SIDE'),
  FUTURES_INVALID_POSITION_SIDE: () => apiError('FUTURES_INVALID_POSITION_SIDE'),
  FUTURES_POSITION_SIDE_OPEN_ORDERS: () => apiError('FUTURES_POSITION_SIDE_OPEN_ORDERS'),
  FUTURES_POSITION_SIDE_POSITION: () => apiError('FUTURES_POSITION_SIDE_POSITION'),
  FUTURES_LEVERAGE_REDUCTION_ISOLATED: () => apiError('FUTURES_ISOLATED_LEVERAGE_REDUCTION'),
  FUTURES_NO_POSITION: () => apiError('FUTURES_ADD_MARGIN_ISOLATED_ONLY'),
  FUTURES_MODIFY_ONLY_LIMIT: () => apiError('FUTURES_ONLY_LIMIT_ORDER'),
  FUTURES_MODIFY_NO_CHANGE: () => apiError('FUTURES_NO_NEED_TO_MODIFY'),
};

/** Reasons futures shares with spot, answered with the futures codes. */
const SHARED: Partial<Record<RejectReason, () => ApiError>> = {
  UNKNOWN_SYMBOL: () => apiError('INVALID_SYMBOL'),
  UNKNOWN_ORDER: () => apiError('NO_SUCH_ORDER'),
  DUPLICATE_ORDER: () => apiError('FUTURES_CLIENT_ORDER_ID_DUPLICATED'),
  MARKET_CLOSED: () => apiError('FUTURES_INVALID_SYMBOL_STATUS'),
  ORDER_TYPE_NOT_SUPPORTED: () => apiError('INVALID_ORDER_TYPE'),
  INVALID_AMOUNT: () => apiError('FUTURES_QUANTITY_LESS_THAN_ZERO'),
  INSUFFICIENT_BALANCE: () => apiError('FUTURES_MARGIN_INSUFFICIENT'),
  FILTER_MAX_NUM_ORDERS: () => apiError('FUTURES_MAX_OPEN_ORDERS'),
};

/** What a refusal's parametrised texts need: the symbol's MIN_NOTIONAL and the leverage asked. */
export interface RefusalDetails {
  readonly notional?: string;
  readonly leverage?: number;
}

/** The wire error of a refused futures command. */
export function futuresError(reason: RejectReason, details: RefusalDetails = {}): ApiError {
  const rule = (RULES as Partial<Record<RejectReason, (notional: string, leverage: number) => ApiError>>)[reason];
  if (rule !== undefined) return rule(details.notional ?? '5', details.leverage ?? 0);
  const shared = SHARED[reason];
  if (shared !== undefined) return shared();
  // A spot-only reason on a futures command: the engine's contract says it cannot happen.
  return apiError('UNKNOWN_ERROR');
}

/** The `Refusal` for `call.send` from a /fapi row. */
export function futuresRefusal(details: RefusalDetails = {}): (reason: RejectReason) => ApiError {
  return (reason) => futuresError(reason, details);
}
