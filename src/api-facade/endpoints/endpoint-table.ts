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
 * the equity disclaimer; USDⓈ-M futures trading (issue 28, endpoints/futures-trading/: orders,
 * account, positions, settings, listen keys) on the engine's margin symbols, and the /sapi
 * transfers between the spot and futures wallets. Supplementary endpoints NOT in the table: /dapi/v1/pmAccountInfo (no
 * longer in use, spec), and the venue-specific /futures/data rows both venues share a path for
 * are one row each, telling the venues apart by their parameters (futures-statistics.ts).
 */
import type { Endpoint, HttpMethod } from './endpoint-row.ts';
import { account, accountCommission, allOrders, getOrder, myFilters, myPreventedMatches, myTrades, openOrders, rateLimitOrder } from './spot/account.ts';
import { exchangeInfo, ping, time } from './spot/general.ts';
import { executionRules, referencePriceCalculation } from './spot/execution-rules.ts';
import { capitalConfigGetAll, isolatedMarginAllPairs, marginAllPairs, systemStatus, tradeFee } from './sapi/market-loaders.ts';
import { USD_M, VENUES } from './futures/futures-common.ts';
import * as futuresGeneral from './futures/futures-general.ts';
import * as futuresBook from './futures/futures-order-book.ts';
import * as futuresTrades from './futures/futures-trades.ts';
import * as futuresKlines from './futures/futures-klines.ts';
import * as futuresFunding from './futures/futures-funding.ts';
import * as futuresTickers from './futures/futures-tickers.ts';
import * as futuresStatistics from './futures/futures-statistics.ts';
import * as futuresIndices from './futures/futures-indices.ts';
import * as futuresRisk from './futures/futures-risk.ts';
import { pmAccountInfo } from './futures/portfolio-margin.ts';
import { fiatDeposit } from './sapi/fiat-deposit.ts';
import { payTransactions } from './sapi/pay-transactions.ts';
import { equityDisclaimer } from './sapi/equity-disclaimer.ts';
import { aggTrades, avgPrice, depth, historicalTrades, klines, referencePrice, ticker24hr, tickerBookTicker, tickerPrice, tickerRolling, tickerTradingDay, trades, uiKlines } from './spot/market-data.ts';
import { amendKeepPriority, orderAmendments } from './spot/amend.ts';
import { cancelReplace } from './spot/cancel-replace.ts';
import { allOrderLists, cancelOrderList, getOrderList, newLegacyOco, newOcoList, newOpocoList, newOpoList, newOtocoList, newOtoList, openOrderLists } from './spot/order-lists.ts';
import { myAllocations, sorOrder, sorOrderTest } from './spot/sor.ts';
import { cancelOpenOrders, cancelOrder, newOrder, testOrder } from './spot/trading.ts';
import { closeUserStream, keepAliveUserStream, openUserStream } from './spot/user-stream.ts';
import { closeFuturesUserStream, keepAliveFuturesUserStream, openFuturesUserStream } from './futures-trading/futures-user-stream.ts';
import * as futuresOrders from './futures-trading/futures-orders.ts';
import { futuresForceOrders } from './futures-trading/futures-force-orders.ts';
import * as futuresAccount from './futures-trading/futures-account.ts';
import * as futuresSettings from './futures-trading/futures-settings.ts';
import * as futuresAlgo from './futures-trading/futures-algo-orders.ts';
import { futuresTransfer, futuresTransferHistory, transferHistory, universalTransfer } from './sapi/futures-transfer.ts';

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
  // ---- USDⓈ-M futures trading (issue 28; endpoints/futures-trading/, docs/usdm-futures.md) ----
  futuresOrders.newFuturesOrder,
  futuresOrders.modifyFuturesOrder,
  futuresOrders.futuresModifyBatchOrders,
  futuresOrders.cancelFuturesOrder,
  futuresOrders.getFuturesOrder,
  futuresOrders.getFuturesOpenOrder,
  futuresOrders.futuresOpenOrders,
  futuresOrders.futuresAllOrders,
  futuresOrders.futuresCancelAllOpenOrders,
  futuresOrders.futuresBatchOrders,
  futuresOrders.futuresCancelBatchOrders,
  futuresOrders.futuresUserTrades,
  futuresForceOrders,
  futuresOrders.futuresCountdownCancelAll,
  futuresAccount.futuresAccountV2,
  futuresAccount.futuresAccountV3,
  futuresAccount.futuresBalanceV2,
  futuresAccount.futuresBalanceV3,
  futuresAccount.futuresPositionRiskV2,
  futuresAccount.futuresPositionRiskV3,
  futuresAccount.futuresIncome,
  futuresSettings.futuresLeverage,
  futuresSettings.futuresMarginType,
  futuresSettings.getPositionSideDual,
  futuresSettings.setPositionSideDual,
  futuresSettings.getMultiAssetsMargin,
  futuresSettings.setMultiAssetsMargin,
  futuresSettings.futuresPositionMargin,
  futuresSettings.futuresSymbolConfig,
  futuresSettings.leverageBracket,
  futuresSettings.futuresCommissionRate,
  futuresAlgo.newAlgoOrder,
  futuresAlgo.getAlgoOrder,
  futuresAlgo.cancelAlgoOrder,
  futuresAlgo.cancelAllAlgoOrders,
  futuresAlgo.openAlgoOrders,
  futuresAlgo.allAlgoOrders,
  openFuturesUserStream,
  keepAliveFuturesUserStream,
  closeFuturesUserStream,
  // Transfers between the spot and USDⓈ-M futures wallets
  universalTransfer,
  transferHistory,
  futuresTransfer,
  futuresTransferHistory,
  // Account-side supplementary endpoints
  pmAccountInfo,
  fiatDeposit,
  payTransactions,
  equityDisclaimer,
]);

/**
 * Rows by method, then path. Two lookups rather than one by `${method} ${path}`: that key was a
 * new string on every request, built and hashed each time, where a path the caller already
 * holds (the in-process client's constants, the HTTP path slice) is hashed at most once.
 */
const BY_ROUTE = new Map<string, Map<string, Endpoint>>();
for (const row of ENDPOINTS) {
  let byPath = BY_ROUTE.get(row.method);
  if (byPath === undefined) {
    byPath = new Map();
    BY_ROUTE.set(row.method, byPath);
  }
  // A table bug: fail when the module loads.
  if (byPath.has(row.path)) throw new Error(`endpoint ${row.method} ${row.path} declared twice`);
  byPath.set(row.path, row);
}

/** The row for a method and path (exact match), or undefined. */
export function findEndpoint(method: string, path: string): Endpoint | undefined {
  return BY_ROUTE.get(method)?.get(path);
}

export type { Endpoint, HttpMethod };

/** A plain-text listing for docs and `--help`: method, path, security, weight, summary. */
export function describeEndpoints(): string {
  return ENDPOINTS.map((row) => {
    const weight = typeof row.weight === 'number' ? String(row.weight) : 'by params';
    return `${row.method.padEnd(6)} ${row.path.padEnd(28)} ${row.security.padEnd(11)} weight ${weight.padEnd(9)} ${row.summary}`;
  }).join('\n');
}
