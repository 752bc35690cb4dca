/**
 * FillFromMarket: the replay's market model says a historical print reached a resting order.
 * The order fills at its own price (it was the maker), for at most its remaining quantity,
 * through the one fill path (fills/execute-fill.ts: settled as a maker against the market, a
 * trade on the symbol's tape, FILLED when nothing remains).
 */
import type { FillFromMarket } from '../commands.ts';
import type { EngineState } from '../engine-state.ts';
import { executeFill } from './execute-fill.ts';

export function fillFromMarket(state: EngineState, command: FillFromMarket): void {
  const symbol = state.symbols.get(command.symbol);
  if (!symbol) return state.reject(command, 'UNKNOWN_SYMBOL');
  const order = Number.isSafeInteger(command.orderId) ? symbol.live.get(command.orderId) : undefined;
  if (!order || !order.level) return state.reject(command, 'UNKNOWN_ORDER');
  const steps = command.quantity / symbol.spec.stepUnits;
  if (!(Number.isSafeInteger(command.quantity) && Number.isInteger(steps) && steps > 0 && steps <= order.remainingSteps)) {
    return state.reject(command, 'INVALID_AMOUNT');
  }
  executeFill(state, symbol, null, order, order.priceTicks, steps, false, command.time, command.reason, -1);
}
