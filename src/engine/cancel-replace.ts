/**
 * CancelReplaceOrder (POST /api/v3/order/cancelReplace): cancel one order and place another on
 * the same symbol, in one command (binance-facts §5.11; the spec's outcome matrix).
 *
 * 1. The new order's API-side checks run first, while the old order still counts (filters,
 *    counts, field rules): a failure there refuses the whole command and nothing happens, like
 *    the real exchange's "filters and order count are evaluated before" rule.
 * 2. The cancel (with cancelRestrictions; a list leg takes its list with it).
 * 3. The placement: not attempted after a failed cancel under STOP_ON_FAILURE, or when the API
 *    found the unfilled-order count exceeded (`cancelOnly`); otherwise placed, and it may still
 *    fail on the engine's own rules (funds, LIMIT_MAKER, duplicate id) after the cancel.
 * `CancelReplaceCompleted` reports both results; a failed part changed nothing.
 */
import { cancelRefusal, cancelTarget, findTarget, restrictionProblem } from './cancel-order.ts';
import { generateClientOrderId } from './client-order-id.ts';
import type { CancelReplaceOrder, PlaceOrder } from './commands.ts';
import type { EngineState } from './engine-state.ts';
import { placementRefusal, placeOrder } from './place-order.ts';
import type { RejectReason } from './reject-reason.ts';
import type { CancelReplaceResult } from './types.ts';

/** Reasons the real exchange reports before the matching engine: they refuse the whole request. */
function refusedBeforeEngine(reason: RejectReason): boolean {
  return (
    reason.startsWith('FILTER_') ||
    reason === 'INVALID_AMOUNT' ||
    reason === 'UNSUPPORTED_ORDER_COMBINATION' ||
    reason === 'STP_MODE_NOT_ALLOWED' ||
    reason === 'UNKNOWN_SYMBOL' ||
    reason === 'UNKNOWN_ACCOUNT'
  );
}

export function cancelReplaceOrder(state: EngineState, command: CancelReplaceOrder): void {
  const symbol = state.symbols.get(command.symbol);
  const account = state.accounts.get(command.accountId);
  const refusal = cancelRefusal(symbol, account);
  if (refusal !== null || !symbol || !account) return state.reject(command, refusal ?? 'UNKNOWN_SYMBOL');
  if (!symbol.spec.cancelReplaceAllowed) return state.reject(command, 'CANCEL_REPLACE_NOT_SUPPORTED');
  const time = command.time;
  // Built onto a fresh literal (ARCHITECTURE.md, "Object shapes").
  const place: PlaceOrder = Object.assign({ type: 'PlaceOrder' as const, time, accountId: command.accountId, symbol: command.symbol }, command.newOrder);
  if (!command.cancelOnly) {
    const early = placementRefusal(state, place);
    if (early !== null && refusedBeforeEngine(early)) return state.reject(command, early);
  }

  let cancelResult: CancelReplaceResult = 'SUCCESS';
  let cancelReason: RejectReason | null = null;
  let canceledOrderId = -1;
  const target = findTarget(state, symbol, account, command.cancelOrderId, command.cancelOrigClientOrderId);
  if (typeof target === 'string') {
    cancelResult = 'FAILURE';
    cancelReason = target;
  } else {
    canceledOrderId = target.orderId;
    cancelReason = restrictionProblem(target, command.cancelRestrictions);
    if (cancelReason !== null) cancelResult = 'FAILURE';
    else cancelTarget(state, symbol, target, command.cancelNewClientOrderId ?? generateClientOrderId(symbol.spec.index, target.orderId, 1), time);
  }

  let newOrderResult: CancelReplaceResult = 'NOT_ATTEMPTED';
  let newOrderReason: RejectReason | null = null;
  let newOrderId = -1;
  if (!command.cancelOnly && (cancelResult === 'SUCCESS' || command.mode === 'ALLOW_FAILURE')) {
    const before = state.events?.length ?? 0;
    const nextId = symbol.nextOrderId;
    placeOrder(state, place);
    const events = state.events ?? [];
    const last = events[events.length - 1];
    if (events.length === before + 1 && last?.type === 'OrderRejected') {
      // The placement's own refusal is reported here, not as a refusal of the whole command.
      events.pop();
      newOrderResult = 'FAILURE';
      newOrderReason = last.reason;
    } else {
      newOrderResult = 'SUCCESS';
      newOrderId = nextId;
    }
  }
  state.emit({
    type: 'CancelReplaceCompleted',
    time,
    symbol: command.symbol,
    accountId: command.accountId,
    cancelResult,
    newOrderResult,
    cancelReason,
    newOrderReason,
    canceledOrderId,
    newOrderId,
  });
}
