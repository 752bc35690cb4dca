/**
 * Bookkeeping of the conditional fields when an order changes: the per-account counts behind
 * MAX_NUM_ALGO_ORDERS / MAX_NUM_ICEBERG_ORDERS (and their exchange-wide versions), the symbol's
 * list of waiting stops, and the queue of list legs whose lists must react. Called only for
 * orders that have extras (`order.ext !== null`), so plain orders pay one null check.
 */
import type { SymbolState } from '../engine-state.ts';
import type { Order } from '../order.ts';
import { CONDITIONAL_TYPES } from '../types.ts';

/** A list leg filled or closed: its list reacts at the end of the command. */
export function noteListActivity(symbol: SymbolState, order: Order): void {
  symbol.listActivity.push(order);
  symbol.markDirty();
}

/** The order was accepted (open): count it where the count filters look. */
export function openExtras(symbol: SymbolState, order: Order): void {
  const slot = order.account.slot;
  if (CONDITIONAL_TYPES.has(order.type)) {
    symbol.algoByAccount[slot] = (symbol.algoByAccount[slot] ?? 0) + 1;
    order.account.algoCount += 1;
  }
  if (order.isIceberg) {
    symbol.icebergByAccount[slot] = (symbol.icebergByAccount[slot] ?? 0) + 1;
    order.account.icebergCount += 1;
  }
}

/** The order closed (any terminal status): undo `openExtras`, drop a waiting stop, tell its list. */
export function closeExtras(symbol: SymbolState, order: Order): void {
  const ext = order.ext!;
  const slot = order.account.slot;
  if (CONDITIONAL_TYPES.has(order.type)) {
    symbol.algoByAccount[slot] = (symbol.algoByAccount[slot] as number) - 1;
    order.account.algoCount -= 1;
  }
  if (ext.icebergSteps !== 0) {
    symbol.icebergByAccount[slot] = (symbol.icebergByAccount[slot] as number) - 1;
    order.account.icebergCount -= 1;
  }
  // A stop closed before its trigger stays "not working" in the archive.
  if (ext.untriggered) dropStop(symbol, order);
  if (ext.list !== null) noteListActivity(symbol, order);
}

export function dropStop(symbol: SymbolState, order: Order): void {
  const i = symbol.stops.indexOf(order);
  if (i >= 0) symbol.stops.splice(i, 1);
}
