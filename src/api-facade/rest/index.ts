/**
 * The request pipeline (`handle-request.ts`, its stages and their errors drawn in its header):
 * route, time unit, parameters, IP weight, API key and signature, timestamp (`timing.ts`), order
 * count, handler, answer with the limit headers. `handleRequest` is the one transport seam;
 * `serveEndpoint` enters it at the parameters for a transport that routed and authenticates on
 * its own (the WebSocket API); `InProcessClient` is its twin without sockets.
 *
 * Rules: imports endpoints/, context/ and the rooms below; never ws-api/ or transport/. Pure.
 */
export { handleRequest, serveEndpoint, type ApiRequest, type ApiResponse, type EndpointOutcome, type RequestAuthenticator } from './handle-request.ts';
export { InProcessClient, type ClientResponse, type InProcessClientOptions, type ParamValue } from './in-process-client.ts';
export { DEFAULT_RECV_WINDOW_US, checkTimestamp } from './timing.ts';
