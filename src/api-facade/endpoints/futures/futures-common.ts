/**
 * What the futures endpoint rows share: the two venues' path prefixes, contract and pair
 * resolution at simulated now (-1121 for anything not listed then), the weight tables of the
 * spec's futures section, `limit` handling and the wire formats of prices and quantities.
 *
 * Formats: contract prices at the contract's pricePrecision (the spot tick's decimals), mark and
 * index prices at the spot quote precision (8, as the exchange shows them), rates at 8 decimals,
 * USDⓈ-M quantities at the quantityPrecision (the base precision when a print is off the step
 * grid), COIN-M quantities in whole contracts.
 */
import { divRound, formatAmount } from '../../../data/index.ts';
import { formatUnits } from '../../../engine/index.ts';
import { type FuturesContract, type FuturesPair, type Venue, CONTRACT_TYPES } from '../../../futures/index.ts';
import { paramErrors, SYMBOL_PATTERN, defineSchema, type ParamSchema } from '../../params/index.ts';
import { invalidSymbol, OPTIONAL_SYMBOL } from '../common.ts';
import type { HandlerCall } from '../endpoint-row.ts';

export interface VenueApi {
  readonly venue: Venue;
  /** '/fapi' (USDⓈ-M) or '/dapi' (COIN-M). */
  readonly prefix: string;
  /** Word used in summaries. */
  readonly label: string;
}

export const USD_M: VenueApi = { venue: 'USD_M', prefix: '/fapi', label: 'USDⓈ-M' };
export const COIN_M: VenueApi = { venue: 'COIN_M', prefix: '/dapi', label: 'COIN-M' };
export const VENUES: readonly VenueApi[] = [USD_M, COIN_M];

export const PAIR = { name: 'pair', kind: 'STRING', required: true, pattern: SYMBOL_PATTERN } as const;
export const OPTIONAL_PAIR = { name: 'pair', kind: 'STRING', pattern: SYMBOL_PATTERN } as const;
export const CONTRACT_TYPE = { name: 'contractType', kind: 'ENUM', required: true, values: CONTRACT_TYPES } as const;
export const LIMIT = { name: 'limit', kind: 'INT' } as const;
export const START_TIME = { name: 'startTime', kind: 'LONG' } as const;
export const END_TIME = { name: 'endTime', kind: 'LONG' } as const;
export const FROM_ID = { name: 'fromId', kind: 'LONG' } as const;

type TickerParams = readonly [typeof OPTIONAL_SYMBOL, typeof OPTIONAL_PAIR];

/**
 * Ticker parameters: `symbol` optional, plus `pair` on COIN-M only (USDⓈ-M answers -1104 to it).
 * The USDⓈ-M schema is typed as the COIN-M one: its `pair` is optional and simply never parsed.
 */
export function tickerSchema(venue: VenueApi): ParamSchema<TickerParams> {
  return venue.venue === 'COIN_M' ? defineSchema([OPTIONAL_SYMBOL, OPTIONAL_PAIR]) : (defineSchema([OPTIONAL_SYMBOL]) as unknown as ParamSchema<TickerParams>);
}

/** The contract listed as `symbol` at simulated now, or -1121. */
export function contractOf(call: HandlerCall, venue: Venue, symbol: string): FuturesContract {
  const contract = call.ctx.futures.findContract(venue, symbol, call.nowUs);
  if (contract === undefined) throw invalidSymbol();
  return contract;
}

/** A pair of the venue, or -1121. */
export function pairOf(call: HandlerCall, venue: Venue, name: string): FuturesPair {
  const pair = call.ctx.futures.findPair(venue, name);
  if (pair === undefined) throw invalidSymbol();
  return pair;
}

/** One contract (`symbol`), a pair's contracts (`pair`, COIN-M tickers), or every listed contract. */
export function selectContracts(call: HandlerCall, venue: Venue, p: { readonly symbol?: string; readonly pair?: string }): { contracts: FuturesContract[]; single: boolean } {
  if (p.symbol !== undefined) return { contracts: [contractOf(call, venue, p.symbol)], single: true };
  const all = call.ctx.futures.contracts(venue, call.nowUs);
  if (p.pair === undefined) return { contracts: all, single: false };
  const pair = pairOf(call, venue, p.pair);
  return { contracts: all.filter((c) => c.pair === pair), single: false };
}

/** `limit`: the default when absent; a value outside 1..max is -1130 (the futures docs give ranges, not caps). */
export function futuresLimit(limit: number | undefined, fallback: number, max: number): number {
  if (limit === undefined) return fallback;
  if (limit < 1 || limit > max) throw paramErrors.invalidData('limit');
  return limit;
}

export { timeUs } from '../common.ts';

export const DEPTH_LIMITS = [5, 10, 20, 50, 100, 500, 1000] as const;

/** Order book weight by limit (spec): 5/10/20/50 → 2, 100 → 5, 500 → 10, 1000 → 20; default 500. */
export function futuresDepthWeight(limit: number | undefined): number {
  const n = limit ?? 500;
  if (n <= 50) return 2;
  if (n <= 100) return 5;
  if (n <= 500) return 10;
  return 20;
}

/** Kline weight by limit (spec): [1,100) 1, [100,500) 2, [500,1000] 5, above 1000 10; default 500. */
export function futuresKlineWeight(limit: number | undefined): number {
  const n = limit ?? 500;
  if (n < 100) return 1;
  if (n < 500) return 2;
  if (n <= 1000) return 5;
  return 10;
}

/** Weight with and without a symbol. */
export const bySymbol = (withSymbol: number, without: number) => (p: { readonly symbol?: string }) => (p.symbol === undefined ? without : withSymbol);

export function formatPrice(pair: FuturesPair, units: number): string {
  const spot = pair.spot;
  const shift = spot.quotePrecision - pair.pricePrecision;
  return shift > 0 && units % 10 ** shift === 0 ? formatUnits(units / 10 ** shift, pair.pricePrecision) : formatUnits(units, spot.quotePrecision);
}

/** Mark, index and settlement prices: the spot quote precision; "0" formatted when unknown. */
export function formatIndex(pair: FuturesPair, units: number | null): string {
  return formatUnits(units ?? 0, pair.spot.quotePrecision);
}

export function formatQty(pair: FuturesPair, units: number | bigint): string {
  if (pair.venue === 'COIN_M') return String(units);
  const spot = pair.spot;
  const shift = BigInt(spot.basePrecision - pair.quantityPrecision);
  const big = BigInt(units);
  return shift > 0n && big % 10n ** shift === 0n ? formatAmount(big / 10n ** shift, pair.quantityPrecision) : formatAmount(big, spot.basePrecision);
}

/** Base-asset amounts (COIN-M baseQty / baseVolume, USDⓈ-M volumes): the base precision. */
export function formatBase(pair: FuturesPair, units: number | bigint): string {
  return formatAmount(units, pair.spot.basePrecision);
}

/** Quote-asset amounts: the quote precision. */
export function formatQuote(pair: FuturesPair, units: number | bigint): string {
  return formatAmount(units, pair.spot.quotePrecision);
}

/** Rates (premium, funding, basis rate) at 8 decimals. */
export function formatRate(rate: number): string {
  return formatUnits(rate, 8);
}

/** A ratio num/den (den >= 0) at 4 decimals, rounded half away from zero; 0 when den is 0. */
export function formatRatio(num: bigint, den: bigint, decimals = 4): string {
  if (den === 0n) return formatAmount(0n, decimals);
  return formatAmount(divRound(num * 10n ** BigInt(decimals), den), decimals);
}
