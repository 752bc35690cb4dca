/**
 * Reads a symbol's recording files in full, as `exsim data inspect` and `exsim data import` check
 * them: the messages per stream and the first and last time of each file, then every line through
 * the readers a replay uses (trades, the L2 book by the local-book recipe, the L1 book), which
 * find the gaps and refuse a malformed message with its file and line.
 *
 * Gaps are what a live recording has (a lost connection, ids the venue skipped): the readers
 * bridge them, so they are reported as found, not as errors. A file that ends torn is read up to
 * its last complete line, as a replay reads it: a warning. A line a reader refuses stops that
 * reader there, as it would stop a replay: an error.
 */
import type { DepthBatch } from '../depth-tape.ts';
import { DataFormatError } from '../data-format-error.ts';
import type { TradeBatch, UnitScale } from '../tape.ts';
import { readRecordingBookTicker } from './read-recording-book-ticker.ts';
import { readRecordingDepth } from './read-recording-depth.ts';
import { readRecordingTrades } from './read-recording-trades.ts';
import type { RecordingGap } from './recording-gap.ts';
import { readRecordingLines, type RecordingLineKind } from './recording-lines.ts';
import { resolveRecordingOptions } from './recording-options.ts';
import { onVenueClock } from './venue-clock.ts';

/** The kinds of message a recording holds, as counted. */
export type RecordingMessageKind = Exclude<RecordingLineKind, 'torn' | 'unrecorded'>;

const MESSAGE_KINDS: readonly RecordingMessageKind[] = ['trade', 'depth', 'snapshot', 'bookTicker', 'note', 'other'];

export interface RecordingFileScan {
  readonly path: string;
  /** Messages read (complete lines). */
  messages: number;
  /** µs on the exchange's clock (venue-clock.ts): the earliest and latest line's. */
  firstTime?: number;
  lastTime?: number;
}

export interface RecordingScan {
  readonly messages: Record<RecordingMessageKind, number>;
  readonly files: RecordingFileScan[];
  /** Every gap the three readers found, by start time. */
  readonly gaps: RecordingGap[];
  /** Files that end torn (their complete lines were read), one line each. */
  readonly warnings: string[];
  /** Lines a reader refused (file:line: what is wrong), one line each; that reader stopped there. */
  readonly errors: string[];
}

export interface ScanRecordingOptions {
  readonly scale: UnitScale;
  /** The files' symbol; default: the first file's name. */
  readonly symbol?: string | undefined;
  /** Each trades batch as read (import learns the price and size grids from them). */
  readonly onTrades?: ((batch: TradeBatch) => void) | undefined;
  /** Each depth batch of the L2 and the L1 book as read. */
  readonly onDepth?: ((batch: DepthBatch) => void) | undefined;
}

/** Reads `files` (one symbol's, in read order) through everything a replay would read them with. */
export async function scanRecording(files: readonly string[], options: ScanRecordingOptions): Promise<RecordingScan> {
  const messages = Object.fromEntries(MESSAGE_KINDS.map((k) => [k, 0])) as Record<RecordingMessageKind, number>;
  const scan: RecordingScan = { messages, files: [], gaps: [], warnings: [], errors: [] };
  const { symbol } = resolveRecordingOptions(files, options);
  const errors = new Set<string>();
  const refused = (error: unknown): void => {
    if (!(error instanceof DataFormatError)) throw error;
    errors.add(error.message);
  };
  for (const path of files) {
    const file: RecordingFileScan = { path, messages: 0 };
    scan.files.push(file);
    try {
      for await (const { line, time } of onVenueClock(readRecordingLines([path], { symbol, onWarning: (w) => scan.warnings.push(w) }))) {
        if (line.kind === 'torn' || line.kind === 'unrecorded') continue;
        messages[line.kind]++;
        file.messages++;
        file.firstTime = Math.min(file.firstTime ?? time, time);
        file.lastTime = Math.max(file.lastTime ?? time, time);
      }
    } catch (error) {
      refused(error);
    }
  }
  // The readers see the torn ends again; the pass above has said so once per file.
  const reading = { scale: options.scale, symbol, onGap: (gap: RecordingGap) => scan.gaps.push(gap), onWarning: () => undefined };
  const drain = async <B>(batches: AsyncIterable<B>, sink: ((batch: B) => void) | undefined): Promise<void> => {
    try {
      for await (const batch of batches) sink?.(batch);
    } catch (error) {
      refused(error);
    }
  };
  await drain(readRecordingTrades(files, reading), options.onTrades);
  await drain(readRecordingDepth(files, reading), options.onDepth);
  await drain(readRecordingBookTicker(files, reading), options.onDepth);
  scan.gaps.sort((a, b) => a.from - b.from);
  scan.errors.push(...errors);
  return scan;
}
