/**
 * Builds the columnar tape cache (tape-cache.ts) for a market folder ahead of the first run, as
 * `exsim data import` does after writing the folder's rules: every data file of the symbols read
 * once through its kind's reader at the symbol's scale (the scale a replay reads it at), each file
 * on its own, so its entry is what a windowed read of any span of days reuses. Recordings are not
 * cached (their reader rebuilds the book across files); files under the cache's size floor are not
 * either, and reading them costs little.
 */
import { stat } from 'node:fs/promises';
import { RECORDING_KIND } from './data-file-name.ts';
import { depthKindInfo, type DepthKind } from './depth-kinds.ts';
import { symbolFiles, symbolScale, type DataFile, type MarketData } from './market-folder.ts';
import { AGG_TRADES_SCHEMA, TRADES_SCHEMA } from './dump-schema.ts';
import { isCached } from './read-dump.ts';
import { TARDIS_TRADES_SCHEMA } from './tardis-schema.ts';
import { readAggTrades } from './read-agg-trades.ts';
import { readDepth } from './read-depth.ts';
import { readKlines } from './read-klines.ts';
import { readTrades } from './read-trades.ts';
import { sourceFiles } from './tape-sources.ts';
import { tapeCache } from './tape-cache.ts';

async function drain(source: AsyncIterable<unknown>): Promise<void> {
  for await (const _batch of source);
}

/** Reads every cacheable file of `symbols` once; returns the paths read into the cache. */
export async function buildTapeCache(data: MarketData, symbols: readonly string[]): Promise<string[]> {
  const cache = tapeCache();
  if (cache === null) return [];
  const read: string[] = [];
  for (const symbol of symbols) {
    const scale = symbolScale(data, symbol);
    for (const file of await symbolFiles(data, symbol)) {
      const { kind } = file.name;
      if (kind === RECORDING_KIND || (await stat(file.path)).size < cache.minBytes) continue;
      if (kind === 'trades' || kind === 'tardis:trades') await drain(readTrades(file.path, { scale }));
      else if (kind === 'aggTrades') await drain(readAggTrades(file.path, { scale }));
      else if (kind === 'klines') await drain(readKlines(file.path, { scale }));
      else if (depthKindInfo(kind) !== undefined) await drain(readDepth(file.path, { scale, kind: kind as DepthKind }));
      else continue;
      read.push(file.path);
    }
  }
  return read;
}

/**
 * Whether every file the window's prints come from is in the cache, reading the missing ones into
 * it first: true when each symbol's prints are trades or aggTrades files (not klines, not
 * recordings) each large enough to be cached. A sweep's workers then stream the window from the
 * cache, which costs them no parse and no copy in shared memory; otherwise the sweep loads the
 * window once into shared memory as before.
 */
export async function cacheWindow(data: MarketData, symbols: readonly string[], from: number, to: number): Promise<boolean> {
  const cache = tapeCache();
  if (cache === null) return false;
  const chosen: { symbol: string; kind: string; files: readonly DataFile[] }[] = [];
  for (const symbol of symbols) {
    const { kind, files } = await sourceFiles(data, symbol, from, to);
    if (kind !== 'trades' && kind !== 'tardis:trades' && kind !== 'aggTrades') return false;
    for (const file of files) if ((await stat(file.path)).size < cache.minBytes) return false;
    chosen.push({ symbol, kind, files });
  }
  for (const { symbol, kind, files } of chosen) {
    const scale = symbolScale(data, symbol);
    const schema = kind === 'aggTrades' ? AGG_TRADES_SCHEMA : kind === 'tardis:trades' ? TARDIS_TRADES_SCHEMA : TRADES_SCHEMA;
    // Each file on its own, once: an entry any window of it reuses.
    for (const file of files) {
      if (await isCached(cache, { path: file.path, parsed: file.name, market: file.name.market }, schema, scale)) continue;
      await drain(kind === 'aggTrades' ? readAggTrades(file.path, { scale }) : readTrades(file.path, { scale }));
    }
  }
  return true;
}
