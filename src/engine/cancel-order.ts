/**
 * CancelOrder and CancelAllOrders. An order is found by orderId or by origClientOrderId (both
 * sent: found by orderId, and the client id must match). Only open orders of the requesting
 * account can be canceled; anything else is "unknown". cancelRestrictions ONLY_NEW /
 * ONLY_PARTIALLY_FILLED refuse the cancel unless the order is in that status.
 *
 * Symbol status: cancels are accepted while TRADING, CANCEL_ONLY or END_OF_DAY; HALT and BREAK
 * refuse them as "Market is closed." (the docs do not say; a halted matching engine accepts
 * nothing).
 */
import type { Account } from './accounts/account.ts';
import { generateClientOrderId } from './client-order-id.ts';
import type { CancelAllOrders, CancelOrder, CancelOrderList } from './commands.ts';
import type { EngineState, SymbolState } from './engine-state.ts';
import { findOrderIdByClientId } from './find-order.ts';
import { closeOrder } from './order-lifecycle.ts';
import type { Order } from './order.ts';
import type { RejectReason } from './reject-reason.ts';


/** Why this account may not cancel on this symbol now, or null. */
export function cancelRefusal(symbol: SymbolState | undefined, account: Account | undefined): RejectReason | null {
  if (!symbol) return 'UNKNOWN_SYMBOL';
  if (!account) return 'UNKNOWN_ACCOUNT';
  if (symbol.status === 'HALT' || symbol.status === 'BREAK') return 'MARKET_CLOSED';
  if (!account.canTrade) return 'ACCOUNT_CANNOT_TRADE';
  return null;
}

function cancelOne(state: EngineState, symbol: SymbolState, order: Order, cancelClientOrderId: string, time: number): void {
  closeOrder(symbol, order, 'CANCELED', 'NONE', time);
  order.account.updateTime = time;
  state.emit({
    type: 'OrderCanceled',
    time,
    symbol: symbol.spec.symbol,
    orderId: order.orderId,
    accountId: order.account.accountId,
    cancelClientOrderId,
  });
}

/** The open order a cancel (or amend) names, or why there is none. */
export function findTarget(
  state: EngineState,
  symbol: SymbolState,
  account: Account,
  orderId: number | undefined,
  origClientOrderId: string | undefined,
): Order | RejectReason {
  if (orderId === undefined && origClientOrderId === undefined) return 'CANCEL_ID_MISSING';
  let order: Order | undefined;
  if (orderId !== undefined) {
    order = Number.isSafeInteger(orderId) ? symbol.live.get(orderId) : undefined;
    if (order && origClientOrderId !== undefined && order.clientOrderId !== origClientOrderId) order = undefined;
  } else {
    const id = findOrderIdByClientId(symbol, account, origClientOrderId as string);
    order = id === undefined ? undefined : symbol.live.get(id);
  }
  void state;
  if (!order || order.account !== account || !order.isOpen) return 'UNKNOWN_ORDER';
  return order;
}

/** Why cancelRestrictions refuse to cancel `order`, or null. */
export function restrictionProblem(order: Order, restrictions: CancelOrder['cancelRestrictions']): RejectReason | null {
  if (
    (restrictions === 'ONLY_NEW' && order.status !== 'NEW') ||
    (restrictions === 'ONLY_PARTIALLY_FILLED' && order.status !== 'PARTIALLY_FILLED')
  ) {
    return 'CANCEL_RESTRICTIONS_NOT_MET';
  }
  return null;
}

/**
 * Cancels `order` (reporting `cancelClientOrderId`); a list leg takes its whole list with it,
 * the other legs reporting generated cancel ids (binance-facts §5.11).
 */
export function cancelTarget(state: EngineState, symbol: SymbolState, order: Order, cancelClientOrderId: string, time: number): void {
  const list = order.ext?.list ?? null;
  cancelOne(state, symbol, order, cancelClientOrderId, time);
  if (list !== null) cancelListLegs(state, symbol, list.orderIds, time);
}

/** Cancels every still-open leg of a list, each with a generated cancel id. */
export function cancelListLegs(state: EngineState, symbol: SymbolState, orderIds: readonly number[], time: number, cancelClientOrderId?: string): void {
  for (const id of orderIds) {
    const leg = symbol.live.get(id);
    if (leg !== undefined) cancelOne(state, symbol, leg, cancelClientOrderId ?? generateClientOrderId(symbol.spec.index, id, 1), time);
  }
}

export function cancelOrder(state: EngineState, command: CancelOrder): void {
  const symbol = state.symbol(command.symbol);
  const account = state.account(command.accountId);
  const refusal = cancelRefusal(symbol, account);
  if (refusal !== null || !symbol || !account) return state.reject(command, refusal ?? 'UNKNOWN_SYMBOL');
  const order = findTarget(state, symbol, account, command.orderId, command.origClientOrderId);
  if (typeof order === 'string') return state.reject(command, order);
  const restricted = restrictionProblem(order, command.cancelRestrictions);
  if (restricted) return state.reject(command, restricted);
  const cancelId = command.newClientOrderId ?? generateClientOrderId(symbol.spec.index, order.orderId, 1);
  cancelTarget(state, symbol, order, cancelId, command.time);
}

/** Cancels an order list as a whole (DELETE /api/v3/orderList). */
export function cancelOrderList(state: EngineState, command: CancelOrderList): void {
  const symbol = state.symbol(command.symbol);
  const account = state.account(command.accountId);
  const refusal = cancelRefusal(symbol, account);
  if (refusal !== null || !symbol || !account) return state.reject(command, refusal ?? 'UNKNOWN_SYMBOL');
  if (command.orderListId === undefined && command.listClientOrderId === undefined) return state.reject(command, 'CANCEL_ID_MISSING');
  let list = command.orderListId === undefined ? undefined : state.orderLists.get(command.orderListId);
  if (command.orderListId === undefined) {
    for (const l of state.orderLists.values()) {
      if (l.accountId === account.accountId && l.symbol === symbol.spec.symbol && l.listClientOrderId === command.listClientOrderId) list = l;
    }
  } else if (list && command.listClientOrderId !== undefined && list.listClientOrderId !== command.listClientOrderId) list = undefined;
  if (!list || list.accountId !== account.accountId || list.symbol !== symbol.spec.symbol || !list.isOpen) return state.reject(command, 'UNKNOWN_ORDER_LIST');
  cancelListLegs(state, symbol, list.orderIds, command.time, command.newClientOrderId);
}

export function cancelAllOrders(state: EngineState, command: CancelAllOrders): void {
  const symbol = state.symbol(command.symbol);
  const account = state.account(command.accountId);
  const refusal = cancelRefusal(symbol, account);
  if (refusal !== null || !symbol || !account) return state.reject(command, refusal ?? 'UNKNOWN_SYMBOL');
  const open = symbol.openOrdersOf(account);
  if (open.length === 0) return state.reject(command, 'UNKNOWN_ORDER');
  // List legs too: their lists end ALL_DONE in the contingency pass that follows.
  for (const order of open) {
    cancelOne(state, symbol, order, generateClientOrderId(symbol.spec.index, order.orderId, 1), command.time);
  }
}

