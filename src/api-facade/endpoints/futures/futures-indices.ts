/**
 * Index information: composite index (indexInfo), index constituents, the multi-assets asset
 * index and quarterly delivery prices, all from the spot tape as of simulated now.
 *
 * - Composite index (our choice; the simulation has no listed composite): one per USD quote
 *   asset with its USDⓈ-M pairs as components, named EXSIM<quote> (EXSIMUSDT). It rebalances at
 *   00:00 UTC on the 1st of each month to equal value: weightInQuantity = (1000 / n) / price at
 *   the rebalance (or at the component's first print, if later); weightInPercentage is each
 *   component's share of the index value now. 8 decimals.
 * - Constituents: the index of a pair is its spot symbol's price, one constituent of weight 1
 *   (exchange "binance"; no TradFi constituents, so no hidden -1 prices).
 * - Asset index (USDⓈ-M, /fapi/v1/assetIndex): <base>USD per base asset, the index in USD; bid
 *   and ask buffers 10 % (auto-exchange 5 %) as the exchange shows them. Weight 1 / 10.
 * - Delivery price (/futures/data/delivery-price?pair=, both venues by pair name): every quarterly
 *   delivery after the pair's first print up to now, newest first, at the mean index of the last
 *   30 minutes before delivery, on the tick.
 */
import { MICROS_PER_MILLI } from '../../../clock/index.ts';
import { formatUnits } from '../../../engine/index.ts';
import { type FuturesPair, deliveriesBetween, roundToTick, USD_QUOTES } from '../../../futures/index.ts';
import { defineSchema } from '../../params/index.ts';
import { apiTime } from '../../serialize/index.ts';
import { invalidSymbol, OPTIONAL_SYMBOL, SYMBOL } from '../common.ts';
import { defineEndpoint, type Endpoint, type HandlerCall } from '../endpoint-row.ts';
import { bySymbol, formatIndex, formatPrice, PAIR, pairOf, type VenueApi } from './futures-common.ts';

const INDEX_BASE_VALUE = 1000n;
const E8 = 100_000_000n;

/** Start of the UTC month of t (µs). */
function monthStart(t: number): number {
  const d = new Date(Math.floor(t / MICROS_PER_MILLI));
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) * MICROS_PER_MILLI;
}

interface Component {
  readonly pair: FuturesPair;
  /** 1e-8 units of base per index point. */
  readonly quantity: bigint;
  /** Value now, quote units (1e-8). */
  readonly value: bigint;
}

function compositeComponents(call: HandlerCall, quote: string): Component[] {
  const market = call.ctx.futures;
  const pairs = market.pairsOf('USD_M').filter((p) => p.quoteAsset === quote);
  const rebalance = monthStart(call.nowUs);
  const priced = pairs.flatMap((pair) => {
    const first = market.history(pair).firstTradeTime;
    if (first === null || first > call.nowUs) return [];
    const atRebalance = market.indexPrice(pair, Math.max(rebalance, first));
    const now = market.indexPrice(pair, call.nowUs);
    return atRebalance === null || now === null ? [] : [{ pair, atRebalance, now }];
  });
  return priced.map(({ pair, atRebalance, now }) => {
    const scale = 10n ** BigInt(pair.spot.quotePrecision);
    // (1000 / n) in quote units, / price → base per index point, at 8 decimals.
    const quantity = (INDEX_BASE_VALUE * scale * E8) / (BigInt(priced.length) * BigInt(atRebalance));
    return { pair, quantity, value: (quantity * BigInt(now)) / E8 };
  });
}

function compositeJson(call: HandlerCall, quote: string): Record<string, unknown> | null {
  const components = compositeComponents(call, quote);
  if (components.length === 0) return null;
  const total = components.reduce((s, c) => s + c.value, 0n);
  return {
    symbol: `EXSIM${quote}`,
    time: apiTime(call.nowUs, call.unit),
    component: 'baseAsset',
    baseAssetList: components.map((c) => ({
      baseAsset: c.pair.baseAsset,
      quoteAsset: quote,
      weightInQuantity: formatUnits(Number(c.quantity), 8),
      weightInPercentage: formatUnits(total === 0n ? 0 : Number((c.value * E8) / total), 8),
    })),
  };
}

export const indexInfo = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/indexInfo',
  security: 'NONE',
  weight: 1,
  schema: defineSchema([OPTIONAL_SYMBOL]),
  summary: 'USDⓈ-M composite index symbols (EXSIM<quote>): components and weights now',
  handler: (p, call) => {
    const rows = USD_QUOTES.flatMap((quote): Record<string, unknown>[] => {
      const row = compositeJson(call, quote);
      return row === null ? [] : [row];
    });
    if (p.symbol === undefined) return rows;
    const row = rows.find((r) => r['symbol'] === p.symbol);
    if (row === undefined) throw invalidSymbol();
    return row;
  },
});

export function constituents(venue: VenueApi): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path: `${venue.prefix}/v1/constituents`,
    security: 'NONE',
    weight: 2,
    schema: defineSchema([SYMBOL]),
    summary: `${venue.label} futures index constituents of a pair`,
    handler: (p, call) => {
      const market = call.ctx.futures;
      const contract = market.findContract(venue.venue, p.symbol, call.nowUs);
      const pair = contract?.pair ?? pairOf(call, venue.venue, p.symbol);
      return {
        symbol: p.symbol,
        time: apiTime(call.nowUs, call.unit),
        constituents: [{ exchange: 'binance', symbol: pair.spot.symbol, price: formatIndex(pair, market.indexPrice(pair, call.nowUs)), weight: '1.00000000' }],
      };
    },
  });
}

const BUFFER = 10_000_000n; // 0.1 at 8 decimals
const AUTO_BUFFER = 5_000_000n; // 0.05

export const assetIndex = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/assetIndex',
  security: 'NONE',
  weight: bySymbol(1, 10),
  schema: defineSchema([OPTIONAL_SYMBOL]),
  summary: 'USDⓈ-M multi-assets mode asset index: <asset>USD',
  handler: (p, call) => {
    const market = call.ctx.futures;
    const seen = new Set<string>();
    const rows = market.pairsOf('USD_M').flatMap((pair) => {
      if (seen.has(pair.baseAsset)) return [];
      seen.add(pair.baseAsset);
      const units = market.indexPrice(pair, call.nowUs) ?? 0;
      const index = (BigInt(units) * E8) / 10n ** BigInt(pair.spot.quotePrecision);
      const at = (buffer: bigint, sign: 1n | -1n) => formatUnits(Number((index * (E8 + sign * buffer)) / E8), 8);
      return [{
        symbol: `${pair.baseAsset}USD`,
        time: apiTime(call.nowUs, call.unit),
        index: formatUnits(Number(index), 8),
        bidBuffer: formatUnits(Number(BUFFER), 8),
        askBuffer: formatUnits(Number(BUFFER), 8),
        bidRate: at(BUFFER, -1n),
        askRate: at(BUFFER, 1n),
        autoExchangeBidBuffer: formatUnits(Number(AUTO_BUFFER), 8),
        autoExchangeAskBuffer: formatUnits(Number(AUTO_BUFFER), 8),
        autoExchangeBidRate: at(AUTO_BUFFER, -1n),
        autoExchangeAskRate: at(AUTO_BUFFER, 1n),
      }];
    });
    if (p.symbol === undefined) return rows;
    const row = rows.find((r) => r.symbol === p.symbol);
    if (row === undefined) throw invalidSymbol();
    return row;
  },
});

export const deliveryPrice = defineEndpoint({
  method: 'GET',
  path: '/futures/data/delivery-price',
  security: 'NONE',
  weight: 1,
  schema: defineSchema([PAIR]),
  summary: 'Quarterly settlement prices of a pair (USDⓈ-M or COIN-M), newest first',
  handler: (p, call) => {
    const market = call.ctx.futures;
    const pair = market.findPair('USD_M', p.pair) ?? pairOf(call, 'COIN_M', p.pair);
    const first = market.history(pair).firstTradeTime;
    if (first === null || first > call.nowUs) return [];
    return deliveriesBetween(first, call.nowUs)
      .reverse()
      .flatMap((d) => {
        const price = market.settlementPrice(pair, d);
        return price === null ? [] : [{ deliveryTime: apiTime(d, call.unit), deliveryPrice: formatPrice(pair, roundToTick(price, pair.spot.tickUnits)) }];
      });
  },
});
