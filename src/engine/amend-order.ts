/**
 * AmendOrder (PUT /api/v3/order/amend/keepPriority, binance-facts §5.10): reduce an open order's
 * quantity in place. It keeps its orderId and its place in the queue; its reservation shrinks
 * with it. The two legs of an OCO share one quantity, so amending either amends both. Each
 * amendment gets the symbol's next execution id and a history record.
 *
 * Refusals (nothing changes): amend not allowed on the symbol; unknown order; a pending OPO leg;
 * a quantity off the step grid (LOT_SIZE), not above what already executed, equal to the current
 * quantity ("would change no state") or above it ("quantity increase"); MAX_NUM_ORDER_AMENDS;
 * a new client order id that an open order already uses.
 */
import { relock } from './accounts/settle.ts';
import { stopLockAtPlacement } from './conditional/stop-rules.ts';
import { cancelRefusal, findTarget } from './cancel-order.ts';
import type { AmendOrder } from './commands.ts';
import { emitListStatus } from './conditional/contingency.ts';
import type { EngineState, SymbolState } from './engine-state.ts';
import { findOrderIdByClientId } from './find-order.ts';
import type { Order } from './order.ts';

export function amendOrder(state: EngineState, command: AmendOrder): void {
  const symbol = state.symbols.get(command.symbol);
  const account = state.accounts.get(command.accountId);
  const refusal = cancelRefusal(symbol, account);
  if (refusal !== null || !symbol || !account) return state.reject(command, refusal ?? 'UNKNOWN_SYMBOL');
  const spec = symbol.spec;
  if (!spec.amendAllowed) return state.reject(command, 'AMEND_NOT_SUPPORTED');
  const order = findTarget(state, symbol, account, command.orderId, command.origClientOrderId);
  if (typeof order === 'string') return state.reject(command, order);
  if (order.status === 'PENDING_NEW' && order.ext?.quantityFromWorking) return state.reject(command, 'AMEND_PENDING_OPO');
  if (!Number.isSafeInteger(command.newQuantity) || command.newQuantity <= 0) return state.reject(command, 'INVALID_AMOUNT');
  const newSteps = command.newQuantity / spec.stepUnits;
  if (!Number.isInteger(newSteps) || (spec.lotSize !== null && spec.lotSize.min > 0 && command.newQuantity < spec.lotSize.min)) return state.reject(command, 'FILTER_LOT_SIZE');
  if (newSteps > order.origSteps) return state.reject(command, 'AMEND_QTY_INCREASE');
  if (newSteps === order.origSteps) return state.reject(command, 'AMEND_NO_CHANGE');
  if (newSteps <= order.executedSteps + order.preventedSteps) return state.reject(command, 'INVALID_AMOUNT');
  const amends = order.ext?.amendCount ?? 0;
  if (spec.maxNumOrderAmends !== null && amends + 1 > spec.maxNumOrderAmends) return state.reject(command, 'FILTER_MAX_NUM_ORDER_AMENDS');
  const newClientId = command.newClientOrderId;
  if (newClientId !== undefined && newClientId !== order.clientOrderId) {
    const holder = findOrderIdByClientId(symbol, account, newClientId);
    if (holder !== undefined && symbol.live.get(holder) !== undefined) return state.reject(command, 'DUPLICATE_ORDER');
  }

  const time = command.time;
  const list = order.ext?.list ?? null;
  const partnerId = list?.ocoPartnerOf(order.orderId) ?? null;
  const partner = partnerId === null ? undefined : symbol.live.get(partnerId);
  reduce(state, symbol, order, newSteps, newClientId, time);
  // OCO legs share their quantity.
  if (partner !== undefined && partner.origSteps > newSteps && newSteps > partner.executedSteps + partner.preventedSteps) {
    reduce(state, symbol, partner, newSteps, undefined, time);
  }
  if (list !== null && newClientId !== undefined && newClientId !== list.clientOrderIds[list.roleOf(order.orderId)]) {
    list.clientOrderIds[list.roleOf(order.orderId)] = newClientId;
    const kept = list.listStatusType;
    list.listStatusType = 'UPDATED';
    emitListStatus(state, list, time);
    list.listStatusType = kept;
  }
}

/**
 * A waiting BUY without a limit price (STOP_LOSS / TAKE_PROFIT) holds an estimate of its cost,
 * not a price times its quantity (stop-rules.ts), so `relock` leaves it alone: it shrinks here,
 * to the estimate at the stop price for what remains, or in proportion for a trailing stop
 * without one (whose estimate came from the last price at placement).
 */
function shrinkEstimate(symbol: SymbolState, order: Order, remainingBefore: number): void {
  const ext = order.ext!;
  if (!order.isBuy || order.priceTicks !== 0 || !ext.untriggered || ext.sharesLock || order.locked === 0) return;
  const remaining = order.remainingSteps;
  const estimate =
    ext.stopPrice > 0
      ? stopLockAtPlacement(symbol, true, order.type, 0, ext.stopPrice, remaining)
      : Number((BigInt(order.locked) * BigInt(remaining)) / BigInt(remainingBefore));
  if (estimate < order.locked) {
    order.account.release(symbol.quoteAsset, order.locked - estimate);
    order.locked = estimate;
  }
}

function reduce(state: EngineState, symbol: SymbolState, order: Order, newSteps: number, newClientId: string | undefined, time: number): void {
  const spec = symbol.spec;
  const origSteps = order.origSteps;
  const shownBefore = order.bookSteps;
  const remainingBefore = order.remainingSteps;
  order.origSteps = newSteps;
  const ext = order.extras();
  if (ext.icebergSteps !== 0) ext.visibleSteps = Math.min(ext.visibleSteps, order.remainingSteps);
  // It keeps its place in the queue; the level just shows less.
  if (order.level !== null) order.level.shrink(shownBefore - order.bookSteps);
  relock(symbol, order);
  shrinkEstimate(symbol, order, remainingBefore);
  ext.amendCount += 1;
  const origClientOrderId = order.clientOrderId;
  if (newClientId !== undefined && newClientId !== origClientOrderId) {
    order.clientOrderId = newClientId;
    order.clientIdChosen = true;
    order.account.clientIdsOn(spec.index).set(newClientId, order.orderId);
  }
  order.updateTime = time;
  const executionId = symbol.nextExecutionId++;
  symbol.amendments.push({ orderId: order.orderId, accountId: order.account.accountId, executionId, origClientOrderId, newClientOrderId: order.clientOrderId, origSteps, newSteps, time });
  state.emit({
    type: 'OrderAmended',
    time,
    symbol: spec.symbol,
    orderId: order.orderId,
    accountId: order.account.accountId,
    executionId,
    origClientOrderId,
    newClientOrderId: order.clientOrderId,
    origQuantity: origSteps * spec.stepUnits,
    newQuantity: newSteps * spec.stepUnits,
  });
}
