/**
 * ModifyMarginOrder (PUT /fapi/v1/order): a new price and quantity for an open LIMIT order of a
 * margin symbol, checked as a placement would be (filters, PERCENT_PRICE, reduce-only capacity,
 * margin with the order's own reservation counted as available), refused with nothing changed.
 * Canceled instead (binance-futures-facts §2) when the new quantity is not above what executed or
 * a post-only order would now take. Otherwise the reservation is re-priced, the order leaves the
 * book, takes the new terms (same order id, OrderModified), and matches as a taker before it
 * rests again at the back of its level.
 */
import type { ModifyMarginOrder } from '../commands.ts';
import { cancelTarget, findTarget } from '../cancel-order.ts';
import { generateClientOrderId } from '../client-order-id.ts';
import type { EngineState } from '../engine-state.ts';
import { matchTaker } from '../matching/match-order.ts';
import { finishTaker } from '../order-lifecycle.ts';
import { wouldTake } from '../place-order.ts';
import { markOf } from './futures-account.ts';
import { filterRefusal, orderCost, percentPriceRefusal, reducingCapacity } from './place-margin-order.ts';

export function modifyMarginOrder(state: EngineState, command: ModifyMarginOrder): void {
  const symbol = state.symbol(command.symbol);
  if (symbol === undefined || symbol.margin === null) return state.reject(command, 'FUTURES_NOT_A_MARGIN_SYMBOL');
  const account = state.account(command.accountId);
  if (account === undefined) return state.reject(command, 'UNKNOWN_ACCOUNT');
  if (command.orderId === undefined && command.origClientOrderId === undefined) return state.reject(command, 'CANCEL_ID_MISSING');
  const order = findTarget(state, symbol, account, command.orderId, command.origClientOrderId);
  if (typeof order === 'string') return state.reject(command, order);
  if (order.type !== 'LIMIT') return state.reject(command, 'FUTURES_MODIFY_ONLY_LIMIT');
  const margin = symbol.margin;
  const spec = symbol.spec;
  const { price, quantity } = command;
  if (!(Number.isSafeInteger(quantity) && quantity > 0)) return state.reject(command, 'FUTURES_QTY_NOT_POSITIVE');
  if (!(Number.isSafeInteger(price) && price > 0)) return state.reject(command, 'INVALID_AMOUNT');
  const filtered = filterRefusal(margin, false, price, quantity);
  if (filtered) return state.reject(command, filtered);
  if (price % spec.tickUnits !== 0) return state.reject(command, 'FUTURES_PRICE_NOT_ON_TICK');
  if (quantity % spec.stepUnits !== 0) return state.reject(command, 'FUTURES_QTY_NOT_ON_STEP');
  const ticks = price / spec.tickUnits;
  const steps = quantity / spec.stepUnits;
  if (ticks === order.priceTicks && steps === order.origSteps) return state.reject(command, 'FUTURES_MODIFY_NO_CHANGE');
  const mark = markOf(symbol);
  const band = percentPriceRefusal(margin, order.isBuy, price, mark);
  if (band) return state.reject(command, band);
  const info = margin.orders.get(order.orderId)!;
  const cancelId = generateClientOrderId(spec.index, order.orderId, 1);
  if (steps <= order.executedSteps + order.preventedSteps || (info.postOnly && wouldTake(symbol, order.isBuy, ticks))) {
    return cancelTarget(state, symbol, order, cancelId, command.time);
  }
  const remaining = steps - order.executedSteps - order.preventedSteps;
  const fa = state.futures!.accounts.get(account.accountId);
  const settings = fa?.settings[spec.index];
  const positionAmount = settings?.positions[info.side]!.amount ?? 0;
  if (info.reducing && remaining > reducingCapacity(symbol, account, info.side, Math.abs(positionAmount), order.orderId)) return state.reject(command, 'FUTURES_REDUCE_ONLY_REJECTED');
  const cost = orderCost(state, symbol, account, {
    isBuy: order.isBuy,
    hedge: fa?.hedge ?? false,
    reducing: info.reducing,
    positionAmount,
    leverage: settings?.leverage ?? margin.defaultLeverage,
    isMarket: false,
    price,
    steps: remaining,
    planQuote: 0,
    mark,
  }, order.locked);
  if (typeof cost === 'string') return state.reject(command, cost);

  // Re-price the reservation, take the order off the book, give it the new terms.
  const asset = symbol.quoteAsset;
  if (order.locked > 0) account.release(asset, order.locked);
  if (cost > 0 && !account.reserve(asset, cost)) throw new Error(`modify of ${order.orderId}: the checked margin is not free`);
  order.locked = cost;
  info.lockBase = cost;
  info.lockSteps = remaining;
  info.requeued = true;
  if (order.level !== null) symbol.book.side(order.isBuy).remove(order, order.bookSteps);
  const origPrice = order.priceTicks * spec.tickUnits;
  const origQuantity = order.origSteps * spec.stepUnits;
  order.priceTicks = ticks;
  order.origSteps = steps;
  order.updateTime = command.time;
  account.updateTime = command.time;
  state.emit({ type: 'OrderModified', time: command.time, symbol: spec.symbol, orderId: order.orderId, accountId: account.accountId, price, quantity, origPrice, origQuantity });
  finishTaker(state, symbol, order, command.time, matchTaker(state, symbol, order, command.time));
}
