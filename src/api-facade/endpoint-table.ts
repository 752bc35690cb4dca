/**
 * THE endpoint table: one row per endpoint the facade serves (rows in endpoints/*.ts). Routing,
 * parameter validation, weights, order counts, authentication, the in-process client and the
 * docs listing (`describeEndpoints`) all read this array; nothing else knows an endpoint.
 *
 * Spec endpoints NOT yet in the table (answer 404 like any unknown path):
 * - General: GET /api/v3/executionRules.
 * - Market data: GET /api/v3/referencePrice/calculation (the engine's reference price is set
 *   explicitly; it has no calculation object to show).
 * Beyond the spec's endpoint tables (which say "Further trading endpoints (order lists, SOR
 * orders, order amendment): not shown"), the table serves them as binance-facts §5.10-5.13
 * document them: order lists (POST order/oco, orderList/oco|oto|otoco|opo|opoco, DELETE
 * orderList), amend keepPriority, SOR (sor/order, sor/order/test).
 * Beyond the spot API, the table serves the /sapi, /fapi and /dapi endpoints third-party
 * libraries call while loading markets (endpoints/market-loaders.ts).
 */
import type { Endpoint, HttpMethod } from './endpoints/endpoint-row.ts';
import { account, accountCommission, allOrders, getOrder, myFilters, myPreventedMatches, myTrades, openOrders, rateLimitOrder } from './endpoints/account.ts';
import { exchangeInfo, ping, time } from './endpoints/general.ts';
import {
  capitalConfigGetAll,
  coinMarginedExchangeInfo,
  isolatedMarginAllPairs,
  marginAllPairs,
  usdMarginedExchangeInfo,
} from './endpoints/market-loaders.ts';
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
  usdMarginedExchangeInfo,
  coinMarginedExchangeInfo,
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

/** Whether any row has this path (another method), for the 404 text. */
export function hasPath(path: string): boolean {
  return ENDPOINTS.some((row) => row.path === path);
}

export type { Endpoint, HttpMethod };

/** A plain-text listing for docs and `--help`: method, path, security, weight, summary. */
export function describeEndpoints(): string {
  return ENDPOINTS.map((row) => {
    const weight = typeof row.weight === 'number' ? String(row.weight) : 'by params';
    return `${row.method.padEnd(6)} ${row.path.padEnd(28)} ${row.security.padEnd(11)} weight ${weight.padEnd(9)} ${row.summary}`;
  }).join('\n');
}
