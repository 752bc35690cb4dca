/**
 * Open interest and the /futures/data statistics, from the positions model
 * (src/futures/positions.ts) and the spot tape, as of simulated now.
 *
 * One server serves both venues, and the real /futures/data paths are the same on both hosts, so
 * a /futures/data row serves both: `symbol` (USDⓈ-M) or `pair` (COIN-M; with contractType where
 * the COIN-M endpoint takes one) picks the venue; /futures/data/basis takes a pair on both and
 * tells them apart by its name (BTCUSDT: USDⓈ-M, BTCUSD: COIN-M).
 *
 * Rows: one per period boundary T (period 5m, 15m, 30m, 1h, 2h, 4h, 6h, 12h, 1d), a snapshot as of
 * T (taker volumes: the period ending at T), using nothing stamped after T; only the last 30 days
 * and times from the first print on. startTime/endTime bound T; with startTime the oldest `limit`
 * rows, otherwise the newest up to endTime; ascending. limit default 30, max 500.
 * Ratios, basis rates: 4 decimals. Weight 1 each (the docs give none).
 */
import { type HistoryKline, formatAmount } from '../../../data/index.ts';
import { type ContractType, type FuturesContract, type FuturesPair, type RatioKind, type Venue, baseForContracts, contractsFor, futuresParameters, rateBetween, roundToTick } from '../../../futures/index.ts';
import { eitherRequired, exclusive, notAllowedWhen, requiredWhen, defineSchema, SYMBOL_PATTERN } from '../../params/index.ts';
import { apiTime } from '../../serialize/index.ts';
import { OPTIONAL_SYMBOL, SYMBOL } from '../common.ts';
import { defineEndpoint, type Endpoint, type HandlerCall } from '../endpoint-row.ts';
import { contractOf, END_TIME, formatBase, formatIndex, formatPrice, formatQty, formatQuote, formatRatio, LIMIT, futuresLimit, OPTIONAL_PAIR, PAIR, pairOf, START_TIME, timeUs, type VenueApi } from './futures-common.ts';
import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE } from '../../../clock/index.ts';

const PERIODS = ['5m', '15m', '30m', '1h', '2h', '4h', '6h', '12h', '1d'] as const;
type Period = (typeof PERIODS)[number];
const PERIOD_US: Record<Period, number> = {
  '5m': 5 * MICROS_PER_MINUTE,
  '15m': 15 * MICROS_PER_MINUTE,
  '30m': 30 * MICROS_PER_MINUTE,
  '1h': MICROS_PER_HOUR,
  '2h': 2 * MICROS_PER_HOUR,
  '4h': 4 * MICROS_PER_HOUR,
  '6h': 6 * MICROS_PER_HOUR,
  '12h': 12 * MICROS_PER_HOUR,
  '1d': MICROS_PER_DAY,
};
const PERIOD = { name: 'period', kind: 'ENUM', required: true, values: PERIODS } as const;
const STAT_CONTRACT_TYPE = { name: 'contractType', kind: 'ENUM', values: ['ALL', 'CURRENT_QUARTER', 'NEXT_QUARTER', 'PERPETUAL'] } as const;
const RANGE = [LIMIT, START_TIME, END_TIME] as const;
const YEAR_US = futuresParameters.YEAR_SECONDS * 1_000_000;

interface StatQuery {
  readonly period: Period;
  readonly limit?: number;
  readonly startTime?: number;
  readonly endTime?: number;
}

/** The period boundaries a statistics query selects (see the header). */
function statTimes(call: HandlerCall, pair: FuturesPair, p: StatQuery): number[] {
  const len = PERIOD_US[p.period];
  const limit = futuresLimit(p.limit, 30, 500);
  const first = call.ctx.futures.history(pair).firstTradeTime;
  if (first === null || first > call.nowUs) return [];
  const oldest = Math.max(first, call.nowUs - futuresParameters.STATISTICS_RETENTION_US, p.startTime === undefined ? 0 : timeUs(p.startTime));
  const newest = Math.min(call.nowUs, p.endTime === undefined ? Infinity : timeUs(p.endTime));
  const from = Math.ceil(oldest / len) * len;
  const to = Math.floor(newest / len) * len;
  if (to < from) return [];
  const count = Math.min(limit, Math.floor((to - from) / len) + 1);
  const start = p.startTime !== undefined ? from : to - (count - 1) * len;
  return Array.from({ length: count }, (_, i) => start + i * len);
}

/** The venue a /futures/data request names: symbol → USDⓈ-M, pair → COIN-M. */
function statTarget(call: HandlerCall, p: { readonly symbol?: string; readonly pair?: string }): { venue: Venue; pair: FuturesPair; contract?: FuturesContract } {
  if (p.symbol !== undefined) {
    const contract = contractOf(call, 'USD_M', p.symbol);
    return { venue: 'USD_M', pair: contract.pair, contract };
  }
  return { venue: 'COIN_M', pair: pairOf(call, 'COIN_M', p.pair ?? '') };
}

const SYMBOL_OR_PAIR = [OPTIONAL_SYMBOL, OPTIONAL_PAIR] as const;
const SYMBOL_OR_PAIR_RULES = [exclusive('symbol', 'pair'), eitherRequired('symbol', 'pair')];

export function openInterest(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/openInterest`,
    security: 'NONE',
    weight: 1,
    schema: defineSchema([SYMBOL]),
    summary: `${venue.label} futures open interest of a contract now`,
    handler: (p, call) => {
      const c = contractOf(call, venue.venue, p.symbol);
      const oi = call.ctx.positions.openInterest(c, call.nowUs);
      const time = apiTime(call.nowUs, call.unit);
      if (venue.venue === 'COIN_M') return { symbol: c.symbol, pair: c.pair.pair, openInterest: String(oi), contractType: c.contractType, time };
      return { openInterest: formatQty(c.pair, oi), symbol: c.symbol, time };
    },
  });
}

export const openInterestHist = defineEndpoint({
  method: 'GET',
  path: '/futures/data/openInterestHist',
  security: 'NONE',
  weight: 1,
  schema: defineSchema([...SYMBOL_OR_PAIR, STAT_CONTRACT_TYPE, PERIOD, ...RANGE], [
    ...SYMBOL_OR_PAIR_RULES,
    requiredWhen('contractType', (v) => v['pair'] !== undefined),
    notAllowedWhen('contractType', (v) => v['symbol'] !== undefined),
  ]),
  summary: 'Open interest statistics: symbol (USDⓈ-M) or pair + contractType (COIN-M)',
  handler: (p, call) => {
    const target = statTarget(call, p);
    const market = call.ctx.futures;
    const positions = call.ctx.positions;
    return statTimes(call, target.pair, p).map((t) => {
      const index = market.indexPrice(target.pair, t) ?? 0;
      const timestamp = apiTime(t, call.unit);
      if (target.contract !== undefined) {
        const pair = target.pair;
        const oi = positions.openInterest(target.contract, t);
        const value = (oi * BigInt(index)) / 10n ** BigInt(pair.spot.basePrecision);
        return { symbol: target.contract.symbol, sumOpenInterest: formatQty(pair, oi), sumOpenInterestValue: formatQuote(pair, value), CMCCirculatingSupply: String(positions.circulatingSupply(pair)), timestamp };
      }
      const contractType = p.contractType ?? 'ALL';
      const contracts = positions.pairOpenInterest(target.pair, contractType, t);
      const anyContract = market.contract(target.pair, 'PERPETUAL', t);
      return { pair: target.pair.pair, contractType, sumOpenInterest: String(contracts), sumOpenInterestValue: formatBase(target.pair, baseForContracts(anyContract, contracts, index)), timestamp };
    });
  },
});

function ratioEndpoint(path: string, kind: RatioKind, security: 'NONE' | 'MARKET_DATA', summary: string): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path,
    security,
    weight: 1,
    schema: defineSchema([...SYMBOL_OR_PAIR, PERIOD, ...RANGE], SYMBOL_OR_PAIR_RULES),
    summary,
    handler: (p, call) => {
      const target = statTarget(call, p);
      return statTimes(call, target.pair, p).map((t) => {
        const long = call.ctx.positions.longShare(target.pair, kind, t);
        const short = futuresParameters.RATIO_SCALE - long;
        const head = target.venue === 'USD_M' ? { symbol: p.symbol } : { pair: target.pair.pair };
        const ratio = formatRatio(BigInt(long), BigInt(short));
        const longText = formatAmount(long, 4);
        const shortText = formatAmount(short, 4);
        const shares = kind === 'topPosition' && target.venue === 'COIN_M' ? { longPosition: longText, shortPosition: shortText } : { longAccount: longText, shortAccount: shortText };
        return { ...head, longShortRatio: ratio, ...shares, timestamp: apiTime(t, call.unit) };
      });
    },
  });
}

export const globalLongShortAccountRatio = ratioEndpoint('/futures/data/globalLongShortAccountRatio', 'global', 'NONE', 'Long/short account ratio of all accounts');
export const topLongShortAccountRatio = ratioEndpoint('/futures/data/topLongShortAccountRatio', 'topAccount', 'MARKET_DATA', 'Long/short account ratio of the top 20 % of traders');
export const topLongShortPositionRatio = ratioEndpoint('/futures/data/topLongShortPositionRatio', 'topPosition', 'MARKET_DATA', 'Long/short position ratio of the top 20 % of traders');

/** The spot bar of the period ending at t (the taker volumes of that period). */
function periodBar(call: HandlerCall, pair: FuturesPair, period: Period, t: number): HistoryKline | undefined {
  const len = PERIOD_US[period];
  return call.ctx.futures.history(pair).klines(t, { interval: period, startTime: t - len, endTime: t - len, limit: 1 })[0];
}

export const takerLongShortRatio = defineEndpoint({
  method: 'GET',
  path: '/futures/data/takerlongshortRatio',
  security: 'NONE',
  weight: 1,
  schema: defineSchema([SYMBOL, PERIOD, ...RANGE]),
  summary: 'USDⓈ-M taker buy/sell volume of each period',
  handler: (p, call) => {
    const c = contractOf(call, 'USD_M', p.symbol);
    return statTimes(call, c.pair, p).map((t) => {
      const bar = periodBar(call, c.pair, p.period, t);
      const buy = bar?.exact.takerBuyBaseVolume ?? 0n;
      const sell = (bar?.exact.volume ?? 0n) - buy;
      return { buySellRatio: formatRatio(buy, sell), buyVol: formatQty(c.pair, buy), sellVol: formatQty(c.pair, sell), timestamp: apiTime(t, call.unit) };
    });
  },
});

export const takerBuySellVol = defineEndpoint({
  method: 'GET',
  path: '/futures/data/takerBuySellVol',
  security: 'NONE',
  weight: 1,
  schema: defineSchema([PAIR, { ...STAT_CONTRACT_TYPE, required: true }, PERIOD, ...RANGE]),
  summary: 'COIN-M taker buy/sell volume of each period, in contracts and base asset',
  handler: (p, call) => {
    const pair = pairOf(call, 'COIN_M', p.pair);
    return statTimes(call, pair, p).map((t) => {
      const bar = periodBar(call, pair, p.period, t);
      const c = call.ctx.futures.contract(pair, 'PERPETUAL', t);
      const buyBase = bar?.exact.takerBuyBaseVolume ?? 0n;
      const buyQuote = bar?.exact.takerBuyQuoteVolume ?? 0n;
      const sellQuote = (bar?.exact.quoteVolume ?? 0n) - buyQuote;
      return {
        pair: pair.pair,
        contractType: p.contractType,
        takerBuyVol: String(contractsFor(c, buyQuote)),
        takerSellVol: String(contractsFor(c, sellQuote)),
        takerBuyVolValue: formatBase(pair, buyBase),
        takerSellVolValue: formatBase(pair, (bar?.exact.volume ?? 0n) - buyBase),
        timestamp: apiTime(t, call.unit),
      };
    });
  },
});

export const basis = defineEndpoint({
  method: 'GET',
  path: '/futures/data/basis',
  security: 'NONE',
  weight: 1,
  schema: defineSchema([{ name: 'pair', kind: 'STRING', required: true, pattern: SYMBOL_PATTERN }, { name: 'contractType', kind: 'ENUM', required: true, values: ['CURRENT_QUARTER', 'NEXT_QUARTER', 'PERPETUAL'] }, PERIOD, ...RANGE]),
  summary: 'Basis of a pair’s contract against its index (USDⓈ-M or COIN-M pair)',
  handler: (p, call) => {
    const market = call.ctx.futures;
    const pair = market.findPair('USD_M', p.pair) ?? pairOf(call, 'COIN_M', p.pair);
    const type: ContractType = p.contractType;
    return statTimes(call, pair, p).flatMap((t) => {
      const index = market.indexPrice(pair, t);
      if (index === null) return [];
      const c = market.contract(pair, type, t);
      const futures = roundToTick(market.markPrice(c, t) ?? index, pair.spot.tickUnits);
      const rate = rateBetween(futures, index);
      const annualized = c.deliveryTime === null || c.deliveryTime <= t ? '' : formatRatio(BigInt(rate) * BigInt(YEAR_US), BigInt(c.deliveryTime - t) * 100_000_000n);
      return [{
        indexPrice: formatIndex(pair, index),
        contractType: type,
        basisRate: formatRatio(BigInt(rate), 100_000_000n),
        futuresPrice: formatPrice(pair, futures),
        annualizedBasisRate: annualized,
        basis: formatIndex(pair, futures - index),
        pair: pair.pair,
        timestamp: apiTime(t, call.unit),
      }];
    });
  },
});
