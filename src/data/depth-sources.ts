/**
 * A symbol's recorded book in a window: the finest depth kind with a file overlapping the window
 * wins (depth-kinds.ts: L2 updates, Tardis's then exsim recordings', then top-25 and top-5
 * snapshots, then L1 quotes; a recording by the book it holds, recording-book-kind.ts), not stitched with coarser kinds (a stretch its files leave
 * uncovered is a gap: `coverageGaps(symbol, files, from, to)`). No depth file at all: null, and
 * the market keeps its synthetic book.
 *
 *   const depth = await windowedDepth(data, 'BTCUSDT', from, to);
 *   if (depth !== null) {
 *     const stream = depth.open();
 *     for await (const batch of stream) ...   // depth.info.label for the summary
 *     stream.notes.gaps, stream.notes.restampedRows, stream.skippedUpdates   // warnings, summary.json
 *   }
 */
import type { DepthBatch, DepthSourceInfo } from './depth-tape.ts';
import type { SymbolSpec } from '../engine/index.ts';
import { comparePeriods, RECORDING_KIND, type DataMarket } from './data-file-name.ts';
import { DEPTH_KINDS, RECORDING_L1_KIND, type DepthKind } from './depth-kinds.ts';
import { recordingBookKind } from './recording/recording-book-kind.ts';
import type { DepthStream } from './depth-stream.ts';
import { depthInWindow } from './depth-window.ts';
import { ThreadedDepthStream } from './threaded-depth.ts';
import { finestKind, symbolFiles, symbolScale, type DataFile, type MarketData } from './market-folder.ts';

export interface DepthFiles {
  readonly kind: DepthKind;
  /** What the book is made of, as the summary says it (`recorded L2 (tardis incremental_book_L2)`). */
  readonly info: DepthSourceInfo;
  /** In read order. */
  readonly files: readonly DataFile[];
}

export interface WindowedDepth extends DepthFiles {
  readonly symbol: string;
  /**
   * The depth cut to [from, to) (depth-window.ts): one CLEAR message with the book as it stood
   * before `from` (stamped before `from`), then the messages stamped in [from, to). Each call
   * reads the files again; the stream's `notes` hold what that read found (a recording's gaps
   * that touch the window, Tardis rows restamped in the files read), filled in as it is read.
   */
  open(): DepthStream;
  /** The same stream read on a worker thread (threaded-depth.ts): parsing overlaps the replay. */
  openThreaded(): DepthStream;
}

const DEPTH_RANK: readonly DepthKind[] = DEPTH_KINDS.map((d) => d.kind);

/**
 * The finest depth kind of `symbol` in `market` (spot unless said) with a file overlapping
 * [from, to) µs (any file when from/to are undefined) and its files there, or null. Binance
 * publishes bookTicker dumps for futures only (`futures/um/.../bookTicker`): a spot symbol takes
 * them as its L1 book when it has no book of its own kind, as it did before files had a market.
 */
export async function depthFiles(data: MarketData, symbol: string, from?: number, to?: number, market: DataMarket = 'spot'): Promise<DepthFiles | null> {
  const candidates = await symbolFiles(data, symbol, from, to, market);
  if (market === 'spot') {
    const quotes = (await symbolFiles(data, symbol, from, to, 'um')).filter((f) => f.name.kind === 'bookTicker');
    if (quotes.length > 0) {
      candidates.push(...quotes);
      candidates.sort((a, b) => comparePeriods(a.name, b.name) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    }
  }
  // A recording ranks by the book it holds (L2, L1 or none), which its name does not say.
  const recordings = new Map<string, DepthKind | undefined>();
  for (const file of candidates) {
    if (file.name.kind !== RECORDING_KIND) continue;
    const book = await recordingBookKind([file.path]);
    recordings.set(file.path, book === 'L2' ? RECORDING_KIND : book === 'L1' ? RECORDING_L1_KIND : undefined);
  }
  const kindOf = (f: DataFile): DepthKind | undefined => (f.name.kind === RECORDING_KIND ? recordings.get(f.path) : (f.name.kind as DepthKind));
  const { rank, files } = finestKind(candidates, DEPTH_RANK, kindOf);
  if (rank < 0) return null;
  const { kind, granularity, label } = DEPTH_KINDS[rank]!;
  return { kind, info: { granularity, label }, files };
}

/**
 * The symbol's recorded book over [from, to), or null when it has no depth file there. With
 * `futures` (the perpetual's engine rules, `um:<symbol>`): the book of the folder's USDⓈ-M files of
 * `symbol` (Tardis `binance-futures` L2 and snapshots, `futures/um` bookTicker), at the contract's
 * precisions, read on the replay's thread.
 */
export async function windowedDepth(data: MarketData, symbol: string, from: number, to: number, futures?: SymbolSpec): Promise<WindowedDepth | null> {
  const chosen = await depthFiles(data, symbol, from, to, futures === undefined ? 'spot' : 'um');
  if (chosen === null) return null;
  const scale = futures === undefined ? symbolScale(data, symbol) : { quotePrecision: futures.quotePrecision, basePrecision: futures.basePrecision };
  const refs = chosen.files.map((f) => ({ path: f.path, parsed: f.name, market: f.name.market }));
  const { read } = DEPTH_KINDS.find((d) => d.kind === chosen.kind)!;
  const open = (): DepthStream => new WindowedDepthStream(read(() => Promise.resolve(refs), { scale, symbol, window: { from, to } }), from, to);
  const openThreaded = futures === undefined ? () => new ThreadedDepthStream({ dir: data.dir, symbol, from, to }) : open;
  return { ...chosen, symbol: futures?.symbol ?? symbol, open, openThreaded };
}

class WindowedDepthStream implements DepthStream {
  constructor(
    private readonly read: DepthStream,
    private readonly from: number,
    private readonly to: number,
  ) {}

  get skippedUpdates(): number {
    return this.read.skippedUpdates;
  }

  get notes(): DepthStream['notes'] {
    return this.read.notes;
  }

  get bookCounts(): DepthStream['bookCounts'] {
    return this.read.bookCounts;
  }

  [Symbol.asyncIterator](): AsyncIterator<DepthBatch> {
    return depthInWindow(this.read, this.from, this.to);
  }
}
