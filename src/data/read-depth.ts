/**
 * Streams depth files (Tardis incremental_book_L2, book_snapshot_25/5, book_ticker; Binance
 * futures bookTicker; exsim recordings) as DepthBatch objects in engine units, one kind per read:
 *
 *   const depth = readDepth('data/BTCUSDT', { scale, kind: 'tardis:incremental_book_L2' });
 *   for await (const batch of depth) { ... }
 *   depth.skippedUpdates // updates before a file's first snapshot, which no book could take
 *   depth.notes          // rows restamped (Tardis), gaps and warnings (recordings)
 *
 * Batches hold whole messages (depth-batch-builder.ts); times never run backwards within a file
 * or across the files of the read (the parser checks, as for trades; Tardis's small steps back
 * are restamped).
 */
import { RECORDING_KIND } from './data-file-name.ts';
import { depthKindInfo, RECORDING_L1_KIND, type DepthKind } from './depth-kinds.ts';
import type { DepthReadOptions, DepthStream } from './depth-stream.ts';
import { resolveDumpFiles, type DumpSource } from './dump-sources.ts';

export type { DepthStream } from './depth-stream.ts';

export interface ReadDepthOptions extends DepthReadOptions {
  readonly kind: DepthKind;
}

export function readDepth(source: DumpSource, options: ReadDepthOptions): DepthStream {
  const info = depthKindInfo(options.kind);
  if (info === undefined) throw new RangeError(`not a depth kind: ${options.kind}`);
  // A bookTicker recording is a recording by its file name.
  const fileKind = options.kind === RECORDING_L1_KIND ? RECORDING_KIND : options.kind;
  return info.read(() => resolveDumpFiles(source, { kind: fileKind, symbol: options.symbol }), options);
}
