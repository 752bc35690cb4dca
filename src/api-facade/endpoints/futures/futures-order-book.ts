/**
 * Futures order books (depth, RPI depth) and book tickers, served from the spot symbol's book in
 * the engine at simulated now: each level's price × (1 + the contract's premium now), bids
 * rounded down and asks up to the tick (so the book cannot cross), levels that meet merged. COIN-M
 * quantities are whole contracts (notional / contract size, rounded up).
 *
 * lastUpdateId is the engine's time of last command (µs; it only grows), `T` that time and `E`
 * simulated now. The RPI book includes RPI orders aggregated; the simulation has none, so it is
 * the full book at limit 1000. Valid depth limits: 5, 10, 20, 50, 100, 500, 1000 (default 500);
 * any other is -1130 for `limit`. A perpetual the engine trades answers from its own book
 * (traded-perpetual.ts).
 */
import { type FuturesContract, applyRate, contractsFor, roundToTick } from '../../../futures/index.ts';
import { paramErrors, defineSchema } from '../../params/index.ts';
import { apiTime } from '../../serialize/index.ts';
import { SYMBOL } from '../common.ts';
import { defineEndpoint, type Endpoint, type HandlerCall } from '../endpoint-row.ts';
import { engineBookTickerJson, engineDepthJson, tradedPerpetual } from './traded-perpetual.ts';
import { bySymbol, contractOf, DEPTH_LIMITS, formatPrice, formatQty, futuresDepthWeight, LIMIT, selectContracts, tickerSchema, type VenueApi } from './futures-common.ts';

type Level = [price: number, qty: bigint];

/** One side of the contract's book, `limit` levels, best first. */
function bookSide(call: HandlerCall, c: FuturesContract, side: 'bids' | 'asks', limit: number): Level[] {
  const spot = c.pair.spot;
  const premium = call.ctx.futures.premium(c).at(call.nowUs);
  const levels = call.ctx.backend.engine.depth(spot.symbol, limit)[side];
  const out: Level[] = [];
  for (const [price, qty] of levels) {
    const p = roundToTick(applyRate(price, premium), spot.tickUnits, side === 'bids' ? 'down' : 'up');
    const q = c.pair.venue === 'COIN_M' ? contractsFor(c, (BigInt(p) * BigInt(qty)) / 10n ** BigInt(spot.basePrecision)) : BigInt(qty);
    const last = out[out.length - 1];
    if (last !== undefined && last[0] === p) last[1] += q;
    else out.push([p, q]);
  }
  return out;
}

function bookJson(call: HandlerCall, c: FuturesContract, limit: number): Record<string, unknown> {
  const engine = call.ctx.backend.engine;
  const level = ([p, q]: Level) => [formatPrice(c.pair, p), formatQty(c.pair, q)];
  const head = { lastUpdateId: engine.time, ...(c.pair.venue === 'COIN_M' ? { symbol: c.symbol, pair: c.pair.pair } : {}) };
  return {
    ...head,
    E: apiTime(call.nowUs, call.unit),
    T: apiTime(engine.time, call.unit),
    bids: bookSide(call, c, 'bids', limit).map(level),
    asks: bookSide(call, c, 'asks', limit).map(level),
  };
}

export function depth(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/depth`,
    security: 'NONE',
    weight: (p) => futuresDepthWeight(p.limit),
    schema: defineSchema([SYMBOL, LIMIT]),
    summary: `${venue.label} futures order book: limit 5/10/20/50/100/500/1000 (default 500)`,
    handler: (p, call) => {
      const limit = p.limit ?? 500;
      if (!(DEPTH_LIMITS as readonly number[]).includes(limit)) throw paramErrors.invalidData('limit');
      const c = contractOf(call, venue.venue, p.symbol);
      const traded = tradedPerpetual(call, c);
      return traded === undefined ? bookJson(call, c, limit) : engineDepthJson(call, traded, limit);
    },
  });
}

export function rpiDepth(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/rpiDepth`,
    security: 'NONE',
    weight: 20,
    schema: defineSchema([SYMBOL, LIMIT]),
    summary: `${venue.label} futures order book with RPI orders: limit 1000 only`,
    handler: (p, call) => {
      if (p.limit !== undefined && p.limit !== 1000) throw paramErrors.invalidData('limit');
      const c = contractOf(call, venue.venue, p.symbol);
      const traded = tradedPerpetual(call, c);
      return traded === undefined ? bookJson(call, c, 1000) : engineDepthJson(call, traded, 1000);
    },
  });
}

export function bookTicker(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/ticker/bookTicker`,
    security: 'NONE',
    weight: bySymbol(2, 5),
    schema: tickerSchema(venue),
    summary: `${venue.label} futures best bid and ask: weight 2 with symbol, 5 without`,
    handler: (p, call) => {
      const { contracts, single } = selectContracts(call, venue.venue, p);
      const rows = contracts.map((c) => {
        const traded = tradedPerpetual(call, c);
        if (traded !== undefined) return engineBookTickerJson(call, traded, c.symbol);
        const bid = bookSide(call, c, 'bids', 1)[0] ?? [0, 0n];
        const ask = bookSide(call, c, 'asks', 1)[0] ?? [0, 0n];
        const head = c.pair.venue === 'COIN_M' ? { symbol: c.symbol, pair: c.pair.pair } : { lastUpdateId: call.ctx.backend.engine.time, symbol: c.symbol };
        return {
          ...head,
          bidPrice: formatPrice(c.pair, bid[0]),
          bidQty: formatQty(c.pair, bid[1]),
          askPrice: formatPrice(c.pair, ask[0]),
          askQty: formatQty(c.pair, ask[1]),
          time: apiTime(call.nowUs, call.unit),
        };
      });
      return single ? rows[0] : rows;
    },
  });
}
