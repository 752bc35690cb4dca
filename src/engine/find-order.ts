/**
 * Finding an account's order by client order id. Ids the client chose are indexed per account
 * and symbol; ids the engine generated are decoded back to their orderId instead of indexed, so
 * a long backtest does not keep a map entry per order. When a generated id was later reused
 * explicitly, the latest order with the id wins (as on the real exchange).
 */
import type { Account } from './accounts/account.ts';
import { decodeGeneratedOrderId } from './client-order-id.ts';
import type { SymbolState } from './engine-state.ts';
import type { Order } from './order.ts';

export function findOrderByClientId(symbol: SymbolState, account: Account, clientOrderId: string): Order | undefined {
  const chosen = account.byClientId[symbol.spec.index]?.get(clientOrderId);
  const generatedId = decodeGeneratedOrderId(clientOrderId, symbol.spec.index);
  let generated = generatedId === null ? undefined : symbol.orders[generatedId - 1];
  if (generated && (generated.account !== account || generated.clientOrderId !== clientOrderId)) generated = undefined;
  if (chosen && generated) return chosen.orderId > generated.orderId ? chosen : generated;
  return chosen ?? generated;
}
