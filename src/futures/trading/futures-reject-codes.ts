/**
 * The fapi code and message of each futures reject reason (binance-futures-facts §4, §5, §8),
 * for the /fapi rows to answer `{code, msg}` with HTTP 400. Unlike spot (one -1013 "Filter
 * failure"), futures reports every filter rule with its own code. Messages are exact where the
 * facts sheet gives them; `%s` is filled by the API (MIN_NOTIONAL's notional, the leverage).
 * The engine knows no codes (its refusals are RejectReason values); this table sits in the
 * futures layer for the /fapi rows. Until those rows move it into the API's one error table
 * (api-facade/core/exchange-errors.ts), it is listed as pending in that table's test.
 * Reasons the engine shares with spot (UNKNOWN_ORDER, DUPLICATE_ORDER, ...) keep their spot
 * mapping on the API side; `FUTURES_CODE_OF_SHARED` gives the fapi code for the common ones.
 */
import type { FuturesRejectReason, RejectReason } from '../../engine/index.ts';

export interface FapiError {
  readonly code: number;
  readonly msg: string;
}

export const FUTURES_REJECT_CODES: Readonly<Record<FuturesRejectReason, FapiError>> = {
  FUTURES_NOT_A_MARGIN_SYMBOL: { code: -1121, msg: 'Invalid symbol.' },
  FUTURES_INVALID_ORDER_TYPE: { code: -1116, msg: 'Invalid orderType.' },
  FUTURES_QTY_NOT_POSITIVE: { code: -4003, msg: 'Quantity less than zero.' },
  FUTURES_PRICE_LESS_THAN_MIN: { code: -4013, msg: 'Price less than min price.' },
  FUTURES_PRICE_GREATER_THAN_MAX: { code: -4002, msg: 'Price greater than max price.' },
  FUTURES_PRICE_NOT_ON_TICK: { code: -4014, msg: 'Price not increased by tick size.' },
  FUTURES_QTY_LESS_THAN_MIN: { code: -4004, msg: 'Quantity less than min quantity.' },
  FUTURES_QTY_GREATER_THAN_MAX: { code: -4005, msg: 'Quantity greater than max quantity.' },
  FUTURES_QTY_NOT_ON_STEP: { code: -4023, msg: 'Qty not increased by step size.' },
  FUTURES_MAX_OPEN_ORDERS: { code: -2025, msg: 'Reach max open order limit.' },
  FUTURES_MIN_NOTIONAL: { code: -4164, msg: "Order's notional must be no smaller than %s (unless you choose reduce only)" },
  FUTURES_PRICE_ABOVE_MARK_CAP: { code: -4016, msg: 'Price is higher than mark price multiplier cap.' },
  FUTURES_PRICE_BELOW_MARK_FLOOR: { code: -4024, msg: 'Price is lower than mark price multiplier floor.' },
  FUTURES_COUNTERPARTY_PRICE_OUTSIDE_PERCENT_PRICE: { code: -4131, msg: "The counterparty's best price does not meet the PERCENT_PRICE filter limit" },
  FUTURES_POSITION_SIDE_MISMATCH: { code: -4061, msg: "Order's position side does not match user's setting." },
  FUTURES_REDUCE_ONLY_REJECTED: { code: -2022, msg: 'ReduceOnly Order is rejected.' },
  // Hedge mode takes no reduceOnly (§4); the code is the generic "sent when not required" one (chosen).
  FUTURES_REDUCE_ONLY_IN_HEDGE_MODE: { code: -1106, msg: "Parameter 'reduceonly' sent when not required." },
  FUTURES_MARGIN_INSUFFICIENT: { code: -2019, msg: 'Margin is insufficient.' },
  FUTURES_MAX_POSITION_AT_LEVERAGE: { code: -2027, msg: 'Exceeded the maximum allowable position at current leverage.' },
  FUTURES_LEVERAGE_TOO_SMALL: { code: -2028, msg: 'Leverage is smaller than permitted: insufficient margin balance.' },
  // Not in the facts sheet (chosen: Binance's INVALID_LEVERAGE text).
  FUTURES_INVALID_LEVERAGE: { code: -4028, msg: 'Leverage %s is not valid' },
  FUTURES_POST_ONLY_WOULD_TAKE: { code: -5022, msg: 'Due to the order could not be executed as maker, the Post Only order will be rejected.' },
  FUTURES_FOK_UNFILLABLE: { code: -5021, msg: 'Due to the order could not be filled immediately, the FOK order has been rejected.' },
  FUTURES_GTD_OUT_OF_BOUNDS: {
    code: -5040,
    msg: 'The goodTillDate timestamp must be greater than the current time plus 600 seconds and smaller than 253402300799000 (UTC 9999-12-31 23:59:59)',
  },
  FUTURES_BALANCE_INSUFFICIENT: { code: -2018, msg: 'Balance is insufficient.' },
  // A transfer of an asset that is no futures margin asset (chosen: the mandatory-parameter code).
  FUTURES_ASSET_NOT_SUPPORTED: { code: -1102, msg: "Mandatory parameter 'asset' was not sent, was empty/null, or malformed." },
  FUTURES_NO_NEED_TO_CHANGE_MARGIN_TYPE: { code: -4046, msg: 'No need to change margin type.' },
  FUTURES_MARGIN_TYPE_OPEN_ORDERS: { code: -4047, msg: 'Margin type cannot be changed if there exists open orders.' },
  FUTURES_MARGIN_TYPE_POSITION: { code: -4048, msg: 'Margin type cannot be changed if there exists position.' },
  FUTURES_ADD_MARGIN_ONLY_ISOLATED: { code: -4049, msg: 'Add margin only support for isolated position.' },
  FUTURES_ISOLATED_BALANCE_INSUFFICIENT: { code: -4051, msg: 'Isolated balance insufficient.' },
  FUTURES_NO_NEED_TO_CHANGE_POSITION_SIDE: { code: -4059, msg: 'No need to change position side.' },
  FUTURES_INVALID_POSITION_SIDE: { code: -4060, msg: 'Invalid position side.' },
  FUTURES_POSITION_SIDE_OPEN_ORDERS: { code: -4067, msg: 'Position side cannot be changed if there exists open orders.' },
  FUTURES_POSITION_SIDE_POSITION: { code: -4068, msg: 'Position side cannot be changed if there exists position.' },
  FUTURES_LEVERAGE_REDUCTION_ISOLATED: { code: -4161, msg: 'Leverage reduction is not supported in Isolated Margin Mode with open positions' },
  // AdjustPositionMargin on a side without a position (chosen: Binance answers -4046-like; we use -4049's family).
  FUTURES_MODIFY_ONLY_LIMIT: { code: -5025, msg: 'Only limit order is supported.' },
  FUTURES_MODIFY_NO_CHANGE: { code: -5027, msg: 'No need to modify the order.' },
  FUTURES_NO_POSITION: { code: -4049, msg: 'Add margin only support for isolated position.' },
};

/** fapi codes for the reasons futures shares with spot (the API's spot table answers the rest). */
export const FUTURES_CODE_OF_SHARED: Readonly<Partial<Record<RejectReason, FapiError>>> = {
  UNKNOWN_SYMBOL: { code: -1121, msg: 'Invalid symbol.' },
  UNKNOWN_ORDER: { code: -2013, msg: 'Order does not exist.' },
  DUPLICATE_ORDER: { code: -4116, msg: 'ClientOrderId is duplicated.' },
  MARKET_CLOSED: { code: -1122, msg: 'Invalid symbol status.' },
  ORDER_TYPE_NOT_SUPPORTED: { code: -1116, msg: 'Invalid orderType.' },
  INVALID_AMOUNT: { code: -4003, msg: 'Quantity less than zero.' },
};

/** The fapi `{code, msg}` of a reject reason of a futures command, or undefined (use the spot table). */
export function fapiErrorOf(reason: RejectReason): FapiError | undefined {
  return (FUTURES_REJECT_CODES as Readonly<Record<string, FapiError>>)[reason] ?? FUTURES_CODE_OF_SHARED[reason];
}
