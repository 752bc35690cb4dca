/**
 * Futures tickers: 24 h statistics and last prices, from the underlying spot tape as of now.
 *
 * The 24 h window is the spot ticker's (asOf − 24 h, asOf]; its prices go through the contract's
 * premium like a kline's (open at the window's start, last at the last print's time, high and low
 * the envelope over the window, weighted average at now's premium); volumes are the spot
 * window's (COIN-M: `volume` in contracts of the window's notional, `baseVolume` in the base).
 * priceChangePercent has 3 decimals. Weights: 24hr 1 with symbol, 40 without; price 1 / 2.
 * The last price is the last print's price through the premium at its time (0 before any print).
 * A perpetual the engine trades answers from its margin symbol's own prints (traded-perpetual.ts).
 */
import { changePercentMilli, formatAmount } from '../../../data/index.ts';
import { type FuturesContract, applyRate, contractPrice, contractsFor, roundToTick } from '../../../futures/index.ts';
import { apiTime } from '../../serialize/index.ts';
import { defineEndpoint, type Endpoint, type HandlerCall } from '../endpoint-row.ts';
import { engineLastPrice, engineTicker24hJson, tradedPerpetual } from './traded-perpetual.ts';
import { bySymbol, formatBase, formatPrice, formatQty, formatQuote, selectContracts, tickerSchema, type VenueApi } from './futures-common.ts';

function lastPrint(call: HandlerCall, c: FuturesContract): { price: number; qty: number } {
  const last = call.ctx.futures.history(c.pair).lastTrade(call.nowUs);
  if (last === null) return { price: 0, qty: 0 };
  const price = contractPrice(call.ctx.futures, c, last.price, last.time);
  if (c.pair.venue === 'USD_M') return { price, qty: last.qty };
  return { price, qty: Number(contractsFor(c, (BigInt(price) * BigInt(last.qty)) / 10n ** BigInt(c.pair.spot.basePrecision))) };
}

function ticker24hJson(call: HandlerCall, c: FuturesContract): Record<string, unknown> {
  const pair = c.pair;
  const tick = pair.spot.tickUnits;
  const t = call.ctx.futures.history(pair).ticker24hr(call.nowUs, { type: 'FULL' });
  const model = call.ctx.futures.premium(c);
  const last = lastPrint(call, c);
  const { min, max } = model.range(t.openTime, call.nowUs);
  const open = roundToTick(applyRate(t.openPrice, model.at(t.openTime)), tick);
  const high = t.count === 0 ? 0 : Math.max(open, last.price, roundToTick(applyRate(t.highPrice, max), tick, 'up'));
  const low = t.count === 0 ? 0 : Math.min(open, last.price, roundToTick(applyRate(t.lowPrice, min), tick, 'down'));
  const pNow = model.at(call.nowUs);
  const quoteVolume = t.quoteVolume + (t.quoteVolume * BigInt(pNow)) / 100_000_000n;
  const change = last.price - open;
  const head = pair.venue === 'COIN_M' ? { symbol: c.symbol, pair: pair.pair } : { symbol: c.symbol };
  const volumes =
    pair.venue === 'COIN_M'
      ? { volume: String(contractsFor(c, quoteVolume)), baseVolume: formatBase(pair, t.volume) }
      : { volume: formatQty(pair, t.volume), quoteVolume: formatQuote(pair, quoteVolume) };
  return {
    ...head,
    priceChange: formatPrice(pair, change),
    priceChangePercent: formatAmount(changePercentMilli(open, last.price), 3),
    weightedAvgPrice: formatPrice(pair, roundToTick(applyRate(t.weightedAvgPrice, pNow), tick)),
    lastPrice: formatPrice(pair, last.price),
    lastQty: formatQty(pair, last.qty),
    openPrice: formatPrice(pair, open),
    highPrice: formatPrice(pair, high),
    lowPrice: formatPrice(pair, low),
    ...volumes,
    openTime: apiTime(t.openTime, call.unit),
    closeTime: apiTime(t.closeTime, call.unit),
    firstId: t.firstId,
    lastId: t.lastId,
    count: t.count,
  };
}

export function ticker24hr(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/ticker/24hr`,
    security: 'NONE',
    weight: bySymbol(1, 40),
    schema: tickerSchema(venue),
    summary: `${venue.label} futures 24 h statistics: weight 1 with symbol, 40 without`,
    handler: (p, call) => {
      const { contracts, single } = selectContracts(call, venue.venue, p);
      const rows = contracts.map((c) => {
        const traded = tradedPerpetual(call, c);
        return traded === undefined ? ticker24hJson(call, c) : engineTicker24hJson(call, traded, c.symbol);
      });
      return single ? rows[0] : rows;
    },
  });
}

/** ticker/price; `version` 2 is /fapi/v2/ticker/price (same rows). */
export function tickerPrice(venue: VenueApi, version: 1 | 2 = 1): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v${version}/ticker/price`,
    security: 'NONE',
    weight: bySymbol(1, 2),
    schema: tickerSchema(venue),
    summary: `${venue.label} futures last price${version === 2 ? ' (v2)' : ''}: weight 1 with symbol, 2 without`,
    handler: (p, call) => {
      const { contracts, single } = selectContracts(call, venue.venue, p);
      const rows = contracts.map((c) => {
        const head = c.pair.venue === 'COIN_M' ? { symbol: c.symbol, ps: c.pair.pair } : { symbol: c.symbol };
        const traded = tradedPerpetual(call, c);
        const price = traded === undefined ? formatPrice(c.pair, lastPrint(call, c).price) : engineLastPrice(call, traded);
        return { ...head, price, time: apiTime(call.nowUs, call.unit) };
      });
      return single ? rows[0] : rows;
    },
  });
}
