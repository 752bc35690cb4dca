/**
 * Which files a load reads, and in what order. A source is a file, a folder (searched
 * recursively, so Binance's `data/spot/daily/trades/BTCUSDT/` layout and a flat folder both
 * work) or a list of either. Files named in the dump scheme are read in date order; the parser
 * then checks that time really is monotonic across them.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, join, relative, isAbsolute } from 'node:path';
import type { KlineInterval } from './tape.ts';
import type { DumpKind } from './dump-schema.ts';
import { parseDumpFileName, type DumpFileName } from './dump-file-name.ts';

/** A dump file or folder, or several. */
export type DumpSource = string | readonly string[];

export interface DumpFilter {
  readonly kind: DumpKind;
  /** Required when a folder holds several symbols. */
  readonly symbol?: string | undefined;
  /** Klines: required when a folder holds several intervals. */
  readonly interval?: KlineInterval | undefined;
}

export interface DumpFileRef {
  readonly path: string;
  /** Null for a file named outside the dump scheme (allowed when named explicitly). */
  readonly parsed: DumpFileName | null;
}

/**
 * Every `.csv`/`.zip` file under `dir`, in name order (deterministic whatever the file system).
 * A symbolic link is listed only when it resolves to a file inside the folder: a link out of it
 * (to /etc/passwd, say) is neither read nor named in any message.
 */
export async function listDataFiles(dir: string): Promise<string[]> {
  return listUnder(dir, await realpath(dir));
}

async function listUnder(dir: string, root: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listUnder(path, root)));
    else if (/\.(csv|zip)$/i.test(entry.name) && (!entry.isSymbolicLink() || (await linksInside(path, root)))) files.push(path);
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
  if (inputs.length === 0) throw new Error(`no ${filter.kind} files given`);
  const found: DumpFileRef[] = [];
  for (const input of inputs) {
    const info = await stat(input).catch(() => null);
    if (info === null) throw new Error(`${input}: no such file or folder`);
    if (info.isDirectory()) {
      for (const path of await listDataFiles(input)) {
        const parsed = parseDumpFileName(basename(path));
        if (parsed !== null && matches(parsed, filter)) found.push({ path, parsed });
      }
    } else {
      const parsed = parseDumpFileName(basename(input));
      if (parsed !== null && parsed.kind !== filter.kind) throw new Error(`${input} is a ${parsed.kind} file, not ${filter.kind}`);
      if (parsed !== null && !matches(parsed, filter)) {
        throw new Error(`${input} is not ${[filter.symbol, filter.interval, filter.kind].filter((x) => x !== undefined).join(' ')}`);
      }
      found.push({ path: input, parsed });
    }
  }
  const files = preferZips(found);
  if (files.length === 0) {
    const what = [filter.symbol, filter.interval, filter.kind].filter((x) => x !== undefined).join(' ');
    throw new Error(`no ${what} files in ${inputs.join(', ')}`);
  }
  const symbols = distinct(files.map((f) => f.parsed?.symbol));
  if (filter.symbol === undefined && symbols.length > 1) {
    throw new Error(`the ${filter.kind} files are of several symbols (${symbols.join(', ')}); choose one`);
  }
  const intervals = distinct(files.map((f) => f.parsed?.interval));
  if (filter.kind === 'klines' && filter.interval === undefined && intervals.length > 1) {
    throw new Error(`the klines files have several intervals (${intervals.join(', ')}); choose one`);
  }
  // Date order when every name says its date; otherwise the order given (folders by name).
  if (files.every((f) => f.parsed !== null)) {
    files.sort((a, b) => a.parsed!.start - b.parsed!.start || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
  return files;
}

function matches(parsed: DumpFileName, filter: DumpFilter): boolean {
  return (
    parsed.kind === filter.kind &&
    (filter.symbol === undefined || parsed.symbol === filter.symbol) &&
    (filter.interval === undefined || parsed.interval === filter.interval)
  );
}

/** An unpacked `x.csv` beside its `x.zip` is the same data: read the zip, whose CRC guards it. */
function preferZips(files: DumpFileRef[]): DumpFileRef[] {
  const zipped = new Set(files.filter((f) => /\.zip$/i.test(f.path)).map((f) => f.path.replace(/\.zip$/i, '')));
  return files.filter((f) => !(/\.csv$/i.test(f.path) && zipped.has(f.path.replace(/\.csv$/i, ''))));
}

function distinct(values: readonly (string | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => v !== undefined))].sort();
}
