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
import type { PriceLevel } from '../book/price-level.ts';
import { outsideBand, takerBand } from '../execution-rules.ts';
import type { Order } from '../order.ts';
import type { SelfTradePreventionMode } from '../types.ts';
import { quoteTake } from './quote-take.ts';
import { syntheticCutoff } from '../liquidity/merged-levels.ts';

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
  /** When the taker would walk (the PRICE_RANGE band is fixed from the reference price then). */
  time: number;
}

/** The self-trade prevention mode that applies against `maker` (null: none; the synthetic book is nobody's). */
function modeAgainst(request: PlanRequest, maker: Order | null): SelfTradePreventionMode | null {
  if (maker === null || !request.account.isSameParty(maker.account)) return null;
  const mode = request.stpMode;
  if (mode === 'NONE') return null;
  if (mode === 'TRANSFER' && (maker.stpMode !== 'TRANSFER' || request.account === maker.account)) return 'DECREMENT';
  return mode;
}

export function planTakerWalk(symbol: SymbolState, request: PlanRequest): TakerPlan {
  return request.quoteBudget === Infinity ? planByQuantity(symbol, request) : planByQuote(symbol, request);
}

/**
 * The order in which a walk meets the makers of a level holding icebergs, with what each visit
 * offers: a visit shows an iceberg's slice, and a slice taken whole is refilled at the back of
 * the level (match-order.ts, reduceShown). Every visit but a walk's last is taken whole (a
 * partial take ends the walk), so the rotation can be laid out in advance. Plain levels are
 * walked along their FIFO directly.
 */
function icebergVisits(level: PriceLevel): { makers: Order[]; available: number[] } {
  const makers: Order[] = [];
  const available: number[] = [];
  const remaining: number[] = [];
  for (let m = level.head; m !== null; m = m.next) {
    makers.push(m);
    available.push(m.bookSteps);
    remaining.push(m.remainingSteps);
  }
  for (let i = 0; i < makers.length; i++) {
    const maker = makers[i]!;
    const left = remaining[i]! - available[i]!;
    if (left > 0 && maker.isIceberg) {
      makers.push(maker);
      available.push(Math.min(maker.ext!.icebergSteps, left));
      remaining.push(left);
    }
  }
  return { makers, available };
}

/** What a quantity-driven walk has still to do; `visitByQuantity` moves it on. */
interface QuantityWalk {
  plan: TakerPlan;
  want: number;
}

/** One maker met by a quantity-driven walk: 'stop' when the walk is over, else 'on'. 'skip' drops an expired maker. */
function visitByQuantity(symbol: SymbolState, request: PlanRequest, walk: QuantityWalk, maker: Order | null, available: number, ticks: number): 'stop' | 'on' | 'skip' {
  const plan = walk.plan;
  const mode = modeAgainst(request, maker);
  if (mode === 'EXPIRE_TAKER' || mode === 'EXPIRE_BOTH') {
    plan.prevented += walk.want;
    return 'stop';
  }
  if (mode === 'EXPIRE_MAKER') return 'skip';
  if (mode !== null) {
    // DECREMENT / TRANSFER: the taker loses the overlap without trading it; under TRANSFER
    // the overlap moves to the taker at the maker's price, so a BUY pays for it.
    const overlap = Math.min(walk.want, available);
    plan.prevented += overlap;
    if (mode === 'TRANSFER') {
      plan.transferred += overlap;
      if (request.isBuy) plan.quote += symbol.notional(ticks, overlap);
    }
    walk.want -= overlap;
  } else {
    const take = Math.min(walk.want, available);
    plan.steps += take;
    plan.quote += symbol.notional(ticks, take);
    walk.want -= take;
  }
  if (walk.want === 0) {
    plan.complete = true;
    return 'stop';
  }
  return 'on';
}

/** One visit of a walk to a maker: 'stop' ends the walk, 'skip' drops an expired maker, 'on' goes on. */
type Visit<W> = (symbol: SymbolState, request: PlanRequest, walk: W, maker: Order | null, available: number, ticks: number) => 'stop' | 'on' | 'skip';

/**
 * The walk both plans share: the opposite side best price first, up to the request's limit and
 * the PRICE_RANGE band, FIFO within a price (the iceberg rotation where a level holds icebergs),
 * the synthetic book's levels merged in by price after the users' orders at one price; each
 * maker handed to `visit` with what it offers at that visit (`null` for a synthetic level).
 */
function walkBook<W extends { plan: TakerPlan }>(symbol: SymbolState, request: PlanRequest, walk: W, visit: Visit<W>): TakerPlan {
  const users = symbol.book.opposite(request.isBuy).cursor();
  const band = symbol.spec.priceRange === null ? null : takerBand(symbol, request.isBuy, request.time);
  const liquidity = symbol.liquidity;
  const makerIsBid = !request.isBuy;
  const cutoff = liquidity === null ? 0 : syntheticCutoff(symbol, makerIsBid);
  let synthetic = liquidity === null ? -1 : liquidity.firstLive(makerIsBid, 0, cutoff);
  let level = users.next();
  for (;;) {
    const syntheticTicks = synthetic < 0 ? 0 : liquidity!.ticksAt(makerIsBid, synthetic);
    const fromSynthetic = synthetic >= 0 && (level === undefined || (request.isBuy ? syntheticTicks < level.ticks : syntheticTicks > level.ticks));
    if (!fromSynthetic && level === undefined) break;
    const ticks = fromSynthetic ? syntheticTicks : level!.ticks;
    if (request.limitTicks !== null && (request.isBuy ? ticks > request.limitTicks : ticks < request.limitTicks)) break;
    if (outsideBand(band, ticks)) break;
    if (fromSynthetic) {
      if (visit(symbol, request, walk, null, liquidity!.stepsAt(makerIsBid, synthetic), ticks) === 'stop') return walk.plan;
      synthetic = liquidity!.firstLive(makerIsBid, synthetic + 1, cutoff);
      continue;
    }
    const current = level!;
    level = users.next();
    if (current.icebergs === 0) {
      for (let maker = current.head; maker !== null; maker = maker.next) {
        if (visit(symbol, request, walk, maker, maker.remainingSteps, ticks) === 'stop') return walk.plan;
      }
      continue;
    }
    const visits = icebergVisits(current);
    const dropped = new Set<Order>();
    for (let i = 0; i < visits.makers.length; i++) {
      const maker = visits.makers[i]!;
      if (dropped.has(maker)) continue;
      const step = visit(symbol, request, walk, maker, visits.available[i]!, ticks);
      if (step === 'stop') return walk.plan;
      if (step === 'skip') dropped.add(maker);
    }
  }
  return walk.plan;
}

function planByQuantity(symbol: SymbolState, request: PlanRequest): TakerPlan {
  const walk: QuantityWalk = { plan: { steps: 0, prevented: 0, transferred: 0, quote: 0, complete: false }, want: request.wantSteps };
  return walkBook(symbol, request, walk, visitByQuantity);
}

/** What a quote-driven walk has left; `visitByQuote` moves it on. */
interface QuoteWalk {
  plan: TakerPlan;
  budget: number;
}

/** One maker met by a quote-driven walk (mirrors `matchQuoteTaker`). */
function visitByQuote(symbol: SymbolState, request: PlanRequest, walk: QuoteWalk, maker: Order | null, available: number, ticks: number): 'stop' | 'on' | 'skip' {
  const plan = walk.plan;
  const want = quoteTake(symbol, ticks, available, walk.budget, request.isBuy);
  if (want === 0) {
    plan.complete = true;
    return 'stop';
  }
  const mode = modeAgainst(request, maker);
  if (mode === 'EXPIRE_TAKER' || mode === 'EXPIRE_BOTH') {
    plan.prevented += want;
    return 'stop';
  }
  if (mode === 'EXPIRE_MAKER') return 'skip';
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
  walk.budget -= notional;
  if (want < available || walk.budget <= 0) {
    plan.complete = true;
    return 'stop';
  }
  return 'on';
}

/** Mirrors `matchQuoteTaker`: maker by maker, what is left of the amount decides. */
function planByQuote(symbol: SymbolState, request: PlanRequest): TakerPlan {
  const walk: QuoteWalk = { plan: { steps: 0, prevented: 0, transferred: 0, quote: 0, complete: false }, budget: request.quoteBudget };
  return walkBook(symbol, request, walk, visitByQuote);
}
