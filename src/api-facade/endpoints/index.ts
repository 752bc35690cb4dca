/**
 * THE endpoint table (`endpoint-table.ts`) and its rows: `spot/` (/api/v3), `futures/` (/fapi,
 * /dapi, /futures/data), `sapi/` (the /sapi account services and the calls libraries make while
 * loading markets). A row declares method, path, security, weight, order count, parameter schema
 * and handler (`endpoint-row.ts`); shared helpers are `common.ts` and each group's own
 * (`spot/order-request.ts`, `spot/order-answers.ts`, `futures/futures-common.ts`).
 *
 * Rules: rows import shared helpers, never another row, and reach the engine only through
 * `call.send`; the room imports context/ and the rooms below it, never rest/, ws-api/ or
 * transport/. Pure.
 */
export { ENDPOINTS, describeEndpoints, findEndpoint } from './endpoint-table.ts';
export { defineEndpoint, weightOf, type Endpoint, type EndpointDef, type HandlerCall, type HttpMethod } from './endpoint-row.ts';
