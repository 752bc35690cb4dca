/**
 * Which files a load reads, and in what order. A source is a file, a folder (searched
 * recursively, so Binance's `data/spot/daily/trades/BTCUSDT/` layout and a flat folder both
 * work) or a list of either. Files named in the Binance, Tardis or recording scheme are read in date order;
 * the parser then checks that time really is monotonic across them.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, join, relative, isAbsolute } from 'node:path';
import { InputError } from './input-error.ts';
import type { KlineInterval } from './tape.ts';
import { COIN_M_NOT_READ, comparePeriods, dropUnpackedTwins, isTardisFileName, marketOfPath, parseDataFileName, parseDataFilePath, type DataFileName, type DataKind, type DataMarket } from './data-file-name.ts';

/** A dump file or folder, or several. */
export type DumpSource = string | readonly string[];

export interface DumpFilter {
  /** The kind, or the kinds a reader takes alike (Binance's and Tardis's trades); the files found must all be of one. */
  readonly kind: DataKind | readonly DataKind[];
  /** What the files are, in messages (default: the kinds). */
  readonly what?: string;
  /** Required when a folder holds several symbols. */
  readonly symbol?: string | undefined;
  /** Klines: required when a folder holds several intervals. */
  readonly interval?: KlineInterval | undefined;
  /** Spot or USDⓈ-M futures files (data-file-name.ts marketOfPath); required when a folder holds both. */
  readonly market?: DataMarket | undefined;
}

export interface DumpFileRef {
  readonly path: string;
  /** Null for a file named outside the schemes (allowed when named explicitly). */
  readonly parsed: DataFileName | null;
  /** The market its path (or Tardis name) says: the loaders read a futures dump by its own columns. */
  readonly market: DataMarket;
}

/**
 * Every `.csv`/`.zip`/`.gz` file under `dir`, in name order (deterministic whatever the file system).
 * A symbolic link is listed only when it resolves to a file inside the folder: a link out of it
 * (to /etc/passwd, say) is neither read nor named in any message.
 */
export async function listDataFiles(dir: string): Promise<string[]> {
  return listUnder(dir, await realpath(dir));
}

/**
 * The USDⓈ-M files under `dir` that `period` recognises (its period in epoch ms, or null) and
 * whose period overlaps [from, to) µs, oldest first (unpacked twins dropped, ties by path): the
 * listing the --futures readers of funding rates and mark klines share.
 */
export async function futuresFilesOverlapping(dir: string, from: number, to: number, period: (path: string) => { start: number; end: number } | null): Promise<string[]> {
  let paths: string[];
  try {
    paths = await listDataFiles(dir);
  } catch (error) {
    throw new InputError(error instanceof Error ? error.message : String(error));
  }
  const found: { path: string; start: number }[] = [];
  for (const path of paths) {
    if (marketOfPath(path) !== 'um') continue;
    const span = period(path);
    if (span !== null && span.end * 1000 > from && span.start * 1000 < to) found.push({ path, start: span.start });
  }
  const kept = dropUnpackedTwins(found, (f) => f.path);
  kept.sort((a, b) => a.start - b.start || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return kept.map((f) => f.path);
}

async function listUnder(dir: string, root: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listUnder(path, root)));
    else if (/\.(csv|zip|gz)$/i.test(entry.name) && (!entry.isSymbolicLink() || (await linksInside(path, root)))) files.push(path);
  }
  return files;
}

async function linksInside(path: string, root: string): Promise<boolean> {
  const target = await realpath(path).catch(() => null);
  if (target === null) return false;
  const rel = relative(root, target);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && ((await stat(target).catch(() => null))?.isFile() ?? false);
}

export async function resolveDumpFiles(source: DumpSource, filter: DumpFilter): Promise<DumpFileRef[]> {
  const inputs = typeof source === 'string' ? [source] : [...source];
  const kinds: readonly DataKind[] = typeof filter.kind === 'string' ? [filter.kind] : filter.kind;
  const wanted = filter.what ?? kinds.join(' or ');
  if (inputs.length === 0) throw new Error(`no ${wanted} files given`);
  const found: DumpFileRef[] = [];
  for (const input of inputs) {
    const info = await stat(input).catch(() => null);
    if (info === null) throw new Error(`${input}: no such file or folder`);
    if (info.isDirectory()) {
      for (const path of await listDataFiles(input)) {
        const parsed = parseDataFilePath(path);
        if (parsed !== null && matches(parsed, kinds, filter) && (filter.market === undefined || parsed.market === filter.market)) found.push({ path, parsed, market: parsed.market });
      }
    } else {
      const parsed = parseDataFileName(basename(input));
      const market = marketOfPath(input, parsed);
      if (market === 'cm') throw new Error(`${input}: ${COIN_M_NOT_READ}`);
      if (parsed !== null && !kinds.includes(parsed.kind)) throw new Error(`${input} is a ${parsed.kind} file, not ${wanted}`);
      if (parsed !== null && !matches(parsed, kinds, filter)) {
        throw new Error(`${input} is not ${[filter.symbol, filter.interval, wanted].filter((x) => x !== undefined).join(' ')}`);
      }
      if (filter.market !== undefined && market !== filter.market) throw new Error(`${input} is a ${marketText(market)} file, not ${marketText(filter.market)}`);
      found.push({ path: input, parsed, market });
    }
  }
  const files = dropUnpackedTwins(found, (f) => f.path);
  if (files.length === 0) {
    const what = [filter.symbol, filter.interval, wanted].filter((x) => x !== undefined).join(' ');
    throw new Error(`no ${what} files in ${inputs.join(', ')}`);
  }
  const symbols = distinct(files.map((f) => f.parsed?.symbol));
  if (filter.symbol === undefined && symbols.length > 1) {
    throw new Error(`the ${wanted} files are of several symbols (${symbols.join(', ')}); choose one`);
  }
  const intervals = distinct(files.map((f) => f.parsed?.interval));
  if (kinds.includes('klines') && filter.interval === undefined && intervals.length > 1) {
    throw new Error(`the klines files have several intervals (${intervals.join(', ')}); choose one`);
  }
  // One reader reads them all in one pass (ordering checked across files): one kind, one market.
  const markets = distinct(files.map((f) => f.market));
  if (markets.length > 1) throw new Error(`the ${wanted} files are of spot and of futures/um (the same names in two markets); choose one market`);
  const foundKinds = distinct(files.map((f) => f.parsed?.kind ?? kinds[0]));
  if (foundKinds.length > 1) throw new Error(`the files mix ${foundKinds.join(' and ')}; keep one kind in the folder`);
  const exchanges = distinct(files.map((f) => (f.parsed !== null && isTardisFileName(f.parsed) ? f.parsed.exchange : undefined)));
  if (exchanges.length > 1) throw new Error(`the ${wanted} files are of several exchanges (${exchanges.join(', ')}); keep one market's files in the folder`);
  // Date order (then a recording's part) when every name says its date; otherwise the order given (folders by name).
  if (files.every((f) => f.parsed !== null)) {
    files.sort((a, b) => comparePeriods(a.parsed!, b.parsed!) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
  return files;
}

function matches(parsed: DataFileName, kinds: readonly DataKind[], filter: DumpFilter): boolean {
  return (
    kinds.includes(parsed.kind) &&
    (filter.symbol === undefined || parsed.symbol === filter.symbol) &&
    (filter.interval === undefined || parsed.interval === filter.interval)
  );
}

/** A market as messages name it. */
export function marketText(market: DataMarket | 'cm'): string {
  return market === 'spot' ? 'spot' : `futures/${market}`;
}

function distinct(values: readonly (string | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => v !== undefined))].sort();
}
