/**
 * A read-only walk of the opposite side of the book that predicts what a taker order would take,
 * following the same priority, self-trade-prevention and quote-amount rules as matching
 * (match-order.ts; the per-maker quote rule is shared in quote-take.ts). It answers what the
 * engine must know before it mutates anything:
 *   - FOK: can the whole quantity fill?
 *   - MARKET BUY by quantity: how much quote will it cost (to check and reserve funds)?
 *   - MARKET by quoteOrderQty: what quantity will it take (LOT_SIZE, MAX_POSITION, MAX_ASSET),
 *     and what will it pay or deliver?
 * Matching itself never reads balances; this walk never writes.
 */
import type { Account } from '../accounts/account.ts';
import type { SymbolState } from '../engine-state.ts';
import type { Order } from '../order.ts';
import type { SelfTradePreventionMode } from '../types.ts';
import { quoteTake } from './quote-take.ts';

export interface TakerPlan {
  /** Steps the taker would trade. */
  steps: number;
  /** Steps it would lose to self-trade prevention (under TRANSFER they also change hands). */
  prevented: number;
  /** Of `prevented`, the steps TRANSFER moves to or from it (a SELL must hold their base). */
  transferred: number;
  /** Quote units those steps pay (BUY) or receive (SELL). */
  quote: number;
  /**
   * True when the wanted quantity or quote amount is reached; false when the book ran out first
   * (or self-trade prevention ended the taker).
   */
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
  return request.quoteBudget === Infinity ? planByQuantity(symbol, request) : planByQuote(symbol, request);
}

function planByQuantity(symbol: SymbolState, request: PlanRequest): TakerPlan {
  const levels = symbol.book.opposite(request.isBuy).levels;
  const plan: TakerPlan = { steps: 0, prevented: 0, transferred: 0, quote: 0, complete: false };
  let want = request.wantSteps;
  for (let li = levels.length - 1; li >= 0; li--) {
    const level = levels[li]!;
    if (level.count === 0) continue; // dormant
    const ticks = level.ticks;
    if (request.limitTicks !== null && (request.isBuy ? ticks > request.limitTicks : ticks < request.limitTicks)) break;
    for (let maker = level.head; maker !== null; maker = maker.next) {
      const available = maker.remainingSteps;
      const mode = modeAgainst(request, maker);
      if (mode === 'EXPIRE_TAKER' || mode === 'EXPIRE_BOTH') {
        plan.prevented += want;
        return plan;
      }
      if (mode === 'EXPIRE_MAKER') continue;
      if (mode !== null) {
        // DECREMENT / TRANSFER: the taker loses the overlap without trading it; under TRANSFER
        // the overlap moves to the taker at the maker's price, so a BUY pays for it.
        const overlap = Math.min(want, available);
        plan.prevented += overlap;
        if (mode === 'TRANSFER') {
          plan.transferred += overlap;
          if (request.isBuy) plan.quote += symbol.notional(ticks, overlap);
        }
        want -= overlap;
      } else {
        const take = Math.min(want, available);
        plan.steps += take;
        plan.quote += symbol.notional(ticks, take);
        want -= take;
      }
      if (want === 0) {
        plan.complete = true;
        return plan;
      }
    }
  }
  return plan;
}

/** Mirrors `matchQuoteTaker`: maker by maker, what is left of the amount decides. */
function planByQuote(symbol: SymbolState, request: PlanRequest): TakerPlan {
  const levels = symbol.book.opposite(request.isBuy).levels;
  const plan: TakerPlan = { steps: 0, prevented: 0, transferred: 0, quote: 0, complete: false };
  let budget = request.quoteBudget;
  for (let li = levels.length - 1; li >= 0; li--) {
    const level = levels[li]!;
    const ticks = level.ticks;
    for (let maker = level.head; maker !== null; maker = maker.next) {
      const available = maker.remainingSteps;
      const want = quoteTake(symbol, ticks, available, budget, request.isBuy);
      if (want === 0) {
        plan.complete = true;
        return plan;
      }
      const mode = modeAgainst(request, maker);
      if (mode === 'EXPIRE_TAKER' || mode === 'EXPIRE_BOTH') {
        plan.prevented += want;
        return plan;
      }
      if (mode === 'EXPIRE_MAKER') continue;
      const notional = symbol.notional(ticks, want);
      if (mode === null) {
        plan.steps += want;
        plan.quote += notional;
      } else {
        plan.prevented += want;
        if (mode === 'TRANSFER') {
          plan.transferred += want;
          plan.quote += notional;
        }
      }
      budget -= notional;
      if (want < available || budget <= 0) {
        plan.complete = true;
        return plan;
      }
    }
  }
  return plan;
}
