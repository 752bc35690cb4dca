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
 *
 * What trades.csv shows of a trip: its quantity (the fills that opened or added to it, before
 * commissions), the volume-weighted entry and exit prices (a flipping fill's exit is only the part
 * that closed the trip; the rest opens the next one), its commissions (every fill's, a flipping
 * fill's whole commission counted in the trip it closes, as its PnL counts it) and the orders of
 * its first fill and of its closing fill.
 */
import { Decimal } from 'decimal.js';

export interface TripFill {
  /** µs. */
  readonly time: number;
  readonly price: Decimal;
  /** Quantity traded (unsigned, before any commission), and which way. */
  readonly qty: Decimal;
  readonly isBuyer: boolean;
  /** Signed change of the base asset: + qty on a buy, − qty on a sell, − a base commission. */
  readonly baseDelta: Decimal;
  /** Signed change of the quote asset: − quoteQty on a buy, + quoteQty on a sell, − a quote commission. */
  readonly quoteDelta: Decimal;
  /** Commissions in other assets, valued in the quote asset. */
  readonly otherFees: Decimal;
  /** The fill's commission valued in the quote asset (a base commission at the fill's price). */
  readonly fee: Decimal;
  readonly orderId: number;
  readonly clientOrderId: string;
}

export interface TripOrder {
  readonly orderId: number;
  readonly clientOrderId: string;
}

export interface RoundTrip {
  readonly side: 'long' | 'short';
  /** µs: the opening and the closing fill. */
  readonly open: number;
  readonly close: number;
  readonly pnl: Decimal;
  /** Base quantity of the fills that opened or added to the trip. */
  readonly quantity: Decimal;
  /** Volume-weighted prices of the opening side and of the closing side. */
  readonly entryPrice: Decimal;
  readonly exitPrice: Decimal;
  /** Commissions, in the quote asset. */
  readonly fees: Decimal;
  readonly entryOrder: TripOrder;
  readonly exitOrder: TripOrder;
}

export interface RoundTripResult {
  readonly trips: RoundTrip[];
  /** When the trip still open at the end began (null: flat at the end). */
  readonly openSince: number | null;
}

interface OpenTrip {
  side: 'long' | 'short';
  time: number;
  startPosition: Decimal;
  cash: Decimal;
  entryQty: Decimal;
  entryValue: Decimal;
  exitQty: Decimal;
  exitValue: Decimal;
  fees: Decimal;
  entryOrder: TripOrder;
}

const ZERO = new Decimal(0);

function opened(side: 'long' | 'short', fill: TripFill, startPosition: Decimal, cash: Decimal, qty: Decimal, fees: Decimal): OpenTrip {
  return { side, time: fill.time, startPosition, cash, entryQty: qty, entryValue: qty.mul(fill.price), exitQty: ZERO, exitValue: ZERO, fees, entryOrder: { orderId: fill.orderId, clientOrderId: fill.clientOrderId } };
}

export function roundTrips(fills: readonly TripFill[], flatBelow: Decimal): RoundTripResult {
  const trips: RoundTrip[] = [];
  let position = new Decimal(0);
  let open: OpenTrip | null = null;
  const isFlat = (p: Decimal) => p.abs().lt(flatBelow);
  for (const fill of fills) {
    const before = position;
    position = position.add(fill.baseDelta);
    const cash = fill.quoteDelta.sub(fill.otherFees);
    if (open === null) {
      if (isFlat(position)) continue; // dust moves between trips are not trips
      open = opened(position.gt(0) ? 'long' : 'short', fill, before, cash, fill.qty, fill.fee);
      continue;
    }
    open.cash = open.cash.add(cash);
    open.fees = open.fees.add(fill.fee);
    const flipped: boolean = !isFlat(position) && (open.side === 'long' ? position.lt(0) : position.gt(0));
    if (fill.isBuyer === (open.side === 'long')) {
      open.entryQty = open.entryQty.add(fill.qty);
      open.entryValue = open.entryValue.add(fill.qty.mul(fill.price));
    } else {
      const closing = flipped ? Decimal.min(fill.qty, before.abs()) : fill.qty;
      open.exitQty = open.exitQty.add(closing);
      open.exitValue = open.exitValue.add(closing.mul(fill.price));
    }
    if (isFlat(position) || flipped) {
      // Marked at this fill's price: what is held beyond the trip's start (dust, or the flipped
      // part, which the next trip then holds as bought at this price: its own value there is 0).
      const pnl = open.cash.add(position.sub(open.startPosition).mul(fill.price));
      trips.push({
        side: open.side,
        open: open.time,
        close: fill.time,
        pnl,
        quantity: open.entryQty,
        entryPrice: open.entryQty.isZero() ? fill.price : open.entryValue.div(open.entryQty),
        exitPrice: open.exitQty.isZero() ? fill.price : open.exitValue.div(open.exitQty),
        fees: open.fees,
        entryOrder: open.entryOrder,
        exitOrder: { orderId: fill.orderId, clientOrderId: fill.clientOrderId },
      });
      open = flipped ? opened(position.gt(0) ? 'long' : 'short', fill, new Decimal(0), position.mul(fill.price).neg(), position.abs(), ZERO) : null;
    }
  }
  return { trips, openSince: open?.time ?? null };
}
