/**
 * How the /fapi trading rows write numbers (futures facts §3, §6): every amount a decimal string.
 * - Prices (order price, avgPrice, entry, mark, liquidation, break-even) at the contract's price
 *   precision (the tick's decimals: BTCUSDT's 0.10 tick → "50000.00"... written "50000.0" would
 *   hide the grid), or at the margin asset's precision when a value is off the tick (an average
 *   or an entry price rarely sits on it), as the exchange shows "6679.50671178".
 * - Quantities (origQty, executedQty, positionAmt) at the quantity precision (the step's
 *   decimals: "0.010").
 * - Money (wallet, margin, PnL, commission, notional, cumQuote) at the margin asset's precision.
 * - Rates (commission, maintenance margin ratio) as the contract block writes them.
 * The engine keeps prices in margin units per whole base at the quote (margin) asset's precision
 * and quantities at the base precision, so each format is a shift of the engine integer.
 */
import { formatUnits, type SymbolSpec } from '../../../engine/index.ts';
import { gridDecimals, onGrid } from '../../serialize/index.ts';

export { gridDecimals };


/** The contract's price precision (exchangeInfo `pricePrecision`). */
export function pricePrecisionOf(spec: SymbolSpec): number {
  return gridDecimals(spec.tickUnits, spec.quotePrecision);
}

/** The contract's quantity precision (exchangeInfo `quantityPrecision`). */
export function quantityPrecisionOf(spec: SymbolSpec): number {
  return gridDecimals(spec.stepUnits, spec.basePrecision);
}

export function fprice(spec: SymbolSpec, units: number): string {
  return onGrid(units, spec.quotePrecision, pricePrecisionOf(spec));
}

export function fqty(spec: SymbolSpec, units: number): string {
  return onGrid(units, spec.basePrecision, quantityPrecisionOf(spec));
}

/** Money of the contract's margin asset (its quote asset). */
export function fmoney(spec: SymbolSpec, units: number): string {
  return formatUnits(units, spec.quotePrecision);
}

/** A 1e-8 rate ("0.00020000" → written without trailing zeros beyond 4 decimals: "0.0002"). */
export function frate(rate1e8: number): string {
  const text = formatUnits(rate1e8, 8);
  return text.replace(/(\.\d{4}\d*?)0+$/, '$1');
}
