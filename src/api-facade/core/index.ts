/**
 * The facade's ground floor, imported by every other room: THE error table (`exchange-errors.ts`:
 * every error the exchange answers, keyed; `apiError(key)` at the sites), `ApiError`, engine
 * refusals mapped to it (`reject-errors.ts`, the one place reasons become wire errors), the raw
 * HTTP refusal for a socket, the backend contract (`MarketBackend`, its hooks, `EngineBackend`,
 * `WrappedBackend`) and the append-only `RecordLog`.
 *
 * Rules: imports no other room. Pure: no wall clock, no randomness, no timers.
 */
export { ApiError } from './api-error.ts';
export { EXCHANGE_ERRORS, apiError, errorOf, templateOf, withDetails, type ErrorTemplate, type ErrorKey, type FixedErrorKey } from './exchange-errors.ts';
export { matchingEngineError, rejectToApiError, type RejectContext } from './reject-errors.ts';
export { rawErrorResponse } from './raw-error-response.ts';
export { EngineBackend, WrappedBackend, type FacadeCommand, type MarketBackend, type MarketHooks } from './market-backend.ts';
export { RecordLog } from './record-log.ts';
