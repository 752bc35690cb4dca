/**
 * The exchange's enumerations, spelled as the real API spells them so that no layer needs a
 * translation table for them. Numeric codes and HTTP statuses are not here: they belong to the
 * API facade.
 */

export type Side = 'BUY' | 'SELL';

export type OrderType =
  | 'LIMIT'
  | 'LIMIT_MAKER'
  | 'MARKET'
  | 'STOP_LOSS'
  | 'STOP_LOSS_LIMIT'
  | 'TAKE_PROFIT'
  | 'TAKE_PROFIT_LIMIT';

export type TimeInForce = 'GTC' | 'IOC' | 'FOK';

export type OrderStatus =
  | 'PENDING_NEW'
  | 'NEW'
  | 'PARTIALLY_FILLED'
  | 'FILLED'
  | 'CANCELED'
  | 'EXPIRED'
  | 'EXPIRED_IN_MATCH';

export const TERMINAL_STATUSES: ReadonlySet<OrderStatus> = new Set([
  'FILLED',
  'CANCELED',
  'EXPIRED',
  'EXPIRED_IN_MATCH',
]);

export type ExpiryReason =
  | 'NONE'
  | 'UNFILLED_IOC_QUANTITY_EXPIRED'
  | 'UNFILLED_FOK_ORDER_EXPIRED'
  | 'INSUFFICIENT_LIQUIDITY'
  | 'EXCHANGE_CANCELED'
  | 'OCO_TRIGGER'
  | 'OTO_PHASE_ONE_EXPIRED'
  | 'REJECTED'
  | 'EXECUTION_RULE_PRICE_RANGE_EXCEEDED'
  // Margin symbols: a reduce-only order knocked out because the position shrank (fapi `er` 4),
  // and the open orders of an account being liquidated (`er` 5).
  | 'REDUCE_ONLY_KNOCKED_OUT'
  | 'ACCOUNT_LIQUIDATION';

/** Stop and take-profit types: they wait for a trigger before they work (the "algo" orders). */
export const CONDITIONAL_TYPES: ReadonlySet<OrderType> = new Set(['STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT']);

export type PegPriceType = 'PRIMARY_PEG' | 'MARKET_PEG';

/**
 * Order lists as placed. The API reports contingencyType OCO for OCO and OTO for the other four
 * (binance-facts §3); the engine keeps the kind because the rules differ.
 */
export type OrderListKind = 'OCO' | 'OTO' | 'OTOCO' | 'OPO' | 'OPOCO';
export type ContingencyType = 'OCO' | 'OTO';
export type ListStatusType = 'RESPONSE' | 'EXEC_STARTED' | 'UPDATED' | 'ALL_DONE';
export type ListOrderStatus = 'EXECUTING' | 'ALL_DONE' | 'REJECT';

export type CancelReplaceMode = 'STOP_ON_FAILURE' | 'ALLOW_FAILURE';
export type CancelReplaceResult = 'SUCCESS' | 'FAILURE' | 'NOT_ATTEMPTED';

export type SelfTradePreventionMode =
  | 'NONE'
  | 'EXPIRE_TAKER'
  | 'EXPIRE_MAKER'
  | 'EXPIRE_BOTH'
  | 'DECREMENT'
  | 'TRANSFER';

export const STP_MODES: readonly SelfTradePreventionMode[] = [
  'NONE',
  'EXPIRE_TAKER',
  'EXPIRE_MAKER',
  'EXPIRE_BOTH',
  'DECREMENT',
  'TRANSFER',
];

export type SymbolStatus = 'TRADING' | 'END_OF_DAY' | 'HALT' | 'BREAK' | 'CANCEL_ONLY';

export type CancelRestriction = 'ONLY_NEW' | 'ONLY_PARTIALLY_FILLED';

export type AccountPermission = string; // SPOT, MARGIN, LEVERAGED, TRD_GRP_002 .. TRD_GRP_025

export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
