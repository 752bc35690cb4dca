/**
 * Where a backtest's market comes from: the bundled sample (`sample`) or a folder of Binance
 * dumps (as `exsim data import` or `exsim data gen` lay them out), the exchange rules of its
 * symbols, and each symbol's prints cut to the window [from, to).
 *
 * Per symbol the finest source the window has wins (`MarketSource`): trades, else aggTrades
 * (one print per aggregate: same taker, price and time), else the finest kline interval, walked
 * along an adaptive intra-bar path (src/sim/kline-tape.ts; each print's id says bar, path and
 * leg, so a fill explains itself). A window is not stitched from several kinds: the files of
 * the chosen kind are read, and what they leave uncovered is a gap like any other.
 *
 * Exchange rules: a folder may hold `exsim-market.json`, an engine config (exchangeInfo-shaped
 * symbols with filters, and asset precisions), which `exsim data import` writes; otherwise the
 * sample market's rules apply (BTCUSDT, ETHBTC). A symbol named on the command line must be in
 * the config and have trades files in the folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { basename } from 'node:path';
import { BEST_MATCH, BUYER_MAKER, KLINE_INTERVALS, listDataFiles, parseDumpFileName, readAggTrades, readKlines, readTrades, SAMPLE_DIR, type AggTrade, type KlineInterval, type TradeBatch } from '../data/index.ts';
import { type EngineConfig, Engine, type SymbolSpec } from '../engine/index.ts';
import { SAMPLE_CONFIG } from '../sample/index.ts';
import { KlineTape, mulDivFloor, type TapeInput } from '../sim/index.ts';
import { InputError } from './input-error.ts';

export const MARKET_CONFIG_FILE = 'exsim-market.json';

export interface MarketData {
  /** The folder read ('sample' resolved to the bundled folder). */
  readonly dir: string;
  readonly config: EngineConfig;
}

/** Opens a data source: `sample` or a folder. */
export function openMarketData(source: string): MarketData {
  if (source === 'sample') return { dir: SAMPLE_DIR, config: SAMPLE_CONFIG };
  if (!existsSync(source)) throw new InputError(`no such data folder: ${source}`);
  const configPath = join(source, MARKET_CONFIG_FILE);
  if (!existsSync(configPath)) return { dir: source, config: SAMPLE_CONFIG };
  let config: EngineConfig;
  try {
    config = JSON.parse(readFileSync(configPath, 'utf8')) as EngineConfig;
    new Engine(config); // validates every symbol and filter
  } catch (error) {
    throw new InputError(`${configPath}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { dir: source, config };
}

/** Checks the symbols against the config; returns them (default: the config's first symbol). */
export function chooseSymbols(data: MarketData, symbols: readonly string[] | undefined): string[] {
  const known = data.config.symbols.map((s) => s.symbol);
  const chosen = symbols === undefined || symbols.length === 0 ? [known[0]!] : [...symbols];
  for (const symbol of chosen) {
    if (!known.includes(symbol)) throw new InputError(`unknown symbol ${symbol}: the market has ${known.join(', ')}`);
  }
  if (new Set(chosen).size !== chosen.length) throw new InputError(`a symbol is named twice in ${chosen.join(',')}`);
  return chosen;
}

/** What a symbol's prints are made from, finest first: `klines:1m` names the interval. */
export type MarketSource = 'trades' | 'aggTrades' | `klines:${KlineInterval}`;

export interface DataFile {
  readonly path: string;
  /** µs: the day (or month) the file's name covers, [start, end). */
  readonly start: number;
  readonly end: number;
}

export interface SourceFiles {
  readonly source: MarketSource;
  /** In date order. */
  readonly files: readonly DataFile[];
}

/** Sources in the order a backtest prefers them: trades, aggTrades, then klines from 1s up. */
const SOURCE_RANK: readonly MarketSource[] = ['trades', 'aggTrades', ...KLINE_INTERVALS.map((i) => `klines:${i}` as const)];

/**
 * The finest source of `symbol` with a file overlapping [from, to) µs (any file when from/to
 * are undefined), and its files there.
 */
export async function sourceFiles(data: MarketData, symbol: string, from?: number, to?: number): Promise<SourceFiles> {
  let paths: string[];
  try {
    paths = await listDataFiles(data.dir);
  } catch (error) {
    throw new InputError(error instanceof Error ? error.message : String(error));
  }
  let best = SOURCE_RANK.length;
  let files: DataFile[] = [];
  for (const path of paths) {
    const parsed = parseDumpFileName(basename(path));
    if (parsed === null || parsed.symbol !== symbol) continue;
    const file = { path, start: parsed.start * 1000, end: parsed.end * 1000 };
    if (!((from === undefined || file.end > from) && (to === undefined || file.start < to))) continue;
    const rank = SOURCE_RANK.indexOf(parsed.kind === 'klines' ? `klines:${parsed.interval!}` : parsed.kind);
    if (rank < best) {
      best = rank;
      files = [];
    }
    if (rank === best) files.push(file);
  }
  if (files.length === 0) {
    throw new InputError(`no ${symbol} trades, aggTrades or klines files in ${data.dir}${from === undefined ? '' : ' for the chosen window'}`);
  }
  // A file and its unpacked twin (x.zip, x.csv) cover the same day: the readers take the zip.
  files.sort((a, b) => a.start - b.start || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { source: SOURCE_RANK[best]!, files };
}

/** The data files of a symbol's finest source whose day (or month) overlaps [from, to) µs; all of them when from/to are undefined. */
export async function tradeFiles(data: MarketData, symbol: string, from?: number, to?: number): Promise<DataFile[]> {
  return [...(await sourceFiles(data, symbol, from, to)).files];
}

/** The tape of one symbol from its finest source, only the prints stamped in [from, to). */
export async function windowedTape(data: MarketData, symbol: string, from: number, to: number): Promise<TapeInput & { readonly source: MarketSource }> {
  const { source, files } = await sourceFiles(data, symbol, from, to);
  const spec = symbolSpecOf(data, symbol);
  const scale = { quotePrecision: spec.quotePrecision, basePrecision: spec.basePrecision };
  const paths = files.map((f) => f.path);
  let prints: AsyncIterable<TradeBatch>;
  if (source === 'trades') prints = readTrades(paths, { scale, symbol });
  else if (source === 'aggTrades') prints = aggTradePrints(readAggTrades(paths, { scale, symbol }), spec.basePrecision);
  else {
    const interval = source.slice('klines:'.length) as KlineInterval;
    prints = new KlineTape({ klines: readKlines(paths, { scale, symbol, interval }), path: 'adaptive', grid: spec });
  }
  return { symbol, trades: cutToWindow(prints, from, to), source };
}

function symbolSpecOf(data: MarketData, symbol: string): SymbolSpec {
  return new Engine({ ...data.config, symbols: data.config.symbols.filter((s) => s.symbol === symbol) }).symbolSpec(symbol)!;
}

/**
 * aggTrades as prints: one per aggregate (the id is the aggregate id; quoteQty is price × qty
 * floored to the quote's units, as the kline tape computes it).
 */
async function* aggTradePrints(source: AsyncIterable<AggTrade[]>, basePrecision: number): AsyncGenerator<TradeBatch> {
  const unit = 10 ** basePrecision;
  for await (const rows of source) {
    const n = rows.length;
    if (n === 0) continue;
    const batch = { length: n, id: new Float64Array(n), price: new Float64Array(n), qty: new Float64Array(n), quoteQty: new Float64Array(n), time: new Float64Array(n), flags: new Uint8Array(n) };
    for (let i = 0; i < n; i++) {
      const t = rows[i]!;
      batch.id[i] = t.a;
      batch.price[i] = t.p;
      batch.qty[i] = t.q;
      batch.quoteQty[i] = mulDivFloor(t.p, t.q, unit);
      batch.time[i] = t.T;
      batch.flags[i] = (t.m ? BUYER_MAKER : 0) | (t.M ? BEST_MATCH : 0);
    }
    yield batch;
  }
}

export interface DataGap {
  readonly symbol: string;
  /** µs, [from, to). */
  readonly from: number;
  readonly to: number;
}

/** Stretches of [from, to) that no file of `symbol`'s chosen source covers (the replay jumps over them). */
export async function windowGaps(data: MarketData, symbol: string, from: number, to: number): Promise<DataGap[]> {
  const files = await tradeFiles(data, symbol, from, to);
  const gaps: DataGap[] = [];
  let covered = from;
  for (const file of [...files].sort((a, b) => a.start - b.start)) {
    if (file.start > covered) gaps.push({ symbol, from: covered, to: Math.min(file.start, to) });
    covered = Math.max(covered, file.end);
  }
  if (covered < to) gaps.push({ symbol, from: covered, to });
  return gaps;
}

/** The backtest window: what was asked, else the first symbol's data from its first to its last day. */
export async function resolveWindow(data: MarketData, symbols: readonly string[], from?: number, to?: number): Promise<{ from: number; to: number }> {
  if (from === undefined || to === undefined) {
    const files = await tradeFiles(data, symbols[0]!);
    from ??= files[0]!.start;
    to ??= files[files.length - 1]!.end;
  }
  if (!(to > from)) throw new InputError(`--to must be after --from`);
  return { from, to };
}

/**
 * One symbol's windowed tape held in memory that worker threads share: its columns live in
 * SharedArrayBuffers, so posting it to a worker hands over a view, not a copy. A sweep loads
 * the data once in the main thread and every backtest replays the same bytes.
 */
export interface SharedTape {
  readonly symbol: string;
  readonly source: MarketSource;
  readonly batch: TradeBatch;
}

/** Rows above which a sweep does not hold the tapes in memory (about 41 bytes a row) and lets each worker stream its own. */
export const SHARED_TAPE_MAX_ROWS = 20_000_000;

/** The windowed tapes of `symbols` in shared memory, or null when they hold more than `maxRows` rows. */
export async function loadSharedTapes(data: MarketData, symbols: readonly string[], from: number, to: number, maxRows = SHARED_TAPE_MAX_ROWS): Promise<SharedTape[] | null> {
  const tapes: SharedTape[] = [];
  let total = 0;
  for (const symbol of symbols) {
    const batches: TradeBatch[] = [];
    let rows = 0;
    const tape = await windowedTape(data, symbol, from, to);
    for await (const batch of tape.trades as AsyncIterable<TradeBatch>) {
      batches.push(batch);
      rows += batch.length;
      total += batch.length;
      if (total > maxRows) return null;
    }
    const column = (pick: (b: TradeBatch) => Float64Array) => {
      const out = new Float64Array(new SharedArrayBuffer(rows * 8));
      let at = 0;
      for (const b of batches) {
        out.set(pick(b).subarray(0, b.length), at);
        at += b.length;
      }
      return out;
    };
    const flags = new Uint8Array(new SharedArrayBuffer(rows));
    let at = 0;
    for (const b of batches) {
      flags.set(b.flags.subarray(0, b.length), at);
      at += b.length;
    }
    tapes.push({ symbol, source: tape.source, batch: { length: rows, id: column((b) => b.id), price: column((b) => b.price), qty: column((b) => b.qty), quoteQty: column((b) => b.quoteQty), time: column((b) => b.time), flags } });
  }
  return tapes;
}

/** A shared tape as the replay reads it: batches of the usual size, views over the shared columns. */
export function tapeFromShared(shared: SharedTape): TapeInput & { readonly source: MarketSource } {
  const { batch } = shared;
  const size = 65_536;
  const batches: TradeBatch[] = [];
  for (let lo = 0; lo < batch.length; lo += size) {
    const hi = Math.min(batch.length, lo + size);
    batches.push({
      length: hi - lo,
      id: batch.id.subarray(lo, hi),
      price: batch.price.subarray(lo, hi),
      qty: batch.qty.subarray(lo, hi),
      quoteQty: batch.quoteQty.subarray(lo, hi),
      time: batch.time.subarray(lo, hi),
      flags: batch.flags.subarray(lo, hi),
    });
  }
  return { symbol: shared.symbol, trades: batches, source: shared.source };
}

/** Drops the rows outside [from, to) (only the first and last files have any). */
async function* cutToWindow(source: AsyncIterable<TradeBatch>, from: number, to: number): AsyncGenerator<TradeBatch> {
  for await (const batch of source) {
    const n = batch.length;
    if (n === 0) continue;
    const first = batch.time[0]!;
    const last = batch.time[n - 1]!;
    if (last < from) continue;
    if (first >= to) return;
    if (first >= from && last < to) {
      yield batch;
      continue;
    }
    let lo = 0;
    while (lo < n && batch.time[lo]! < from) lo++;
    let hi = lo;
    while (hi < n && batch.time[hi]! < to) hi++;
    if (hi > lo) {
      yield {
        length: hi - lo,
        id: batch.id.subarray(lo, hi),
        price: batch.price.subarray(lo, hi),
        qty: batch.qty.subarray(lo, hi),
        quoteQty: batch.quoteQty.subarray(lo, hi),
        time: batch.time.subarray(lo, hi),
        flags: batch.flags.subarray(lo, hi),
      };
    }
    if (hi < n) return;
  }
}
