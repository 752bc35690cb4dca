/**
 * Bytes in and out: the node:http server (`http-server.ts`, routing /exsim/ to a control plane
 * when given one), the WebSocket adapters of the market and user data streams
 * (`stream-sockets.ts`) and of the WebSocket API (`ws-api-sockets.ts`), what both share at the
 * upgrade and per connection (`connection-admission.ts`: attempts and open connections per IP,
 * the time unit, incoming message rates), Binance's transport rules on the wall clock
 * (`keepalive.ts`) and the one budget for what slow readers have queued (`send-budget.ts`).
 *
 * Rules: the top room; nothing in the facade imports it but the facade's index. The facade's one
 * named wall-clock exception: keepalive and the pump tick run on host time (each line marked
 * `determinism-ok`); what they deliver is stamped in simulated time.
 */
export { ExsimHttpServer, type ControlPlane, type HttpServerOptions } from './http-server.ts';
export { DEFAULT_WS_API_LIMITS, FUTURES_WS_API_PATH, WS_API_PATH, type WsApiLimits } from './ws-api-sockets.ts';
export { DEFAULT_SEND_BUDGET, type SendBudgetLimits } from './send-budget.ts';
