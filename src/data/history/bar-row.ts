/**
 * The record every bar level and every range query shares: one bar (or running accumulator) as
 * a fixed run of float64 slots, so bars live packed in chunked Float64Arrays (no object per bar)
 * and merging two bars is a handful of array reads.
 *
 * Volumes are "wide" sums held as two slots, hi * 2^32 + lo, both safe integers: a day of
 * BTCUSDT quote volume at 8 decimals is ~10^17 units, far past 2^53, and BigInt on every trade
 * would cost ~25x. A trade adds to lo until the next addend could push it past 2^53; only then
 * is lo's excess carried into hi as whole 2^32-blocks (lo < 2^32 afterwards, and each addend is
 * at most MAX_TRADE_UNITS, so the sum stays exact). So the common add is one compare and one
 * addition; hi stays a safe integer up to totals of 2^85.
 */

export const OPEN_TIME = 0;
export const OPEN = 1;
export const HIGH = 2;
export const LOW = 3;
export const CLOSE = 4;
/** Number of trades; 0 marks an empty accumulator (stored bars are never empty). */
export const COUNT = 5;
export const FIRST_ID = 6;
export const LAST_ID = 7;
export const LAST_QTY = 8;
export const LAST_TIME = 9;
/** Wide sums: slot i is hi, slot i + 1 is lo. */
export const VOLUME = 10;
export const QUOTE_VOLUME = 12;
export const TAKER_BUY_VOLUME = 14;
export const TAKER_BUY_QUOTE_VOLUME = 16;
export const BAR_FIELDS = 18;

const TWO_32 = 4_294_967_296;
const INV_TWO_32 = 1 / TWO_32; // exact: a power of two
const TWO_32N = 4_294_967_296n;

/** Largest qty or quoteQty one trade may carry: keeps `lo + addend` below 2^53 (exact). */
export const MAX_TRADE_UNITS = Number.MAX_SAFE_INTEGER - TWO_32 + 1;

export function newBar(): Float64Array {
  return new Float64Array(BAR_FIELDS);
}

function addWide(row: Float64Array, at: number, units: number): void {
  let lo = row[at + 1]!;
  if (lo > Number.MAX_SAFE_INTEGER - units) {
    const carry = Math.floor(lo * INV_TWO_32);
    row[at] = row[at]! + carry;
    lo -= carry * TWO_32;
  }
  row[at + 1] = lo + units;
}

function mergeWide(dst: Float64Array, d: number, src: Float64Array, s: number): void {
  // Bring both lo slots under 2^32 first so their sum cannot lose a unit.
  const dLo = dst[d + 1]!;
  const sLo = src[s + 1]!;
  const dCarry = Math.floor(dLo * INV_TWO_32);
  const sCarry = Math.floor(sLo * INV_TWO_32);
  let lo = dLo - dCarry * TWO_32 + (sLo - sCarry * TWO_32);
  let hi = dst[d]! + src[s]! + dCarry + sCarry;
  if (lo >= TWO_32) {
    lo -= TWO_32;
    hi += 1;
  }
  dst[d] = hi;
  dst[d + 1] = lo;
}

/** The exact value of the wide sum at `at`. */
export function wideValue(row: Float64Array, at: number, offset = 0): bigint {
  return BigInt(row[offset + at]!) * TWO_32N + BigInt(row[offset + at + 1]!);
}

/** Folds one trade into the bar at `o` (trades arrive in time order). */
export function addTrade(
  row: Float64Array,
  o: number,
  price: number,
  qty: number,
  quote: number,
  time: number,
  id: number,
  takerBuy: boolean,
): void {
  if (row[o + COUNT] === 0) {
    row[o + OPEN] = price;
    row[o + HIGH] = price;
    row[o + LOW] = price;
    row[o + FIRST_ID] = id;
  } else {
    if (price > row[o + HIGH]!) row[o + HIGH] = price;
    if (price < row[o + LOW]!) row[o + LOW] = price;
  }
  row[o + CLOSE] = price;
  row[o + COUNT] = row[o + COUNT]! + 1;
  row[o + LAST_ID] = id;
  row[o + LAST_QTY] = qty;
  row[o + LAST_TIME] = time;
  addWide(row, o + VOLUME, qty);
  addWide(row, o + QUOTE_VOLUME, quote);
  if (takerBuy) {
    addWide(row, o + TAKER_BUY_VOLUME, qty);
    addWide(row, o + TAKER_BUY_QUOTE_VOLUME, quote);
  }
}

/** Appends bar `src[s..]` (later in time) to accumulator `dst[d..]`. Leaves OPEN_TIME alone. */
export function mergeBar(dst: Float64Array, d: number, src: Float64Array, s: number): void {
  if (src[s + COUNT] === 0) return;
  if (dst[d + COUNT] === 0) {
    dst[d + OPEN] = src[s + OPEN]!;
    dst[d + HIGH] = src[s + HIGH]!;
    dst[d + LOW] = src[s + LOW]!;
    dst[d + FIRST_ID] = src[s + FIRST_ID]!;
  } else {
    if (src[s + HIGH]! > dst[d + HIGH]!) dst[d + HIGH] = src[s + HIGH]!;
    if (src[s + LOW]! < dst[d + LOW]!) dst[d + LOW] = src[s + LOW]!;
  }
  dst[d + CLOSE] = src[s + CLOSE]!;
  dst[d + COUNT] = dst[d + COUNT]! + src[s + COUNT]!;
  dst[d + LAST_ID] = src[s + LAST_ID]!;
  dst[d + LAST_QTY] = src[s + LAST_QTY]!;
  dst[d + LAST_TIME] = src[s + LAST_TIME]!;
  mergeWide(dst, d + VOLUME, src, s + VOLUME);
  mergeWide(dst, d + QUOTE_VOLUME, src, s + QUOTE_VOLUME);
  mergeWide(dst, d + TAKER_BUY_VOLUME, src, s + TAKER_BUY_VOLUME);
  mergeWide(dst, d + TAKER_BUY_QUOTE_VOLUME, src, s + TAKER_BUY_QUOTE_VOLUME);
}

/** The last trade of a range, as found by `lastTradeBefore` queries. */
export interface LastTrade {
  price: number;
  qty: number;
  time: number;
  id: number;
}

export function lastTradeOf(row: Float64Array, o: number): LastTrade {
  return { price: row[o + CLOSE]!, qty: row[o + LAST_QTY]!, time: row[o + LAST_TIME]!, id: row[o + LAST_ID]! };
}
