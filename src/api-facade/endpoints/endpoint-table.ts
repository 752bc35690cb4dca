/**
 * THE endpoint table: one row per endpoint the facade serves (rows in endpoints/*.ts). Routing,
 * parameter validation, weights, order counts, authentication, the in-process client and the
 * docs listing (`describeEndpoints`) all read this array; nothing else knows an endpoint.
 *
 * Every spot endpoint of the spec is in the table. Beyond the spec's endpoint tables (which say
 * "Further trading endpoints (order lists, SOR orders, order amendment): not shown"), the table
 * serves them as binance-facts §5.10-5.13 document them: order lists (POST order/oco,
 * orderList/oco|oto|otoco|opo|opoco, DELETE orderList), amend keepPriority, SOR (sor/order,
 * sor/order/test).
 * Beyond the spot API, the table serves the /sapi endpoints third-party libraries call while
 * loading markets (endpoints/market-loaders.ts), and the spec's supplementary endpoints (issue 7):
 * futures market data of both venues under /fapi, /dapi and /futures/data (endpoints/futures-*.ts,
 * model in src/futures), portfolio margin account information, fiat deposit, payment history and
 * the equity disclaimer. Supplementary endpoints NOT in the table: /dapi/v1/pmAccountInfo (no
 * longer in use, spec), and the venue-specific /futures/data rows both venues share a path for
 * are one row each, telling the venues apart by their parameters (futures-statistics.ts).
 */
import type { Endpoint, HttpMethod } from './endpoints/endpoint-row.ts';
import { account, accountCommission, allOrders, getOrder, myFilters, myPreventedMatches, myTrades, openOrders, rateLimitOrder } from './endpoints/account.ts';
import { exchangeInfo, ping, time } from './endpoints/general.ts';
import { executionRules, referencePriceCalculation } from './endpoints/execution-rules.ts';
import { capitalConfigGetAll, isolatedMarginAllPairs, marginAllPairs, systemStatus, tradeFee } from './endpoints/market-loaders.ts';
import { USD_M, VENUES } from './endpoints/futures-common.ts';
import * as futuresGeneral from './endpoints/futures-general.ts';
import * as futuresBook from './endpoints/futures-order-book.ts';
import * as futuresTrades from './endpoints/futures-trades.ts';
import * as futuresKlines from './endpoints/futures-klines.ts';
import * as futuresFunding from './endpoints/futures-funding.ts';
import * as futuresTickers from './endpoints/futures-tickers.ts';
import * as futuresStatistics from './endpoints/futures-statistics.ts';
import * as futuresIndices from './endpoints/futures-indices.ts';
import * as futuresRisk from './endpoints/futures-risk.ts';
import { pmAccountInfo } from './endpoints/portfolio-margin.ts';
import { fiatDeposit } from './endpoints/fiat-deposit.ts';
import { payTransactions } from './endpoints/pay-transactions.ts';
import { equityDisclaimer } from './endpoints/equity-disclaimer.ts';
import {
  aggTrades,
  avgPrice,
  depth,
  historicalTrades,
  klines,
  referencePrice,
  ticker24hr,
  tickerBookTicker,
  tickerPrice,
  tickerRolling,
  tickerTradingDay,
  trades,
  uiKlines,
} from './endpoints/market-data.ts';
import { amendKeepPriority, orderAmendments } from './endpoints/amend.ts';
import { cancelReplace } from './endpoints/cancel-replace.ts';
import {
  allOrderLists,
  cancelOrderList,
  getOrderList,
  newLegacyOco,
  newOcoList,
  newOpocoList,
  newOpoList,
  newOtocoList,
  newOtoList,
  openOrderLists,
} from './endpoints/order-lists.ts';
import { myAllocations, sorOrder, sorOrderTest } from './endpoints/sor.ts';
import { cancelOpenOrders, cancelOrder, newOrder, testOrder } from './endpoints/trading.ts';
import { closeUserStream, keepAliveUserStream, openUserStream } from './endpoints/user-stream.ts';

export const ENDPOINTS: readonly Endpoint[] = Object.freeze([
  // General
  ping,
  time,
  exchangeInfo,
  executionRules,
  // Market data
  depth,
  trades,
  historicalTrades,
  aggTrades,
  klines,
  uiKlines,
  avgPrice,
  ticker24hr,
  tickerTradingDay,
  tickerRolling,
  tickerPrice,
  tickerBookTicker,
  referencePrice,
  referencePriceCalculation,
  // Account
  account,
  getOrder,
  openOrders,
  allOrders,
  myTrades,
  rateLimitOrder,
  myPreventedMatches,
  myAllocations,
  accountCommission,
  orderAmendments,
  myFilters,
  getOrderList,
  allOrderLists,
  openOrderLists,
  // Trading
  newOrder,
  testOrder,
  cancelOrder,
  cancelOpenOrders,
  cancelReplace,
  amendKeepPriority,
  // Order lists
  newLegacyOco,
  newOcoList,
  newOtoList,
  newOtocoList,
  newOpoList,
  newOpocoList,
  cancelOrderList,
  // Smart order routing
  sorOrder,
  sorOrderTest,
  // User data stream
  openUserStream,
  keepAliveUserStream,
  closeUserStream,
  // Outside the spot API: what third-party libraries call while loading markets
  capitalConfigGetAll,
  marginAllPairs,
  isolatedMarginAllPairs,
  systemStatus,
  tradeFee,
  // ---- Supplementary endpoints (issue 7) ----
  // Futures market data, the same rows for USDⓈ-M (/fapi) and COIN-M (/dapi)
  ...VENUES.flatMap((venue) => [
    futuresGeneral.ping(venue),
    futuresGeneral.time(venue),
    futuresGeneral.exchangeInfo(venue),
    futuresBook.depth(venue),
    futuresTrades.trades(venue),
    futuresTrades.historicalTrades(venue),
    futuresTrades.aggTrades(venue),
    futuresKlines.klines(venue),
    futuresKlines.continuousKlines(venue),
    futuresKlines.indexPriceKlines(venue),
    futuresKlines.markPriceKlines(venue),
    futuresKlines.premiumIndexKlines(venue),
    futuresFunding.premiumIndex(venue),
    futuresFunding.fundingRate(venue),
    futuresFunding.fundingInfo(venue),
    futuresTickers.ticker24hr(venue),
    futuresTickers.tickerPrice(venue),
    futuresBook.bookTicker(venue),
    futuresStatistics.openInterest(venue),
    futuresIndices.constituents(venue),
  ]),
  // USDⓈ-M only
  futuresBook.rpiDepth(USD_M),
  futuresTickers.tickerPrice(USD_M, 2),
  futuresIndices.indexInfo,
  futuresIndices.assetIndex,
  futuresRisk.symbolAdlRisk,
  futuresRisk.tradingSchedule,
  futuresRisk.insuranceBalance,
  // /futures/data (both venues: symbol = USDⓈ-M, pair = COIN-M)
  futuresStatistics.openInterestHist,
  futuresStatistics.globalLongShortAccountRatio,
  futuresStatistics.topLongShortAccountRatio,
  futuresStatistics.topLongShortPositionRatio,
  futuresStatistics.takerLongShortRatio,
  futuresStatistics.takerBuySellVol,
  futuresStatistics.basis,
  futuresIndices.deliveryPrice,
  // Account-side supplementary endpoints
  pmAccountInfo,
  fiatDeposit,
  payTransactions,
  equityDisclaimer,
]);

const BY_ROUTE = new Map<string, Endpoint>();
for (const row of ENDPOINTS) {
  const key = `${row.method} ${row.path}`;
  // A table bug: fail when the module loads.
  if (BY_ROUTE.has(key)) throw new Error(`endpoint ${key} declared twice`);
  BY_ROUTE.set(key, row);
}

/** The row for a method and path (exact match), or undefined. */
export function findEndpoint(method: string, path: string): Endpoint | undefined {
  return BY_ROUTE.get(`${method} ${path}`);
}

export type { Endpoint, HttpMethod };

/** A plain-text listing for docs and `--help`: method, path, security, weight, summary. */
export function describeEndpoints(): string {
  return ENDPOINTS.map((row) => {
    const weight = typeof row.weight === 'number' ? String(row.weight) : 'by params';
    return `${row.method.padEnd(6)} ${row.path.padEnd(28)} ${row.security.padEnd(11)} weight ${weight.padEnd(9)} ${row.summary}`;
  }).join('\n');
}
