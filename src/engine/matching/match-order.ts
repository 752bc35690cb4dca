/**
 * Matching: a taker order walks the opposite side best price first, FIFO within a price, and
 * trades at the maker's price until it is filled, its limit stops it, the book runs out, or
 * self-trade prevention ends it. Each fill is settled at once (settle.ts), so balances and the
 * book are consistent after every step.
 */
import { relock, settleFill } from '../accounts/settle.ts';
import type { EngineState, PreventedMatchRecord, SymbolState } from '../engine-state.ts';
import type { BookSide } from '../book/book-side.ts';
import type { Order } from '../order.ts';
import type { OrderStatus, SelfTradePreventionMode } from '../types.ts';
import { quoteTake } from './quote-take.ts';
import { preventionMode } from './self-trade-prevention.ts';
import { closeOrder, moveStatus, reduceShown } from '../order-lifecycle.ts';
import { outsideBand, takerBand } from '../execution-rules.ts';
import { syntheticCutoff } from '../liquidity/merged-levels.ts';
import { executeFill } from '../fills/execute-fill.ts';

/**
 * Runs a taker with a quantity (LIMIT, LIMIT_MAKER, MARKET by quantity) against the book. The
 * taker's fields tell what happened; returns true when it stopped at the PRICE_RANGE execution
 * rule (the next price was outside its band), which ends it whatever its time in force.
 */
export function matchTaker(state: EngineState, symbol: SymbolState, taker: Order, time: number): boolean {
  const opposite = symbol.book.opposite(taker.isBuy);
  const limit = taker.priceTicks;
  const band = symbol.spec.priceRange === null ? null : takerBand(symbol, taker.isBuy, time);
  const liquidity = symbol.liquidity;
  const makerIsBid = !taker.isBuy;
  // The taker is not on the book while it walks, so the users' best on its own side (which
  // hides crossing synthetic levels) stays put for the whole walk.
  const cutoff = liquidity === null ? 0 : syntheticCutoff(symbol, makerIsBid);
  while (taker.remainingSteps > 0) {
    const level = opposite.best();
    const synthetic = liquidity === null ? -1 : liquidity.firstLive(makerIsBid, 0, cutoff);
    if (synthetic >= 0) {
      const ticks = liquidity!.ticksAt(makerIsBid, synthetic);
      // Users' orders first at one price; the synthetic level when it is strictly better.
      if (level === undefined || (taker.isBuy ? ticks < level.ticks : ticks > level.ticks)) {
        if (limit > 0 && (taker.isBuy ? ticks > limit : ticks < limit)) return false;
        if (outsideBand(band, ticks)) return true;
        const steps = Math.min(taker.remainingSteps, liquidity!.stepsAt(makerIsBid, synthetic));
        executeFill(state, symbol, taker, null, ticks, steps, steps === taker.remainingSteps, time, '', synthetic);
        continue;
      }
    }
    if (level === undefined) return false;
    if (limit > 0 && (taker.isBuy ? level.ticks > limit : level.ticks < limit)) return false;
    if (outsideBand(band, level.ticks)) return true;
    const maker = level.head as Order;
    const mode = preventionMode(taker, maker);
    if (mode !== null) {
      preventMatch(state, symbol, taker, maker, mode, time, taker.remainingSteps, null);
      if (taker.status === 'EXPIRED_IN_MATCH') return false;
      continue;
    }
    const steps = Math.min(taker.remainingSteps, maker.bookSteps);
    executeFill(state, symbol, taker, maker, level.ticks, steps, steps === taker.remainingSteps, time, '', -1);
  }
  return false;
}

/** How a MARKET order by quoteOrderQty ended its walk. */
export type QuoteWalkEnd = 'DONE' | 'BOOK_EMPTY' | 'SELF_TRADE' | 'PRICE_RANGE';

/**
 * Runs a MARKET order by quoteOrderQty: its quantity is not fixed in advance but taken maker by
 * maker from what is left of the quote amount (quote-take.ts), so it meets makers (its own
 * included) exactly as the real exchange's walk would. It is done when the amount limits a take,
 * is used up, or cannot buy one step at the next maker; the event that makes it done reports the
 * final status. `taker.origSteps` is set to the quantity it ended with.
 */
export function matchQuoteTaker(state: EngineState, symbol: SymbolState, taker: Order, time: number): QuoteWalkEnd {
  const opposite = symbol.book.opposite(taker.isBuy);
  let budget = taker.quoteOrderQty;
  const predicted = taker.origSteps; // from the plan, which mirrors this walk
  taker.origSteps = Number.MAX_SAFE_INTEGER; // open-ended while it walks
  let end: QuoteWalkEnd = 'BOOK_EMPTY';
  const band = symbol.spec.priceRange === null ? null : takerBand(symbol, taker.isBuy, time);
  const liquidity = symbol.liquidity;
  const makerIsBid = !taker.isBuy;
  const cutoff = liquidity === null ? 0 : syntheticCutoff(symbol, makerIsBid);
  for (;;) {
    const level = opposite.best();
    const synthetic = liquidity === null ? -1 : liquidity.firstLive(makerIsBid, 0, cutoff);
    const syntheticTicks = synthetic < 0 ? 0 : liquidity!.ticksAt(makerIsBid, synthetic);
    if (synthetic >= 0 && (level === undefined || (taker.isBuy ? syntheticTicks < level.ticks : syntheticTicks > level.ticks))) {
      // The synthetic book: no self-trade prevention (it is nobody's), never an iceberg.
      if (outsideBand(band, syntheticTicks)) {
        end = 'PRICE_RANGE';
        break;
      }
      const available = liquidity!.stepsAt(makerIsBid, synthetic);
      const want = quoteTake(symbol, syntheticTicks, available, budget, taker.isBuy);
      if (want === 0) throw new Error(`quote order ${taker.orderId} walked on after it was done`);
      const after = budget - symbol.notional(syntheticTicks, want);
      const next = liquidity!.firstLive(makerIsBid, synthetic + 1, cutoff);
      const done =
        want < available ||
        after <= 0 ||
        quoteDoneAt(symbol, betterOffer(taker.isBuy, level === undefined ? null : offerOf(level.head as Order), next < 0 ? null : { ticks: liquidity!.ticksAt(makerIsBid, next), steps: liquidity!.stepsAt(makerIsBid, next) }), after, taker.isBuy);
      executeFill(state, symbol, taker, null, syntheticTicks, want, done, time, '', synthetic);
      budget = after;
      if (done) {
        end = 'DONE';
        break;
      }
      continue;
    }
    if (level === undefined) break;
    if (outsideBand(band, level.ticks)) {
      end = 'PRICE_RANGE';
      break;
    }
    const maker = level.head as Order;
    const available = maker.bookSteps;
    const want = quoteTake(symbol, level.ticks, available, budget, taker.isBuy);
    if (want === 0) throw new Error(`quote order ${taker.orderId} walked on after it was done`);
    const mode = preventionMode(taker, maker);
    // What the amount has left after this maker, and whether that ends the order.
    const consumes = mode === null || mode === 'DECREMENT' || mode === 'TRANSFER';
    const after = consumes ? budget - symbol.notional(level.ticks, want) : budget;
    const skipsMaker = mode === 'EXPIRE_MAKER' || (consumes && want === available);
    const done =
      (consumes && (want < available || after <= 0)) ||
      (skipsMaker && quoteDoneAt(symbol, nextOfferAfter(opposite, maker, mode !== 'EXPIRE_MAKER' && maker.remainingSteps > want, taker.isBuy, synthetic < 0 ? null : { ticks: syntheticTicks, steps: liquidity!.stepsAt(makerIsBid, synthetic) }), after, taker.isBuy));
    if (mode !== null) {
      const takerEnds = mode === 'EXPIRE_TAKER' || mode === 'EXPIRE_BOTH' || (consumes && want < available);
      const statusAfter: OrderStatus = takerEnds
        ? 'EXPIRED_IN_MATCH'
        : done
          ? taker.executedSteps > 0
            ? 'FILLED'
            : 'EXPIRED_IN_MATCH'
          : taker.status;
      preventMatch(state, symbol, taker, maker, mode, time, want, statusAfter);
      budget = after;
      if (takerEnds || done) {
        end = takerEnds || taker.executedSteps === 0 ? 'SELF_TRADE' : 'DONE';
        break;
      }
      continue;
    }
    executeFill(state, symbol, taker, maker, level.ticks, want, done, time, '', -1);
    budget = after;
    if (done) {
      end = 'DONE';
      break;
    }
  }
  taker.origSteps = taker.executedSteps + taker.preventedSteps;
  if (taker.origSteps !== predicted) {
    throw new Error(`quote order ${taker.orderId}: walk took ${taker.origSteps} steps, plan said ${predicted}`);
  }
  return end;
}

/** What a walk meets next: a price and the steps shown there (at least one counts). */
interface Offer {
  readonly ticks: number;
  readonly steps: number;
}

function offerOf(maker: Order): Offer {
  return { ticks: maker.level!.ticks, steps: maker.bookSteps };
}

/** The offer a taker meets first of a users' one and a synthetic one (users' first at one price). */
function betterOffer(takerIsBuy: boolean, users: Offer | null, synthetic: Offer | null): Offer | null {
  if (synthetic === null) return users;
  if (users === null) return synthetic;
  return (takerIsBuy ? synthetic.ticks < users.ticks : synthetic.ticks > users.ticks) ? synthetic : users;
}

/**
 * The offer a walk meets after the users' `maker` (same price first, then the next price of the
 * users' book or the synthetic book's best), or null. An iceberg that `refills` comes round
 * again at its own price when nothing else waits there (only the price of the next offer
 * matters to the caller).
 */
function nextOfferAfter(side: BookSide, maker: Order, refills: boolean, takerIsBuy: boolean, synthetic: Offer | null): Offer | null {
  // At the maker's own price the users' orders come before any synthetic level.
  if (maker.next) return offerOf(maker.next);
  if (refills) return offerOf(maker);
  const head = side.secondBest()?.head ?? null;
  return betterOffer(takerIsBuy, head === null ? null : offerOf(head), synthetic);
}

/** True if a quote amount `budget` cannot buy one step at `offer` (false when there is none). */
function quoteDoneAt(symbol: SymbolState, offer: Offer | null, budget: number, isBuy: boolean): boolean {
  if (offer === null) return false;
  return budget <= 0 || quoteTake(symbol, offer.ticks, Math.max(1, offer.steps), budget, isBuy) === 0;
}

/**
 * A would-be self-trade: expire the taker, the maker, both, or decrement both by the overlap
 * (TRANSFER also moves the overlap between the two accounts, at the maker's price, fee-free).
 */
function preventMatch(
  state: EngineState,
  symbol: SymbolState,
  taker: Order,
  maker: Order,
  mode: SelfTradePreventionMode,
  time: number,
  /** What the taker would trade here: its remaining quantity, or what its quote amount takes. */
  takerAvailable: number,
  /** For quote-driven takers, the status the walk decided; null: derive from the quantities. */
  takerStatusAfter: OrderStatus | null,
): void {
  const level = maker.level!;
  let takerPrevented = 0;
  let makerPrevented = 0;
  let takerEnds = false;
  let makerEnds = false;
  switch (mode) {
    case 'EXPIRE_TAKER':
      takerPrevented = takerAvailable;
      takerEnds = true;
      break;
    case 'EXPIRE_MAKER':
      makerPrevented = maker.remainingSteps;
      makerEnds = true;
      break;
    case 'EXPIRE_BOTH':
      takerPrevented = takerAvailable;
      makerPrevented = maker.remainingSteps;
      takerEnds = true;
      makerEnds = true;
      break;
    case 'DECREMENT':
    case 'TRANSFER': {
      // Against an iceberg, the overlap is with its visible slice.
      const overlap = Math.min(takerAvailable, maker.bookSteps);
      takerPrevented = overlap;
      makerPrevented = overlap;
      takerEnds = overlap === takerAvailable;
      makerEnds = overlap === maker.remainingSteps;
      break;
    }
    case 'NONE':
      throw new Error('NONE never prevents a match');
  }

  const preventedMatchId = symbol.nextPreventedMatchId++;
  // Set before anything closes: a closed order is archived as it is at that moment.
  taker.preventedMatchId = preventedMatchId;
  maker.preventedMatchId = preventedMatchId;
  if (mode === 'TRANSFER') transferOverlap(state, symbol, taker, maker, takerPrevented, level.ticks, time);
  // A maker that stays keeps its place; only its remaining quantity shrinks.
  if (makerEnds) {
    maker.preventedSteps += makerPrevented;
    reduceShown(maker, makerPrevented);
    closeOrder(symbol, maker, 'EXPIRED_IN_MATCH', 'NONE', time);
  } else if (makerPrevented > 0) {
    maker.preventedSteps += makerPrevented;
    reduceShown(maker, makerPrevented);
    maker.updateTime = time;
    relock(symbol, maker);
  }
  taker.preventedSteps += takerPrevented;
  taker.updateTime = time;
  if (takerStatusAfter !== null) moveStatus(taker, takerStatusAfter);
  else if (takerEnds) moveStatus(taker, 'EXPIRED_IN_MATCH');
  if (!takerEnds && takerPrevented > 0 && taker.priceTicks > 0) relock(symbol, taker);

  const record: PreventedMatchRecord = {
    preventedMatchId,
    takerOrderId: taker.orderId,
    makerOrderId: maker.orderId,
    takerAccountId: taker.account.accountId,
    makerAccountId: maker.account.accountId,
    tradeGroupId: taker.account.tradeGroupId,
    mode,
    priceTicks: level.ticks,
    takerPreventedSteps: takerPrevented,
    makerPreventedSteps: makerPrevented,
    time,
  };
  symbol.preventedMatches.push(record);
  const stepUnits = symbol.spec.stepUnits;
  state.emit({
    type: 'MatchPrevented',
    time,
    symbol: symbol.spec.symbol,
    preventedMatchId,
    takerOrderId: taker.orderId,
    makerOrderId: maker.orderId,
    takerAccountId: taker.account.accountId,
    makerAccountId: maker.account.accountId,
    price: level.ticks * symbol.spec.tickUnits,
    mode,
    takerPreventedQuantity: takerPrevented * stepUnits,
    makerPreventedQuantity: makerPrevented * stepUnits,
    takerStatus: taker.status,
    makerStatus: maker.status,
  });
}

/**
 * TRANSFER between two accounts of one trade group: the prevented overlap changes hands as if
 * traded at the maker's price, with no commission and no trade record.
 */
function transferOverlap(
  state: EngineState,
  symbol: SymbolState,
  taker: Order,
  maker: Order,
  steps: number,
  ticks: number,
  time: number,
): void {
  const buyer = taker.isBuy ? taker : maker;
  const seller = taker.isBuy ? maker : taker;
  const base = steps * symbol.spec.stepUnits;
  const quote = symbol.notional(ticks, steps);
  // The orders lose the quantity as prevented, not executed: account for it before settling so
  // the buyer's remaining reservation is computed on the reduced quantity.
  buyer.preventedSteps += steps;
  seller.preventedSteps += steps;
  settleFill(state, symbol, buyer, seller, buyer === maker, base, quote, time, false);
  buyer.preventedSteps -= steps;
  seller.preventedSteps -= steps;
}
