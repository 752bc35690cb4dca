/**
 * The one test the facade makes to keep the futures world out of spot answers: a margin symbol
 * (`um:BTCUSDT`) or a futures wallet asset (`um:USDT`) carries the engine's futures prefix
 * (docs/usdm-futures.md). Spot's account, its stream and the /sapi asset rows drop such names.
 */
import { FUTURES_PREFIX } from '../../engine/index.ts';

/** Whether an engine symbol or asset is in the USDⓈ-M futures namespace. */
export function isFuturesName(name: string): boolean {
  return name.startsWith(FUTURES_PREFIX);
}
