/**
 * How each kind of CSV data file is laid out, for the code that reads any of them row by row
 * (inspect): Binance's spot dumps and futures bookTicker, Tardis's trades and depth types.
 * Recordings are lines of JSON, read by their own readers (recording/).
 */
import type { DataKind, RECORDING_KIND } from './data-file-name.ts';
import { depthKindInfo } from './depth-kinds.ts';
import { SCHEMAS, type DumpSchema } from './dump-schema.ts';
import { TARDIS_TRADES_SCHEMA } from './tardis-schema.ts';

/** The kinds whose files are CSV. */
export type CsvDataKind = Exclude<DataKind, typeof RECORDING_KIND>;

export function kindSchema(kind: CsvDataKind): DumpSchema {
  if (kind === 'tardis:trades') return TARDIS_TRADES_SCHEMA;
  return depthKindInfo(kind)?.csv?.schema ?? SCHEMAS[kind as keyof typeof SCHEMAS];
}
