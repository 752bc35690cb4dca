/**
 * What the facade may read of the engine: every query, never `apply`. `MarketBackend.engine` has
 * this type, so commands can only go through the backend's `apply` (stamped with simulated now),
 * and from a handler only through `call.send` (engine-round-trip.ts).
 */
import type { Engine } from '../engine/index.ts';

export type EngineQueries = Omit<Engine, 'apply'>;
