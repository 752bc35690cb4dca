/**
 * PlaceOrder on a margin symbol (fapi POST /fapi/v1/order): LIMIT (GTC, IOC, FOK, post-only GTX,
 * GTD as GTC + goodTillTime: good-till-date.ts) and MARKET, in the real exchange's order of checks, each refusal its own reason
 * (src/futures/trading/futures-reject-codes.ts maps them to -40xx codes):
 *   1. symbol status, account, order type and fields;
 *   2. filters (§5): PRICE_FILTER, LOT_SIZE / MARKET_LOT_SIZE, MAX_NUM_ORDERS, PERCENT_PRICE
 *      against the mark (a MARKET order: its best counter price, -4131), MIN_NOTIONAL (mark for
 *      MARKET; reduce-only exempt);
 *   3. position side against the mode (-4061), reduce-only (-2022; hedge-mode closing orders
 *      follow the same rule), post-only that would take (-5022), FOK that cannot fill (-5021);
 *   4. margin: max position at the leverage (-2027), then order cost = initial margin + open loss
 *      of the part that opens a position, against the available balance (-2019).
 * Then the cost is reserved in the margin asset, and the order is accepted, matched and rested
 * or expired through the same lifecycle as spot orders (one fill path: execute-fill.ts).
 */
import type { PlaceOrder } from '../commands.ts';
import type { EngineState, SymbolState } from '../engine-state.ts';
import { compareProducts, mulDivCeil } from '../exact-math.ts';
import { accept, finishTaker, type AcceptTerms } from '../order-lifecycle.ts';
import { matchTaker } from '../matching/match-order.ts';
import { planTakerWalk } from '../matching/plan-taker-walk.ts';
import { wouldTake } from '../place-order.ts';
import { bestTicks } from '../liquidity/merged-levels.ts';
import { findOrderIdByClientId } from '../find-order.ts';
import type { RejectReason } from '../reject-reason.ts';
import type { SelfTradePreventionMode } from '../types.ts';
import type { Account } from '../accounts/account.ts';
import { RATE_SCALE } from '../symbol-spec.ts';
import { availableOf, markOf, summarize } from './futures-account.ts';
import { FuturesOrderInfo, SIDE_BOTH, SIDE_LONG, SIDE_SHORT, type MarginSymbol } from './futures-state.ts';
import { queueGoodTill } from './good-till-date.ts';
import { initialMargin, maxNotionalAt, notionalCeil, notionalFloor } from './margin-math.ts';

function sideIndexOf(side: PlaceOrder['positionSide']): number {
  return side === 'LONG' ? SIDE_LONG : side === 'SHORT' ? SIDE_SHORT : SIDE_BOTH;
}

/** The filter rules of §5 on a price (LIMIT) and quantity; reasons in the real order. */
export function filterRefusal(margin: MarginSymbol, isMarket: boolean, price: number, quantity: number): RejectReason | null {
  if (!isMarket) {
    if (margin.minPrice > 0 && price < margin.minPrice) return 'FUTURES_PRICE_LESS_THAN_MIN';
    if (margin.maxPrice > 0 && price > margin.maxPrice) return 'FUTURES_PRICE_GREATER_THAN_MAX';
    if (margin.tickSize > 0 && (price - margin.minPrice) % margin.tickSize !== 0) return 'FUTURES_PRICE_NOT_ON_TICK';
  }
  const useMarket = isMarket && margin.marketStepSize > 0;
  const min = useMarket ? margin.marketMinQty : margin.minQty;
  const max = useMarket ? margin.marketMaxQty : margin.maxQty;
  const step = useMarket ? margin.marketStepSize : margin.stepSize;
  if (quantity < min) return 'FUTURES_QTY_LESS_THAN_MIN';
  if (max > 0 && quantity > max) return 'FUTURES_QTY_GREATER_THAN_MAX';
  if (step > 0 && (quantity - min) % step !== 0) return 'FUTURES_QTY_NOT_ON_STEP';
  return null;
}

const TERMS: { -readonly [K in keyof AcceptTerms]: AcceptTerms[K] } = { priceTicks: 0, steps: 0, stpMode: 'NONE', lock: 0, special: null };

export function placeMarginOrder(state: EngineState, command: PlaceOrder, symbol: SymbolState): void {
  const checked = checkMarginPlacement(state, command, symbol);
  if (typeof checked === 'string') return state.reject(command, checked);
  const { account, steps, priceTicks, stpMode, cost, info } = checked;
  if (cost > 0 && !account.reserve(symbol.quoteAsset, cost)) return state.reject(command, 'FUTURES_MARGIN_INSUFFICIENT');
  const terms = TERMS;
  terms.priceTicks = priceTicks;
  terms.steps = steps;
  terms.stpMode = stpMode;
  terms.lock = cost;
  terms.special = null;
  const margin = symbol.margin!;
  // The futures fields are known before the first fill settles (settlement reads them).
  const orderId = symbol.nextOrderId;
  margin.orders.set(orderId, info);
  if (info.reducing) margin.reducing.push(orderId);
  const goodTill = command.goodTillTime;
  if (goodTill !== undefined) margin.goodTill.set(orderId, goodTill);
  const order = accept(state, symbol, account, command, terms);
  finishTaker(state, symbol, order, command.time, matchTaker(state, symbol, order, command.time));
  // A GTD order that rests waits in the queue for its due time (good-till-date.ts).
  if (goodTill !== undefined && order.isOpen && symbol.live.get(orderId) === order) {
    queueGoodTill(state.futures!.gtdQueue, { due: goodTill, symbolIndex: symbol.spec.index, orderId });
  }
}

interface MarginPlacement {
  account: Account;
  isBuy: boolean;
  steps: number;
  priceTicks: number;
  stpMode: SelfTradePreventionMode;
  cost: number;
  info: FuturesOrderInfo;
}

/** Every check of a margin placement, reading state only: the reason, or what to accept. */
export function checkMarginPlacement(state: EngineState, command: PlaceOrder, symbol: SymbolState): RejectReason | MarginPlacement {
  const margin = symbol.margin!;
  const spec = symbol.spec;
  const account = state.account(command.accountId);
  if (!account) return 'UNKNOWN_ACCOUNT';
  if (symbol.status !== 'TRADING') return 'MARKET_CLOSED';
  if (!account.canTrade) return 'ACCOUNT_CANNOT_TRADE';
  const isMarket = command.orderType === 'MARKET';
  if (command.orderType !== 'LIMIT' && !isMarket) return 'FUTURES_INVALID_ORDER_TYPE';
  if (
    command.quoteOrderQty !== undefined || command.stopPrice !== undefined || command.trailingDelta !== undefined ||
    command.icebergQty !== undefined || command.pegPriceType !== undefined || command.pegOffsetValue !== undefined ||
    (isMarket && (command.price !== undefined || command.timeInForce !== undefined || command.postOnly === true)) ||
    (!isMarket && command.price === undefined)
  ) {
    return 'UNSUPPORTED_ORDER_COMBINATION';
  }
  // GTD (fapi sends it as LIMIT GTC + goodTillTime): never with MARKET, IOC, FOK or post-only;
  // it must expire after now (the API checks Binance's 600 s bound first: -5040 either way).
  const goodTill = command.goodTillTime;
  if (goodTill !== undefined) {
    if (isMarket || (command.timeInForce !== undefined && command.timeInForce !== 'GTC') || command.postOnly === true) return 'UNSUPPORTED_ORDER_COMBINATION';
    // An integer, not necessarily a safe one: Binance's last GTD (9999-12-31) is 2.5e17 µs, exact
    // as a double because it is whole seconds (s × 10^6 = s × 15625 × 2^6).
    if (!Number.isInteger(goodTill) || goodTill <= command.time) return 'FUTURES_GTD_OUT_OF_BOUNDS';
  }
  const quantity = command.quantity;
  if (quantity === undefined || !Number.isSafeInteger(quantity) || quantity <= 0) return 'FUTURES_QTY_NOT_POSITIVE';
  const price = command.price ?? 0;
  if (!isMarket && !(Number.isSafeInteger(price) && price > 0)) return 'INVALID_AMOUNT';
  const stpMode = command.selfTradePreventionMode ?? spec.defaultStpMode;
  if (!spec.allowedStpModes.has(stpMode)) return 'STP_MODE_NOT_ALLOWED';

  // 2. Filters.
  const filtered = filterRefusal(margin, isMarket, price, quantity);
  if (filtered) return filtered;
  // The engine's grid (the filters' tick and step, or one unit without them).
  if (price % spec.tickUnits !== 0) return 'FUTURES_PRICE_NOT_ON_TICK';
  if (quantity % spec.stepUnits !== 0) return 'FUTURES_QTY_NOT_ON_STEP';
  const priceTicks = price / spec.tickUnits;
  const steps = quantity / spec.stepUnits;
  if (margin.maxNumOrders > 0 && symbol.openCountOf(account) >= margin.maxNumOrders) return 'FUTURES_MAX_OPEN_ORDERS';
  const isBuy = command.side === 'BUY';
  const mark = markOf(symbol);
  if (!isMarket) {
    const band = percentPriceRefusal(margin, isBuy, price, mark);
    if (band) return band;
  }
  if (isMarket && mark > 0 && margin.percentUp > 0) {
    // A MARKET order whose best counter price is outside the PERCENT_PRICE band (§4: -4131).
    const best = bestTicks(symbol, !isBuy);
    if (best !== undefined) {
      const bestPrice = best * spec.tickUnits;
      if (isBuy ? compareProducts(bestPrice, RATE_SCALE, mark, margin.percentUp) > 0 : compareProducts(bestPrice, RATE_SCALE, mark, margin.percentDown) < 0) {
        return 'FUTURES_COUNTERPARTY_PRICE_OUTSIDE_PERCENT_PRICE';
      }
    }
  }

  // 3. Position side, reduce-only, time in force.
  const fa = state.futures!.accounts.get(account.accountId);
  const hedge = fa?.hedge ?? false;
  const positionSide = command.positionSide ?? 'BOTH';
  if (hedge ? positionSide === 'BOTH' : positionSide !== 'BOTH') return 'FUTURES_POSITION_SIDE_MISMATCH';
  const reduceOnly = command.reduceOnly === true;
  if (hedge && reduceOnly) return 'FUTURES_REDUCE_ONLY_IN_HEDGE_MODE';
  const side = sideIndexOf(positionSide);
  const reducing = reduceOnly || (hedge && (isBuy ? side === SIDE_SHORT : side === SIDE_LONG));
  const settings = fa?.settings[spec.index];
  const positionAmount = settings?.positions[side]!.amount ?? 0;
  const leverage = settings?.leverage ?? margin.defaultLeverage;

  if (!reduceOnly && margin.minNotional > 0) {
    const at = isMarket ? mark : price;
    if (at > 0 && notionalFloor(symbol, at, steps) < margin.minNotional) return 'FUTURES_MIN_NOTIONAL';
  }
  if (reducing) {
    // Only against the position, and never beyond what other reducing orders leave of it.
    if (positionAmount === 0 || (positionAmount > 0) === isBuy) return 'FUTURES_REDUCE_ONLY_REJECTED';
    if (steps > reducingCapacity(symbol, account, side, Math.abs(positionAmount), -1)) return 'FUTURES_REDUCE_ONLY_REJECTED';
  }
  const sameClientId = command.clientOrderId === undefined ? undefined : findOrderIdByClientId(symbol, account, command.clientOrderId);
  if (sameClientId !== undefined && symbol.live.get(sameClientId) !== undefined) return 'DUPLICATE_ORDER';
  const postOnly = command.postOnly === true;
  if (postOnly && wouldTake(symbol, isBuy, priceTicks)) return 'FUTURES_POST_ONLY_WOULD_TAKE';
  let planQuote = 0;
  if (isMarket || command.timeInForce === 'FOK') {
    const plan = planTakerWalk(symbol, { account, isBuy, stpMode, limitTicks: isMarket ? null : priceTicks, wantSteps: steps, quoteBudget: Infinity, time: command.time });
    if (command.timeInForce === 'FOK' && !plan.complete) return 'FUTURES_FOK_UNFILLABLE';
    // A MARKET order's price is what its walk would pay; with no book at all, the mark's.
    planQuote = plan.steps === steps ? plan.quote : plan.quote + (mark > 0 ? notionalCeil(symbol, mark, steps - plan.steps) : 0);
  }

  // 4. Margin.
  const cost = orderCost(state, symbol, account, { isBuy, hedge, reducing, positionAmount, leverage, isMarket, price, steps, planQuote, mark }, 0);
  if (typeof cost === 'string') return cost;
  return { account, isBuy, steps, priceTicks, stpMode, cost, info: new FuturesOrderInfo(side, reduceOnly, reducing, postOnly, cost, steps) };
}

/** PERCENT_PRICE of a LIMIT price against the mark: BUY ≤ mark × up, SELL ≥ mark × down (exact). */
export function percentPriceRefusal(margin: MarginSymbol, isBuy: boolean, price: number, mark: number): RejectReason | null {
  if (mark <= 0 || margin.percentUp <= 0) return null;
  if (isBuy && compareProducts(price, RATE_SCALE, mark, margin.percentUp) > 0) return 'FUTURES_PRICE_ABOVE_MARK_CAP';
  if (!isBuy && compareProducts(price, RATE_SCALE, mark, margin.percentDown) < 0) return 'FUTURES_PRICE_BELOW_MARK_FLOOR';
  return null;
}

/** What a position leaves for one more reducing order: its size less the other open reducing orders on it (`except` excluded). */
export function reducingCapacity(symbol: SymbolState, account: Account, side: number, size: number, except: number): number {
  const margin = symbol.margin!;
  let capacity = size;
  for (const id of margin.reducing) {
    const other = symbol.live.get(id);
    if (id !== except && other !== undefined && other.account === account && margin.orders.get(id)!.side === side) capacity -= other.remainingSteps;
  }
  return capacity;
}

export interface CostTerms {
  isBuy: boolean;
  hedge: boolean;
  reducing: boolean;
  positionAmount: number;
  leverage: number;
  isMarket: boolean;
  price: number;
  steps: number;
  /** MARKET: what its planned walk pays (the mark's price for what the book lacks). */
  planQuote: number;
  mark: number;
}

/**
 * The margin an order reserves, or why it may not: only the part that opens (or flips) a
 * position costs anything: its initial margin at the order price plus its open loss against the
 * mark (FAQ-COST); the position it would make must fit the leverage (-2027); the cost must fit
 * the available balance, to which `alreadyHeld` (a modified order's current reservation) is added.
 */
export function orderCost(state: EngineState, symbol: SymbolState, account: Account, t: CostTerms, alreadyHeld: number): RejectReason | number {
  const margin = symbol.margin!;
  const { isBuy, positionAmount, steps, price, mark, isMarket } = t;
  let opening = 0;
  if (!t.reducing) opening = t.hedge || positionAmount === 0 || (positionAmount > 0) === isBuy ? steps : Math.max(0, steps - Math.abs(positionAmount));
  if (opening === 0) return 0;
  const openNotional = isMarket ? mulDivCeil(t.planQuote, opening, steps) : notionalCeil(symbol, price, opening);
  // The position after the order at its price must fit the leverage's brackets.
  const sameWay = positionAmount !== 0 && (positionAmount > 0) === isBuy;
  const after = (sameWay ? Math.abs(positionAmount) : 0) + opening;
  const afterNotional = isMarket ? openNotional + (sameWay ? notionalCeil(symbol, mark > 0 ? mark : 0, Math.abs(positionAmount)) : 0) : notionalCeil(symbol, price, after);
  if (afterNotional > maxNotionalAt(margin, t.leverage)) return 'FUTURES_MAX_POSITION_AT_LEVERAGE';
  // Open loss (FAQ-COST): what the order would lose at once against the mark.
  let openLoss = 0;
  if (mark > 0) {
    const atMark = isBuy ? notionalFloor(symbol, mark, opening) : notionalCeil(symbol, mark, opening);
    openLoss = Math.max(0, isBuy ? openNotional - atMark : atMark - openNotional);
  }
  const cost = initialMargin(openNotional, t.leverage) + openLoss;
  const summary = summarize(state, account, symbol.quoteAsset);
  const available = Math.min(availableOf(summary), account.freeOf(symbol.quoteAsset)) + alreadyHeld;
  return cost > available ? 'FUTURES_MARGIN_INSUFFICIENT' : cost;
}
