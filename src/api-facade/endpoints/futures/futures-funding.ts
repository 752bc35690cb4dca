/**
 * Mark price and funding (src/futures/funding.ts for the model):
 * - premiumIndex: mark and index price now, the estimated settle price (mean index over the last
 *   30 minutes), the funding rate shown between fundings as lastFundingRate (the running
 *   interval's estimate, or the last recorded rate), interest 0.01 % per 8 h scaled to the
 *   symbol's interval, the next funding time of its interval; delivery contracts show "" for both rates and nextFundingTime 0. Weight 1
 *   with symbol, 10 without. A perpetual the engine trades shows the mark and index the engine
 *   holds (the futures clock's last SetMarkPrice), the ones its margin and liquidations use.
 * - fundingRate: settled fundings of perpetuals at their funding times (every 1, 4 or 8 h, or as
 *   recorded: funding-schedule.ts) from their listing up to now, with the recorded rate where the
 *   data folder has one and the model's elsewhere, the mark price at the funding instant and
 *   rateType "Regular" (the model has no special fundings).
 *   startTime: the oldest `limit` from it; otherwise the newest `limit` up to endTime/now; ascending.
 *   limit default 100, max 1000.
 * - fundingInfo: cap, floor and interval of the perpetuals whose interval is not the default 8 h
 *   (Binance lists only adjusted symbols); `[]` when every perpetual funds every 8 h.
 * fundingRate and fundingInfo share a budget of 500 requests per 5 minutes per IP (spec), charged
 * besides their IP weight of 1 (keyedLimit 'fundingRate').
 */
import { type FuturesContract, futuresParameters } from '../../../futures/index.ts';
import { defineSchema } from '../../params/index.ts';
import { apiTime } from '../../serialize/index.ts';
import { OPTIONAL_SYMBOL } from '../common.ts';
import { defineEndpoint, type Endpoint, type HandlerCall } from '../endpoint-row.ts';
import { engineMark, tradedPerpetual } from './traded-perpetual.ts';
import { bySymbol, END_TIME, formatIndex, formatRate, LIMIT, futuresLimit, selectContracts, START_TIME, tickerSchema, timeUs, type VenueApi } from './futures-common.ts';

const FUNDING_LIMIT = { name: 'fundingRate', weight: 1 } as const;

function premiumIndexJson(call: HandlerCall, c: FuturesContract): Record<string, unknown> {
  const market = call.ctx.futures;
  const perpetual = c.deliveryTime === null;
  const head = c.pair.venue === 'COIN_M' ? { symbol: c.symbol, pair: c.pair.pair } : { symbol: c.symbol };
  const traded = tradedPerpetual(call, c);
  const held = traded === undefined ? null : engineMark(call, traded);
  return {
    ...head,
    markPrice: held?.markPrice ?? formatIndex(c.pair, market.markPrice(c, call.nowUs)),
    indexPrice: held?.indexPrice ?? formatIndex(c.pair, market.indexPrice(c.pair, call.nowUs)),
    estimatedSettlePrice: formatIndex(c.pair, market.settlementPrice(c.pair, call.nowUs)),
    lastFundingRate: perpetual ? formatRate(market.fundingEstimate(c, call.nowUs)) : '',
    interestRate: perpetual ? formatRate(market.fundingSchedule(c).interestAt(call.nowUs)) : '',
    nextFundingTime: perpetual ? apiTime(market.nextFundingTime(c, call.nowUs), call.unit) : 0,
    time: apiTime(call.nowUs, call.unit),
  };
}

export function premiumIndex(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/premiumIndex`,
    security: 'NONE',
    weight: bySymbol(1, 10),
    schema: tickerSchema(venue),
    summary: `${venue.label} futures mark price, index price and funding estimate`,
    handler: (p, call) => {
      const { contracts, single } = selectContracts(call, venue.venue, p);
      const rows = contracts.map((c) => premiumIndexJson(call, c));
      return single ? rows[0] : rows;
    },
  });
}

interface FundingRow {
  readonly contract: FuturesContract;
  readonly time: number;
}

export function fundingRate(venue: VenueApi): Endpoint {
  // symbol is optional on USDⓈ-M (every perpetual) and mandatory on COIN-M.
  const symbolSpec = { ...OPTIONAL_SYMBOL, required: venue.venue === 'COIN_M' };
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/fundingRate`,
    security: 'NONE',
    weight: 1,
    keyedLimit: FUNDING_LIMIT,
    schema: defineSchema([symbolSpec, START_TIME, END_TIME, LIMIT]),
    summary: `${venue.label} futures funding rate history: limit default 100, max 1000`,
    handler: (p, call) => {
      const limit = futuresLimit(p.limit, 100, 1000);
      const start = p.startTime === undefined ? undefined : timeUs(p.startTime);
      const end = Math.min(call.nowUs, p.endTime === undefined ? Infinity : timeUs(p.endTime));
      const perpetuals = selectContracts(call, venue.venue, p).contracts.filter((c) => c.deliveryTime === null);
      const rows: FundingRow[] = perpetuals.flatMap((c) => call.ctx.futures.fundingSchedule(c).between(Math.max(c.onboardTime + 1, start ?? 0), end).map((time) => ({ contract: c, time })));
      rows.sort((a, b) => a.time - b.time || (a.contract.symbol < b.contract.symbol ? -1 : 1));
      const picked = start !== undefined ? rows.slice(0, limit) : rows.slice(Math.max(0, rows.length - limit));
      return picked.map(({ contract, time }) => ({
        symbol: contract.symbol,
        fundingTime: apiTime(time, call.unit),
        fundingRate: formatRate(call.ctx.futures.fundingRate(contract, time)),
        markPrice: formatIndex(contract.pair, call.ctx.futures.markPrice(contract, time)),
        rateType: 'Regular',
      }));
    },
  });
}

export function fundingInfo(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/fundingInfo`,
    security: 'NONE',
    weight: 1,
    keyedLimit: FUNDING_LIMIT,
    schema: defineSchema([]),
    summary: `${venue.label} futures funding rate cap, floor and interval of the perpetuals whose funding is not the default`,
    handler: (_p, call) =>
      call.ctx.futures
        .contracts(venue.venue, call.nowUs)
        .filter((c) => c.deliveryTime === null)
        .map((c) => ({ c, hours: call.ctx.futures.fundingSchedule(c).intervalAt(call.nowUs) }))
        // Binance lists only symbols with an adjusted cap, floor or interval (futures facts); the
        // model's cap and floor are the default for every symbol, so only the interval can differ.
        .filter(({ hours }) => hours !== futuresParameters.FUNDING_INTERVAL_HOURS)
        .map(({ c, hours }) => ({
          symbol: c.symbol,
          adjustedFundingRateCap: formatRate(futuresParameters.FUNDING_RATE_CAP),
          adjustedFundingRateFloor: formatRate(-futuresParameters.FUNDING_RATE_CAP),
          fundingIntervalHours: hours,
          disclaimer: false,
        })),
  });
}
