/**
 * A symbol's order book from its recording files, as depth messages (depth-tape.ts): the diff
 * events and snapshots put through Binance's local-book recipe (local-book-sync.ts), gaps
 * reported through `onGap`.
 *
 *   for await (const batch of readRecordingDepth(files, { scale, onGap })) { ... }
 *
 * Simulated time: a diff event's `E`; a snapshot's line its local receive time, moved onto the
 * exchange's clock by the offset of the latest timed message (venue-clock.ts), since a REST
 * depth answer carries no time of its own. Files are read in the order given (see
 * compareRecordingFileNames).
 */
import type { DepthBatch } from '../depth-tape.ts';
import { DepthBatchBuilder } from '../depth-batch-builder.ts';
import { parseDiffEvent, parseSnapshot } from './depth-messages.ts';
import { LocalBookSync, type LocalBookCounts } from './local-book-sync.ts';
import { breakOf } from './recording-breaks.ts';
import { messageData, readRecordingLines } from './recording-lines.ts';
import { resolveRecordingOptions, type ReadRecordingOptions } from './recording-options.ts';
import { onVenueClock } from './venue-clock.ts';

export interface ReadRecordingDepthOptions extends ReadRecordingOptions {
  /** Called once at the end with what the recipe did (events applied, stale, snapshots used). */
  readonly onCounts?: ((counts: LocalBookCounts) => void) | undefined;
  /**
   * Called after each message, in order: the venue's update id the book is at after it (a diff's
   * `u`, a snapshot's lastUpdateId), or null for the empty book written when it was lost. Lets a
   * consumer line the replayed book up with the venue's REST answers.
   */
  readonly onMessage?: ((updateId: number | null) => void) | undefined;
  /**
   * The consumer needs nothing stamped at or after this (µs: a window's end). The read stops once
   * a message at or after it is written and no loss awaits its snapshot; until then it reads on
   * without yielding more (a consumer stops at the first row past the window), so a gap open at
   * the window's end is reported with its true extent, whatever the batch size.
   */
  readonly until?: number | undefined;
}

export async function* readRecordingDepth(files: readonly string[], options: ReadRecordingDepthOptions): AsyncGenerator<DepthBatch> {
  const { scale, symbol, batchSize, onGap, onWarning } = resolveRecordingOptions(files, options);
  const until = options.until;
  const out = new DepthBatchBuilder(batchSize);
  const sync = new LocalBookSync(symbol, scale, out, onGap, options.onMessage);
  let lastTime = 0;
  let firstDiff: { time: number; at: string } | null = null;
  /** The last line was a break the recording may end at (a stop, a torn file). */
  let ended = false;
  for await (const { line, time } of onVenueClock(readRecordingLines(files, { symbol, onWarning }))) {
    const gapBreak = breakOf(line);
    ended = gapBreak?.mayEnd === true;
    if (gapBreak !== null) {
      sync.lose(lastTime, time, gapBreak.why, line);
    } else if (line.kind === 'depth') {
      const event = parseDiffEvent(messageData(line), line);
      firstDiff ??= { time: event.time, at: `${line.file}:${line.line}` };
      sync.diff(event);
    } else if (line.kind === 'snapshot') {
      sync.snapshot(parseSnapshot(messageData(line), line), time);
    }
    lastTime = time;
    if (until !== undefined && sync.writtenUpTo >= until) {
      if (!sync.lossPending) break;
      continue;
    }
    yield* out.takeReady();
  }
  sync.end(lastTime, ended);
  if (sync.neverSynced && firstDiff !== null) {
    onGap({ symbol, stream: 'depth', from: firstDiff.time, to: Math.max(lastTime, firstDiff.time), why: 'no usable depth snapshot: the book was never built', at: firstDiff.at });
  }
  options.onCounts?.(sync.counts);
  yield* out.takeReady();
  const last = out.flush();
  if (last !== undefined) yield last;
}
