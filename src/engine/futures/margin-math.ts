/**
 * Margin maths of binance-futures-facts §6 in integers: money in margin units, prices in price
 * units (margin units per whole base), quantities in steps. Rounding, chosen so a backtest never
 * flatters the account: notional at mark floors for longs and ceils for shorts (unrealized PnL
 * rounds toward the account's loss), initial and maintenance margins round up.
 */
import type { SymbolState } from '../engine-state.ts';
import { mulDivCeil, mulDivFloor } from '../exact-math.ts';
import { RATE_SCALE } from '../symbol-spec.ts';
import { pow10 } from '../units.ts';
import type { CompiledBracket, FuturesPosition, MarginSymbol } from './futures-state.ts';

/** Base units of `steps`. */
export function baseOf(symbol: SymbolState, steps: number): number {
  return steps * symbol.spec.stepUnits;
}

/** Notional of |steps| at `price` (price units), floored. */
export function notionalFloor(symbol: SymbolState, price: number, steps: number): number {
  return mulDivFloor(price, Math.abs(steps) * symbol.spec.stepUnits, pow10(symbol.spec.basePrecision));
}

/** Notional of |steps| at `price` (price units), rounded up. */
export function notionalCeil(symbol: SymbolState, price: number, steps: number): number {
  return mulDivCeil(price, Math.abs(steps) * symbol.spec.stepUnits, pow10(symbol.spec.basePrecision));
}

/** Notional of a position at `price`, rounded toward the holder's loss (long: down, short: up). */
export function positionNotional(symbol: SymbolState, price: number, amount: number): number {
  return amount >= 0 ? notionalFloor(symbol, price, amount) : notionalCeil(symbol, price, amount);
}

/** Unrealized PnL at `price`: signedQty × (price − entry) = ±(notional − entry cost). */
export function unrealizedPnl(symbol: SymbolState, position: FuturesPosition, price: number): number {
  if (position.amount === 0) return 0;
  const notional = positionNotional(symbol, price, position.amount);
  return position.amount > 0 ? notional - position.entryCost : position.entryCost - notional;
}

/** The bracket a notional falls in (the last one beyond every cap). */
export function bracketOf(margin: MarginSymbol, notional: number): CompiledBracket {
  const brackets = margin.brackets;
  for (let i = 0; i < brackets.length; i++) {
    const b = brackets[i]!;
    if (notional < b.cap) return b;
  }
  return brackets[brackets.length - 1]!;
}

/** Maintenance margin of a notional: notional × mmr − cum of its bracket, rounded up, ≥ 0. */
export function maintenanceMargin(margin: MarginSymbol, notional: number): number {
  if (notional === 0) return 0;
  const b = bracketOf(margin, notional);
  return Math.max(0, mulDivCeil(notional, b.mmr, RATE_SCALE) - b.cum);
}

/** Initial margin of a notional at `leverage`: notional / leverage, rounded up. */
export function initialMargin(notional: number, leverage: number): number {
  return mulDivCeil(notional, 1, leverage);
}

/** The most notional a position may have at `leverage`: the cap of the last bracket allowing it. */
export function maxNotionalAt(margin: MarginSymbol, leverage: number): number {
  let cap = 0;
  for (const b of margin.brackets) if (b.initialLeverage >= leverage) cap = Math.max(cap, b.cap);
  return cap;
}

/** The highest leverage any bracket allows (bracket 1's). */
export function maxLeverage(margin: MarginSymbol): number {
  let max = 0;
  for (const b of margin.brackets) max = Math.max(max, b.initialLeverage);
  return max;
}

/** Entry price in price units (entry cost per whole base), rounded half up; 0 when flat. */
export function entryPriceOf(symbol: SymbolState, position: FuturesPosition): number {
  if (position.amount === 0) return 0;
  return roundHalfUp(position.entryCost, pow10(symbol.spec.basePrecision), Math.abs(position.amount) * symbol.spec.stepUnits);
}

/** round(a × b / d) half up, for non-negative integers (BigInt when large). */
export function roundHalfUp(a: number, b: number, d: number): number {
  const big = BigInt(a) * BigInt(b) * 2n + BigInt(d);
  return Number(big / (2n * BigInt(d)));
}

/** Price units per base unit expressed as a ratio: the price at which `steps` has notional `notional`. */
export function priceForNotional(symbol: SymbolState, notional: number, steps: number): number {
  if (steps === 0) return 0;
  return roundHalfUp(Math.max(0, notional), pow10(symbol.spec.basePrecision), Math.abs(steps) * symbol.spec.stepUnits);
}
