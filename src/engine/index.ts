/**
 * exsim's matching engine: the exchange state machine. Commands in (each with its simulated
 * time in µs), events out. Pure: no clock, no I/O; the only randomness is the synthetic book's,
 * from seedrandom streams named by the seed its command carries. Nothing here knows HTTP or
 * Binance error codes (rejections are `RejectReason` values the API facade maps).
 *
 * Invariants: see engine.ts. Amount units: see commands.ts.
 */
export { Engine } from './engine.ts';
export { EngineQueries } from './engine-queries.ts';
export { Journal, JournaledEngine, rebuildFromJournal } from './journal.ts';
export { journalLine, printJournalLine, type JournalEntry } from './journal-line.ts';
export { parseUnits, formatUnits } from './units.ts';
export { generateClientOrderId } from './client-order-id.ts';
export type * from './commands.ts';
export type * from './events.ts';
export type * from './views.ts';
export type * from './types.ts';
export type * from './symbol-config.ts';
export type { RejectReason, FilterRejectReason } from './reject-reason.ts';
export { RATE_SCALE, type SymbolSpec } from './symbol-spec.ts';
export { STP_MODES, TERMINAL_STATUSES } from './types.ts';
export { ALL_ORDER_TYPES } from './symbol-config.ts';
export { ORDER_TYPE_FIELDS, ORDER_TYPES, orderTypesWhere, type FieldUse, type OrderTypeFields } from './order-type-fields.ts';
export type { LadderProfile } from './liquidity/synthetic-ladder.ts';
export type { DepthBookMode } from './liquidity/depth-book.ts';
export { DEFAULT_FLOW_RATE, DEFAULT_FLOW_STEP_MICROS, flowProfileProblem, type FlowProfile } from './liquidity/order-flow.ts';
export { SYNTHETIC_MAKER } from './fills/execute-fill.ts';
export { futuresEngineSymbol, fapiSymbolOf, isFuturesSymbol, futuresWalletAsset, spotAssetOf, isFuturesAsset, FUTURES_PREFIX, FUTURES_MARGIN_ASSETS } from './futures/futures-names.ts';
export type * from './futures/futures-views.ts';
export type { FuturesRejectReason } from './reject-reason.ts';
