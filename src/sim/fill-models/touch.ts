/**
 * Touch: a resting order fills when a print happens at its price or through it, as if it were
 * first in the queue at its price. The optimistic bound (NautilusTrader issue #3943, bbgo PR
 * #2555: it overstates maker PnL); useful to bracket the truth with trade-through. Fills are at
 * the order's price, capped by the print's size, best price first, FIFO within a price.
 */
import type { FillModel, SymbolFillModel } from './fill-model.ts';
import { walkByPrice } from './price-reach.ts';

export const TOUCH = 'TOUCH';

export function touch(): FillModel {
  const model: SymbolFillModel = {
    onTrade(trade, resting, market, out) {
      const admits = trade.isBuyerMaker ? (price: number) => price >= trade.price : (price: number) => price <= trade.price;
      walkByPrice(TOUCH, trade, resting, market, admits, null, out);
    },
  };
  return { name: 'touch', forSymbol: () => model };
}
