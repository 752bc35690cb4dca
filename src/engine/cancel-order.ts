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
import type { CancelAllOrders, CancelOrder } from './commands.ts';
import type { EngineState, SymbolState } from './engine-state.ts';
import { findOrderIdByClientId } from './find-order.ts';
import { closeOrder } from './matching/match-order.ts';
import type { Order } from './order.ts';
import type { RejectReason } from './reject-reason.ts';


/** Why this account may not cancel on this symbol now, or null. */
function cancelRefusal(symbol: SymbolState | undefined, account: Account | undefined): RejectReason | null {
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

export function cancelOrder(state: EngineState, command: CancelOrder): void {
  const symbol = state.symbols.get(command.symbol);
  const account = state.accounts.get(command.accountId);
  const refusal = cancelRefusal(symbol, account);
  if (refusal !== null || !symbol || !account) return state.reject(command, refusal ?? 'UNKNOWN_SYMBOL');
  if (command.orderId === undefined && command.origClientOrderId === undefined) {
    return state.reject(command, 'CANCEL_ID_MISSING');
  }
  let order: Order | undefined;
  if (command.orderId !== undefined) {
    order = Number.isSafeInteger(command.orderId) ? symbol.live.get(command.orderId) : undefined;
    if (order && command.origClientOrderId !== undefined && order.clientOrderId !== command.origClientOrderId) order = undefined;
  } else {
    const orderId = findOrderIdByClientId(symbol, account, command.origClientOrderId as string);
    order = orderId === undefined ? undefined : symbol.live.get(orderId);
  }
  if (!order || order.account !== account || !order.isOpen) return state.reject(command, 'UNKNOWN_ORDER');
  if (
    (command.cancelRestrictions === 'ONLY_NEW' && order.status !== 'NEW') ||
    (command.cancelRestrictions === 'ONLY_PARTIALLY_FILLED' && order.status !== 'PARTIALLY_FILLED')
  ) {
    return state.reject(command, 'CANCEL_RESTRICTIONS_NOT_MET');
  }
  const cancelId = command.newClientOrderId ?? generateClientOrderId(symbol.spec.index, order.orderId, 1);
  cancelOne(state, symbol, order, cancelId, command.time);
}

export function cancelAllOrders(state: EngineState, command: CancelAllOrders): void {
  const symbol = state.symbols.get(command.symbol);
  const account = state.accounts.get(command.accountId);
  const refusal = cancelRefusal(symbol, account);
  if (refusal !== null || !symbol || !account) return state.reject(command, refusal ?? 'UNKNOWN_SYMBOL');
  const open = symbol.openOrdersOf(account);
  if (open.length === 0) return state.reject(command, 'UNKNOWN_ORDER');
  for (const order of open) {
    cancelOne(state, symbol, order, generateClientOrderId(symbol.spec.index, order.orderId, 1), command.time);
  }
}

