/**
 * How each kind of data file is laid out, for the code that reads any of them (inspect, import):
 * Binance's spot dumps and futures bookTicker, Tardis's trades and depth types.
 */
import type { DataKind } from './data-file-name.ts';
import { depthKindInfo } from './depth-kinds.ts';
import { SCHEMAS, type DumpSchema } from './dump-schema.ts';
import { TARDIS_TRADES_SCHEMA } from './tardis-schema.ts';

export function kindSchema(kind: DataKind): DumpSchema {
  if (kind === 'tardis:trades') return TARDIS_TRADES_SCHEMA;
  return depthKindInfo(kind)?.schema ?? SCHEMAS[kind as keyof typeof SCHEMAS];
}
