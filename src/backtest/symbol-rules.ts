/**
 * A symbol's trading rules as a strategy needs them (`ctx.symbol('BTCUSDT')`): the tick and step
 * grids, the quantity, price and notional limits as decimal strings, and the rounding every bot
 * rewrites (a price onto the tick grid, a quantity onto the step grid), done in decimal
 * arithmetic so `roundQty('0.30000000000000004')` is `0.3`, never `0.30000000000000004`.
 * Built from the engine's compiled rules, so it is what the exchange will check.
 */
import { Decimal } from 'decimal.js';
import { formatUnits, type SymbolSpec } from '../engine/index.ts';
import { IndicatorDecimal, type DecimalInput } from './indicators.ts';

export type Rounding = 'down' | 'up' | 'nearest';

const ROUNDING: Readonly<Record<Rounding, Decimal.Rounding>> = {
  down: Decimal.ROUND_FLOOR,
  up: Decimal.ROUND_CEIL,
  nearest: Decimal.ROUND_HALF_EVEN,
};

/** `units` of `precision` decimals as the shortest decimal string ("0.01", "5", null for 0: a rule that is off). */
const decimalOf = (units: number | undefined, precision: number): string | null => (units === undefined || units === 0 ? null : new IndicatorDecimal(formatUnits(units, precision)).toFixed());

export class SymbolRules {
  readonly symbol: string;
  readonly baseAsset: string;
  readonly quoteAsset: string;
  /** Decimals of the base and quote assets' amounts. */
  readonly basePrecision: number;
  readonly quotePrecision: number;
  /** PRICE_FILTER.tickSize and LOT_SIZE.stepSize ("0.01", "0.00001"). */
  readonly tickSize: string;
  readonly stepSize: string;
  /** The filters' limits; null where the rule is off. */
  readonly minPrice: string | null;
  readonly maxPrice: string | null;
  readonly minQty: string | null;
  readonly maxQty: string | null;
  /** NOTIONAL's (else MIN_NOTIONAL's) minimum price × quantity, in the quote asset. */
  readonly minNotional: string | null;
  readonly #tick: IndicatorDecimal;
  readonly #step: IndicatorDecimal;

  constructor(spec: SymbolSpec) {
    this.symbol = spec.symbol;
    this.baseAsset = spec.baseAsset;
    this.quoteAsset = spec.quoteAsset;
    this.basePrecision = spec.basePrecision;
    this.quotePrecision = spec.quotePrecision;
    this.tickSize = decimalOf(spec.tickUnits, spec.quotePrecision)!;
    this.stepSize = decimalOf(spec.stepUnits, spec.basePrecision)!;
    this.minPrice = decimalOf(spec.priceFilter?.min, spec.quotePrecision);
    this.maxPrice = decimalOf(spec.priceFilter?.max, spec.quotePrecision);
    this.minQty = decimalOf(spec.lotSize?.min, spec.basePrecision);
    this.maxQty = decimalOf(spec.lotSize?.max, spec.basePrecision);
    this.minNotional = decimalOf(spec.notional?.min ?? spec.minNotional?.min, spec.quotePrecision);
    this.#tick = new IndicatorDecimal(this.tickSize);
    this.#step = new IndicatorDecimal(this.stepSize);
  }

  /** `price` on the tick grid (default: the nearest tick, half to even), with the tick's decimals. */
  roundPrice(price: DecimalInput, rounding: Rounding = 'nearest'): string {
    return onGrid(price, this.#tick, rounding);
  }

  /** `quantity` on the step grid (default: down, so an order never asks for more than was meant). */
  roundQty(quantity: DecimalInput, rounding: Rounding = 'down'): string {
    return onGrid(quantity, this.#step, rounding);
  }

  /** price × quantity, exact, in the quote asset. */
  notional(price: DecimalInput, quantity: DecimalInput): string {
    return new IndicatorDecimal(price).mul(new IndicatorDecimal(quantity)).toFixed();
  }

  /** Whether price × quantity reaches the minimum notional (true when there is none). */
  meetsMinNotional(price: DecimalInput, quantity: DecimalInput): boolean {
    return this.minNotional === null || new IndicatorDecimal(price).mul(new IndicatorDecimal(quantity)).gte(this.minNotional);
  }
}

function onGrid(value: DecimalInput, grid: IndicatorDecimal, rounding: Rounding): string {
  const steps = new IndicatorDecimal(value).div(grid).toDecimalPlaces(0, ROUNDING[rounding]);
  return steps.mul(grid).toFixed(grid.decimalPlaces());
}
