/**
 * The order lifecycle: every status change of an order and the event that reports it, in one
 * place. An order is accepted (OrderAccepted: NEW, or PENDING_NEW for a list leg waiting on
 * another), may wait off the book for a trigger, rests or walks; fills move it to
 * PARTIALLY_FILLED / FILLED (reported on TradeExecuted, OrderFilledByMarket, MatchPrevented by
 * the code that makes the fill); it ends FILLED, CANCELED, EXPIRED or EXPIRED_IN_MATCH.
 * `closeOrder` is the one way off the book and out of the open set (funds released, archived);
 * `expire` closes and reports; `finishTaker` / `finishQuoteTaker` decide what a walk's remainder
 * does. Invariant kept here: one event per status change, none after the terminal one.
 *
 * Statuses change only here, and only along `STATUS_TRANSITIONS` (`moveStatus` throws on any
 * other move: a bug, caught where it happens rather than in a client's view of the order).
 */
import { forgetMarginOrder } from './futures/futures-state.ts';
import type { Account } from './accounts/account.ts';
import { releaseAll } from './accounts/settle.ts';
import type { PriceLevel } from './book/price-level.ts';
import { generateClientOrderId } from './client-order-id.ts';
import type { OrderRequest } from './commands.ts';
import type { ConditionalFields } from './conditional/check-conditional.ts';
import { closeExtras, openExtras } from './conditional/order-extras-book.ts';
import { startTrailingFromLast } from './conditional/stop-rules.ts';
import type { EngineState, SymbolState } from './engine-state.ts';
import type { QuoteWalkEnd } from './matching/match-order.ts';
import { Order, OrderExtras } from './order.ts';
import type { ExpiryReason, OrderStatus, TimeInForce } from './types.ts';
import { noteListActivity } from './conditional/order-extras-book.ts';

/**
 * The legal status moves. A status may be set again to itself (a taker marked FILLED by its last
 * fill is closed FILLED when its walk ends). Terminal statuses go nowhere else.
 */
export const STATUS_TRANSITIONS: Readonly<Record<OrderStatus, Readonly<Partial<Record<OrderStatus, true>>>>> = {
  PENDING_NEW: { PENDING_NEW: true, NEW: true, CANCELED: true, EXPIRED: true },
  NEW: { NEW: true, PARTIALLY_FILLED: true, FILLED: true, CANCELED: true, EXPIRED: true, EXPIRED_IN_MATCH: true },
  PARTIALLY_FILLED: { PARTIALLY_FILLED: true, FILLED: true, CANCELED: true, EXPIRED: true, EXPIRED_IN_MATCH: true },
  FILLED: { FILLED: true },
  CANCELED: { CANCELED: true },
  EXPIRED: { EXPIRED: true },
  EXPIRED_IN_MATCH: { EXPIRED_IN_MATCH: true },
};

/** A status's row and column in LEGAL_MOVES; -1 for anything else. */
function statusIndex(status: OrderStatus): number {
  switch (status) {
    case 'PENDING_NEW':
      return 0;
    case 'NEW':
      return 1;
    case 'PARTIALLY_FILLED':
      return 2;
    case 'FILLED':
      return 3;
    case 'CANCELED':
      return 4;
    case 'EXPIRED':
      return 5;
    case 'EXPIRED_IN_MATCH':
      return 6;
    default:
      return -1;
  }
}

/**
 * STATUS_TRANSITIONS as a bit matrix (row `from`, column `to`, by statusIndex), built from the
 * table itself: moveStatus runs once or twice per command, and two string-keyed lookups on the
 * table were generic (megamorphic) property loads.
 */
const LEGAL_MOVES = ((): Uint8Array => {
  const legal = new Uint8Array(64);
  const statuses = Object.keys(STATUS_TRANSITIONS) as OrderStatus[];
  for (const from of statuses) {
    for (const to of statuses) if (STATUS_TRANSITIONS[from][to] === true) legal[(statusIndex(from) << 3) | statusIndex(to)] = 1;
  }
  return legal;
})();

/** Sets `order`'s status to `to`, which must be a legal move from its current one. */
export function moveStatus(order: Order, to: OrderStatus): void {
  const from = statusIndex(order.status);
  const into = statusIndex(to);
  if (from < 0 || into < 0 || LEGAL_MOVES[(from << 3) | into] !== 1) throw new Error(`order ${order.orderId}: status ${order.status} cannot become ${to}`);
  order.status = to;
}

/** What an accepted order is: its price and quantity on the grid, its STP mode, what it reserved. */
export interface AcceptTerms {
  readonly priceTicks: number;
  readonly steps: number;
  readonly stpMode: Order['stpMode'];
  /** Funds already reserved for it (its `locked`). */
  readonly lock: number;
  /** Stops, trailing, icebergs, pegs: their checked fields; null for plain orders. */
  readonly special: ConditionalFields | null;
  /** For list legs: their list's id (the list object is attached by the caller). Default -1. */
  readonly orderListId?: number;
  /** A list leg that waits on another leg (PENDING_NEW). Default false. */
  readonly pending?: boolean;
}

export function accept(
  state: EngineState,
  symbol: SymbolState,
  account: Account,
  command: OrderRequest & { time: number; viaSor?: boolean },
  terms: AcceptTerms,
): Order {
  const { priceTicks, steps, stpMode, lock, special } = terms;
  const orderListId = terms.orderListId ?? -1;
  const pending = terms.pending ?? false;
  const spec = symbol.spec;
  const orderId = symbol.nextOrderId++;
  const clientOrderId = command.clientOrderId ?? generateClientOrderId(spec.index, orderId, 0);
  const timeInForce: TimeInForce = command.timeInForce ?? 'GTC';
  const isBuy = command.side === 'BUY';
  const quoteOrderQty = command.quoteOrderQty ?? 0;
  const strategyId = command.strategyId ?? null;
  const strategyType = command.strategyType ?? null;
  let order = recycled.pop();
  if (order !== undefined) {
    order.reuse(spec.index, orderId, clientOrderId, account, isBuy, command.orderType, timeInForce, priceTicks, steps, quoteOrderQty, stpMode, command.time, strategyId, strategyType);
  } else {
    order = new Order(spec.index, orderId, clientOrderId, account, isBuy, command.orderType, timeInForce, priceTicks, steps, quoteOrderQty, stpMode, command.time, strategyId, strategyType);
  }
  order.locked = lock;
  order.clientIdChosen = command.clientOrderId !== undefined;
  if (special !== null || command.viaSor === true || orderListId >= 0) {
    const ext = (order.ext = new OrderExtras());
    if (special !== null) {
      ext.stopPrice = special.stopPrice;
      ext.trailingDelta = special.trailingDelta;
      ext.icebergSteps = special.icebergSteps;
      ext.pegPriceType = special.pegPriceType;
      ext.pegOffsetValue = special.pegOffsetValue;
      ext.peggedTicks = special.conditional ? 0 : special.peggedTicks;
    }
    ext.usedSor = command.viaSor === true;
  }
  if (pending) {
    order.status = 'PENDING_NEW';
    order.workingTime = -1;
  }
  symbol.live.add(order);
  symbol.openByAccount[account.slot] = (symbol.openByAccount[account.slot] ?? 0) + 1;
  account.openCount += 1;
  if (command.clientOrderId !== undefined) account.clientIdsOn(spec.index).set(clientOrderId, orderId);
  if (order.ext !== null) openExtras(symbol, order);
  account.updateTime = command.time;
  state.emit({
    type: 'OrderAccepted',
    time: command.time,
    symbol: spec.symbol,
    orderId,
    clientOrderId,
    accountId: account.accountId,
    side: command.side,
    orderType: command.orderType,
    timeInForce,
    price: priceTicks * spec.tickUnits,
    quantity: steps * spec.stepUnits,
    quoteOrderQty: command.quoteOrderQty ?? 0,
    selfTradePreventionMode: stpMode,
    status: pending ? 'PENDING_NEW' : 'NEW',
    orderListId,
    isWorking: !pending && !(special?.conditional ?? false),
  });
  return order;
}

export function expire(
  state: EngineState,
  symbol: SymbolState,
  order: Order,
  status: 'EXPIRED' | 'EXPIRED_IN_MATCH',
  reason: Order['expiryReason'],
  time: number,
): void {
  closeOrder(symbol, order, status, reason, time);
  state.emit({
    type: 'OrderExpired',
    time,
    symbol: symbol.spec.symbol,
    orderId: order.orderId,
    accountId: order.account.accountId,
    status,
    expiryReason: reason,
  });
}

/** An accepted stop starts waiting: on the symbol's stop list, trailing from the last price if it has no stop price. */
export function waitForTrigger(state: EngineState, symbol: SymbolState, order: Order, time: number): void {
  const ext = order.ext!;
  ext.untriggered = true;
  order.workingTime = -1;
  symbol.stops.push(order);
  if (ext.trailingDelta !== 0 && ext.stopPrice === 0) startTrailingFromLast(state, symbol, order, time);
}

/** Takes an order off the book and its account's open set, releasing its funds. */
export function closeOrder(
  symbol: SymbolState,
  order: Order,
  status: OrderStatus,
  expiryReason: ExpiryReason,
  time: number,
): void {
  if (order.level) symbol.book.side(order.isBuy).remove(order, order.bookSteps);
  symbol.openByAccount[order.account.slot] = (symbol.openByAccount[order.account.slot] as number) - 1;
  order.account.openCount -= 1;
  moveStatus(order, status);
  order.expiryReason = expiryReason;
  order.updateTime = time;
  releaseAll(symbol, order);
  if (order.locked !== 0) throw new Error(`order ${order.orderId} closed while reserving ${order.locked}`);
  // A margin order's futures fields shrink to its query flags (futures/futures-state.ts).
  if (symbol.margin !== null) forgetMarginOrder(symbol.margin, order.orderId);
  if (order.ext !== null) closeExtras(symbol, order);
  // From here on queries read the archive; the object itself is garbage, or recycled.
  symbol.archive.store(order, order.clientIdChosen);
  // Recycled once: only by the close that took it out of the open set.
  if (symbol.live.delete(order.orderId) && order.ext === null && closedPlain.length < RECYCLE_LIMIT) closedPlain.push(order);
}

/**
 * Closed plain orders, recycled as new ones. An open order is the one object per order the
 * engine keeps; building a fresh one for every placement was about a quarter of the bytes the
 * matching core allocated per command, and a fresh object is a cold one. A plain order (no
 * extras: not a stop, list leg, iceberg, peg or SOR order) is referred to only by the book, the
 * open set and the code handling the command that closed it; the archive has copied it. So one
 * closed during a command waits in `closedPlain` until the command is over (its events are
 * built from it) and is then free to become any later order (`Order.reuse` rewrites every field).
 * Identity only: no value a command or query sees depends on which object an order is.
 */
const closedPlain: Order[] = [];
const recycled: Order[] = [];
const RECYCLE_LIMIT = 1024;

/** Called when a command is over (Engine.apply): the plain orders it closed may be reused. */
export function recycleClosedOrders(): void {
  // pop, not `length = 0`: that would free the arrays' backing stores, re-grown on the next push.
  while (closedPlain.length !== 0) {
    const order = closedPlain.pop() as Order;
    if (recycled.length < RECYCLE_LIMIT) recycled.push(order);
  }
}

/**
 * `steps` of a resting order were filled or prevented (already counted in its executed or
 * prevented quantity): take them off what it shows. An iceberg loses them from its visible
 * slice; a slice that runs out while quantity remains is refilled at the back of its level.
 */
export function reduceShown(order: Order, steps: number): void {
  const level = order.level as PriceLevel;
  const ext = order.ext;
  if (ext === null || ext.icebergSteps === 0) {
    level.shrink(steps);
    return;
  }
  const fromSlice = Math.min(steps, ext.visibleSteps);
  ext.visibleSteps -= fromSlice;
  level.shrink(fromSlice);
  const remaining = order.remainingSteps;
  if (ext.visibleSteps === 0 && remaining > 0) {
    ext.visibleSteps = Math.min(ext.icebergSteps, remaining);
    level.requeue(order);
  }
}

/** A taker's fill was counted: FILLED when `done` (it is closed when its walk ends), else PARTIALLY_FILLED. */
export function takerFilled(symbol: SymbolState, taker: Order, done: boolean, time: number): void {
  moveStatus(taker, done ? 'FILLED' : 'PARTIALLY_FILLED');
  taker.updateTime = time;
  if (taker.ext !== null && taker.ext.list !== null) noteListActivity(symbol, taker);
}

/** A resting order's fill was counted: closed FILLED when nothing remains, else PARTIALLY_FILLED on the book. */
export function makerFilled(symbol: SymbolState, maker: Order, time: number): void {
  if (maker.remainingSteps === 0) {
    closeOrder(symbol, maker, 'FILLED', 'NONE', time);
    return;
  }
  moveStatus(maker, 'PARTIALLY_FILLED');
  maker.updateTime = time;
  if (maker.ext !== null && maker.ext.list !== null) noteListActivity(symbol, maker);
}

/** A pending list leg starts working (OrderActivated is the caller's). */
export function activateLeg(leg: Order, time: number): void {
  moveStatus(leg, 'NEW');
  leg.updateTime = time;
}

/** After a quote-driven walk: its last event reported FILLED / EXPIRED_IN_MATCH, or the book ran out. */
export function finishQuoteTaker(state: EngineState, symbol: SymbolState, order: Order, end: QuoteWalkEnd, time: number): void {
  switch (end) {
    case 'DONE':
      closeOrder(symbol, order, order.status, 'NONE', time);
      return;
    case 'SELF_TRADE':
      if (order.status === 'EXPIRED_IN_MATCH') closeOrder(symbol, order, 'EXPIRED_IN_MATCH', 'NONE', time);
      else expire(state, symbol, order, 'EXPIRED', 'INSUFFICIENT_LIQUIDITY', time);
      return;
    case 'BOOK_EMPTY':
      expire(state, symbol, order, 'EXPIRED', 'INSUFFICIENT_LIQUIDITY', time);
      return;
    case 'PRICE_RANGE':
      expire(state, symbol, order, 'EXPIRED', 'EXECUTION_RULE_PRICE_RANGE_EXCEEDED', time);
      return;
  }
}

/** MARKET, and the stop types that turn into a MARKET order when triggered. */
export function executesAsMarket(order: Order): boolean {
  return order.type === 'MARKET' || order.type === 'STOP_LOSS' || order.type === 'TAKE_PROFIT';
}

/** After matching: rest, fill, or expire the remainder according to type and time in force. */
export function finishTaker(state: EngineState, symbol: SymbolState, order: Order, time: number, rangeExceeded = false): void {
  if (order.status === 'EXPIRED_IN_MATCH') {
    // Self-trade prevention ended it; MatchPrevented already reported the status.
    closeOrder(symbol, order, 'EXPIRED_IN_MATCH', 'NONE', time);
    return;
  }
  if (order.remainingSteps === 0) {
    closeOrder(symbol, order, 'FILLED', 'NONE', time);
    return;
  }
  if (rangeExceeded) {
    expire(state, symbol, order, 'EXPIRED', 'EXECUTION_RULE_PRICE_RANGE_EXCEEDED', time);
    return;
  }
  if (executesAsMarket(order)) {
    expire(state, symbol, order, 'EXPIRED', 'INSUFFICIENT_LIQUIDITY', time);
    return;
  }
  switch (order.timeInForce) {
    case 'IOC':
      expire(state, symbol, order, 'EXPIRED', 'UNFILLED_IOC_QUANTITY_EXPIRED', time);
      return;
    case 'FOK':
      // The plan said it fills; self-trade prevention can still take quantity away.
      expire(state, symbol, order, 'EXPIRED', 'UNFILLED_FOK_ORDER_EXPIRED', time);
      return;
    case 'GTC': {
      const ext = order.ext;
      if (ext !== null && ext.icebergSteps !== 0) ext.visibleSteps = Math.min(ext.icebergSteps, order.remainingSteps);
      symbol.book.side(order.isBuy).add(order);
    }
  }
}
