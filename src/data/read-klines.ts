/**
 * Streams Binance klines dumps (spot's, or USDⓈ-M futures' under `futures/um/`) (any interval, 1s included) as arrays of Kline in engine
 * units. Open and close times become µs; a ms close time (…59999) becomes the last µs of that
 * millisecond (…59999999), i.e. openTime + interval - 1 µs as in µs files.
 */
import type { Kline, KlineInterval, UnitScale } from './tape.ts';
import { KLINES_SCHEMA } from './dump-schema.ts';
import { checkBatchSize, DEFAULT_BATCH_ROWS, readDump } from './read-dump.ts';
import { resolveDumpFiles, type DumpSource } from './dump-sources.ts';
import { ArrayBatchBuilder } from './array-batch-builder.ts';
import type { DataMarket } from './data-file-name.ts';

export interface ReadKlinesOptions {
  readonly scale: UnitScale;
  readonly symbol?: string;
  /** Which interval, when a folder holds several. */
  readonly interval?: KlineInterval;
  readonly batchSize?: number;
  /** Spot or USDⓈ-M futures files, when a folder holds both (the two markets' klines share a layout; futures files have a header row). */
  readonly market?: DataMarket;
}

export async function* readKlines(source: DumpSource, options: ReadKlinesOptions): AsyncGenerator<Kline[]> {
  const size = checkBatchSize(options.batchSize ?? DEFAULT_BATCH_ROWS);
  const files = await resolveDumpFiles(source, { kind: 'klines', symbol: options.symbol, interval: options.interval, market: options.market });
  yield* readDump(files, KLINES_SCHEMA, options.scale, new ArrayBatchBuilder(size, toKline));
}

/** All klines of the source in one array (a month of 1m klines is 44,640 rows: fine). */
export async function loadKlines(source: DumpSource, options: ReadKlinesOptions): Promise<Kline[]> {
  const all: Kline[] = [];
  for await (const batch of readKlines(source, options)) for (const k of batch) all.push(k);
  return all;
}

function toKline(v: Float64Array): Kline {
  return {
    openTime: v[0]!,
    open: v[1]!,
    high: v[2]!,
    low: v[3]!,
    close: v[4]!,
    volume: v[5]!,
    closeTime: v[6]!,
    quoteVolume: v[7]!,
    trades: v[8]!,
    takerBuyBaseVolume: v[9]!,
    takerBuyQuoteVolume: v[10]!,
  };
}
