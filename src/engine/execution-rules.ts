/**
 * The PRICE_RANGE execution rule (Binance's price_range_execution_rules FAQ): a taker may trade
 * only at prices within [reference * down, reference * up] (inclusive), bid multipliers for a
 * BUY taker and ask multipliers for a SELL taker. The band is fixed when the order enters its
 * taker phase, from the reference price at that moment; a symbol without a reference price has
 * no band. A taker that reaches a price outside it expires with
 * EXECUTION_RULE_PRICE_RANGE_EXCEEDED (match-order.ts); the read-only plans stop there too, so
 * MARKET costs and FOK feasibility agree with the walk.
 */
import type { SymbolState } from './engine-state.ts';
import { RATE_SCALE } from './symbol-spec.ts';

/** Inclusive tick bounds of a taker's trades. */
export interface TakerBand {
  low: number;
  high: number;
}

const SCALE = BigInt(RATE_SCALE);

export function takerBand(symbol: SymbolState, isBuy: boolean, time: number): TakerBand | null {
  const rule = symbol.spec.priceRange;
  if (rule === null) return null;
  const reference = symbol.referencePriceAt(time);
  if (reference === null) return null;
  const up = BigInt(isBuy ? rule.bidUp : rule.askUp);
  const down = BigInt(isBuy ? rule.bidDown : rule.askDown);
  const tick = BigInt(symbol.spec.tickUnits);
  const ref = BigInt(reference);
  // Whole ticks inside [ref * down, ref * up]: ceil the low end, floor the high end.
  const lowDen = SCALE * tick;
  const low = (ref * down + lowDen - 1n) / lowDen;
  const high = (ref * up) / lowDen;
  return { low: Number(low), high: Number(high) };
}

export function outsideBand(band: TakerBand | null, ticks: number): boolean {
  return band !== null && (ticks < band.low || ticks > band.high);
}
