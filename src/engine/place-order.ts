/**
 * PlaceOrder for LIMIT (GTC / IOC / FOK), LIMIT_MAKER and MARKET (by quantity or by
 * quoteOrderQty). Stages, each of which may refuse the command and change nothing:
 *   1. symbol, account, trading status, permissions, order type and field combination;
 *   2. filters (filters/check-order-filters.ts);
 *   3. engine rules: duplicate client order id, LIMIT_MAKER that would take, liquidity for
 *      quoteOrderQty, funds (the planned cost of a MARKET BUY is known before anything moves);
 * then reserve funds, accept (OrderAccepted), match, and rest or expire the remainder.
 */
import type { Account } from './accounts/account.ts';
import { generateClientOrderId } from './client-order-id.ts';
import type { PlaceOrder } from './commands.ts';
import type { EngineState, SymbolState } from './engine-state.ts';
import { checkOrderFilters, maxAssetCap, positionAfter } from './filters/check-order-filters.ts';
import { findOrderIdByClientId } from './find-order.ts';
import { closeOrder, matchQuoteTaker, matchTaker, type QuoteWalkEnd } from './matching/match-order.ts';
import { planTakerWalk, type TakerPlan } from './matching/plan-taker-walk.ts';
import { Order } from './order.ts';
import type { RejectReason } from './reject-reason.ts';
import type { SelfTradePreventionMode, TimeInForce } from './types.ts';

function isPositiveAmount(n: number | undefined): n is number {
  return n !== undefined && Number.isSafeInteger(n) && n > 0;
}

/** Checks the shape of the command for its order type; returns the reason or null. */
function combinationProblem(command: PlaceOrder): RejectReason | null {
  const { orderType, timeInForce, price, quantity, quoteOrderQty } = command;
  switch (orderType) {
    case 'LIMIT':
      if (timeInForce === undefined || price === undefined || quantity === undefined || quoteOrderQty !== undefined) {
        return 'UNSUPPORTED_ORDER_COMBINATION';
      }
      return null;
    case 'LIMIT_MAKER':
      if (timeInForce !== undefined || price === undefined || quantity === undefined || quoteOrderQty !== undefined) {
        return 'UNSUPPORTED_ORDER_COMBINATION';
      }
      return null;
    case 'MARKET':
      if (price !== undefined || timeInForce !== undefined) return 'UNSUPPORTED_ORDER_COMBINATION';
      if ((quantity === undefined) === (quoteOrderQty === undefined)) return 'UNSUPPORTED_ORDER_COMBINATION';
      return null;
    default:
      // Stop, take-profit and their limit variants arrive with conditional orders.
      return 'UNSUPPORTED_ORDER_COMBINATION';
  }
}

function permitted(symbol: SymbolState, account: Account): boolean {
  // Both sides are fixed once created, so the answer is computed once per account and symbol.
  let known = symbol.permitted[account.slot];
  if (known === undefined) {
    // permissionSets: every inner set must share at least one permission with the account.
    known =
      symbol.spec.isSpotTradingAllowed &&
      symbol.spec.permissionSets.every((set) => set.some((p) => account.permissions.includes(p)));
    symbol.permitted[account.slot] = known;
  }
  return known;
}

/** What the read-only stages establish about an acceptable PlaceOrder. */
interface CheckedPlacement {
  symbol: SymbolState;
  account: Account;
  isBuy: boolean;
  isMarket: boolean;
  byQuote: boolean;
  stpMode: SelfTradePreventionMode;
  priceTicks: number;
  steps: number;
}

// One scratch record reused per command: the engine is synchronous, and placement is the hot path.
const SCRATCH: CheckedPlacement = { symbol: null as unknown as SymbolState, account: null as unknown as Account, isBuy: false, isMarket: false, byQuote: false, stpMode: 'NONE', priceTicks: 0, steps: 0 };

/**
 * Stages 1, 2 and the book rules of 3 (duplicate client id, LIMIT_MAKER that would take): the
 * reason `command` is refused, or the checked placement in `out`. Reads state, changes nothing.
 */
function checkPlacement(state: EngineState, command: PlaceOrder, out: CheckedPlacement): RejectReason | CheckedPlacement {
  const symbol = state.symbols.get(command.symbol);
  if (!symbol) return 'UNKNOWN_SYMBOL';
  const account = state.accounts.get(command.accountId);
  if (!account) return 'UNKNOWN_ACCOUNT';
  const spec = symbol.spec;

  if (symbol.status !== 'TRADING') return 'MARKET_CLOSED';
  if (!account.canTrade) return 'ACCOUNT_CANNOT_TRADE';
  if (!permitted(symbol, account)) return 'SYMBOL_NOT_PERMITTED';
  if (!spec.orderTypes.has(command.orderType)) return 'ORDER_TYPE_NOT_SUPPORTED';
  const combination = combinationProblem(command);
  if (combination) return combination;
  if (
    (command.price !== undefined && !isPositiveAmount(command.price)) ||
    (command.quantity !== undefined && !isPositiveAmount(command.quantity)) ||
    (command.quoteOrderQty !== undefined && !isPositiveAmount(command.quoteOrderQty))
  ) {
    return 'INVALID_AMOUNT';
  }
  const isMarket = command.orderType === 'MARKET';
  const byQuote = command.quoteOrderQty !== undefined;
  if (byQuote && !spec.quoteOrderQtyMarketAllowed) return 'QUOTE_ORDER_QTY_MARKET_NOT_SUPPORTED';
  const stpMode = command.selfTradePreventionMode ?? spec.defaultStpMode;
  if (command.selfTradePreventionMode !== undefined && !spec.allowedStpModes.has(stpMode)) return 'STP_MODE_NOT_ALLOWED';

  const isBuy = command.side === 'BUY';
  const filterFailure = checkOrderFilters(state, symbol, account, {
    isBuy,
    isMarket,
    price: command.price ?? null,
    quantity: command.quantity ?? null,
    quoteOrderQty: command.quoteOrderQty ?? null,
    time: command.time,
  });
  if (filterFailure) return filterFailure;

  // On the book grid. Filters guarantee tick and step multiples when PRICE_FILTER / LOT_SIZE
  // exist; without them one tick or step is one unit, so the divisions are exact either way.
  const priceTicks = command.price === undefined ? 0 : command.price / spec.tickUnits;
  const steps = command.quantity === undefined ? 0 : command.quantity / spec.stepUnits;
  if (!Number.isInteger(priceTicks) || !Number.isInteger(steps)) return priceTicks % 1 !== 0 ? 'FILTER_PRICE_FILTER' : 'FILTER_LOT_SIZE';
  if (!isMarket && symbol.notional(priceTicks, steps) <= 0) return 'NOTIONAL_NOT_POSITIVE';

  const sameClientId = command.clientOrderId === undefined ? undefined : findOrderIdByClientId(symbol, account, command.clientOrderId);
  if (sameClientId !== undefined && symbol.live.get(sameClientId) !== undefined) return 'DUPLICATE_ORDER';

  if (command.orderType === 'LIMIT_MAKER') {
    const best = symbol.book.opposite(isBuy).best();
    if (best && (isBuy ? best.ticks <= priceTicks : best.ticks >= priceTicks)) return 'WOULD_MATCH_AND_TAKE';
  }
  out.symbol = symbol;
  out.account = account;
  out.isBuy = isBuy;
  out.isMarket = isMarket;
  out.byQuote = byQuote;
  out.stpMode = stpMode;
  out.priceTicks = priceTicks;
  out.steps = steps;
  return out;
}

/**
 * The reason the engine would refuse `command` now, or null: every stage except funds (what
 * POST /api/v3/order/test validates; the balance lives with the matching engine, which a test
 * order never reaches). MARKET orders are planned against the current book, as placement would.
 */
export function placementRefusal(state: EngineState, command: PlaceOrder): RejectReason | null {
  const checked = checkPlacement(state, command, { ...SCRATCH });
  if (typeof checked === 'string') return checked;
  const { symbol, account, isBuy, stpMode, steps } = checked;
  if (checked.byQuote) {
    const plan = planTakerWalk(symbol, { account, isBuy, stpMode, limitTicks: null, wantSteps: Infinity, quoteBudget: command.quoteOrderQty as number });
    return quoteQuantityRefusal(state, symbol, account, isBuy, plan);
  }
  if (checked.isMarket) {
    const quoteCap = maxAssetCap(state, symbol.quoteAsset);
    if (quoteCap !== null && planTakerWalk(symbol, { account, isBuy, stpMode, limitTicks: null, wantSteps: steps, quoteBudget: Infinity }).quote > quoteCap) return 'FILTER_MAX_ASSET';
  }
  return null;
}

export function placeOrder(state: EngineState, command: PlaceOrder): void {
  const checked = checkPlacement(state, command, SCRATCH);
  if (typeof checked === 'string') return state.reject(command, checked);
  const { symbol, account, isBuy, isMarket, byQuote, stpMode, priceTicks } = checked;
  let steps = checked.steps;
  const spec = symbol.spec;
  const time = command.time;

  // Funds to reserve, and for MARKET orders the plan that fixes them.
  let lock: number;
  let quotePlanSteps = 0;
  let fokUnfillable = false;
  if (!isMarket) {
    lock = isBuy ? symbol.notional(priceTicks, steps) : steps * spec.stepUnits;
    if (command.timeInForce === 'FOK') {
      // A FOK that cannot fill completely is accepted (funds permitting) and expires unfilled.
      const plan = planTakerWalk(symbol, { account, isBuy, stpMode, limitTicks: priceTicks, wantSteps: steps, quoteBudget: Infinity });
      fokUnfillable = !plan.complete;
    }
  } else if (byQuote) {
    const budget = command.quoteOrderQty as number;
    const plan = planTakerWalk(symbol, { account, isBuy, stpMode, limitTicks: null, wantSteps: Infinity, quoteBudget: budget });
    // The quantity is taken maker by maker during the walk; the plan predicts it exactly.
    const refusal = quoteQuantityRefusal(state, symbol, account, isBuy, plan);
    if (refusal) return state.reject(command, refusal);
    steps = plan.steps;
    quotePlanSteps = plan.steps + plan.prevented;
    if (isBuy) {
      // Funds for what the walk will spend; the whole amount stays reserved while it walks (it
      // can never spend more), and the rest is released when it ends.
      if (account.freeOf(symbol.quoteAsset) < plan.quote) return state.reject(command, 'INSUFFICIENT_BALANCE');
      lock = Math.min(budget, account.freeOf(symbol.quoteAsset));
    } else {
      lock = (plan.steps + plan.transferred) * spec.stepUnits;
    }
  } else {
    // MARKET by quantity: a BUY reserves the walk's exact cost; MAX_ASSET on the quote asset
    // caps that walk's notional (what a SELL would receive).
    const quoteCap = maxAssetCap(state, symbol.quoteAsset);
    const cost = isBuy || quoteCap !== null
      ? planTakerWalk(symbol, { account, isBuy, stpMode, limitTicks: null, wantSteps: steps, quoteBudget: Infinity }).quote
      : 0;
    if (quoteCap !== null && cost > quoteCap) return state.reject(command, 'FILTER_MAX_ASSET');
    lock = isBuy ? cost : steps * spec.stepUnits;
  }

  const asset = isBuy ? symbol.quoteAsset : symbol.baseAsset;
  if (!account.reserve(asset, lock)) return state.reject(command, 'INSUFFICIENT_BALANCE');

  if (byQuote) {
    const order = accept(state, symbol, account, command, 0, quotePlanSteps, stpMode, lock);
    finishQuoteTaker(state, symbol, order, matchQuoteTaker(state, symbol, order, time), time);
    return;
  }
  const order = accept(state, symbol, account, command, priceTicks, steps, stpMode, lock);
  if (fokUnfillable) return expire(state, symbol, order, 'EXPIRED', 'UNFILLED_FOK_ORDER_EXPIRED', time);
  matchTaker(state, symbol, order, time);
  finishTaker(state, symbol, order, time);
}

/**
 * The quantity rules a MARKET by quoteOrderQty can only meet once its walk is predicted: too
 * little liquidity for LOT_SIZE / MARKET_LOT_SIZE, their maxima, MAX_POSITION and MAX_ASSET.
 */
function quoteQuantityRefusal(state: EngineState, symbol: SymbolState, account: Account, isBuy: boolean, plan: TakerPlan): RejectReason | null {
  const spec = symbol.spec;
  const units = plan.steps * spec.stepUnits;
  const bookRanOut = !plan.complete;
  if (plan.steps === 0 && symbol.book.opposite(isBuy).orderCount === 0) return 'LIQUIDITY_BELOW_SYMBOL_MIN_QTY';
  if (plan.steps === 0 || units < (spec.lotSize?.min ?? 0)) return bookRanOut ? 'LIQUIDITY_BELOW_LOT_SIZE' : 'FILTER_LOT_SIZE';
  if (units < (spec.marketLotSize?.min ?? 0)) return bookRanOut ? 'LIQUIDITY_BELOW_MARKET_LOT_SIZE' : 'FILTER_MARKET_LOT_SIZE';
  if (spec.lotSize && spec.lotSize.max > 0 && units > spec.lotSize.max) return 'FILTER_LOT_SIZE';
  if (spec.marketLotSize && spec.marketLotSize.max > 0 && units > spec.marketLotSize.max) return 'FILTER_MARKET_LOT_SIZE';
  if (isBuy && spec.maxPosition !== null && positionAfter(symbol, account, units) > spec.maxPosition) return 'FILTER_MAX_POSITION';
  const baseCap = maxAssetCap(state, symbol.baseAsset);
  if (baseCap !== null && units > baseCap) return 'FILTER_MAX_ASSET';
  return null;
}

function accept(
  state: EngineState,
  symbol: SymbolState,
  account: Account,
  command: PlaceOrder,
  priceTicks: number,
  steps: number,
  stpMode: Order['stpMode'],
  lock: number,
): Order {
  const spec = symbol.spec;
  const orderId = symbol.nextOrderId++;
  const clientOrderId = command.clientOrderId ?? generateClientOrderId(spec.index, orderId, 0);
  const timeInForce: TimeInForce = command.timeInForce ?? 'GTC';
  const order = new Order(
    spec.index,
    orderId,
    clientOrderId,
    account,
    command.side === 'BUY',
    command.orderType,
    timeInForce,
    priceTicks,
    steps,
    command.quoteOrderQty ?? 0,
    stpMode,
    command.time,
    command.strategyId ?? null,
    command.strategyType ?? null,
  );
  order.locked = lock;
  order.clientIdChosen = command.clientOrderId !== undefined;
  symbol.live.add(order);
  symbol.openByAccount[account.slot] = (symbol.openByAccount[account.slot] ?? 0) + 1;
  account.openCount += 1;
  if (command.clientOrderId !== undefined) account.clientIdsOn(spec.index).set(clientOrderId, orderId);
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
  });
  return order;
}

function expire(
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

/** After a quote-driven walk: its last event reported FILLED / EXPIRED_IN_MATCH, or the book ran out. */
function finishQuoteTaker(state: EngineState, symbol: SymbolState, order: Order, end: QuoteWalkEnd, time: number): void {
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
  }
}

/** After matching: rest, fill, or expire the remainder according to type and time in force. */
function finishTaker(state: EngineState, symbol: SymbolState, order: Order, time: number): void {
  if (order.status === 'EXPIRED_IN_MATCH') {
    // Self-trade prevention ended it; MatchPrevented already reported the status.
    closeOrder(symbol, order, 'EXPIRED_IN_MATCH', 'NONE', time);
    return;
  }
  if (order.remainingSteps === 0) {
    closeOrder(symbol, order, 'FILLED', 'NONE', time);
    return;
  }
  if (order.type === 'MARKET') {
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
    case 'GTC':
      symbol.book.side(order.isBuy).add(order);
  }
}
