/**
 * What the facade may read of the engine: every query, never `apply` (the engine's
 * `EngineQueries`, which `Engine` extends). `MarketBackend.engine` has this type, so commands can
 * only go through the backend's `apply` (stamped with simulated now), and from a handler only
 * through `call.send` (engine-round-trip.ts).
 */
export type { EngineQueries } from '../engine/index.ts';
