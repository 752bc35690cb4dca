/**
 * The symbol, exchange and asset filters of a new order (filters.md), in the order the real
 * exchange reports them: price rules, then quantity rules, then notional, then counts and
 * positions. Each failure has its own reason; the first failure wins. Pure: reads state only.
 */
import type { Account } from '../accounts/account.ts';
import type { EngineState, SymbolState } from '../engine-state.ts';
import { compareProducts } from '../exact-math.ts';
import type { RejectReason } from '../reject-reason.ts';
import { type PriceRatio } from '../reference-price.ts';
import type { NotionalRule, RangeRule } from '../symbol-spec.ts';
import { RATE_SCALE } from '../symbol-spec.ts';
import { pow10 } from '../units.ts';

export interface OrderUnderCheck {
  isBuy: boolean;
  isMarket: boolean;
  /** Limit price in price units, or null for MARKET. */
  price: number | null;
  /** Base quantity in units, or null for MARKET by quoteOrderQty. */
  quantity: number | null;
  /** MARKET by quoteOrderQty: the quote amount, else null. */
  quoteOrderQty: number | null;
  time: number;
}

function inRange(value: number, rule: RangeRule): boolean {
  if (rule.min > 0 && value < rule.min) return false;
  if (rule.max > 0 && value > rule.max) return false;
  if (rule.step > 0 && !onStep(value, rule.step)) return false;
  return true;
}

/**
 * `value % step === 0`. For safe integers by a division instead: V8 computes `%` on numbers past
 * int32 (prices in units are) with a call to fmod, a division is several times cheaper, and it is
 * exact here: a whole quotient below 2^53 is exact, and a remainder r >= 1 leaves the quotient at
 * least 1/step from any integer, far more than its rounding error below 2^53.
 */
function onStep(value: number, step: number): boolean {
  return Number.isSafeInteger(value) && Number.isSafeInteger(step) ? Number.isInteger(value / step) : value % step === 0;
}

const SCALE = BigInt(RATE_SCALE);

/**
 * The price band [ref * down, ref * up] (multipliers in 1e-8 units) as whole price units:
 * price <= floor(ref * up) and price >= ceil(ref * down) is exactly the rational check.
 */
interface PriceBand {
  low: number;
  high: number;
}

function bandOf(ref: PriceRatio, down: number, up: number): PriceBand {
  const d = ref.den * SCALE;
  const highBig = (ref.num * BigInt(up)) / d;
  const lowNum = ref.num * BigInt(down);
  const lowBig = (lowNum + d - 1n) / d;
  return { low: clampToSafe(lowBig), high: clampToSafe(highBig) };
}

const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/** A band edge as a number, capped at the largest safe integer (module-level: bands are recomputed after every trade). */
function clampToSafe(v: bigint): number {
  return v > MAX_SAFE_BIG ? Number.MAX_SAFE_INTEGER : Number(v);
}

/**
 * Bands are recomputed only when the reference changes: a new trade, the window dropping its
 * oldest trade, or a new explicit reference price. Between those, every order is checked with
 * two integer comparisons instead of BigInt products.
 */
export class PriceBandCache {
  #version = -1;
  #validUntil = -Infinity;
  #reference: number | null = null;
  #bands: (PriceBand | null)[] = [];

  bands(symbol: SymbolState, mins: number, time: number, multipliers: readonly number[]): readonly (PriceBand | null)[] {
    const window = symbol.window;
    // An engine-computed reference price moves with time on its own: no caching then.
    if (symbol.meanReference !== null || this.#version !== window.version || time >= this.#validUntil || this.#reference !== symbol.referencePrice) {
      const ref = referencePrice(symbol, mins, time);
      this.#bands = [];
      for (let i = 0; i < multipliers.length; i += 2) {
        this.#bands.push(ref === null ? null : bandOf(ref, multipliers[i] as number, multipliers[i + 1] as number));
      }
      this.#version = window.version;
      this.#reference = symbol.referencePrice;
      this.#validUntil = symbol.referencePrice !== null ? Infinity : window.validUntil(mins, time);
    }
    return this.#bands;
  }
}

function withinBand(price: number, band: PriceBand | null | undefined): boolean {
  return band == null || (price >= band.low && price <= band.high);
}

function referencePrice(symbol: SymbolState, mins: number, time: number): PriceRatio | null {
  const reference = symbol.referencePriceAt(time);
  if (reference !== null) return { num: BigInt(reference), den: 1n };
  return symbol.window.average(mins, time);
}

/**
 * Notional check. For priced orders notional = price * qty; for MARKET the reference price
 * stands in for the price, or quoteOrderQty is the notional itself.
 */
function notionalFails(rule: NotionalRule, symbol: SymbolState, order: OrderUnderCheck): boolean {
  const checkMin = rule.min > 0 && (!order.isMarket || rule.applyMinToMarket);
  const checkMax = rule.max > 0 && (!order.isMarket || rule.applyMaxToMarket);
  if (!checkMin && !checkMax) return false;
  const spec = symbol.spec;
  if (order.quoteOrderQty !== null) {
    if (checkMin && order.quoteOrderQty < rule.min) return true;
    if (checkMax && order.quoteOrderQty > rule.max) return true;
    return false;
  }
  const qty = order.quantity as number;
  if (order.price !== null) {
    // On the book grid (PRICE_FILTER and LOT_SIZE passed, so these divide exactly) the exact
    // notional is ticks * steps * num / den quote units: compare ticks * (steps * num) with
    // bound * den, small integers on the usual grids, without division.
    const ticks = order.price / spec.tickUnits;
    const stepsNum = (qty / spec.stepUnits) * spec.notionalNum;
    if (checkMin && compareProducts(ticks, stepsNum, rule.min, spec.notionalDen) < 0) return true;
    if (checkMax && compareProducts(ticks, stepsNum, rule.max, spec.notionalDen) > 0) return true;
    return false;
  }
  const ref = referencePrice(symbol, rule.avgPriceMins, order.time);
  if (ref === null) return true; // never traded: MARKET orders cannot be checked, so they fail
  const lhs = ref.num * BigInt(qty);
  const scale = ref.den * BigInt(pow10(spec.basePrecision));
  if (checkMin && lhs < BigInt(rule.min) * scale) return true;
  if (checkMax && lhs > BigInt(rule.max) * scale) return true;
  return false;
}

export function checkOrderFilters(
  state: EngineState,
  symbol: SymbolState,
  account: Account,
  order: OrderUnderCheck,
): RejectReason | null {
  const spec = symbol.spec;
  if (order.price !== null) {
    if (spec.priceFilter && !inRange(order.price, spec.priceFilter)) return 'FILTER_PRICE_FILTER';
    if (spec.percentPrice) {
      const rule = spec.percentPrice;
      const [band] = symbol.percentPriceBands.bands(symbol, rule.avgPriceMins, order.time, [rule.down, rule.up]);
      if (!withinBand(order.price, band)) return 'FILTER_PERCENT_PRICE';
    }
    if (spec.percentPriceBySide) {
      const rule = spec.percentPriceBySide;
      const [bid, ask] = symbol.percentPriceBySideBands.bands(symbol, rule.avgPriceMins, order.time, [
        rule.bidDown,
        rule.bidUp,
        rule.askDown,
        rule.askUp,
      ]);
      if (!withinBand(order.price, order.isBuy ? bid : ask)) return 'FILTER_PERCENT_PRICE_BY_SIDE';
    }
  }
  if (order.quantity !== null) {
    if (spec.lotSize && !inRange(order.quantity, spec.lotSize)) return 'FILTER_LOT_SIZE';
    if (order.isMarket && spec.marketLotSize && !inRange(order.quantity, spec.marketLotSize)) return 'FILTER_MARKET_LOT_SIZE';
  }
  if (spec.minNotional && notionalFails(spec.minNotional, symbol, order)) return 'FILTER_MIN_NOTIONAL';
  if (spec.notional && notionalFails(spec.notional, symbol, order)) return 'FILTER_NOTIONAL';

  // An order list's later legs count the legs checked before them (state.ordersAhead).
  const openHere = symbol.openCountOf(account) + state.ordersAhead;
  if (spec.maxNumOrders !== null && openHere + 1 > spec.maxNumOrders) return 'FILTER_MAX_NUM_ORDERS';
  const exchange = state.exchangeFilters;
  if (exchange.maxNumOrders !== null && account.openCount + state.ordersAhead + 1 > exchange.maxNumOrders) return 'FILTER_EXCHANGE_MAX_NUM_ORDERS';

  if (order.isBuy && spec.maxPosition !== null && order.quantity !== null) {
    if (positionAfter(symbol, account, order.quantity) > spec.maxPosition) return 'FILTER_MAX_POSITION';
  }
  // MAX_ASSET for what is known now; a MARKET order's missing side (its quantity or its
  // notional) is checked by place-order once the book walk has determined it.
  const baseCap = maxAssetCap(state, symbol.baseAsset);
  if (baseCap !== null && order.quantity !== null && order.quantity > baseCap) return 'FILTER_MAX_ASSET';
  const quoteCap = maxAssetCap(state, symbol.quoteAsset);
  if (quoteCap !== null) {
    if (order.quoteOrderQty !== null && order.quoteOrderQty > quoteCap) return 'FILTER_MAX_ASSET';
    if (order.price !== null && order.quantity !== null && compareProducts(order.price, order.quantity, quoteCap, pow10(spec.basePrecision)) > 0) {
      return 'FILTER_MAX_ASSET';
    }
  }
  return null;
}

/** The MAX_ASSET limit on one order's amount of `asset`, or null. */
export function maxAssetCap(state: EngineState, asset: number): number | null {
  for (const f of state.assetFilters) if (f.asset === asset) return f.limit;
  return null;
}

/** MAX_POSITION: free + locked base plus the remaining quantity of open BUY orders, plus this order. */
export function positionAfter(symbol: SymbolState, account: Account, quantity: number): number {
  let position = account.freeOf(symbol.baseAsset) + account.lockedOf(symbol.baseAsset) + quantity;
  for (const o of symbol.openOrdersOf(account)) if (o.isBuy) position += o.remainingSteps * symbol.spec.stepUnits;
  return position;
}
