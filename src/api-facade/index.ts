/**
 * exsim's Binance-style spot REST facade.
 *
 * Entry points: `handleRequest(ctx, request)` (the one transport seam), `ExsimHttpServer`
 * (node:http adapter; also the WebSocket API at /ws-api/v3, whose connections are
 * `WsApiConnection`s), `InProcessClient` (no sockets), `ExchangeContext` (what requests are
 * served against), `ENDPOINTS` (the one endpoint table).
 *
 * Rules: the facade reads no wall clock, draws no random numbers and starts no timers (the HTTP
 * adapter's socket handling aside); time is the backend's simulated time. It uses the engine
 * only through its public queries and the backend's `apply`. It imports nothing from src/sim:
 * a `Replay` is a `MarketBackend` structurally.
 */
export { ApiError } from './core/api-error.ts';
export { ExchangeContext, IDENTITY_CLIENT_TIME, type ClientTimeRule, type ExchangeContextOptions, type SorGroup } from './context/exchange-context.ts';
export { EngineBackend, WrappedBackend, type FacadeCommand, type MarketBackend, type MarketHooks } from './core/market-backend.ts';
export { ENDPOINTS, describeEndpoints, findEndpoint } from './endpoints/endpoint-table.ts';
export type { Endpoint, EndpointDef, HandlerCall, HttpMethod } from './endpoints/endpoint-row.ts';
export { handleRequest, type ApiRequest, type ApiResponse } from './rest/handle-request.ts';
export { ExsimHttpServer, type HttpServerOptions } from './transport/http-server.ts';
export { WsApiConnection, type WsApiConnectionOptions } from './ws-api/ws-api-connection.ts';
export { DEFAULT_WS_API_LIMITS, WS_API_PATH, type WsApiLimits } from './transport/ws-api-sockets.ts';
export { wsApiMethodNames } from './ws-api/ws-api-methods.ts';
export { InProcessClient, type ClientResponse, type InProcessClientOptions, type ParamValue } from './rest/in-process-client.ts';
export { ListenKeyStore, LISTEN_KEY_LIFETIME_US } from './streams/listen-keys.ts';
export { checkTimestamp, DEFAULT_RECV_WINDOW_US, MSG_AHEAD_OF_SERVER, MSG_OUTSIDE_RECV_WINDOW } from './rest/timing.ts';
export type { FaultOptions } from './context/faults.ts';
export { captureFacadeChanges, captureFacadeState, FacadeStateMerger, isEmptyFacadeChange, restoreFacadeState, type FacadeState } from './context/facade-state.ts';
export type { RateLimit } from './limits/rate-limit-config.ts';
export { MarketFeed, type StreamSink } from './streams/market-feed.ts';
export { FeedDriver, type FeedClock, type ScheduleAt } from './streams/feed-driver.ts';
export { apiError } from './core/exchange-errors.ts';
