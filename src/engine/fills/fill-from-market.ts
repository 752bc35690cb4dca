/**
 * FillFromMarket: the replay's market model says a historical print reached a resting order.
 * The order fills at its own price (it was the maker), for at most its remaining quantity,
 * through the one fill path (fills/execute-fill.ts: settled as a maker against the market, a
 * trade on the symbol's tape, FILLED when nothing remains). With `fromBook`, the depth book's
 * levels crossing the order's price are what reached it: they lose the quantity, best first.
 */
import type { FillFromMarket } from '../commands.ts';
import type { EngineState } from '../engine-state.ts';
import { executeFill } from './execute-fill.ts';
import { DepthBook } from '../liquidity/depth-book.ts';

export function fillFromMarket(state: EngineState, command: FillFromMarket): void {
  const symbol = state.symbols.get(command.symbol);
  if (!symbol) return state.reject(command, 'UNKNOWN_SYMBOL');
  const order = Number.isSafeInteger(command.orderId) ? symbol.live.get(command.orderId) : undefined;
  if (!order || !order.level) return state.reject(command, 'UNKNOWN_ORDER');
  const steps = command.quantity / symbol.spec.stepUnits;
  if (!(Number.isSafeInteger(command.quantity) && Number.isInteger(steps) && steps > 0 && steps <= order.remainingSteps)) {
    return state.reject(command, 'INVALID_AMOUNT');
  }
  if (command.fromBook === true) {
    const book = symbol.liquidity;
    if (!(book instanceof DepthBook) || book.crossingSteps(!order.isBuy, order.priceTicks) < steps) return state.reject(command, 'INVALID_AMOUNT');
    book.consumeCrossing(!order.isBuy, order.priceTicks, steps);
  }
  executeFill(state, symbol, null, order, order.priceTicks, steps, false, command.time, command.reason, -1);
}
