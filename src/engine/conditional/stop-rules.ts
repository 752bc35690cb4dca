/**
 * The rules of stop and take-profit orders (binance-facts §5.5, §5.6):
 *
 * - Direction: STOP_LOSS(_LIMIT) BUY and TAKE_PROFIT(_LIMIT) SELL trigger when the last price
 *   rises to the stop price (price >= stopPrice); STOP_LOSS SELL and TAKE_PROFIT BUY when it
 *   falls to it (price <= stopPrice). Inclusive.
 * - Trailing (trailingDelta in basis points): SELL orders track the highest price since tracking
 *   began and trigger at price <= highest * (1 - delta / 10000); BUY orders track the lowest and
 *   trigger at price >= lowest * (1 + delta / 10000). Inclusive. With a stop price, tracking
 *   starts at the first trade that meets the stop condition (that trade's price is the first
 *   extreme); without one it starts from the last price when the order is placed (or, on a
 *   symbol that never traded, from the next trade).
 * - Prices are those of trades, whoever made them: the book's own, market fills of resting
 *   orders, and replayed historical prints alike (all go through SymbolState.recordTrade).
 */
import type { EngineState, SymbolState } from '../engine-state.ts';
import type { Order } from '../order.ts';
import type { OrderType } from '../types.ts';

/** True for the stops that wait for the price to rise to them. */
export function triggersAbove(type: OrderType, isBuy: boolean): boolean {
  const stopLoss = type === 'STOP_LOSS' || type === 'STOP_LOSS_LIMIT';
  return stopLoss === isBuy;
}

/** Whether a trade at `price` meets the stop condition at `stopPrice` (price units). */
export function triggerHolds(type: OrderType, isBuy: boolean, stopPrice: number, price: number): boolean {
  return triggersAbove(type, isBuy) ? price >= stopPrice : price <= stopPrice;
}

/** a * b compared with c * d, exactly (the products can pass 2^53 at 8-decimal prices). */
function compareProducts(a: number, b: number, c: number, d: number): number {
  const left = a * b;
  const right = c * d;
  if (left <= Number.MAX_SAFE_INTEGER && right <= Number.MAX_SAFE_INTEGER) return left - right;
  const l = BigInt(a) * BigInt(b);
  const r = BigInt(c) * BigInt(d);
  return l < r ? -1 : l > r ? 1 : 0;
}

/** Whether a trailing stop tracking `extreme` triggers at a trade at `price`. */
export function trailTriggered(isBuy: boolean, extreme: number, delta: number, price: number): boolean {
  // Prices off the tick grid (history) are whole price units, so both sides are integers.
  return isBuy
    ? compareProducts(price, 10_000, extreme, 10_000 + delta) >= 0
    : compareProducts(price, 10_000, extreme, 10_000 - delta) <= 0;
}

/** The last trade price of the symbol, or null before any trade. */
export function lastPrice(symbol: SymbolState): number | null {
  return symbol.lastTrade === null ? null : symbol.lastTrade.price;
}

/**
 * What a stop reserves while it waits. SELL: its base quantity. BUY at a known limit: the limit
 * notional. A BUY that will trade at market (or at a pegged price set on trigger) has no price
 * yet: it reserves the notional at its stop price (or at the last price for a trailing stop
 * without one), and settles the real cost when triggered (contingency.ts re-reserves then).
 */
export function stopLockAtPlacement(symbol: SymbolState, isBuy: boolean, type: OrderType, priceTicks: number, stopPrice: number, steps: number): number {
  const spec = symbol.spec;
  if (!isBuy) return steps * spec.stepUnits;
  if (priceTicks > 0 && (type === 'STOP_LOSS_LIMIT' || type === 'TAKE_PROFIT_LIMIT')) return symbol.notional(priceTicks, steps);
  const estimate = stopPrice > 0 ? stopPrice : (lastPrice(symbol) ?? 0);
  return symbol.notional(Math.ceil(estimate / spec.tickUnits), steps);
}

/** A trailing stop without a stop price starts tracking from the last price. */
export function startTrailingFromLast(state: EngineState, symbol: SymbolState, order: Order, time: number): void {
  const last = lastPrice(symbol);
  if (last !== null) startTrailing(state, symbol, order, last, time);
}

export function startTrailing(state: EngineState, symbol: SymbolState, order: Order, price: number, time: number): void {
  const ext = order.ext!;
  ext.trailingTime = time;
  ext.trailExtreme = price;
  state.emit({ type: 'TrailingStarted', time, symbol: symbol.spec.symbol, orderId: order.orderId, accountId: order.account.accountId, price });
}

/**
 * One trade at `price` reaches a waiting stop: update its trailing state, and say whether it
 * triggers now.
 */
export function stopReached(state: EngineState, symbol: SymbolState, order: Order, price: number, time: number): boolean {
  const ext = order.ext!;
  if (ext.trailingDelta === 0) return triggerHolds(order.type, order.isBuy, ext.stopPrice, price);
  if (ext.trailingTime < 0) {
    // Not tracking yet: a stop price activates it; without one the first trade does.
    if (ext.stopPrice === 0 || triggerHolds(order.type, order.isBuy, ext.stopPrice, price)) startTrailing(state, symbol, order, price, time);
    return false;
  }
  if (trailTriggered(order.isBuy, ext.trailExtreme, ext.trailingDelta, price)) return true;
  if (order.isBuy ? price < ext.trailExtreme : price > ext.trailExtreme) ext.trailExtreme = price;
  return false;
}
