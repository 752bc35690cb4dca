/**
 * The USDⓈ-M futures WebSocket API (Binance: wss://ws-fapi.binance.com/ws-fapi/v1; here
 * `/ws-fapi/v1` on the HTTP server's port), each method mapped onto a /fapi row of THE endpoint
 * table, as ws-api-methods.ts does for spot: validation, weight, ORDERS count, signature,
 * timestamp, errors and answer are the REST row's, and every request counts against the futures
 * API's own limits (REQUEST_WEIGHT 2400/min per IP, ORDERS per account; futures facts §1).
 *
 * The method names are Binance's (the official SDK @binance/derivatives-trading-usds-futures,
 * its websocket-api modules; ccxt binance.ts `ws-fapi`; the `binance` package's
 * WebsocketAPIClient). The unversioned account methods answer as the v2 REST endpoints, the
 * `v2/` ones as the v3 endpoints (the SDK's response types: `account.position` has `leverage`,
 * `maxNotionalValue`, `isAutoAddMargin` as GET /fapi/v2/positionRisk; `v2/account.position`
 * has `initialMargin`, `maintMargin`, `adl` as /fapi/v3/positionRisk; the same split for
 * account.status and account.balance). A `v2/` prefix is part of the name here, not an alias.
 *
 * The session methods are spot's (session.logon takes Ed25519 keys only), counted against the
 * futures limits. ws-fapi has no userDataStream.subscribe: its user data goes through the listen
 * key methods and the stream host.
 */
import type { SecurityType } from '../signing/index.ts';
import { methodTable, NO_PARAMS, sessionRow, SIGNED_ONLY, type WsApiRoute, type WsApiSessionMethod, type WsApiVenue } from './ws-api-methods.ts';

const ROUTES: readonly WsApiRoute[] = [
  ['depth', 'GET', '/fapi/v1/depth'],
  ['ticker.price', 'GET', '/fapi/v1/ticker/price'],
  ['ticker.book', 'GET', '/fapi/v1/ticker/bookTicker'],
  ['order.place', 'POST', '/fapi/v1/order'],
  ['order.modify', 'PUT', '/fapi/v1/order'],
  ['order.cancel', 'DELETE', '/fapi/v1/order'],
  ['order.status', 'GET', '/fapi/v1/order'],
  ['algoOrder.place', 'POST', '/fapi/v1/algoOrder'],
  ['algoOrder.cancel', 'DELETE', '/fapi/v1/algoOrder'],
  ['account.position', 'GET', '/fapi/v2/positionRisk'],
  ['v2/account.position', 'GET', '/fapi/v3/positionRisk'],
  ['account.balance', 'GET', '/fapi/v2/balance'],
  ['v2/account.balance', 'GET', '/fapi/v3/balance'],
  ['account.status', 'GET', '/fapi/v2/account'],
  ['v2/account.status', 'GET', '/fapi/v3/account'],
  ['userDataStream.start', 'POST', '/fapi/v1/listenKey'],
  ['userDataStream.ping', 'PUT', '/fapi/v1/listenKey'],
  ['userDataStream.stop', 'DELETE', '/fapi/v1/listenKey'],
];

function futuresSession(name: string, security: SecurityType, signed: boolean): ReturnType<typeof sessionRow> {
  return sessionRow(name, security, signed, signed ? SIGNED_ONLY : NO_PARAMS, 'USDM');
}

const SESSION_METHODS: readonly WsApiSessionMethod[] = [
  ['session.logon', 'logon', futuresSession('session.logon', 'USER_DATA', true), 'USER_DATA'],
  ['session.status', 'status', futuresSession('session.status', 'NONE', false), 'NONE'],
  ['session.logout', 'logout', futuresSession('session.logout', 'NONE', false), 'NONE'],
];

const BY_NAME = methodTable(ROUTES, SESSION_METHODS);

/** USDⓈ-M futures' WebSocket API. */
export const FUTURES_WS_API: WsApiVenue = {
  path: '/ws-fapi/v1',
  limitGroup: 'USDM',
  find: (name) => BY_NAME.get(name),
  names: () => [...BY_NAME.keys()],
};
