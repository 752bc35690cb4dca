/**
 * The WebSocket API's methods (web-socket-api.md), each mapped onto a row of THE endpoint table
 * (endpoint-table.ts), so a method is validated, weighed, authenticated, limited and answered by
 * the same row and stages as its REST endpoint; only the transport differs.
 *
 * Methods with no REST endpoint (session.*, userDataStream.subscribe*, unsubscribe) are rows too,
 * declared here and kept out of the REST table: their parameters, weight (2), signature and
 * timestamp checks run through the same stages; what they do to the connection is the
 * connection's business (ws-api-connection.ts) once the stages passed.
 *
 * `permission` is the security type a method's key is checked against when it differs from the
 * row's: trades.historical is public on the WebSocket API (MARKET_DATA on REST: key only), and
 * userDataStream.subscribe.signature is signed (timestamp + signature) but needs USER_STREAM.
 * `userDataStream.start` / `.ping` / `.stop` are the listen-key methods the docs dropped in 2025
 * and @binance/connector still calls; they are REST's userDataStream rows.
 */
import { findEndpoint, type Endpoint, defineEndpoint, type HttpMethod } from '../endpoints/index.ts';
import { defineSchema, withSigned } from '../params/index.ts';
import type { SecurityType } from '../signing/index.ts';
import type { LimitGroup } from '../context/index.ts';

/** What the connection does after a session row passed the stages. */
export type SessionAction = 'logon' | 'status' | 'logout' | 'subscribe' | 'subscribeSignature' | 'unsubscribe' | 'subscriptions';

export interface WsApiMethod {
  readonly name: string;
  readonly row: Endpoint;
  /** The key's permission type, when not the row's security. */
  readonly permission: SecurityType;
  /** Set for the connection's own methods. */
  readonly session: SessionAction | undefined;
}

/**
 * One WebSocket API of the exchange: Binance serves spot's at /ws-api/v3 (ws-api.binance.com) and
 * USDⓈ-M futures' at /ws-fapi/v1 (ws-fapi.binance.com). The same connection class serves both;
 * the venue says which methods it has and whose rate limits its frames count against.
 */
export interface WsApiVenue {
  /** The connection path. */
  readonly path: string;
  /** Whose REQUEST_WEIGHT and ORDERS limits the venue's requests count against (endpoint-row.ts). */
  readonly limitGroup: LimitGroup;
  /** The method of a request's `method` name, or undefined. */
  find(name: string): WsApiMethod | undefined;
  /** Every method name, for docs and tests. */
  names(): readonly string[];
}

const SESSION_WEIGHT = 2;

/**
 * A WebSocket-API-only row: weight 2, its parameters, nothing done by the handler itself. Counted
 * against `limitGroup` (a futures venue's session rows against the futures limits).
 */
export function sessionRow(name: string, security: SecurityType, signed: boolean, schema: ReturnType<typeof defineSchema>, limitGroup: LimitGroup = 'SPOT'): Endpoint {
  const row = defineEndpoint({
    method: 'POST',
    path: `ws-api:${name}`,
    security: signed ? 'USER_DATA' : security,
    weight: SESSION_WEIGHT,
    schema,
    summary: `WebSocket API ${name}`,
    handler: () => null,
  });
  return limitGroup === row.limitGroup ? row : { ...row, limitGroup };
}

export const NO_PARAMS = defineSchema([]);
export const SIGNED_ONLY = defineSchema(withSigned([]));
const UNSUBSCRIBE = defineSchema([{ name: 'subscriptionId', kind: 'INT' }]);

const ROUTES: readonly WsApiRoute[] = [
  ['ping', 'GET', '/api/v3/ping'],
  ['time', 'GET', '/api/v3/time'],
  ['exchangeInfo', 'GET', '/api/v3/exchangeInfo'],
  ['executionRules', 'GET', '/api/v3/executionRules'],
  ['depth', 'GET', '/api/v3/depth'],
  ['trades.recent', 'GET', '/api/v3/trades'],
  ['trades.historical', 'GET', '/api/v3/historicalTrades', 'NONE'],
  ['trades.aggregate', 'GET', '/api/v3/aggTrades'],
  ['klines', 'GET', '/api/v3/klines'],
  ['uiKlines', 'GET', '/api/v3/uiKlines'],
  ['avgPrice', 'GET', '/api/v3/avgPrice'],
  ['referencePrice', 'GET', '/api/v3/referencePrice'],
  ['referencePrice.calculation', 'GET', '/api/v3/referencePrice/calculation'],
  ['ticker.24hr', 'GET', '/api/v3/ticker/24hr'],
  ['ticker.tradingDay', 'GET', '/api/v3/ticker/tradingDay'],
  ['ticker', 'GET', '/api/v3/ticker'],
  ['ticker.price', 'GET', '/api/v3/ticker/price'],
  ['ticker.book', 'GET', '/api/v3/ticker/bookTicker'],
  ['order.place', 'POST', '/api/v3/order'],
  ['order.test', 'POST', '/api/v3/order/test'],
  ['order.status', 'GET', '/api/v3/order'],
  ['order.cancel', 'DELETE', '/api/v3/order'],
  ['order.cancelReplace', 'POST', '/api/v3/order/cancelReplace'],
  ['order.amend.keepPriority', 'PUT', '/api/v3/order/amend/keepPriority'],
  ['order.amendments', 'GET', '/api/v3/order/amendments'],
  ['openOrders.status', 'GET', '/api/v3/openOrders'],
  ['openOrders.cancelAll', 'DELETE', '/api/v3/openOrders'],
  ['orderList.place', 'POST', '/api/v3/order/oco'],
  ['orderList.place.oco', 'POST', '/api/v3/orderList/oco'],
  ['orderList.place.oto', 'POST', '/api/v3/orderList/oto'],
  ['orderList.place.otoco', 'POST', '/api/v3/orderList/otoco'],
  ['orderList.place.opo', 'POST', '/api/v3/orderList/opo'],
  ['orderList.place.opoco', 'POST', '/api/v3/orderList/opoco'],
  ['orderList.status', 'GET', '/api/v3/orderList'],
  ['orderList.cancel', 'DELETE', '/api/v3/orderList'],
  ['openOrderLists.status', 'GET', '/api/v3/openOrderList'],
  ['sor.order.place', 'POST', '/api/v3/sor/order'],
  ['sor.order.test', 'POST', '/api/v3/sor/order/test'],
  ['account.status', 'GET', '/api/v3/account'],
  ['account.commission', 'GET', '/api/v3/account/commission'],
  ['account.rateLimits.orders', 'GET', '/api/v3/rateLimit/order'],
  ['allOrders', 'GET', '/api/v3/allOrders'],
  ['allOrderLists', 'GET', '/api/v3/allOrderList'],
  ['myTrades', 'GET', '/api/v3/myTrades'],
  ['myPreventedMatches', 'GET', '/api/v3/myPreventedMatches'],
  ['myAllocations', 'GET', '/api/v3/myAllocations'],
  ['myFilters', 'GET', '/api/v3/myFilters'],
  ['userDataStream.start', 'POST', '/api/v3/userDataStream'],
  ['userDataStream.ping', 'PUT', '/api/v3/userDataStream'],
  ['userDataStream.stop', 'DELETE', '/api/v3/userDataStream'],
];

const SESSION_METHODS: readonly WsApiSessionMethod[] = [
  ['session.logon', 'logon', sessionRow('session.logon', 'USER_DATA', true, SIGNED_ONLY), 'USER_DATA'],
  ['session.status', 'status', sessionRow('session.status', 'NONE', false, NO_PARAMS), 'NONE'],
  ['session.logout', 'logout', sessionRow('session.logout', 'NONE', false, NO_PARAMS), 'NONE'],
  ['session.subscriptions', 'subscriptions', sessionRow('session.subscriptions', 'NONE', false, NO_PARAMS), 'NONE'],
  ['userDataStream.subscribe', 'subscribe', sessionRow('userDataStream.subscribe', 'NONE', false, NO_PARAMS), 'NONE'],
  ['userDataStream.subscribe.signature', 'subscribeSignature', sessionRow('userDataStream.subscribe.signature', 'USER_STREAM', true, SIGNED_ONLY), 'USER_STREAM'],
  ['userDataStream.unsubscribe', 'unsubscribe', sessionRow('userDataStream.unsubscribe', 'NONE', false, UNSUBSCRIBE), 'NONE'],
];

/** A route: a method name onto a row of the endpoint table (`permission` when not the row's security). */
export type WsApiRoute = readonly [name: string, method: HttpMethod, path: string, permission?: SecurityType];
/** A connection's own method: its action once the stages passed, its row, the key's permission. */
export type WsApiSessionMethod = readonly [name: string, action: SessionAction, row: Endpoint, permission: SecurityType];

/** The methods of a venue by name: each route's row looked up in the endpoint table (a missing row fails when the module loads). */
export function methodTable(routes: readonly WsApiRoute[], sessionMethods: readonly WsApiSessionMethod[]): Map<string, WsApiMethod> {
  const byName = new Map<string, WsApiMethod>();
  for (const [name, method, path, permission] of routes) {
    const row = findEndpoint(method, path);
    // A table bug: fail when the module loads.
    if (row === undefined) throw new Error(`WebSocket API method ${name}: no endpoint ${method} ${path}`);
    byName.set(name, { name, row, permission: permission ?? row.security, session: undefined });
  }
  for (const [name, session, row, permission] of sessionMethods) byName.set(name, { name, row, permission, session });
  return byName;
}

const BY_NAME = methodTable(ROUTES, SESSION_METHODS);

const VERSION_PREFIX = 'v3/';

/** The method of a request's `method` name (an explicit `v3/` prefix is allowed), or undefined. */
export function findWsApiMethod(name: string): WsApiMethod | undefined {
  return BY_NAME.get(name.startsWith(VERSION_PREFIX) ? name.slice(VERSION_PREFIX.length) : name);
}

/** Every method name, for docs and tests. */
export function wsApiMethodNames(): readonly string[] {
  return [...BY_NAME.keys()];
}

/** Spot's WebSocket API (wss://ws-api.binance.com:443/ws-api/v3). */
export const SPOT_WS_API: WsApiVenue = {
  path: '/ws-api/v3',
  limitGroup: 'SPOT',
  find: findWsApiMethod,
  names: wsApiMethodNames,
};
