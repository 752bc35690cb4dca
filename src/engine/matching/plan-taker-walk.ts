/**
 * A read-only walk of the opposite side of the book that predicts what a taker order would take,
 * following the same priority and self-trade-prevention rules as matching. It answers the
 * questions the engine must settle before it mutates anything:
 *   - FOK: can the whole quantity fill?
 *   - MARKET BUY by quantity: how much quote will it cost (to check and reserve funds)?
 *   - MARKET by quoteOrderQty: which quantity? A BUY buys "as many as quoteOrderQty can"
 *     (never spending more); a SELL sells the quantity whose proceeds are closest to the amount
 *     (rest-api.md: "as close as possible", never breaking LOT_SIZE).
 * Matching itself (match-order.ts) never reads balances; this walk never writes.
 */
import type { Account } from '../accounts/account.ts';
import type { SymbolState } from '../engine-state.ts';
import type { Order } from '../order.ts';
import type { SelfTradePreventionMode } from '../types.ts';

export interface TakerPlan {
  /** Steps the taker would execute. */
  steps: number;
  /** Quote units those steps pay (BUY) or receive (SELL). */
  quote: number;
  /** True when the wanted quantity (or quote amount) is reached, false when the book ran out first. */
  complete: boolean;
}

export interface PlanRequest {
  account: Account;
  isBuy: boolean;
  stpMode: SelfTradePreventionMode;
  /** Worst acceptable price in ticks, or null for MARKET. */
  limitTicks: number | null;
  /** Steps wanted, or Infinity when `quoteBudget` drives the walk. */
  wantSteps: number;
  /** Quote amount wanted (quoteOrderQty), or Infinity when `wantSteps` drives the walk. */
  quoteBudget: number;
}

function modeAgainst(request: PlanRequest, maker: Order): SelfTradePreventionMode | null {
  if (!request.account.isSameParty(maker.account)) return null;
  const mode = request.stpMode;
  if (mode === 'NONE') return null;
  if (mode === 'TRANSFER' && (maker.stpMode !== 'TRANSFER' || request.account === maker.account)) return 'DECREMENT';
  return mode;
}

export function planTakerWalk(symbol: SymbolState, request: PlanRequest): TakerPlan {
  const side = symbol.book.opposite(request.isBuy);
  const levels = side.levels;
  let want = request.wantSteps;
  let budget = request.quoteBudget;
  const byBudget = budget !== Infinity;
  let steps = 0;
  let quote = 0;
  for (let li = levels.length - 1; li >= 0; li--) {
    const level = levels[li]!;
    const ticks = level.ticks;
    if (request.limitTicks !== null && (request.isBuy ? ticks > request.limitTicks : ticks < request.limitTicks)) break;
    for (let maker = level.head; maker !== null; maker = maker.next) {
      const available = maker.remainingSteps;
      const mode = modeAgainst(request, maker);
      if (mode !== null) {
        if (mode === 'EXPIRE_TAKER' || mode === 'EXPIRE_BOTH') return { steps, quote, complete: false };
        // A quote budget too small for one step at this price is spent: the order is done here,
        // before it would touch (and expire) its own maker.
        if (byBudget && budget < symbol.notional(ticks, 1)) return { steps, quote, complete: true };
        if (mode === 'EXPIRE_MAKER') continue;
        // DECREMENT / TRANSFER: the taker loses the overlapping quantity without trading it.
        // A walk driven by a quote budget has no quantity to lose yet; it simply passes.
        if (!byBudget) {
          const overlap = Math.min(want, available);
          // TRANSFER moves the overlap to the taker at the maker's price: a BUY pays for it.
          if (mode === 'TRANSFER' && request.isBuy) quote += symbol.notional(ticks, overlap);
          want -= overlap;
          if (want === 0) return { steps, quote, complete: true };
        }
        continue;
      }
      if (!byBudget) {
        const take = Math.min(want, available);
        steps += take;
        quote += symbol.notional(ticks, take);
        want -= take;
        if (want === 0) return { steps, quote, complete: true };
        continue;
      }
      const all = symbol.notional(ticks, available);
      if (all <= budget) {
        steps += available;
        quote += all;
        budget -= all;
        if (budget === 0) return { steps, quote, complete: true };
        continue;
      }
      const take = request.isBuy ? affordableSteps(symbol, ticks, budget) : closestSteps(symbol, ticks, budget);
      steps += take;
      quote += symbol.notional(ticks, take);
      return { steps, quote, complete: true };
    }
  }
  return { steps, quote, complete: false };
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
