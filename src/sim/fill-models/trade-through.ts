/**
 * Strict trade-through: a resting order fills only when a print happens at a price strictly
 * worse for its taker than the order (a BUY at 100 fills when someone sold at 99.99), because
 * only then is it certain the whole queue at the order's price was consumed. Each fill is at the
 * order's own price, capped by the print's size, best price first. The pessimistic baseline:
 * it never fills an order that a real exchange would not have filled, and misses some it would.
 */
import type { FillModel, SymbolFillModel } from './fill-model.ts';
import { isThrough } from './fill-model.ts';
import { walkByPrice } from './price-reach.ts';

export const TRADE_THROUGH = 'TRADE_THROUGH';

export function tradeThrough(): FillModel {
  const model: SymbolFillModel = {
    onTrade(trade, resting, market, out) {
      walkByPrice(TRADE_THROUGH, trade, resting, market, (price) => isThrough(trade, price), 'at-print-price-needs-through', out);
    },
  };
  return { name: 'trade-through', forSymbol: () => model };
}
