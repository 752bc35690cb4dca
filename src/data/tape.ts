/**
 * The market's tape as the rest of exsim sees it: trades (and klines) with amounts as integers
 * in asset units (price = decimal * 10^quotePrecision, qty = decimal * 10^basePrecision, the
 * engine's units) and times in microseconds since the Unix epoch. Loaders produce these from
 * Binance public dumps or the synthetic generator; the market-data history and the replay
 * consume them. Batches are columnar so a month of trades streams without an object per trade.
 */

/** A batch of consecutive trades of one symbol, in time order. Entry i of every column is trade i. */
export interface TradeBatch {
  readonly length: number;
  /** Exchange trade id. */
  readonly id: Float64Array;
  readonly price: Float64Array;
  readonly qty: Float64Array;
  readonly quoteQty: Float64Array;
  /** µs since the epoch. */
  readonly time: Float64Array;
  /** Bit 0: isBuyerMaker; bit 1: isBestMatch. */
  readonly flags: Uint8Array;
}

export const BUYER_MAKER = 1;
export const BEST_MATCH = 2;

/** Rows [lo, hi) of a batch, as views over its columns (the batch itself when that is all of it). */
export function sliceTrades(b: TradeBatch, lo: number, hi: number): TradeBatch {
  if (lo === 0 && hi === b.length) return b;
  return {
    length: hi - lo,
    id: b.id.subarray(lo, hi),
    price: b.price.subarray(lo, hi),
    qty: b.qty.subarray(lo, hi),
    quoteQty: b.quoteQty.subarray(lo, hi),
    time: b.time.subarray(lo, hi),
    flags: b.flags.subarray(lo, hi),
  };
}

/** One trade, for APIs that take trades one at a time (no allocation needed to call them). */
export interface TapeTrade {
  id: number;
  price: number;
  qty: number;
  quoteQty: number;
  time: number;
  isBuyerMaker: boolean;
  isBestMatch: boolean;
}

/** A kline (candlestick), as in the dumps and GET /api/v3/klines, in integer units. */
export interface Kline {
  /** µs */
  openTime: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Base units. */
  volume: number;
  /** µs: openTime + interval - 1 µs. */
  closeTime: number;
  /** Quote units. */
  quoteVolume: number;
  trades: number;
  takerBuyBaseVolume: number;
  takerBuyQuoteVolume: number;
}

/** An aggregate trade (same taker order, same price, same time), as GET /api/v3/aggTrades. */
export interface AggTrade {
  /** Aggregate trade id. */
  a: number;
  /** Price, quote units. */
  p: number;
  /** Quantity, base units. */
  q: number;
  /** First and last trade id. */
  f: number;
  l: number;
  /** µs */
  T: number;
  /** Was the buyer the maker. */
  m: boolean;
  /** Was the trade the best price match. */
  M: boolean;
}

/** Precisions needed to turn a dump's decimal strings into units. */
export interface UnitScale {
  /** Decimals of the quote asset (prices, quote quantities). */
  quotePrecision: number;
  /** Decimals of the base asset (quantities). */
  basePrecision: number;
}

export const KLINE_INTERVALS = ['1s', '1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M'] as const;
export type KlineInterval = (typeof KLINE_INTERVALS)[number];
