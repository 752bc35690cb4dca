/**
 * A side of the book as takers and market data see it: the users' resting orders and the
 * synthetic book's levels merged by price (users' orders first at one price). Matching walks
 * the two sources itself (it must know which one a fill comes from); these helpers serve the
 * readers that only need prices and sizes: depth, bookTicker, pegs, LIMIT_MAKER checks.
 */
import type { SymbolState } from '../engine-state.ts';

/**
 * The users' best price on the side opposite `isBid`: synthetic bids are shown only below it
 * (the users' best ask, or Infinity), synthetic asks only above it (the users' best bid, or 0).
 */
export function syntheticCutoff(symbol: SymbolState, isBid: boolean): number {
  const other = (isBid ? symbol.book.asks : symbol.book.bids).best();
  return other === undefined ? (isBid ? Infinity : 0) : other.ticks;
}

/**
 * Calls `visit(ticks, steps)` for a side's live levels, best first, one call per price (users'
 * and synthetic sizes added), until `visit` returns false or `limit` levels were visited.
 */
export function forEachMergedLevel(symbol: SymbolState, isBid: boolean, limit: number, visit: (ticks: number, steps: number) => boolean | void): void {
  const users = symbol.book.side(isBid).cursor();
  const liquidity = symbol.liquidity;
  const cutoff = liquidity === null ? 0 : syntheticCutoff(symbol, isBid);
  let real = users.next();
  let si = liquidity === null ? -1 : liquidity.firstLive(isBid, 0, cutoff);
  let visited = 0;
  while (visited < limit) {
    const synthTicks = si >= 0 ? liquidity!.ticksAt(isBid, si) : 0;
    let ticks: number;
    let steps = 0;
    if (real !== undefined && (si < 0 || real.ticks === synthTicks || (isBid ? real.ticks > synthTicks : real.ticks < synthTicks))) {
      ticks = real.ticks;
      steps += real.totalSteps;
      real = users.next();
    } else if (si >= 0) ticks = synthTicks;
    else return;
    if (si >= 0 && synthTicks === ticks) {
      steps += liquidity!.stepsAt(isBid, si);
      si = liquidity!.firstLive(isBid, si + 1, cutoff);
    }
    visited++;
    if (visit(ticks, steps) === false) return;
  }
}

/** The best price of a side (users' or synthetic), in ticks, or undefined when it is empty. */
export function bestTicks(symbol: SymbolState, isBid: boolean): number | undefined {
  let best: number | undefined;
  forEachMergedLevel(symbol, isBid, 1, (ticks) => {
    best = ticks;
  });
  return best;
}
