/**
 * Why the engine refused a command. Values, never exceptions: the API facade maps each one to
 * the real exchange's code, message and HTTP status. Filter failures are `FILTER_<filterType>`.
 */
import type { ExchangeFilterType, SymbolFilterType } from './symbol-config.ts';

export type FilterRejectReason = `FILTER_${SymbolFilterType | ExchangeFilterType | 'MAX_ASSET'}`;

export type RejectReason =
  | FilterRejectReason
  | 'UNKNOWN_SYMBOL'
  | 'UNKNOWN_ACCOUNT'
  | 'ACCOUNT_EXISTS'
  | 'UNKNOWN_ASSET'
  | 'UNKNOWN_ORDER'
  | 'DUPLICATE_ORDER'
  | 'MARKET_CLOSED'
  | 'INSUFFICIENT_BALANCE'
  | 'ACCOUNT_CANNOT_TRADE'
  | 'SYMBOL_NOT_PERMITTED'
  | 'ORDER_TYPE_NOT_SUPPORTED'
  | 'QUOTE_ORDER_QTY_MARKET_NOT_SUPPORTED'
  | 'UNSUPPORTED_ORDER_COMBINATION'
  | 'STP_MODE_NOT_ALLOWED'
  | 'NOTIONAL_NOT_POSITIVE'
  | 'WOULD_MATCH_AND_TAKE'
  | 'CANCEL_ID_MISSING'
  | 'CANCEL_RESTRICTIONS_NOT_MET'
  | 'LIQUIDITY_BELOW_LOT_SIZE'
  | 'LIQUIDITY_BELOW_MARKET_LOT_SIZE'
  | 'LIQUIDITY_BELOW_SYMBOL_MIN_QTY'
  | 'INVALID_AMOUNT';
