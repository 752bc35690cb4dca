/**
 * Streams Binance aggTrades dumps (spot's, or USDⓈ-M futures' under `futures/um/`) as arrays of AggTrade (times in µs, amounts in units).
 * aggTrades are a fraction of the trades' count, so objects are affordable here; batches keep
 * memory flat all the same.
 */
import type { AggTrade, UnitScale } from './tape.ts';
import { dumpSchema } from './dump-schema.ts';
import type { DataMarket } from './data-file-name.ts';
import { checkBatchSize, DEFAULT_BATCH_ROWS, readDump } from './read-dump.ts';
import { ArrayBatchBuilder } from './array-batch-builder.ts';
import { resolveDumpFiles, type DumpSource } from './dump-sources.ts';

export interface ReadAggTradesOptions {
  readonly scale: UnitScale;
  readonly symbol?: string;
  readonly batchSize?: number;
  /** Spot or USDⓈ-M futures files, when a folder holds both (each file's path says its own). */
  readonly market?: DataMarket;
}

export async function* readAggTrades(source: DumpSource, options: ReadAggTradesOptions): AsyncGenerator<AggTrade[]> {
  const size = checkBatchSize(options.batchSize ?? DEFAULT_BATCH_ROWS);
  const files = await resolveDumpFiles(source, { kind: 'aggTrades', symbol: options.symbol, market: options.market });
  // A USDⓈ-M dump has seven columns: no best-match flag (M reads false).
  yield* readDump(files, dumpSchema('aggTrades', files[0]!.market), options.scale, new ArrayBatchBuilder(size, toAggTrade));
}

/** All aggTrades of the source in one array: for a day or a test, not for a month. */
export async function loadAggTrades(source: DumpSource, options: ReadAggTradesOptions): Promise<AggTrade[]> {
  const all: AggTrade[] = [];
  for await (const batch of readAggTrades(source, options)) for (const t of batch) all.push(t);
  return all;
}

function toAggTrade(v: Float64Array): AggTrade {
  return { a: v[0]!, p: v[1]!, q: v[2]!, f: v[3]!, l: v[4]!, T: v[5]!, m: v[6] === 1, M: v[7] === 1 };
}
