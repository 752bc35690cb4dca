/**
 * The market's own liquidity on a symbol's book, beside the users' resting orders: what a taker
 * walks after (or before, when better priced) the users' orders, and what depth and bookTicker
 * show merged with them. Two kinds (`kind`):
 *
 * - `synthetic-ladder` (synthetic-ladder.ts): a seeded ladder around the last print, drawn lazily;
 * - `depth` (depth-book.ts): a book of price levels set by `ApplyDepth` messages — recorded depth
 *   replayed from data, or the seeded order-flow process that keeps a book alive between prints.
 *
 * Levels are addressed by index from the best (0) outward on each side. A level may show zero
 * steps (taken by users) and stays addressable until the source redraws or updates it, so a
 * walk's indices stay valid while it takes. Matching, plans and the merged views read it only
 * through this interface; fills take from it only through the one fill path (fills/).
 */
export interface LiquiditySource {
  readonly kind: 'synthetic-ladder' | 'depth';
  /** Price of level `i` of a side, in ticks (a value < 1 means the level is empty). */
  ticksAt(isBid: boolean, i: number): number;
  /** Steps left at level `i` of a side. */
  stepsAt(isBid: boolean, i: number): number;
  /**
   * The first level at index >= `from` of a side that has steps left and is shown: bids below
   * `cutoff` (the users' best ask, or Infinity), asks above it (the users' best bid, or 0).
   * -1 when there is none.
   */
  firstLive(isBid: boolean, from: number, cutoff: number): number;
  /** A user took `steps` from level `i` of a side (it stays taken until the level is set anew). */
  take(isBid: boolean, i: number, steps: number): void;
  /**
   * A market print at `ticks` of `steps` (0 when unknown: a print that reached a user's order)
   * by a buyer (or seller) taker. A recorded book ignores it (its next update shows the print).
   */
  notePrint(ticks: number, steps: number, takerIsBuyer: boolean): void;
  /** A canonical text of what it shows now, for the state hash. */
  describe(): string;
}
