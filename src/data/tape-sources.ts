/**
 * A symbol's prints (the trades a replay feeds the market with), cut to a window [from, to).
 * Per symbol the finest source the window has wins (`MarketSource`): trades (Binance's dumps,
 * else Tardis's trades files, else exsim recordings' trade streams; the last two keep the
 * venue's ids, `SymbolTape.venueIds`), else aggTrades (one print per aggregate: same
 * taker, price and time), else the finest kline interval, walked along an intra-bar path by the
 * caller's `KlinePrints` (src/sim/kline-tape.ts: the replay layer's, which this layer cannot
 * import). A window is not stitched from several kinds: the files of the chosen kind are read,
 * and what they leave uncovered is a gap like any other.
 */
import type { SymbolSpec } from '../engine/index.ts';
import { mulDivFloor } from '../engine/exact-math.ts';
import { RECORDING_KIND, type DataKind, type DataMarket } from './data-file-name.ts';
import { InputError } from './input-error.ts';
import { coverageGaps, finestKind, symbolFiles, symbolSpecOf, type DataFile, type DataGap, type MarketData } from './market-folder.ts';
import { readAggTrades } from './read-agg-trades.ts';
import { readKlines } from './read-klines.ts';
import { emptyReadNotes, gapsInWindow, type ReadNotes } from './read-notes.ts';
import { readTrades } from './read-trades.ts';
import { readRecordingTrades } from './recording/read-recording-trades.ts';
import { BEST_MATCH, BUYER_MAKER, KLINE_INTERVALS, sliceTrades, type AggTrade, type Kline, type KlineInterval, type TradeBatch } from './tape.ts';

/** What a symbol's prints are made from, finest first: `klines:1m` names the interval. */
export type MarketSource = 'trades' | 'aggTrades' | `klines:${KlineInterval}`;

export interface SourceFiles {
  readonly source: MarketSource;
  /** The files' kind: `trades` (Binance's dumps), `tardis:trades`, `exsim:recording`, `aggTrades`, `klines`. */
  readonly kind: DataKind;
  /** In read order (date, then a recording's part). */
  readonly files: readonly DataFile[];
}

/** Trades batches, streamed or in memory. */
export type TradeSource = AsyncIterable<TradeBatch> | Iterable<TradeBatch>;

/** One symbol's prints, as the replay takes them (src/sim's TapeInput), and what they are made from. */
export interface SymbolTape {
  readonly symbol: string;
  readonly trades: TradeSource;
  readonly source: MarketSource;
  /**
   * The prints' ids are the venue's trade ids (Tardis trades files, exsim recordings): the replay
   * keeps them as the trade ids it serves (TapeInput.keepTradeIds). False for Binance's dumps
   * (numbered by the engine, as always), aggTrades and klines.
   */
  readonly venueIds: boolean;
  /** What reading the prints noticed (a recording's gaps touching the window, Tardis rows restamped), filled in as `trades` is read. */
  readonly notes: ReadNotes;
}

/** Klines turned into prints along an intra-bar path on the symbol's grid. */
export type KlinePrints = (klines: AsyncIterable<Kline[]>, grid: SymbolSpec) => AsyncIterable<TradeBatch>;

/** File kinds in the order a replay prefers them: Binance's trades, Tardis's, a recording's, aggTrades, then klines from 1s up. */
const PRINT_RANK: readonly string[] = ['trades', 'tardis:trades', RECORDING_KIND, 'aggTrades', ...KLINE_INTERVALS.map((i) => `klines:${i}`)];

/** The kinds whose trade ids are the venue's and are kept. */
const VENUE_ID_KINDS: readonly DataKind[] = ['tardis:trades', RECORDING_KIND];

const printKind = (file: DataFile): string => (file.name.kind === 'klines' ? `klines:${file.name.interval!}` : file.name.kind);

/**
 * The finest source of `symbol` with a file overlapping [from, to) µs (any file when from/to
 * are undefined), and its files there.
 */
export async function sourceFiles(data: MarketData, symbol: string, from?: number, to?: number): Promise<SourceFiles> {
  const found = await findSourceFiles(data, symbol, from, to);
  if (found === null) {
    throw new InputError(`no ${symbol} trades, aggTrades or klines files in ${data.dir}${from === undefined ? '' : ' for the chosen window'}`);
  }
  return found;
}

/** As sourceFiles, of `market`'s files (USDⓈ-M futures: `futures/um/...`, Tardis `binance-futures`), or null when there are none. */
export async function findSourceFiles(data: MarketData, symbol: string, from?: number, to?: number, market: DataMarket = 'spot'): Promise<SourceFiles | null> {
  const { rank, files } = finestKind(await symbolFiles(data, symbol, from, to, market), PRINT_RANK, printKind);
  if (rank < 0) return null;
  const kind = files[0]!.name.kind;
  return { source: kind === 'tardis:trades' || kind === RECORDING_KIND ? 'trades' : (PRINT_RANK[rank] as MarketSource), kind, files };
}

/** The data files of a symbol's finest source whose day (or month) overlaps [from, to) µs; all of them when from/to are undefined. */
export async function tradeFiles(data: MarketData, symbol: string, from?: number, to?: number): Promise<DataFile[]> {
  return [...(await sourceFiles(data, symbol, from, to)).files];
}

/**
 * The tape of one symbol from its finest source, only the prints stamped in [from, to).
 * `klinePrints` is needed only when that source is klines. With `futures` (the perpetual's
 * engine rules, `um:<symbol>`), the tape is of the folder's USDⓈ-M futures files of `symbol`
 * instead, read at the contract's precisions and named after it (an InputError when there are none).
 */
export async function windowedTape(data: MarketData, symbol: string, from: number, to: number, klinePrints?: KlinePrints, futures?: SymbolSpec): Promise<SymbolTape> {
  const found = futures === undefined ? await sourceFiles(data, symbol, from, to) : await findSourceFiles(data, symbol, from, to, 'um');
  if (found === null) throw new InputError(`no futures/um ${symbol} trades, aggTrades or klines files in ${data.dir} for the chosen window`);
  const { source, kind, files } = found;
  const spec = futures ?? symbolSpecOf(data, symbol);
  const scale = { quotePrecision: spec.quotePrecision, basePrecision: spec.basePrecision };
  const paths = files.map((f) => f.path);
  const notes = emptyReadNotes();
  let prints: AsyncIterable<TradeBatch>;
  if (kind === RECORDING_KIND) prints = readRecordingTrades(paths, { scale, symbol, onGap: gapsInWindow(notes, from, to), onWarning: (warning) => notes.warnings.push(warning) });
  else if (source === 'trades') prints = readTrades(paths, { scale, symbol, notes });
  else if (source === 'aggTrades') prints = aggTradePrints(readAggTrades(paths, { scale, symbol }), spec.basePrecision);
  else {
    if (klinePrints === undefined) throw new Error(`${symbol}'s data in the window is klines: windowedTape needs klinePrints to walk them`);
    const interval = source.slice('klines:'.length) as KlineInterval;
    prints = klinePrints(readKlines(paths, { scale, symbol, interval }), spec);
  }
  return { symbol: spec.symbol, trades: cutToWindow(prints, from, to), source, venueIds: VENUE_ID_KINDS.includes(kind), notes };
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

/** Stretches of [from, to) that no file of `symbol`'s chosen source covers (the replay jumps over them). */
export async function windowGaps(data: MarketData, symbol: string, from: number, to: number): Promise<DataGap[]> {
  return coverageGaps(symbol, await tradeFiles(data, symbol, from, to), from, to);
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

/** Drops the rows outside [from, to) (only the first and last files have any). */
export async function* cutToWindow(source: AsyncIterable<TradeBatch>, from: number, to: number): AsyncGenerator<TradeBatch> {
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
    if (hi > lo) yield sliceTrades(batch, lo, hi);
    if (hi < n) return;
  }
}
