/**
 * The backtest's view of a market folder. Opening folders, choosing each symbol's source and
 * cutting it to the window live in the data layer (src/data/market-folder.ts, tape-sources.ts,
 * depth-sources.ts); what stays here is the one step the data layer cannot take: walking klines
 * into prints along the adaptive intra-bar path (src/sim/kline-tape.ts; each print's id says bar,
 * path and leg, so a fill explains itself), bound into `windowedTape` and `loadSharedTapes`.
 */
import { loadSharedTapes as loadShared, windowedTape as windowed, SHARED_TAPE_MAX_ROWS, type KlinePrints, type MarketData, type SharedTape, type SymbolTape } from '../data/index.ts';
import { KlineTape } from '../sim/index.ts';

export {
  cacheWindow,
  MARKET_CONFIG_FILE,
  openMarketData,
  chooseSymbols,
  sourceFiles,
  tradeFiles,
  windowGaps,
  resolveWindow,
  tapeFromShared,
  SHARED_TAPE_MAX_ROWS,
  type MarketData,
  type MarketSource,
  type DataFile,
  type SourceFiles,
  type DataGap,
  type SharedTape,
} from '../data/index.ts';

/** Klines walked into prints on the adaptive intra-bar path. */
export const adaptiveKlinePrints: KlinePrints = (klines, grid) => new KlineTape({ klines, path: 'adaptive', grid });

/** The tape of one symbol from its finest source, only the prints stamped in [from, to) (klines walked on the adaptive path). */
export function windowedTape(data: MarketData, symbol: string, from: number, to: number): Promise<SymbolTape> {
  return windowed(data, symbol, from, to, adaptiveKlinePrints);
}

/** The windowed tapes of `symbols` in shared memory, or null when they hold more than `maxRows` rows. */
export function loadSharedTapes(data: MarketData, symbols: readonly string[], from: number, to: number, maxRows = SHARED_TAPE_MAX_ROWS): Promise<SharedTape[] | null> {
  return loadShared(data, symbols, from, to, maxRows, adaptiveKlinePrints);
}
