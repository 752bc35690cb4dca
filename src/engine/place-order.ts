/**
 * PlaceOrder for every order type: LIMIT (GTC / IOC / FOK), LIMIT_MAKER, MARKET (by quantity or
 * by quoteOrderQty), and the conditional STOP_LOSS(_LIMIT) / TAKE_PROFIT(_LIMIT), with the
 * instructions icebergQty, trailingDelta and price pegs. Stages, each of which may refuse the
 * command and change nothing:
 *   1. symbol, account, trading status, permissions, order type and field combination;
 *   2. filters (filters/check-order-filters.ts), then the conditional rules
 *      (conditional/check-conditional.ts: stop price grid, TRAILING_DELTA, iceberg parts, algo
 *      and iceberg counts, "would trigger immediately");
 *   3. engine rules: duplicate client order id, LIMIT_MAKER that would take, liquidity for
 *      quoteOrderQty, funds (the planned cost of a MARKET BUY is known before anything moves);
 * then reserve funds, accept (OrderAccepted), match, and rest or expire the remainder. A stop
 * is accepted without matching: it waits off the book for its trigger (conditional/contingency.ts).
 */
import type { Account } from './accounts/account.ts';
import type { OrderRequest, PlaceOrder } from './commands.ts';
import { checkConditional, checkConditionalAfterFilters, type ConditionalFields } from './conditional/check-conditional.ts';
import { stopLockAtPlacement } from './conditional/stop-rules.ts';
import type { EngineState, SymbolState } from './engine-state.ts';
import { checkOrderFilters, maxAssetCap, positionAfter, type OrderUnderCheck } from './filters/check-order-filters.ts';
import { findOrderIdByClientId } from './find-order.ts';
import { ORDER_TYPE_FIELDS, type FieldUse, type OrderTypeFields } from './order-type-fields.ts';
import { matchQuoteTaker, matchTaker } from './matching/match-order.ts';
import { accept, expire, finishQuoteTaker, finishTaker, waitForTrigger, type AcceptTerms } from './order-lifecycle.ts';
import { planTakerWalk, type TakerPlan } from './matching/plan-taker-walk.ts';
import { bestTicks } from './liquidity/merged-levels.ts';
import type { RejectReason } from './reject-reason.ts';
import { checkMarginPlacement, placeMarginOrder } from './futures/place-margin-order.ts';
import { CONDITIONAL_TYPES, type SelfTradePreventionMode } from './types.ts';

function isPositiveAmount(n: number | undefined): n is number {
  return n !== undefined && Number.isSafeInteger(n) && n > 0;
}

/** Whether a field given (`present`) fits its use in ORDER_TYPE_FIELDS. */
function fits(use: FieldUse | 'either', present: boolean): boolean {
  return use === 'required' ? present : use === 'forbidden' ? !present : true;
}

/** Checks the shape of the command for its order type against ORDER_TYPE_FIELDS; returns the reason or null. */
export function combinationProblem(command: OrderRequest): RejectReason | null {
  const { orderType, timeInForce, price, quantity, quoteOrderQty, stopPrice, trailingDelta, icebergQty, pegPriceType } = command;
  const bad = 'UNSUPPORTED_ORDER_COMBINATION';
  const fields = ORDER_TYPE_FIELDS[orderType] as OrderTypeFields | undefined;
  if (fields !== undefined) {
    // A pegged order takes its price from the book, so a required `price` may be absent.
    const priced = fields.price === 'required' ? price !== undefined || pegPriceType !== undefined : price !== undefined;
    if (
      !fits(fields.timeInForce, timeInForce !== undefined) ||
      !fits(fields.price, priced) ||
      !fits(fields.quantity, quantity !== undefined) ||
      !fits(fields.quoteOrderQty, quoteOrderQty !== undefined) ||
      !fits(fields.trigger, stopPrice !== undefined || trailingDelta !== undefined) ||
      !fits(fields.icebergQty, icebergQty !== undefined)
    ) {
      return bad;
    }
    if (fields.quantity === 'either' && (quantity === undefined) === (quoteOrderQty === undefined)) return bad;
  }
  // An iceberg must be GTC (LIMIT_MAKER has no timeInForce and rests like GTC).
  if (icebergQty !== undefined && timeInForce !== undefined && timeInForce !== 'GTC') return bad;
  return null;
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
export interface CheckedPlacement {
  symbol: SymbolState;
  account: Account;
  isBuy: boolean;
  isMarket: boolean;
  byQuote: boolean;
  stpMode: SelfTradePreventionMode;
  priceTicks: number;
  steps: number;
  /** Stops, trailing, icebergs, pegs: their checked fields; null for plain orders. */
  special: ConditionalFields | null;
}

/** A blank record for `checkPlacement` to fill. */
export function freshPlacement(): CheckedPlacement {
  return { symbol: null as unknown as SymbolState, account: null as unknown as Account, isBuy: false, isMarket: false, byQuote: false, stpMode: 'NONE', priceTicks: 0, steps: 0, special: null };
}

// One record reused by placeOrder: the engine is synchronous, and placement is the hot path.
const SCRATCH = freshPlacement();

// The order the filters look at, likewise one reused record: checkOrderFilters reads it and keeps
// nothing, and a fresh literal per placement was ~100 bytes of garbage on every order.
const UNDER_CHECK: OrderUnderCheck = { isBuy: false, isMarket: false, price: null, quantity: null, quoteOrderQty: null, time: 0 };

// The terms handed to `accept`, one reused record too (accept reads them before anything else).
const TERMS: { -readonly [K in keyof AcceptTerms]: AcceptTerms[K] } = { priceTicks: 0, steps: 0, stpMode: 'NONE', lock: 0, special: null };

function acceptTerms(priceTicks: number, steps: number, stpMode: SelfTradePreventionMode, lock: number, special: ConditionalFields | null): AcceptTerms {
  const out = TERMS;
  out.priceTicks = priceTicks;
  out.steps = steps;
  out.stpMode = stpMode;
  out.lock = lock;
  out.special = special;
  return out;
}

function underCheck(isBuy: boolean, isMarket: boolean, price: number | null, quantity: number | null, quoteOrderQty: number | null, time: number): OrderUnderCheck {
  const out = UNDER_CHECK;
  out.isBuy = isBuy;
  out.isMarket = isMarket;
  out.price = price;
  out.quantity = quantity;
  out.quoteOrderQty = quoteOrderQty;
  out.time = time;
  return out;
}

function hasInstructions(command: OrderRequest): boolean {
  return (
    command.stopPrice !== undefined ||
    command.trailingDelta !== undefined ||
    command.icebergQty !== undefined ||
    command.pegPriceType !== undefined ||
    command.pegOffsetValue !== undefined ||
    CONDITIONAL_TYPES.has(command.orderType)
  );
}

/**
 * Stages 1, 2 and the book rules of 3 (duplicate client id, LIMIT_MAKER that would take): the
 * reason `command` is refused, or the checked placement in `out`. Reads state, changes nothing.
 */
export function checkPlacement(
  state: EngineState,
  command: PlaceOrder,
  out: CheckedPlacement,
  /** Order-list legs: their prices are checked by the list's rules instead. */
  skipImmediateTrigger = false,
): RejectReason | CheckedPlacement {
  const symbol = state.symbol(command.symbol);
  if (!symbol) return 'UNKNOWN_SYMBOL';
  const account = state.account(command.accountId);
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
  let special: ConditionalFields | null = null;
  let price = command.price;
  if (hasInstructions(command)) {
    const checked = checkConditional(state, symbol, account, command);
    if (typeof checked === 'string') return checked;
    special = checked;
    // Filters must pass at the sent price and at the pegged one (binance-facts §5.9).
    if (special.filterPrice !== null && special.filterPrice !== price) {
      if (price !== undefined) {
        const atSent = checkOrderFilters(state, symbol, account, underCheck(isBuy, special.marketLike, price, command.quantity ?? null, null, command.time));
        if (atSent) return atSent;
      }
      price = special.filterPrice;
    }
  }
  const filterFailure = checkOrderFilters(
    state,
    symbol,
    account,
    underCheck(isBuy, isMarket || (special?.marketLike ?? false), price ?? null, command.quantity ?? null, command.quoteOrderQty ?? null, command.time),
  );
  if (filterFailure) return filterFailure;
  if (special) {
    const late = checkConditionalAfterFilters(state, symbol, account, command, special, skipImmediateTrigger);
    if (late) return late;
  }

  // On the book grid. Filters guarantee tick and step multiples when PRICE_FILTER / LOT_SIZE
  // exist; without them one tick or step is one unit, so the divisions are exact either way.
  // A pegged order rests at its pegged price (a pegged stop-limit gets it when triggered).
  const restPrice = special !== null && special.peggedTicks > 0 ? special.peggedTicks * spec.tickUnits : command.price;
  const priceTicks = restPrice === undefined ? 0 : restPrice / spec.tickUnits;
  const steps = command.quantity === undefined ? 0 : command.quantity / spec.stepUnits;
  if (!Number.isInteger(priceTicks) || !Number.isInteger(steps)) return priceTicks % 1 !== 0 ? 'FILTER_PRICE_FILTER' : 'FILTER_LOT_SIZE';
  if (!isMarket && priceTicks > 0 && symbol.notional(priceTicks, steps) <= 0) return 'NOTIONAL_NOT_POSITIVE';

  const sameClientId = command.clientOrderId === undefined ? undefined : findOrderIdByClientId(symbol, account, command.clientOrderId);
  if (sameClientId !== undefined && symbol.live.get(sameClientId) !== undefined) return 'DUPLICATE_ORDER';

  if (command.orderType === 'LIMIT_MAKER' && wouldTake(symbol, isBuy, priceTicks)) return 'WOULD_MATCH_AND_TAKE';
  out.special = special;
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

/** A LIMIT_MAKER at `priceTicks` would meet the opposite side now (users' orders or the synthetic book). */
export function wouldTake(symbol: SymbolState, isBuy: boolean, priceTicks: number): boolean {
  const best = bestTicks(symbol, !isBuy);
  return best !== undefined && (isBuy ? best <= priceTicks : best >= priceTicks);
}

/**
 * The reason the engine would refuse `command` now, or null: every stage except funds (what
 * POST /api/v3/order/test validates; the balance lives with the matching engine, which a test
 * order never reaches). MARKET orders are planned against the current book, as placement would.
 */
export function placementRefusal(state: EngineState, command: PlaceOrder): RejectReason | null {
  const marginSymbol = state.futures === null ? undefined : state.symbol(command.symbol);
  if (marginSymbol !== undefined && marginSymbol.margin !== null) {
    const margin = checkMarginPlacement(state, command, marginSymbol);
    return typeof margin === 'string' ? margin : null;
  }
  const checked = checkPlacement(state, command, freshPlacement());
  if (typeof checked === 'string') return checked;
  const { symbol, account, isBuy, stpMode, steps } = checked;
  if (checked.byQuote) {
    const plan = planTakerWalk(symbol, { account, isBuy, stpMode, limitTicks: null, wantSteps: Infinity, quoteBudget: command.quoteOrderQty as number, time: command.time });
    return quoteQuantityRefusal(state, symbol, account, isBuy, plan);
  }
  if (checked.isMarket) {
    const quoteCap = maxAssetCap(state, symbol.quoteAsset);
    if (quoteCap !== null && planTakerWalk(symbol, { account, isBuy, stpMode, limitTicks: null, wantSteps: steps, quoteBudget: Infinity, time: command.time }).quote > quoteCap) return 'FILTER_MAX_ASSET';
  }
  return null;
}

export function placeOrder(state: EngineState, command: PlaceOrder): void {
  // The one kind check: a margin symbol's orders have their own rules (futures/place-margin-order.ts).
  if (state.futures !== null) {
    const symbol = state.symbol(command.symbol);
    if (symbol !== undefined && symbol.margin !== null) return placeMarginOrder(state, command, symbol);
  }
  const checked = checkPlacement(state, command, SCRATCH);
  if (typeof checked === 'string') return state.reject(command, checked);
  if (checked.special !== null && checked.special.conditional) {
    placeConditional(state, command, checked);
    return;
  }
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
      const plan = planTakerWalk(symbol, { account, isBuy, stpMode, limitTicks: priceTicks, wantSteps: steps, quoteBudget: Infinity, time: command.time });
      fokUnfillable = !plan.complete;
    }
  } else if (byQuote) {
    const budget = command.quoteOrderQty as number;
    const plan = planTakerWalk(symbol, { account, isBuy, stpMode, limitTicks: null, wantSteps: Infinity, quoteBudget: budget, time: command.time });
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
      ? planTakerWalk(symbol, { account, isBuy, stpMode, limitTicks: null, wantSteps: steps, quoteBudget: Infinity, time: command.time }).quote
      : 0;
    if (quoteCap !== null && cost > quoteCap) return state.reject(command, 'FILTER_MAX_ASSET');
    lock = isBuy ? cost : steps * spec.stepUnits;
  }

  const asset = isBuy ? symbol.quoteAsset : symbol.baseAsset;
  if (!account.reserve(asset, lock)) return state.reject(command, 'INSUFFICIENT_BALANCE');

  if (byQuote) {
    const order = accept(state, symbol, account, command, acceptTerms(0, quotePlanSteps, stpMode, lock, null));
    finishQuoteTaker(state, symbol, order, matchQuoteTaker(state, symbol, order, time), time);
    return;
  }
  const order = accept(state, symbol, account, command, acceptTerms(priceTicks, steps, stpMode, lock, checked.special));
  if (fokUnfillable) return expire(state, symbol, order, 'EXPIRED', 'UNFILLED_FOK_ORDER_EXPIRED', time);
  finishTaker(state, symbol, order, time, matchTaker(state, symbol, order, time));
}

/**
 * A stop or take-profit: reserve what it will need (conditional/stop-rules.ts), accept it off
 * the book with workingTime -1, and let it wait. A trailing stop without a stop price starts
 * tracking from the last price at once.
 */
function placeConditional(state: EngineState, command: PlaceOrder, checked: CheckedPlacement): void {
  const { symbol, account, isBuy, stpMode, priceTicks, steps } = checked;
  const lock = stopLockAtPlacement(symbol, isBuy, command.orderType, priceTicks, checked.special!.stopPrice, steps);
  const asset = isBuy ? symbol.quoteAsset : symbol.baseAsset;
  if (!account.reserve(asset, lock)) return state.reject(command, 'INSUFFICIENT_BALANCE');
  const order = accept(state, symbol, account, command, acceptTerms(priceTicks, steps, stpMode, lock, checked.special));
  waitForTrigger(state, symbol, order, command.time);
}

/**
 * The quantity rules a MARKET by quoteOrderQty can only meet once its walk is predicted: too
 * little liquidity for LOT_SIZE / MARKET_LOT_SIZE, their maxima, MAX_POSITION and MAX_ASSET.
 */
function quoteQuantityRefusal(state: EngineState, symbol: SymbolState, account: Account, isBuy: boolean, plan: TakerPlan): RejectReason | null {
  const spec = symbol.spec;
  const units = plan.steps * spec.stepUnits;
  const bookRanOut = !plan.complete;
  if (plan.steps === 0 && bestTicks(symbol, !isBuy) === undefined) return 'LIQUIDITY_BELOW_SYMBOL_MIN_QTY';
  if (plan.steps === 0 || units < (spec.lotSize?.min ?? 0)) return bookRanOut ? 'LIQUIDITY_BELOW_LOT_SIZE' : 'FILTER_LOT_SIZE';
  if (units < (spec.marketLotSize?.min ?? 0)) return bookRanOut ? 'LIQUIDITY_BELOW_MARKET_LOT_SIZE' : 'FILTER_MARKET_LOT_SIZE';
  if (spec.lotSize && spec.lotSize.max > 0 && units > spec.lotSize.max) return 'FILTER_LOT_SIZE';
  if (spec.marketLotSize && spec.marketLotSize.max > 0 && units > spec.marketLotSize.max) return 'FILTER_MARKET_LOT_SIZE';
  if (isBuy && spec.maxPosition !== null && positionAfter(symbol, account, units) > spec.maxPosition) return 'FILTER_MAX_POSITION';
  const baseCap = maxAssetCap(state, symbol.baseAsset);
  if (baseCap !== null && units > baseCap) return 'FILTER_MAX_ASSET';
  return null;
}

