/**
 * Futures klines of every kind, from the underlying spot bars as of simulated now:
 * - klines (symbol) and continuousKlines (pair + contractType: each bar from the contract of that
 *   type at the bar's open, so quarterlies roll): the spot bar through the contract's premium
 *   (src/futures/futures-prints.ts: open and close at their instants' premium, high and low the
 *   envelope), volumes of the spot bar (COIN-M: volume and taker buy volume in contracts, base
 *   volumes at positions 7 and 10);
 * - indexPriceKlines (pair): the spot bars' prices, which are the index;
 * - markPriceKlines (symbol): the spot bar × (1 + premium) without tick rounding; a perpetual with
 *   recorded marks (FuturesMarket `marks`) shows the recorded mark's bar up to now instead, where
 *   every minute of the bar has one;
 * - premiumIndexKlines (symbol): the premium rate's open, high, low and close over the bar.
 * Index, mark and premium rows carry "0" in the volume positions (the docs mark them ignored) and
 * the bar's number of spot prints (index, mark) or of minute premium samples (premium) as count.
 *
 * Parameters: interval (1m .. 1M; no 1s on futures; else -1120), startTime, endTime, limit
 * (default 500, max 1500; else -1130). Weight by limit: [1,100) 1, [100,500) 2, [500,1000] 5,
 * above 10. `klines` of a perpetual the engine trades are its margin symbol's own bars
 * (traded-perpetual.ts); the other kinds stay derived.
 */
import { MICROS_PER_MINUTE } from '../../../clock/index.ts';
import { type HistoryKline, type MarketHistory, KLINE_INTERVALS, type KlineInterval } from '../../../data/index.ts';
import { type ContractType, type FuturesContract, type FuturesKline, type FuturesPair, contractKline, transformKline } from '../../../futures/index.ts';
import { ENUM_ERRORS, defineSchema } from '../../params/index.ts';
import { apiTime } from '../../serialize/index.ts';
import { SYMBOL } from '../common.ts';
import { defineEndpoint, type Endpoint, type HandlerCall } from '../endpoint-row.ts';
import { engineKlineRow, tradedPerpetual } from './traded-perpetual.ts';
import { CONTRACT_TYPE, contractOf, END_TIME, formatBase, formatIndex, formatPrice, formatQty, formatQuote, formatRate, futuresKlineWeight, LIMIT, futuresLimit, PAIR, pairOf, START_TIME, timeUs, type VenueApi } from './futures-common.ts';

export const FUTURES_KLINE_INTERVALS = KLINE_INTERVALS.filter((i) => i !== '1s') as Exclude<KlineInterval, '1s'>[];
const INTERVAL = { name: 'interval', kind: 'ENUM', required: true, values: FUTURES_KLINE_INTERVALS, invalid: ENUM_ERRORS.interval } as const;
const RANGE = [START_TIME, END_TIME, LIMIT] as const;
const HISTORY_MAX = 1000;

interface BarQuery {
  readonly interval: KlineInterval;
  readonly startTime?: number;
  readonly endTime?: number;
  readonly limit?: number;
}

/** Up to 1500 spot bars by the klines selection rules (two history reads past 1000). */
function spotBars(history: MarketHistory, asOf: number, p: BarQuery): HistoryKline[] {
  const limit = futuresLimit(p.limit, 500, 1500);
  const start = p.startTime === undefined ? undefined : timeUs(p.startTime);
  const end = p.endTime === undefined ? undefined : timeUs(p.endTime);
  const read = (q: { startTime?: number | undefined; endTime?: number | undefined; limit: number }) =>
    history.klines(asOf, {
      interval: p.interval,
      limit: q.limit,
      ...(q.startTime === undefined ? {} : { startTime: q.startTime }),
      ...(q.endTime === undefined ? {} : { endTime: q.endTime }),
    });
  const first = read({ startTime: start, endTime: end, limit: Math.min(limit, HISTORY_MAX) });
  if (limit <= HISTORY_MAX || first.length < HISTORY_MAX) return first;
  if (start !== undefined) return [...first, ...read({ startTime: first[first.length - 1]!.openTime + 1, endTime: end, limit: limit - HISTORY_MAX })];
  return [...read({ endTime: first[0]!.openTime - 1, limit: limit - HISTORY_MAX }), ...first];
}

function contractRow(call: HandlerCall, pair: FuturesPair, k: FuturesKline): unknown[] {
  const head = [apiTime(k.openTime, call.unit), formatPrice(pair, k.open), formatPrice(pair, k.high), formatPrice(pair, k.low), formatPrice(pair, k.close)];
  const closeTime = apiTime(k.closeTime, call.unit);
  if (pair.venue === 'COIN_M') {
    const contracts = k.contracts ?? { volume: 0n, takerBuyVolume: 0n };
    return [...head, String(contracts.volume), closeTime, formatBase(pair, k.exact.volume), k.trades, String(contracts.takerBuyVolume), formatBase(pair, k.exact.takerBuyBaseVolume), '0'];
  }
  return [...head, formatQty(pair, k.exact.volume), closeTime, formatQuote(pair, k.exact.quoteVolume), k.trades, formatQty(pair, k.exact.takerBuyBaseVolume), formatQuote(pair, k.exact.takerBuyQuoteVolume), '0'];
}

/** A price-only row (index, mark, premium): volume positions "0". */
function priceRow(call: HandlerCall, k: HistoryKline, values: readonly [string, string, string, string], count: number): unknown[] {
  return [apiTime(k.openTime, call.unit), ...values, '0', apiTime(k.closeTime, call.unit), '0', count, '0', '0', '0'];
}

function klinesOf(call: HandlerCall, c: FuturesContract, p: BarQuery): unknown[][] {
  const traded = tradedPerpetual(call, c);
  if (traded !== undefined) return spotBars(call.ctx.backend.history(traded.symbol), call.nowUs, p).map((bar) => engineKlineRow(call, traded, bar));
  return spotBars(call.ctx.futures.history(c.pair), call.nowUs, p).map((bar) => contractRow(call, c.pair, contractKline(call.ctx.futures, c, bar, call.nowUs)));
}

export function klines(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/klines`,
    security: 'NONE',
    weight: (p) => futuresKlineWeight(p.limit),
    schema: defineSchema([SYMBOL, INTERVAL, ...RANGE]),
    summary: `${venue.label} futures klines of a contract: limit default 500, max 1500`,
    handler: (p, call) => klinesOf(call, contractOf(call, venue.venue, p.symbol), p),
  });
}

export function continuousKlines(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/continuousKlines`,
    security: 'NONE',
    weight: (p) => futuresKlineWeight(p.limit),
    schema: defineSchema([PAIR, CONTRACT_TYPE, INTERVAL, ...RANGE]),
    summary: `${venue.label} futures continuous contract klines (pair, contractType)`,
    handler: (p, call) => {
      const pair = pairOf(call, venue.venue, p.pair);
      const type: ContractType = p.contractType;
      return spotBars(call.ctx.futures.history(pair), call.nowUs, p).map((bar) => {
        const c = call.ctx.futures.contract(pair, type, bar.openTime);
        return contractRow(call, pair, contractKline(call.ctx.futures, c, bar, call.nowUs));
      });
    },
  });
}

export function indexPriceKlines(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/indexPriceKlines`,
    security: 'NONE',
    weight: (p) => futuresKlineWeight(p.limit),
    schema: defineSchema([PAIR, INTERVAL, ...RANGE]),
    summary: `${venue.label} futures index price klines (pair)`,
    handler: (p, call) => {
      const pair = pairOf(call, venue.venue, p.pair);
      return spotBars(call.ctx.futures.history(pair), call.nowUs, p).map((k) =>
        priceRow(call, k, [formatIndex(pair, k.open), formatIndex(pair, k.high), formatIndex(pair, k.low), formatIndex(pair, k.close)], k.trades),
      );
    },
  });
}

export function markPriceKlines(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/markPriceKlines`,
    security: 'NONE',
    weight: (p) => futuresKlineWeight(p.limit),
    schema: defineSchema([SYMBOL, INTERVAL, ...RANGE]),
    summary: `${venue.label} futures mark price klines (symbol)`,
    handler: (p, call) => {
      const c = contractOf(call, venue.venue, p.symbol);
      const model = call.ctx.futures.premium(c);
      return spotBars(call.ctx.futures.history(c.pair), call.nowUs, p).map((bar) => {
        // A perpetual with recorded marks (the data folder's markPriceKlines): the recorded path's bar.
        const k = call.ctx.futures.recordedMarkBar(c, bar.openTime, Math.min(bar.closeTime, call.nowUs)) ?? transformKline(bar, call.nowUs, (t) => model.at(t), (a, b) => model.range(a, b), 1);
        return priceRow(call, bar, [formatIndex(c.pair, k.open), formatIndex(c.pair, k.high), formatIndex(c.pair, k.low), formatIndex(c.pair, k.close)], bar.trades);
      });
    },
  });
}

export function premiumIndexKlines(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/premiumIndexKlines`,
    security: 'NONE',
    weight: (p) => futuresKlineWeight(p.limit),
    schema: defineSchema([SYMBOL, INTERVAL, ...RANGE]),
    summary: `${venue.label} futures premium index klines (symbol)`,
    handler: (p, call) => {
      const c = contractOf(call, venue.venue, p.symbol);
      const model = call.ctx.futures.premium(c);
      return spotBars(call.ctx.futures.history(c.pair), call.nowUs, p).map((bar) => {
        const last = Math.min(bar.closeTime, call.nowUs);
        const { min, max } = model.range(bar.openTime, last);
        const samples = Math.floor((last - bar.openTime) / MICROS_PER_MINUTE) + 1;
        return priceRow(call, bar, [formatRate(model.at(bar.openTime)), formatRate(max), formatRate(min), formatRate(model.at(last))], samples);
      });
    },
  });
}
