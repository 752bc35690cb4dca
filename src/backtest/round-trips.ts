/**
 * Round trips: the strategy's own position in one symbol, from flat to flat. A trip opens with
 * the first fill that leaves the position at least `flatBelow` (the symbol's minimum quantity)
 * away from zero and closes with the fill that brings it back under that; a fill that flips the
 * position closes the trip at its price and opens the next one there. The position counts what
 * the account really holds: a commission taken in the base asset is part of it.
 *
 * A trip's PnL, in the quote asset: the quote received minus the quote paid, minus commissions
 * (in the quote asset as charged, in the base asset at the fill's price, in any other asset as
 * the caller valued them), plus the change of the leftover position (dust under `flatBelow`)
 * at the closing price. Exact (decimal.js).
 */
import { Decimal } from 'decimal.js';

export interface TripFill {
  /** µs. */
  readonly time: number;
  readonly price: Decimal;
  /** Signed change of the base asset: + qty on a buy, − qty on a sell, − a base commission. */
  readonly baseDelta: Decimal;
  /** Signed change of the quote asset: − quoteQty on a buy, + quoteQty on a sell, − a quote commission. */
  readonly quoteDelta: Decimal;
  /** Commissions in other assets, valued in the quote asset. */
  readonly otherFees: Decimal;
}

export interface RoundTrip {
  readonly side: 'long' | 'short';
  readonly open: number;
  readonly close: number;
  readonly pnl: Decimal;
}

export interface RoundTripResult {
  readonly trips: RoundTrip[];
  /** When the trip still open at the end began (null: flat at the end). */
  readonly openSince: number | null;
}

export function roundTrips(fills: readonly TripFill[], flatBelow: Decimal): RoundTripResult {
  const trips: RoundTrip[] = [];
  let position = new Decimal(0);
  let open: { side: 'long' | 'short'; time: number; startPosition: Decimal; cash: Decimal } | null = null;
  const isFlat = (p: Decimal) => p.abs().lt(flatBelow);
  for (const fill of fills) {
    const before = position;
    position = position.add(fill.baseDelta);
    const cash = fill.quoteDelta.sub(fill.otherFees);
    if (open === null) {
      if (isFlat(position)) continue; // dust moves between trips are not trips
      open = { side: position.gt(0) ? 'long' : 'short', time: fill.time, startPosition: before, cash };
      continue;
    }
    open.cash = open.cash.add(cash);
    const flipped: boolean = !isFlat(position) && (open.side === 'long' ? position.lt(0) : position.gt(0));
    if (isFlat(position) || flipped) {
      // Marked at this fill's price: what is held beyond the trip's start (dust, or the flipped
      // part, which the next trip then holds as bought at this price: its own value there is 0).
      const pnl = open.cash.add(position.sub(open.startPosition).mul(fill.price));
      trips.push({ side: open.side, open: open.time, close: fill.time, pnl });
      open = flipped ? { side: position.gt(0) ? 'long' : 'short', time: fill.time, startPosition: new Decimal(0), cash: position.mul(fill.price).neg() } : null;
    }
  }
  return { trips, openSince: open?.time ?? null };
}
