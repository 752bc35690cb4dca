/**
 * FillFromMarket: the replay's market model says a historical trade reached a resting order.
 * The order fills at its own price (it was the maker), for at most its remaining quantity; its
 * account settles as a maker (settleMarketFill), the fill is a trade on the symbol's tape (next
 * trade id, last price, average-price window), and the order ends FILLED when nothing remains.
 */
import { settleMarketFill } from './accounts/settle.ts';
import type { FillFromMarket } from './commands.ts';
import type { EngineState } from './engine-state.ts';
import { closeOrder, reduceShown } from './order-lifecycle.ts';
import { noteListActivity } from './conditional/order-extras-book.ts';

export function fillFromMarket(state: EngineState, command: FillFromMarket): void {
  const symbol = state.symbols.get(command.symbol);
  if (!symbol) return state.reject(command, 'UNKNOWN_SYMBOL');
  const order = Number.isSafeInteger(command.orderId) ? symbol.live.get(command.orderId) : undefined;
  if (!order || !order.level) return state.reject(command, 'UNKNOWN_ORDER');
  const spec = symbol.spec;
  const steps = command.quantity / spec.stepUnits;
  if (!(Number.isSafeInteger(command.quantity) && Number.isInteger(steps) && steps > 0 && steps <= order.remainingSteps)) {
    return state.reject(command, 'INVALID_AMOUNT');
  }
  const time = command.time;
  const ticks = order.priceTicks;
  const base = command.quantity;
  const quote = symbol.notional(ticks, steps);
  order.executedSteps += steps;
  reduceShown(order, steps);
  order.cumQuote += quote;
  const commission = settleMarketFill(state, symbol, order, base, quote, time, true);
  if (order.remainingSteps === 0) closeOrder(symbol, order, 'FILLED', 'NONE', time);
  else {
    order.status = 'PARTIALLY_FILLED';
    order.updateTime = time;
    if (order.ext !== null && order.ext.list !== null) noteListActivity(symbol, order);
  }
  // The print that reached the order was by a taker on the other side: the synthetic book follows it.
  if (symbol.ladder !== null) symbol.ladder.notePrint(ticks, !order.isBuy);
  const tradeId = symbol.nextTradeId++;
  const price = ticks * spec.tickUnits;
  symbol.recordTrade({ tradeId, price, qty: base, quote, time, isBuyerMaker: order.isBuy });
  symbol.window.record(time, price, quote, base);
  order.account.tradesOn(spec.index).push({
    symbolIndex: spec.index,
    tradeId,
    orderId: order.orderId,
    priceTicks: ticks,
    steps,
    quote,
    commission: commission.amount,
    commissionAsset: commission.asset,
    time,
    isBuyer: order.isBuy,
    isMaker: true,
  });
  state.emit({
    type: 'OrderFilledByMarket',
    time,
    symbol: spec.symbol,
    tradeId,
    orderId: order.orderId,
    accountId: order.account.accountId,
    price,
    quantity: base,
    quoteQuantity: quote,
    commission: commission.amount,
    commissionAsset: state.assetNames[commission.asset] as string,
    status: order.status,
    reason: command.reason,
  });
}
