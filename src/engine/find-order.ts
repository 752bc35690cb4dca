/**
 * Finding an account's order by client order id. Ids the client chose are indexed per account
 * and symbol; ids the engine generated are decoded back to their orderId instead of indexed, so
 * a long backtest does not keep a map entry per order. When a generated id was later reused
 * explicitly, the latest order with the id wins (as on the real exchange).
 */
import type { Account } from './accounts/account.ts';
import { decodeGeneratedOrderId } from './client-order-id.ts';
import type { SymbolState } from './engine-state.ts';

/** The orderId of the account's latest order with this client order id, open or closed. */
export function findOrderIdByClientId(symbol: SymbolState, account: Account, clientOrderId: string): number | undefined {
  let chosen = account.byClientId[symbol.spec.index]?.get(clientOrderId);
  // An amend may have renamed that order since: the id then names nothing.
  if (chosen !== undefined && symbol.clientOrderIdOf(chosen) !== clientOrderId) chosen = undefined;
  let generated = decodeGeneratedOrderId(clientOrderId, symbol.spec.index) ?? undefined;
  if (
    generated !== undefined &&
    (symbol.accountIdOf(generated) !== account.accountId || symbol.clientOrderIdOf(generated) !== clientOrderId)
  ) {
    generated = undefined;
  }
  if (chosen !== undefined && generated !== undefined) return Math.max(chosen, generated);
  return chosen ?? generated;
}
