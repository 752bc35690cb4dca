/**
 * The walk shared by the price-only rules (trade-through, touch, and the through part of the
 * queue model): the print's size is the budget; orders the rule admits fill best price first,
 * FIFO within a price, each for what is left of the budget (on the LOT_SIZE step), so one
 * print's liquidity is never used twice. Also writes the reason strings, so every rule explains
 * itself the same way: `RULE key=value ...`.
 */
import type { RestingOrder } from '../book-mirror.ts';
import type { SymbolMarket } from '../symbol-market.ts';
import { stepFloorMin, type FillPlan, type TradePrint } from './fill-model.ts';

/** "tapeTrade=.. tradePrice=.. tradeQty=.. taker=.. orderPrice=..": the print and the order it met. */
export function describeMeeting(trade: TradePrint, order: RestingOrder, market: SymbolMarket): string {
  return (
    `tapeTrade=${trade.tapeId} tradePrice=${market.price(trade.price)} tradeQty=${market.qty(trade.qty)} ` +
    `taker=${trade.isBuyerMaker ? 'SELL' : 'BUY'} order=${order.orderId} orderPrice=${market.price(order.price)}`
  );
}

/**
 * Plans fills for `order` from `available` (base units left of the print); returns what it used.
 * With less than one step left it records a NO_FILL decision instead.
 */
export function planFill(
  rule: string,
  trade: TradePrint,
  order: RestingOrder,
  market: SymbolMarket,
  available: number,
  extra: string,
  out: FillPlan[],
): number {
  const quantity = stepFloorMin(available, order.remaining, market.stepUnits);
  const meeting = describeMeeting(trade, order, market);
  if (quantity === 0) {
    out.push({ orderId: order.orderId, quantity: 0, reason: `${rule} NO_FILL why=print-used-up ${meeting} available=${market.qty(available)}${extra}` });
    return 0;
  }
  out.push({ orderId: order.orderId, quantity, reason: `${rule} ${meeting} available=${market.qty(available)} filled=${market.qty(quantity)}${extra}` });
  return quantity;
}

/**
 * Walks `resting` (best first) while `admits(orderPrice)` holds, filling from the print's size.
 * Orders the walk stops at that sit exactly at the print's price get a NO_FILL decision naming
 * `atPriceWhy` (when given), so a user asking "why not me?" finds the answer in the log.
 */
export function walkByPrice(
  rule: string,
  trade: TradePrint,
  resting: readonly RestingOrder[],
  market: SymbolMarket,
  admits: (orderPrice: number) => boolean,
  atPriceWhy: string | null,
  out: FillPlan[],
): void {
  let available = trade.qty;
  for (const order of resting) {
    if (!admits(order.price)) {
      if (atPriceWhy !== null && order.price === trade.price) {
        out.push({ orderId: order.orderId, quantity: 0, reason: `${rule} NO_FILL why=${atPriceWhy} ${describeMeeting(trade, order, market)}` });
        continue;
      }
      break;
    }
    available -= planFill(rule, trade, order, market, available, '', out);
  }
}
