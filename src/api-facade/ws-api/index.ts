/**
 * Binance's WebSocket API, transport-agnostic: `ws-api-connection.ts` is one connection
 * (envelope, dispatch, answer framing with rateLimits, session state, user data subscriptions),
 * `ws-api-methods.ts` maps each method onto a row of the endpoint table (no second
 * implementation) and is spot's venue (/ws-api/v3), `ws-fapi-methods.ts` the USDⓈ-M futures venue
 * (/ws-fapi/v1: its methods on the /fapi rows, the futures limits), `ws-api-params.ts` reads JSON params, `ws-api-authenticator.ts` is the
 * pipeline's authentication stage for it. The socket adapter is transport/ws-api-sockets.ts.
 *
 * Rules: imports rest/ and the rooms below; never transport/. Pure.
 */
export { WsApiConnection, type WsApiConnectionOptions } from './ws-api-connection.ts';
export { SPOT_WS_API, type WsApiVenue, wsApiMethodNames } from './ws-api-methods.ts';
export { FUTURES_WS_API } from './ws-fapi-methods.ts';
