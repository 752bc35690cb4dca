/**
 * How much a MARKET order by quoteOrderQty takes from one maker (rest-api.md): a BUY buys "as
 * many as quoteOrderQty can" (never spending more than is left of the amount); a SELL sells the
 * quantity whose proceeds are closest to what is left (ties: the smaller), never breaking the
 * LOT_SIZE step. Shared by the read-only plan and the walk itself so the two cannot disagree.
 */
import type { SymbolState } from '../engine-state.ts';

/** Steps to take from a maker offering `available` steps at `ticks` with `budget` quote units left. */
export function quoteTake(symbol: SymbolState, ticks: number, available: number, budget: number, isBuy: boolean): number {
  if (budget <= 0) return 0;
  if (symbol.notional(ticks, available) <= budget) return available;
  return isBuy ? affordableSteps(symbol, ticks, budget) : closestSteps(symbol, ticks, budget);
}

/** The largest step count at `ticks` whose notional does not exceed `budget`. */
function affordableSteps(symbol: SymbolState, ticks: number, budget: number): number {
  const { notionalNum: num, notionalDen: den } = symbol.spec;
  // floor(ticks * k * num / den) <= budget  <=>  ticks * k * num < (budget + 1) * den.
  return Number((BigInt(budget + 1) * BigInt(den) - 1n) / (BigInt(ticks) * BigInt(num)));
}

/** The step count at `ticks` whose notional is closest to `budget` (ties: the smaller). */
function closestSteps(symbol: SymbolState, ticks: number, budget: number): number {
  const k = affordableSteps(symbol, ticks, budget);
  const under = budget - symbol.notional(ticks, k);
  const over = symbol.notional(ticks, k + 1) - budget;
  return over < under ? k + 1 : k;
}
