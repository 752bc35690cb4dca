/**
 * Prices and quantities of a USDⓈ-M margin symbol on its contract grid, as Binance writes them:
 * at the tick's decimals ("50010.0" for BTCUSDT's 0.10 tick) and the step's ("0.012" for 0.001),
 * or at the full precision when a value is off the grid (a weighted average, a bankruptcy price).
 * The one place of this rule: the /fapi trading rows (futures-wire.ts), the market data rows, the
 * /fstream payloads, the futures user data stream and the algo driver format through it.
 */
import { formatUnits, type SymbolSpec } from '../../engine/index.ts';

/** Decimal places of a grid `unit` at `precision` (tick 10_000_000 at 8 → 1). */
export function gridDecimals(unit: number, precision: number): number {
  let d = precision;
  let u = unit;
  while (d > 0 && u % 10 === 0) {
    u /= 10;
    d--;
  }
  return d;
}

/** `units` at `decimals` when it sits on that grid, else at the full `precision`. */
export function onGrid(units: number, precision: number, decimals: number): string {
  const shift = 10 ** (precision - decimals);
  return units % shift === 0 ? formatUnits(units / shift, decimals) : formatUnits(units, precision);
}

export function gridPrice(spec: SymbolSpec, units: number): string {
  return onGrid(units, spec.quotePrecision, gridDecimals(spec.tickUnits, spec.quotePrecision));
}

export function gridQty(spec: SymbolSpec, units: number): string {
  return onGrid(units, spec.basePrecision, gridDecimals(spec.stepUnits, spec.basePrecision));
}
