/**
 * A contract's prints, klines and tickers, derived from its underlying spot tape:
 *
 * - Each spot print is a print of every contract of the pair, same id, time, side and base
 *   quantity, at price × (1 + premium at the print's time) rounded half up to the tick. COIN-M
 *   quantities are contracts: the print's notional / contract size rounded UP to a whole contract
 *   (a print smaller than one contract still traded one), baseQty = contracts × size / price.
 * - Klines (and the 24 h ticker's prices) transform the spot bar: open at the premium of the
 *   bar's open, close at the premium of its last instant (min(close time, asOf)); high and low are
 *   the envelope high × (1 + max premium over the bar) / low × (1 + min premium), so every print
 *   of the bar lies inside them. Volumes are the spot bar's; quote volumes scale by the close
 *   premium (an approximation: the exact sum would need every print).
 */
import type { HistoryKline, AggTrade, TapeTrade } from '../data/index.ts';
import type { FuturesContract } from './contracts.ts';
import type { FuturesMarket } from './futures-market.ts';
import { applyRate, ceilDiv, roundToTick } from './price-math.ts';

export interface FuturesPrint {
  readonly id: number;
  /** Price units (the spot symbol's quote precision), on the tick. */
  readonly price: number;
  /** USDⓈ-M: base units; COIN-M: contracts. */
  readonly qty: number;
  /** USDⓈ-M: quote units of price × qty. COIN-M: base units of the contracts' value. */
  readonly value: bigint;
  readonly time: number;
  readonly isBuyerMaker: boolean;
}

export interface FuturesAggTrade extends Omit<AggTrade, 'q'> {
  /** USDⓈ-M: base units; COIN-M: contracts. */
  readonly q: number;
}

export interface FuturesKline extends HistoryKline {
  /** COIN-M: volume and taker buy volume in contracts; undefined on USDⓈ-M. */
  readonly contracts?: { readonly volume: bigint; readonly takerBuyVolume: bigint };
}

/** The contract's price of a spot price at t. */
export function contractPrice(market: FuturesMarket, contract: FuturesContract, spotPrice: number, t: number): number {
  return roundToTick(applyRate(spotPrice, market.premium(contract).at(t)), contract.pair.spot.tickUnits);
}

/** Whole contracts for a notional in quote units (rounded up, at least 1 for a non-zero notional). */
export function contractsFor(contract: FuturesContract, quoteUnits: bigint): bigint {
  const size = BigInt(contract.pair.contractSize) * 10n ** BigInt(contract.pair.spot.quotePrecision);
  return ceilDiv(quoteUnits, size);
}

/** Base units worth `contracts` at `price`. */
export function baseForContracts(contract: FuturesContract, contracts: bigint, price: number): bigint {
  if (price === 0) return 0n;
  const spot = contract.pair.spot;
  return (contracts * BigInt(contract.pair.contractSize) * 10n ** BigInt(spot.quotePrecision + spot.basePrecision)) / BigInt(price);
}

function quoteOf(contract: FuturesContract, price: number, qty: number): bigint {
  return (BigInt(price) * BigInt(qty)) / 10n ** BigInt(contract.pair.spot.basePrecision);
}

export function toPrint(market: FuturesMarket, contract: FuturesContract, trade: TapeTrade): FuturesPrint {
  const price = contractPrice(market, contract, trade.price, trade.time);
  const quote = quoteOf(contract, price, trade.qty);
  if (contract.pair.venue === 'USD_M') return { id: trade.id, price, qty: trade.qty, value: quote, time: trade.time, isBuyerMaker: trade.isBuyerMaker };
  const contracts = contractsFor(contract, quote);
  return { id: trade.id, price, qty: Number(contracts), value: baseForContracts(contract, contracts, price), time: trade.time, isBuyerMaker: trade.isBuyerMaker };
}

export function toAggTrade(market: FuturesMarket, contract: FuturesContract, agg: AggTrade): FuturesAggTrade {
  const p = contractPrice(market, contract, agg.p, agg.T);
  const q = contract.pair.venue === 'USD_M' ? agg.q : Number(contractsFor(contract, quoteOf(contract, p, agg.q)));
  return { ...agg, p, q };
}

/**
 * A spot bar seen through a premium: `premiumOf(t)` and `rangeOf(from, to)` give the rate at t
 * and its extremes over the bar (see the header for the envelope rule).
 */
export function transformKline(
  bar: HistoryKline,
  asOf: number,
  premiumAt: (t: number) => number,
  premiumRange: (from: number, to: number) => { min: number; max: number },
  tick: number,
): HistoryKline {
  const last = Math.min(bar.closeTime, asOf);
  const pOpen = premiumAt(bar.openTime);
  const pClose = premiumAt(last);
  const { min, max } = premiumRange(bar.openTime, last);
  const open = roundToTick(applyRate(bar.open, pOpen), tick);
  const close = roundToTick(applyRate(bar.close, pClose), tick);
  const high = Math.max(open, close, roundToTick(applyRate(bar.high, max), tick, 'up'));
  const low = Math.min(open, close, roundToTick(applyRate(bar.low, min), tick, 'down'));
  const scaleQuote = (v: bigint) => BigInt(applyRate(Number(v), pClose));
  const exact = {
    volume: bar.exact.volume,
    quoteVolume: safeScale(bar.exact.quoteVolume, pClose, scaleQuote),
    takerBuyBaseVolume: bar.exact.takerBuyBaseVolume,
    takerBuyQuoteVolume: safeScale(bar.exact.takerBuyQuoteVolume, pClose, scaleQuote),
  };
  return { ...bar, open, high, low, close, quoteVolume: Number(exact.quoteVolume), takerBuyQuoteVolume: Number(exact.takerBuyQuoteVolume), exact };
}

/** Scales a wide amount by (1 + rate) exactly in BigInt when it exceeds 2^53. */
function safeScale(v: bigint, rate: number, small: (v: bigint) => bigint): bigint {
  if (v <= BigInt(Number.MAX_SAFE_INTEGER)) return small(v);
  return v + (v * BigInt(rate)) / 100_000_000n;
}

/** The contract's kline of a spot bar; COIN-M bars also carry their volumes in contracts. */
export function contractKline(market: FuturesMarket, contract: FuturesContract, bar: HistoryKline, asOf: number): FuturesKline {
  const model = market.premium(contract);
  const k = transformKline(bar, asOf, (t) => model.at(t), (a, b) => model.range(a, b), contract.pair.spot.tickUnits);
  if (contract.pair.venue === 'USD_M') return k;
  return { ...k, contracts: { volume: contractsFor(contract, k.exact.quoteVolume), takerBuyVolume: contractsFor(contract, k.exact.takerBuyQuoteVolume) } };
}
