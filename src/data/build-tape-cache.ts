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
import { symbolFiles, symbolScale, type MarketData } from './market-folder.ts';
import { readAggTrades } from './read-agg-trades.ts';
import { readDepth } from './read-depth.ts';
import { readKlines } from './read-klines.ts';
import { readTrades } from './read-trades.ts';
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
