/**
 * Which futures contracts exist, derived from the spot market: every spot symbol quoted in a
 * USD stablecoin (USD_QUOTES) is the underlying of
 * - a USDⓈ-M pair named like the spot symbol (BTCUSDT), margined and quoted in that stablecoin,
 *   with a PERPETUAL (BTCUSDT) and two quarterlies (BTCUSDT_<yymmdd>);
 * - a COIN-M pair <base>USD (BTCUSD), margined in the base asset, quoted in USD with contracts of
 *   100 USD (BTC) or 10 USD (others), PERPETUAL BTCUSD_PERP and two quarterlies BTCUSD_<yymmdd>.
 *   When several stablecoins quote the same base, the first spot symbol in config order is used;
 *   USD stablecoins count as 1 USD.
 *
 * Quarterlies roll on simulated time: at t the CURRENT_QUARTER is the first delivery after t and
 * the NEXT_QUARTER the one after (quarter-calendar.ts); a quarterly is listed (onboardDate) at the
 * delivery two quarters before its own. A perpetual is listed from its underlying's first print.
 * Price and quantity grids are the spot symbol's (tick and step), so a futures print keeps the
 * spot print's quantity exactly.
 */
import { type SymbolSpec, formatUnits } from '../engine/index.ts';
import { deliveryAfter, deliveryBefore, deliverySuffix } from './quarter-calendar.ts';

/** Quote assets valued at 1 USD. */
export const USD_QUOTES: readonly string[] = ['USDT', 'USDC', 'FDUSD', 'BUSD'];

export type Venue = 'USD_M' | 'COIN_M';
export type ContractType = 'PERPETUAL' | 'CURRENT_QUARTER' | 'NEXT_QUARTER';
export const CONTRACT_TYPES: readonly ContractType[] = ['PERPETUAL', 'CURRENT_QUARTER', 'NEXT_QUARTER'];

/** One pair of a venue: its name, the spot symbol behind its index, and its contract terms. */
export interface FuturesPair {
  readonly venue: Venue;
  /** BTCUSDT (USDⓈ-M) or BTCUSD (COIN-M). */
  readonly pair: string;
  readonly spot: SymbolSpec;
  readonly baseAsset: string;
  /** USDT (USDⓈ-M) or USD (COIN-M). */
  readonly quoteAsset: string;
  /** The quote stablecoin (USDⓈ-M) or the base asset (COIN-M). */
  readonly marginAsset: string;
  /** USD per contract (COIN-M); 0 on USDⓈ-M, where quantities are in the base asset. */
  readonly contractSize: number;
  /** Decimals of the tick and of the step (the spot symbol's grid). */
  readonly pricePrecision: number;
  readonly quantityPrecision: number;
}

export interface FuturesContract {
  readonly pair: FuturesPair;
  readonly symbol: string;
  readonly contractType: ContractType;
  /** µs; null for perpetuals. */
  readonly deliveryTime: number | null;
  /** µs the contract was listed. */
  readonly onboardTime: number;
  /** Names the contract's own seeded streams; stable while a quarterly rolls from NEXT to CURRENT. */
  readonly streamKey: string;
}

function decimalsOf(units: number, precision: number): number {
  const text = formatUnits(units, precision);
  const fraction = text.includes('.') ? text.slice(text.indexOf('.') + 1).replace(/0+$/, '') : '';
  return fraction.length;
}

/** The pairs of both venues for a spot market, in spot config order. */
export function derivePairs(specs: readonly SymbolSpec[]): FuturesPair[] {
  const usdM: FuturesPair[] = [];
  const coinM: FuturesPair[] = [];
  const coinBases = new Set<string>();
  for (const spot of specs) {
    if (!USD_QUOTES.includes(spot.quoteAsset)) continue;
    const grid = { pricePrecision: decimalsOf(spot.tickUnits, spot.quotePrecision), quantityPrecision: decimalsOf(spot.stepUnits, spot.basePrecision) };
    usdM.push({ venue: 'USD_M', pair: spot.symbol, spot, baseAsset: spot.baseAsset, quoteAsset: spot.quoteAsset, marginAsset: spot.quoteAsset, contractSize: 0, ...grid });
    if (coinBases.has(spot.baseAsset)) continue;
    coinBases.add(spot.baseAsset);
    const contractSize = spot.baseAsset === 'BTC' ? 100 : 10;
    coinM.push({ venue: 'COIN_M', pair: `${spot.baseAsset}USD`, spot, baseAsset: spot.baseAsset, quoteAsset: 'USD', marginAsset: spot.baseAsset, contractSize, ...grid, quantityPrecision: 0 });
  }
  return [...usdM, ...coinM];
}

/** The contract of `pair` of a type at time t (quarterlies by the calendar). */
export function contractAt(pair: FuturesPair, contractType: ContractType, t: number, perpetualOnboard: number): FuturesContract {
  if (contractType === 'PERPETUAL') {
    const symbol = pair.venue === 'USD_M' ? pair.pair : `${pair.pair}_PERP`;
    return { pair, symbol, contractType, deliveryTime: null, onboardTime: perpetualOnboard, streamKey: `${pair.venue}/${symbol}` };
  }
  const delivery = deliveryAfter(t, contractType === 'CURRENT_QUARTER' ? 0 : 1);
  return quarterly(pair, contractType, delivery);
}

/** The quarterly of `pair` delivering at `delivery`, seen as `contractType`. */
export function quarterly(pair: FuturesPair, contractType: ContractType, delivery: number): FuturesContract {
  const symbol = `${pair.pair}_${deliverySuffix(delivery)}`;
  return { pair, symbol, contractType, deliveryTime: delivery, onboardTime: deliveryBefore(delivery, 2), streamKey: `${pair.venue}/${symbol}` };
}
