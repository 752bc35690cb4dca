/**
 * Every data file name exsim recognises, Binance's dumps and Tardis.dev's datasets, as one type:
 * both say symbol, kind and the period they cover, which is all that choosing files needs.
 */
import { parseDumpFileName, type DumpFileName } from './dump-file-name.ts';
import type { DumpKind } from './dump-schema.ts';
import { parseTardisFileName, type TardisFileName, type TardisKind } from './tardis-file-name.ts';

export type DataKind = DumpKind | TardisKind;
export type DataFileName = DumpFileName | TardisFileName;

/** A Binance dump or Tardis file name's parts, or null for any other name. */
export function parseDataFileName(baseName: string): DataFileName | null {
  return parseDumpFileName(baseName) ?? parseTardisFileName(baseName);
}

export function isTardisFileName(name: DataFileName): name is TardisFileName {
  return name.kind.startsWith('tardis:');
}

const PACKED = /\.(zip|csv\.gz)$/i;

/**
 * `items` without an unpacked `x.csv` that has its packed twin (`x.zip`, `x.csv.gz`) among them:
 * the same data, and the packed one's CRC guards it, so that is the one read.
 */
export function dropUnpackedTwins<T>(items: readonly T[], pathOf: (item: T) => string): T[] {
  const packed = new Set(items.map(pathOf).filter((p) => PACKED.test(p)).map((p) => p.replace(PACKED, '')));
  return items.filter((item) => {
    const path = pathOf(item);
    return !(/\.csv$/i.test(path) && packed.has(path.replace(/\.csv$/i, '')));
  });
}
