/**
 * How each kind of CSV data file is laid out, for the code that reads any of them row by row
 * (inspect): Binance's spot dumps and futures bookTicker, Tardis's trades and depth types.
 * Recordings are lines of JSON, read by their own readers (recording/).
 */
import type { DataKind, RECORDING_KIND } from './data-file-name.ts';
import { depthKindInfo } from './depth-kinds.ts';
import { dumpSchema, type DumpKind, type DumpSchema } from './dump-schema.ts';
import { TARDIS_TRADES_SCHEMA } from './tardis-schema.ts';

/** The kinds whose files are CSV. */
export type CsvDataKind = Exclude<DataKind, typeof RECORDING_KIND>;

/** The layout of a kind's files in a market (a USDⓈ-M trades dump has its own columns, dump-schema.ts). */
export function kindSchema(kind: CsvDataKind, market: 'spot' | 'um' = 'spot'): DumpSchema {
  if (kind === 'tardis:trades') return TARDIS_TRADES_SCHEMA;
  return depthKindInfo(kind)?.csv?.schema ?? dumpSchema(kind as DumpKind, market);
}
