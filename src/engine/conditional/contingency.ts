/**
 * The contingency pass that ends every command which traded or closed something conditional:
 * stops whose trigger a trade reached start working, and order lists react to what their legs
 * did. It runs until nothing is left to do, so a cascade (a stop's own trades triggering the
 * next stop, an OTO's working fill placing a pending OCO) finishes within the command that
 * started it, at that command's time.
 *
 * Order within the pass, per symbol: first list reactions (a touched OCO limit leg cancels its
 * stop partner before the stop could trigger), then the trade prices against the waiting stops
 * in trade order, stops in acceptance order. A triggered OCO leg expires its partner before it
 * executes (binance-facts §5.12).
 *
 * Funds: a stop reserved an estimate when placed (stop-rules.ts); when it starts working it
 * releases that and reserves what the working order needs (its limit notional, or the planned
 * cost of its market walk). If the account cannot cover that, or a pegged price finds no level,
 * or a LIMIT_MAKER would take, the order expires with expiryReason REJECTED.
 */
import { lockedAsset, releaseAll } from '../accounts/settle.ts';
import type { EngineState, SymbolState } from '../engine-state.ts';
import { matchTaker } from '../matching/match-order.ts';
import { planTakerWalk } from '../matching/plan-taker-walk.ts';
import type { Order } from '../order.ts';
import type { OrderList } from '../order-lists/order-list.ts';
import { wouldTake } from '../place-order.ts';
import { activateLeg, executesAsMarket, expire, finishTaker, waitForTrigger } from '../order-lifecycle.ts';
import { CONDITIONAL_TYPES, type ExpiryReason } from '../types.ts';
import { peggedTicks } from './check-conditional.ts';
import { dropStop } from './order-extras-book.ts';
import { lastPrice, startTrailing, stopLockAtPlacement, stopReached, triggerHolds } from './stop-rules.ts';

/** A bound on the work of one command: far above any real cascade, it turns a bug into an error. */
const MAX_ROUNDS = 10_000_000;

export function runContingencies(state: EngineState, time: number): void {
  const dirty = state.dirty;
  for (let i = 0; i < dirty.length; i++) {
    const symbol = dirty[i] as SymbolState;
    settleSymbol(state, symbol, time);
    symbol.isDirty = false;
  }
  dirty.length = 0;
}

function settleSymbol(state: EngineState, symbol: SymbolState, time: number): void {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (symbol.listActivity.length !== 0) {
      const legs = symbol.listActivity;
      symbol.listActivity = [];
      for (const leg of legs) reactToLeg(state, symbol, leg, time);
      continue;
    }
    if (symbol.tradePrices.length !== 0) {
      const prices = symbol.tradePrices;
      symbol.tradePrices = [];
      for (const [order, price] of dueStops(state, symbol, prices, time)) {
        // An OCO stop whose partner traded earlier in this batch (another stop took from it)
        // waits for the list reaction, which expires it: the legs never both trade.
        if (order.isOpen && order.ext!.untriggered && !partnerTraded(symbol, order)) triggerStop(state, symbol, order, price, time);
      }
      continue;
    }
    return;
  }
  throw new Error(`${symbol.spec.symbol}: contingencies did not settle`);
}

/** The stops the prices reach, in trade order then acceptance order; trailing state moves on. */
function dueStops(state: EngineState, symbol: SymbolState, prices: readonly number[], time: number): [Order, number][] {
  const due: [Order, number][] = [];
  const waiting = symbol.stops.slice();
  const done = new Set<Order>();
  for (const price of prices) {
    for (const order of waiting) {
      if (done.has(order)) continue;
      if (stopReached(state, symbol, order, price, time)) {
        done.add(order);
        due.push([order, price]);
      }
    }
  }
  return due;
}

/** The OCO partner of a waiting stop has traded, partly or fully (its list has not reacted yet). */
function partnerTraded(symbol: SymbolState, order: Order): boolean {
  const list = order.ext!.list;
  if (list === null) return false;
  const partnerId = list.ocoPartnerOf(order.orderId);
  // From the archive: a partner filled completely has already left the live orders.
  return partnerId !== null && (symbol.record(partnerId)?.executedSteps ?? 0) > 0;
}

function triggerStop(state: EngineState, symbol: SymbolState, order: Order, price: number, time: number): void {
  const ext = order.ext!;
  // In an OCO the other leg goes first (it is expired before the stop executes).
  const list = ext.list;
  if (list !== null) {
    const partnerId = list.ocoPartnerOf(order.orderId);
    const partner = partnerId === null ? undefined : symbol.live.get(partnerId);
    if (partner !== undefined && partner.status !== 'PENDING_NEW') expireLeg(state, symbol, partner, 'OCO_TRIGGER', time);
  }
  ext.untriggered = false;
  dropStop(symbol, order);
  order.workingTime = time;
  order.updateTime = time;
  state.emit({ type: 'OrderTriggered', time, symbol: symbol.spec.symbol, orderId: order.orderId, accountId: order.account.accountId, triggerPrice: price });
  startWorking(state, symbol, order, time);
}

/**
 * An order starts working on the book: a triggered stop, or an activated pending leg. It takes
 * its pegged price, reserves what it now needs, and matches like a new taker.
 */
function startWorking(state: EngineState, symbol: SymbolState, order: Order, time: number): void {
  const ext = order.ext!;
  if (ext.pegPriceType !== null) {
    const ticks = peggedTicks(symbol, order.isBuy, ext.pegPriceType, ext.pegOffsetValue);
    if (ticks === 0) return expireLeg(state, symbol, order, 'REJECTED', time);
    order.priceTicks = ticks;
    ext.peggedTicks = ticks;
  }
  const asMarket = executesAsMarket(order);
  if (order.type === 'LIMIT_MAKER' && wouldTake(symbol, order.isBuy, order.priceTicks)) return expireLeg(state, symbol, order, 'REJECTED', time);
  // What the working order needs, in place of what it held while waiting.
  const spec = symbol.spec;
  const steps = order.remainingSteps;
  let need: number;
  if (!order.isBuy) need = steps * spec.stepUnits;
  else if (!asMarket) need = symbol.notional(order.priceTicks, steps);
  else need = planTakerWalk(symbol, { account: order.account, isBuy: true, stpMode: order.stpMode, limitTicks: null, wantSteps: steps, quoteBudget: Infinity, time: time }).quote;
  releaseAll(symbol, order);
  ext.sharesLock = false;
  if (!order.account.reserve(lockedAsset(symbol, order), need)) return expireLeg(state, symbol, order, 'REJECTED', time);
  order.locked = need;
  if (order.workingTime < 0) order.workingTime = time;
  if (order.timeInForce === 'FOK' && !asMarket) {
    const plan = planTakerWalk(symbol, { account: order.account, isBuy: order.isBuy, stpMode: order.stpMode, limitTicks: order.priceTicks, wantSteps: steps, quoteBudget: Infinity, time: time });
    if (!plan.complete) return expire(state, symbol, order, 'EXPIRED', 'UNFILLED_FOK_ORDER_EXPIRED', time);
  }
  finishTaker(state, symbol, order, time, matchTaker(state, symbol, order, time));
}

function expireLeg(state: EngineState, symbol: SymbolState, order: Order, reason: ExpiryReason, time: number): void {
  expire(state, symbol, order, 'EXPIRED', reason, time);
}

// ---- order lists ------------------------------------------------------------------------------

function legOf(symbol: SymbolState, orderId: number): Order | undefined {
  return symbol.live.get(orderId);
}

/** What a leg's fill, trigger or end means for the rest of its list. */
function reactToLeg(state: EngineState, symbol: SymbolState, leg: Order, time: number): void {
  const list = leg.ext!.list!;
  if (!list.isOpen) return;
  const role = list.roleOf(leg.orderId);
  const touched = leg.executedSteps > 0 || !leg.isOpen;
  if (list.hasWorkingLeg && role === 0) {
    if (leg.status === 'FILLED') activatePending(state, symbol, list, leg, time);
    else if (!leg.isOpen) {
      for (const id of list.orderIds.slice(1)) {
        const pending = legOf(symbol, id);
        if (pending !== undefined) expireLeg(state, symbol, pending, 'OTO_PHASE_ONE_EXPIRED', time);
      }
    }
  } else if (touched && leg.expiryReason !== 'OCO_TRIGGER') {
    // (A leg the OCO itself expired passes nothing back to the partner that caused it.)
    // An OCO leg that traded or ended takes its partner with it.
    const partnerId = list.ocoPartnerOf(leg.orderId);
    const partner = partnerId === null ? undefined : legOf(symbol, partnerId);
    if (partner !== undefined && partner.status !== 'PENDING_NEW') expireLeg(state, symbol, partner, 'OCO_TRIGGER', time);
  }
  refreshListStatus(state, symbol, list, time);
}

/**
 * The working order filled: the pending legs are placed. OPO legs sell what it received (its
 * executed quantity less base-asset commission, floored to the step; the rest stays free).
 */
function activatePending(state: EngineState, symbol: SymbolState, list: OrderList, working: Order, time: number): void {
  const legs = list.orderIds.slice(1).map((id) => legOf(symbol, id)).filter((o): o is Order => o !== undefined && o.status === 'PENDING_NEW');
  if (list.pendingFromWorking) {
    const received = receivedBase(symbol, working);
    const steps = Math.floor(received / symbol.spec.stepUnits);
    const min = symbol.spec.lotSize?.min ?? 0;
    for (const leg of legs) {
      if (steps === 0 || steps * symbol.spec.stepUnits < min) {
        expireLeg(state, symbol, leg, 'REJECTED', time);
        continue;
      }
      leg.origSteps = steps;
    }
  }
  const live = legs.filter((leg) => leg.isOpen);
  for (const leg of live) {
    activateLeg(leg, time);
    state.emit({ type: 'OrderActivated', time, symbol: symbol.spec.symbol, orderId: leg.orderId, accountId: leg.account.accountId, quantity: leg.remainingSteps * symbol.spec.stepUnits });
  }
  // A pending pair is an OCO from here on: the first leg to work holds the funds. As at list
  // placement, that is the leg that works without a trigger (a BUY pair lists its stop first).
  const pair = live.length === 2;
  let holderReserved = false;
  const starting = [...live].sort((a, b) => Number(CONDITIONAL_TYPES.has(a.type)) - Number(CONDITIONAL_TYPES.has(b.type)));
  for (const leg of starting) {
    if (!leg.isOpen) continue; // its partner's start may have ended it
    if (CONDITIONAL_TYPES.has(leg.type)) {
      const ext = leg.ext!;
      if (pair && holderReserved) ext.sharesLock = true;
      else {
        const lock = stopLockAtPlacement(symbol, leg.isBuy, leg.type, leg.priceTicks, ext.stopPrice, leg.remainingSteps);
        if (!leg.account.reserve(lockedAsset(symbol, leg), lock)) {
          expireLeg(state, symbol, leg, 'REJECTED', time);
          continue;
        }
        leg.locked = lock;
        holderReserved = true;
      }
      waitForTrigger(state, symbol, leg, time);
      const last = lastPrice(symbol);
      if (ext.stopPrice > 0 && last !== null && triggerHolds(leg.type, leg.isBuy, ext.stopPrice, last)) {
        // A trailing stop's stop price starts its tracking, it does not trigger it (stop-rules.ts).
        if (ext.trailingDelta !== 0) startTrailing(state, symbol, leg, last, time);
        else triggerStop(state, symbol, leg, last, time);
      }
    } else {
      startWorking(state, symbol, leg, time);
      if (leg.isOpen) holderReserved = true;
    }
  }
}

/** Base the working order's fills delivered to the account, after base-asset commission. */
function receivedBase(symbol: SymbolState, working: Order): number {
  const spec = symbol.spec;
  let base = working.executedSteps * spec.stepUnits;
  for (const trade of working.account.tradesOn(spec.index)) {
    if (trade.orderId === working.orderId && trade.commissionAsset === symbol.baseAsset) base -= trade.commission;
  }
  return base;
}

/** A list whose legs have all ended is ALL_DONE. */
export function refreshListStatus(state: EngineState, symbol: SymbolState, list: OrderList, time: number): void {
  if (!list.isOpen) return;
  for (const id of list.orderIds) if (legOf(symbol, id) !== undefined) return;
  list.listStatusType = 'ALL_DONE';
  list.listOrderStatus = 'ALL_DONE';
  list.transactionTime = time;
  const account = state.accounts.get(list.accountId)!;
  symbol.listsByAccount[account.slot] = (symbol.listsByAccount[account.slot] as number) - 1;
  account.openListCount -= 1;
  emitListStatus(state, list, time);
}

export function emitListStatus(state: EngineState, list: OrderList, time: number): void {
  state.emit({ type: 'OrderListUpdated', time, ...list.snapshot() });
}
