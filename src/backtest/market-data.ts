/**
 * Where a backtest's market comes from: the bundled sample (`sample`) or a folder of Binance
 * dumps (as `exsim data import` or `exsim data gen` lay them out), the exchange rules of its
 * symbols, and each symbol's trades cut to the window [from, to).
 *
 * Exchange rules: a folder may hold `exsim-market.json`, an engine config (exchangeInfo-shaped
 * symbols with filters, and asset precisions), which `exsim data import` writes; otherwise the
 * sample market's rules apply (BTCUSDT, ETHBTC). A symbol named on the command line must be in
 * the config and have trades files in the folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveDumpFiles, readTrades, SAMPLE_DIR, type TradeBatch } from '../data/index.ts';
import { type EngineConfig, Engine } from '../engine/index.ts';
import { SAMPLE_CONFIG } from '../sample/index.ts';
import type { TapeInput } from '../sim/index.ts';
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

/** The trades files of a symbol whose day (or month) overlaps [from, to) µs; all of them when from/to are undefined. */
export async function tradeFiles(data: MarketData, symbol: string, from?: number, to?: number): Promise<{ path: string; start: number; end: number }[]> {
  let refs;
  try {
    refs = await resolveDumpFiles(data.dir, { kind: 'trades', symbol });
  } catch (error) {
    throw new InputError(error instanceof Error ? error.message : String(error));
  }
  const files = refs
    .filter((r) => r.parsed !== null)
    .map((r) => ({ path: r.path, start: r.parsed!.start * 1000, end: r.parsed!.end * 1000 }))
    .filter((f) => (from === undefined || f.end > from) && (to === undefined || f.start < to));
  if (files.length === 0) throw new InputError(`no ${symbol} trades files in ${data.dir}${from === undefined ? '' : ' for the chosen window'}`);
  return files;
}

/** The tape of one symbol, only the trades stamped in [from, to). */
export async function windowedTape(data: MarketData, symbol: string, from: number, to: number): Promise<TapeInput> {
  const files = await tradeFiles(data, symbol, from, to);
  const spec = new Engine({ ...data.config, symbols: data.config.symbols.filter((s) => s.symbol === symbol) }).symbolSpec(symbol)!;
  const source = readTrades(
    files.map((f) => f.path),
    { scale: { quotePrecision: spec.quotePrecision, basePrecision: spec.basePrecision }, symbol },
  );
  return { symbol, trades: cutToWindow(source, from, to) };
}

export interface DataGap {
  readonly symbol: string;
  /** µs, [from, to). */
  readonly from: number;
  readonly to: number;
}

/** Stretches of [from, to) that no trades file of `symbol` covers (the replay jumps over them). */
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
    for await (const batch of (await windowedTape(data, symbol, from, to)).trades as AsyncIterable<TradeBatch>) {
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
    tapes.push({ symbol, batch: { length: rows, id: column((b) => b.id), price: column((b) => b.price), qty: column((b) => b.qty), quoteQty: column((b) => b.quoteQty), time: column((b) => b.time), flags } });
  }
  return tapes;
}

/** A shared tape as the replay reads it: batches of the usual size, views over the shared columns. */
export function tapeFromShared(shared: SharedTape): TapeInput {
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
  return { symbol: shared.symbol, trades: batches };
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
