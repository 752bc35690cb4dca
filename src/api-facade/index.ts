/**
 * exsim's Binance-style exchange surface: the REST API, the market and user data streams, the
 * WebSocket API.
 *
 * Entry points: `handleRequest(ctx, request)` (the one transport seam), `ExsimHttpServer`
 * (node:http adapter; also the streams and the WebSocket API at /ws-api/v3, whose connections are
 * `WsApiConnection`s), `InProcessClient` (no sockets), `ExchangeContext` (what requests are
 * served against), `ENDPOINTS` (the one endpoint table).
 *
 * Rooms, from the ground up, each with its index.ts (a room imports only rooms below it):
 * core · params, signing, limits, serialize · account-services, streams · context · endpoints ·
 * rest · ws-api · transport. ARCHITECTURE.md draws them.
 *
 * Rules: the facade reads no wall clock, draws no random numbers and starts no timers outside
 * transport/ (socket I/O, keepalive, the stream pump's tick); time is the backend's simulated
 * time. It uses the engine only through its public queries and the backend's `apply`. It imports
 * nothing from src/sim: a `Replay` is a `MarketBackend` structurally.
 */
export { ApiError, EngineBackend, WrappedBackend, type FacadeCommand, type MarketBackend, type MarketHooks, apiError } from './core/index.ts';
export { ExchangeContext, IDENTITY_CLIENT_TIME, type ClientTimeRule, type ExchangeContextOptions, type SorGroup, type FaultOptions, captureFacadeChanges, captureFacadeState, FacadeStateMerger, isEmptyFacadeChange, restoreFacadeState, type FacadeState } from './context/index.ts';
export { ENDPOINTS, describeEndpoints, findEndpoint, type Endpoint, type EndpointDef, type HandlerCall, type HttpMethod } from './endpoints/index.ts';
export { handleRequest, type ApiRequest, type ApiResponse, InProcessClient, type ClientResponse, type InProcessClientOptions, type ParamValue, checkTimestamp, DEFAULT_RECV_WINDOW_US } from './rest/index.ts';
export { ExsimHttpServer, type HttpServerOptions, DEFAULT_SEND_BUDGET, DEFAULT_WS_API_LIMITS, type SendBudgetLimits, FUTURES_WS_API_PATH, WS_API_PATH, type WsApiLimits } from './transport/index.ts';
export { FUTURES_WS_API, SPOT_WS_API, WsApiConnection, type WsApiConnectionOptions, type WsApiVenue, wsApiMethodNames } from './ws-api/index.ts';
export { ListenKeyStore, LISTEN_KEY_LIFETIME_US, MarketFeed, type StreamSink, type StreamVenue, FeedDriver, type FeedClock, type ScheduleAt, isFuturesOnlyName } from './streams/index.ts';
export type { RateLimit } from './limits/index.ts';
export { nestingBeyond } from './params/index.ts';
