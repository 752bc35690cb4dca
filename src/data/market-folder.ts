/**
 * A market's data folder: `sample` (the bundled day) or a folder of Binance dumps and/or
 * Tardis.dev files (as `exsim data import` or `exsim data gen` lay them out), the exchange rules
 * of its symbols, and each symbol's data files by kind and period.
 *
 * Exchange rules, for each symbol the folder has data for, the first that describes it:
 * 1. the folder's `exsim-market.json`, an engine config (exchangeInfo-shaped symbols with filters,
 *    and asset precisions) that `exsim data import` and `exsim data gen` write and a user may edit
 *    for a custom market;
 * 2. the bundled sample market (BTCUSDT, ETHBTC);
 * 3. the bundled snapshot of Binance's spot exchangeInfo (spot-symbol-rules.ts).
 * A folder without the file starts from the sample market's config (so its symbols keep their
 * order and the sample's exchange filters). A symbol none of them describes gets a message saying
 * how to get its rules, since a guessed tick or step would quietly change fills.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AssetConfig, type EngineConfig, Engine, type SymbolConfig, type SymbolSpec } from '../engine/index.ts';
import { SAMPLE_CONFIG } from '../sample/index.ts';
import { listDataFiles } from './dump-sources.ts';
import { comparePeriods, dropUnpackedTwins, parseDataFilePath, type DataKind, type DataMarket, type MarketFileName } from './data-file-name.ts';
import { InputError } from './input-error.ts';
import { SAMPLE_DIR } from './sample.ts';
import { readSpotRules, spotSymbolRules } from './spot-symbol-rules.ts';
import type { UnitScale } from './tape.ts';

export const MARKET_CONFIG_FILE = 'exsim-market.json';

export interface MarketData {
  /** The folder read ('sample' resolved to the bundled folder). */
  readonly dir: string;
  readonly config: EngineConfig;
  /** The symbols the folder has spot data files for, by their names (sorted); undefined for the sample. */
  readonly dataSymbols?: readonly string[];
  /** The perpetuals the folder has USDⓈ-M futures dumps for (`futures/um/...`), sorted; undefined when none (and for the sample). */
  readonly futuresSymbols?: readonly string[];
  /**
   * Where each symbol's rules come from, for the summary: `exsim-market.json`, `sample market`, or
   * `Binance snapshot of <date>` (a run's result depends on it; undefined: all from one place, the sample).
   */
  readonly ruleSources?: Readonly<Record<string, string>>;
}

/** Opens a data source: `sample` or a folder. */
export function openMarketData(source: string): MarketData {
  if (source === 'sample') return { dir: SAMPLE_DIR, config: SAMPLE_CONFIG, ruleSources: Object.fromEntries(SAMPLE_CONFIG.symbols.map((s) => [s.symbol, 'sample market'])) };
  if (!existsSync(source)) throw new InputError(`no such data folder: ${source}`);
  const configPath = join(source, MARKET_CONFIG_FILE);
  let config = SAMPLE_CONFIG;
  if (existsSync(configPath)) {
    try {
      config = JSON.parse(readFileSync(configPath, 'utf8')) as EngineConfig;
      new Engine(config); // validates every symbol and filter
    } catch (error) {
      throw new InputError(`${configPath}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const { spot: dataSymbols, um: futuresSymbols } = folderSymbols(source);
  const own = config === SAMPLE_CONFIG ? 'sample market' : MARKET_CONFIG_FILE;
  const ruleSources: Record<string, string> = Object.fromEntries(config.symbols.map((s) => [s.symbol, own]));
  const known = withKnownRules(config, dataSymbols);
  for (const symbol of known.symbols.slice(config.symbols.length)) {
    ruleSources[symbol.symbol] = SAMPLE_CONFIG.symbols.some((s) => s.symbol === symbol.symbol) ? 'sample market' : `Binance snapshot of ${readSpotRules().date}`;
  }
  return { dir: source, config: known, dataSymbols, ...(futuresSymbols.length === 0 ? {} : { futuresSymbols }), ruleSources };
}

/** The rules of a symbol exsim knows without a folder's file: the sample market's, else the bundled Binance snapshot's. */
export function knownSymbolRules(symbol: string): { symbol: SymbolConfig; assets: AssetConfig[] } | undefined {
  const sample = SAMPLE_CONFIG.symbols.find((s) => s.symbol === symbol);
  if (sample === undefined) return spotSymbolRules(symbol);
  const precision = (asset: string) => SAMPLE_CONFIG.assets?.find((a) => a.asset === asset)?.precision ?? 8;
  return { symbol: sample, assets: [sample.baseAsset, sample.quoteAsset].map((asset) => ({ asset, precision: precision(asset) })) };
}

/** `config` plus the known rules of the data symbols it lacks (appended, so what it had keeps its place). */
function withKnownRules(config: EngineConfig, dataSymbols: readonly string[]): EngineConfig {
  const missing = dataSymbols.filter((symbol) => !config.symbols.some((s) => s.symbol === symbol));
  const added = missing.map(knownSymbolRules).filter((r) => r !== undefined);
  if (added.length === 0) return config;
  const assets = [...(config.assets ?? [])];
  for (const rules of added) for (const asset of rules.assets) if (!assets.some((a) => a.asset === asset.asset)) assets.push(asset);
  return { ...config, assets, symbols: [...config.symbols, ...added.map((r) => r.symbol)] };
}

/**
 * The symbols named by the data files under `dir`, by market (names only: nothing is opened). A
 * futures dump's symbol is a perpetual's, whose rules are the contract's (contract-rules.ts), so
 * it does not make a spot symbol of the market.
 */
function folderSymbols(dir: string): Record<DataMarket, string[]> {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch (error) {
    throw new InputError(`cannot list ${dir}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const symbols = { spot: new Set<string>(), um: new Set<string>() };
  for (const name of names) {
    const parsed = parseDataFilePath(join(dir, name));
    if (parsed !== null) symbols[parsed.market].add(parsed.symbol);
  }
  return { spot: [...symbols.spot].sort(), um: [...symbols.um].sort() };
}

/**
 * Checks the symbols against the config; returns them. Default: the first symbol of the config
 * the folder has data for (the sample: its first symbol).
 */
export function chooseSymbols(data: MarketData, symbols: readonly string[] | undefined): string[] {
  const known = data.config.symbols.map((s) => s.symbol);
  const present = data.dataSymbols ?? [];
  const unknown = present.filter((s) => !known.includes(s));
  let chosen: string[];
  if (symbols === undefined || symbols.length === 0) {
    const first = present.length === 0 ? known[0] : known.find((s) => present.includes(s));
    // The folder is of other symbols than any rules cover: say how to get them.
    if (first === undefined) throw new InputError(noRules(data, unknown));
    chosen = [first];
  } else chosen = [...symbols];
  for (const symbol of chosen) {
    if (known.includes(symbol)) continue;
    if (unknown.includes(symbol)) throw new InputError(noRules(data, [symbol]));
    throw new InputError(`unknown symbol ${symbol}: the market has ${known.join(', ')}`);
  }
  if (new Set(chosen).size !== chosen.length) throw new InputError(`a symbol is named twice in ${chosen.join(',')}`);
  return chosen;
}

function noRules(data: MarketData, symbols: readonly string[]): string {
  const which = symbols.length === 1 ? `${symbols[0]}, which has` : `${symbols.join(', ')}, which have`;
  const file = existsSync(join(data.dir, MARKET_CONFIG_FILE)) ? `${MARKET_CONFIG_FILE}, ` : '';
  const snapshot = readSpotRules();
  return (
    `${data.dir} has data for ${which} no exchange rules in ${file}the built-in market (${SAMPLE_CONFIG.symbols.map((s) => s.symbol).join(', ')}) or the bundled Binance snapshot (${snapshot.symbols.length} spot symbols as of ${snapshot.date}): ` +
    `run \`exsim data symbols --update\` where Binance's API is reachable, or \`exsim data import ${data.dir} --out ${data.dir}\` to infer them from the data into ${MARKET_CONFIG_FILE}`
  );
}

/** The engine's compiled rules of one symbol of the market. */
export function symbolSpecOf(data: MarketData, symbol: string): SymbolSpec {
  return new Engine({ ...data.config, symbols: data.config.symbols.filter((s) => s.symbol === symbol) }).symbolSpec(symbol)!;
}

/** The precisions a symbol's amounts are read with. */
export function symbolScale(data: MarketData, symbol: string): UnitScale {
  const spec = symbolSpecOf(data, symbol);
  return { quotePrecision: spec.quotePrecision, basePrecision: spec.basePrecision };
}

export interface DataFile {
  readonly path: string;
  /** µs: the day (or month) the file's name covers, [start, end). */
  readonly start: number;
  readonly end: number;
  readonly name: MarketFileName;
}

/**
 * Every data file of `symbol` in `market` (spot unless said) under the folder whose period
 * overlaps [from, to) µs (all of them when from/to are undefined), an unpacked CSV beside its
 * packed twin left out, in read order (date, then a recording's part).
 */
export async function symbolFiles(data: MarketData, symbol: string, from?: number, to?: number, market: DataMarket = 'spot'): Promise<DataFile[]> {
  let paths: string[];
  try {
    paths = await listDataFiles(data.dir);
  } catch (error) {
    throw new InputError(error instanceof Error ? error.message : String(error));
  }
  const files: DataFile[] = [];
  for (const path of paths) {
    const name = parseDataFilePath(path);
    if (name === null || name.symbol !== symbol || name.market !== market) continue;
    const file = { path, start: name.start * 1000, end: name.end * 1000, name };
    if ((from === undefined || file.end > from) && (to === undefined || file.start < to)) files.push(file);
  }
  const kept = dropUnpackedTwins(files, (f) => f.path);
  kept.sort((a, b) => comparePeriods(a.name, b.name) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return kept;
}

/** Of `files`, those of the first kind in `ranking` that has any, with its index in the ranking (-1 when none has). */
export function finestKind<K extends DataKind | string>(files: readonly DataFile[], ranking: readonly K[], kindOf: (file: DataFile) => K | undefined): { rank: number; files: DataFile[] } {
  let rank = -1;
  for (const file of files) {
    const r = ranking.indexOf(kindOf(file) as K);
    if (r >= 0 && (rank < 0 || r < rank)) rank = r;
  }
  return { rank, files: rank < 0 ? [] : files.filter((f) => kindOf(f) === ranking[rank]) };
}

export interface DataGap {
  readonly symbol: string;
  /** µs, [from, to). */
  readonly from: number;
  readonly to: number;
}

/** Stretches of [from, to) that none of `files` covers. */
export function coverageGaps(symbol: string, files: readonly DataFile[], from: number, to: number): DataGap[] {
  const gaps: DataGap[] = [];
  let covered = from;
  for (const file of [...files].sort((a, b) => a.start - b.start)) {
    if (file.start > covered) gaps.push({ symbol, from: covered, to: Math.min(file.start, to) });
    covered = Math.max(covered, file.end);
  }
  if (covered < to) gaps.push({ symbol, from: covered, to });
  return gaps;
}
