/**
 * Futures trades: recent trades, old trades lookup (MARKET_DATA) and aggregate trades, derived
 * print by print from the underlying spot tape as of simulated now (src/futures/futures-prints.ts:
 * same ids, times, sides and base quantities; prices through the contract's premium; COIN-M
 * quantities in contracts).
 *
 * Rules (futures docs): trades limit default 500, max 1000, weight 5; historicalTrades limit
 * default 100, max 500, weight 200, only the last month of trades (a fromId older than that starts
 * at the month's first trade); aggTrades limit default 500, max 1000, weight 20, only the last 48
 * hours (older rows are not served), startTime..endTime at most 1 hour (-1127). No RPI orders
 * exist in the simulation: isRPITrade is false and nq equals q. A perpetual the engine trades
 * answers from its margin symbol's own prints (traded-perpetual.ts), historicalTrades included.
 */
import { MICROS_PER_DAY, MICROS_PER_HOUR } from '../../../clock/index.ts';
import type { TapeTrade } from '../../../data/index.ts';
import { type FuturesContract, toAggTrade, toPrint } from '../../../futures/index.ts';
import { defineSchema } from '../../params/index.ts';
import { apiTime } from '../../serialize/index.ts';
import { spanTooLong, SYMBOL } from '../common.ts';
import { defineEndpoint, type Endpoint, type HandlerCall } from '../endpoint-row.ts';
import { engineAggTradeJson, engineTradeJson, tradedPerpetual } from './traded-perpetual.ts';
import { contractOf, END_TIME, formatBase, formatPrice, formatQty, formatQuote, FROM_ID, LIMIT, futuresLimit, START_TIME, timeUs, type VenueApi } from './futures-common.ts';

const OLD_TRADES_LOOKBACK_US = 30 * MICROS_PER_DAY;
const AGG_TRADES_LOOKBACK_US = 48 * MICROS_PER_HOUR;
const AGG_TRADES_MAX_SPAN_US = MICROS_PER_HOUR;

function tradeJson(call: HandlerCall, c: FuturesContract, t: TapeTrade): Record<string, unknown> {
  const print = toPrint(call.ctx.futures, c, t);
  const pair = c.pair;
  const price = formatPrice(pair, print.price);
  const time = apiTime(print.time, call.unit);
  if (pair.venue === 'COIN_M') {
    return { id: print.id, price, qty: formatQty(pair, print.qty), baseQty: formatBase(pair, print.value), time, isBuyerMaker: print.isBuyerMaker };
  }
  return { id: print.id, price, qty: formatQty(pair, print.qty), quoteQty: formatQuote(pair, print.value), time, isBuyerMaker: print.isBuyerMaker, isRPITrade: false };
}

export function trades(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/trades`,
    security: 'NONE',
    weight: 5,
    schema: defineSchema([SYMBOL, LIMIT]),
    summary: `${venue.label} futures recent trades: limit default 500, max 1000`,
    handler: (p, call) => {
      const c = contractOf(call, venue.venue, p.symbol);
      const limit = futuresLimit(p.limit, 500, 1000);
      const traded = tradedPerpetual(call, c);
      if (traded !== undefined) return call.ctx.backend.history(traded.symbol).recentTrades(call.nowUs, limit).map((t) => engineTradeJson(call, traded, t));
      return call.ctx.futures.history(c.pair).recentTrades(call.nowUs, limit).map((t) => tradeJson(call, c, t));
    },
  });
}

export function historicalTrades(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/historicalTrades`,
    security: 'MARKET_DATA',
    weight: 200,
    schema: defineSchema([SYMBOL, LIMIT, FROM_ID]),
    summary: `${venue.label} futures old trades lookup (last month): limit default 100, max 500`,
    handler: (p, call) => {
      const c = contractOf(call, venue.venue, p.symbol);
      const limit = futuresLimit(p.limit, 100, 500);
      const traded = tradedPerpetual(call, c);
      const history = traded === undefined ? call.ctx.futures.history(c.pair) : call.ctx.backend.history(traded.symbol);
      const cutoff = call.nowUs - OLD_TRADES_LOOKBACK_US;
      // The first trade of the month is the first trade of its first aggregate.
      const firstInMonth = history.aggTrades(call.nowUs, { startTime: cutoff, limit: 1 })[0]?.f;
      if (firstInMonth === undefined) return [];
      const query = p.fromId === undefined ? { limit } : { fromId: Math.max(p.fromId, firstInMonth), limit };
      return history
        .historicalTrades(call.nowUs, query)
        .filter((t) => t.time >= cutoff)
        .map((t) => (traded === undefined ? tradeJson(call, c, t) : engineTradeJson(call, traded, t)));
    },
  });
}

export function aggTrades(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/aggTrades`,
    security: 'NONE',
    weight: 20,
    schema: defineSchema([SYMBOL, FROM_ID, START_TIME, END_TIME, LIMIT]),
    summary: `${venue.label} futures aggregate trades (last 48 hours): limit default 500, max 1000`,
    handler: (p, call) => {
      const c = contractOf(call, venue.venue, p.symbol);
      const limit = futuresLimit(p.limit, 500, 1000);
      const start = p.startTime === undefined ? undefined : timeUs(p.startTime);
      const end = p.endTime === undefined ? undefined : timeUs(p.endTime);
      if (start !== undefined && end !== undefined && end - start > AGG_TRADES_MAX_SPAN_US) throw spanTooLong(1);
      const cutoff = call.nowUs - AGG_TRADES_LOOKBACK_US;
      const lowerBound = p.fromId !== undefined || start !== undefined;
      const traded = tradedPerpetual(call, c);
      const history = traded === undefined ? call.ctx.futures.history(c.pair) : call.ctx.backend.history(traded.symbol);
      const rows = history.aggTrades(call.nowUs, {
        ...(p.fromId === undefined ? {} : { fromId: p.fromId }),
        ...(lowerBound ? { startTime: Math.max(start ?? cutoff, cutoff) } : {}),
        ...(end === undefined ? {} : { endTime: end }),
        limit,
      });
      return rows
        .filter((a) => a.T >= cutoff)
        .map((spotAgg) => {
          if (traded !== undefined) return engineAggTradeJson(call, traded, spotAgg);
          const a = toAggTrade(call.ctx.futures, c, spotAgg);
          const q = formatQty(c.pair, a.q);
          const head = { a: a.a, p: formatPrice(c.pair, a.p), q };
          const tail = { f: a.f, l: a.l, T: apiTime(a.T, call.unit), m: a.m };
          return c.pair.venue === 'USD_M' ? { ...head, nq: q, ...tail } : { ...head, ...tail };
        });
    },
  });
}
