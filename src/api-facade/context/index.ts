/**
 * What a request is served against: `ExchangeContext` (the backend, the key registry, the
 * limiters, listen keys, the streams, the account services, the faults, the client clock rule),
 * the one way a handler reaches the engine (`engine-round-trip.ts`, `call.send`), the injected
 * faults, and the facade's own state as plain data (`facade-state.ts`: what the served exchange
 * journals and snapshots of it).
 *
 * Rules: imports the rooms below it (core/, params/, signing/, limits/, serialize/,
 * account-services/, streams/), never the endpoints or the transports. Pure.
 */
export { ExchangeContext, IDENTITY_CLIENT_TIME, type LimitGroup, type ClientTimeRule, type ExchangeContextOptions, type SorGroup } from './exchange-context.ts';
export { sendToEngine, type Refusal } from './engine-round-trip.ts';
export { priceOfMatch } from './futures-price-match.ts';
export { engineTimeout, firewallBlocked, type FaultOptions } from './faults.ts';
export { FacadeStateMerger, captureFacadeChanges, captureFacadeState, isEmptyFacadeChange, restoreFacadeState, type FacadeState } from './facade-state.ts';
