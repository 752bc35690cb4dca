/**
 * The depth reader of exsim recordings: the files' diff events and snapshots through Binance's
 * local-book recipe (recording/read-recording-depth.ts), or, for a recording of quotes alone, its
 * bookTicker messages as an L1 book (recording/read-recording-book-ticker.ts); gaps, warnings and
 * counts kept on the stream's notes instead of printed.
 */
import type { DepthReadOptions, DepthStream } from './depth-stream.ts';
import type { DepthBatch } from './depth-tape.ts';
import type { DumpFileRef } from './dump-sources.ts';
import { clearReadNotes, emptyReadNotes, gapsInWindow } from './read-notes.ts';
import type { RecordingGap } from './recording/recording-gap.ts';
import type { LocalBookCounts } from './recording/local-book-sync.ts';
import { readRecordingBookTicker } from './recording/read-recording-book-ticker.ts';
import { readRecordingDepth } from './recording/read-recording-depth.ts';

export class RecordingDepthRead implements DepthStream {
  readonly notes = emptyReadNotes();
  #bookCounts: LocalBookCounts | undefined;

  constructor(
    private readonly files: () => Promise<readonly DumpFileRef[]>,
    private readonly options: DepthReadOptions,
    /** 'L2': diff depth and snapshots; 'L1': bookTicker quotes. */
    private readonly book: 'L2' | 'L1' = 'L2',
  ) {}

  /** The recipe buffers updates until a snapshot instead of skipping them: see bookCounts. */
  get skippedUpdates(): number {
    return 0;
  }

  get bookCounts(): LocalBookCounts | undefined {
    return this.#bookCounts;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<DepthBatch> {
    clearReadNotes(this.notes);
    this.#bookCounts = undefined;
    const { scale, symbol, batchSize, window } = this.options;
    const notes = this.notes;
    const files = (await this.files()).map((f) => f.path);
    const onGap = window === undefined ? (gap: RecordingGap) => notes.gaps.push(gap) : gapsInWindow(notes, window.from, window.to);
    const onWarning = (warning: string) => notes.warnings.push(warning);
    if (this.book === 'L1') {
      yield* readRecordingBookTicker(files, { scale, symbol, batchSize, onGap, onWarning });
      return;
    }
    yield* readRecordingDepth(files, {
      scale,
      symbol,
      batchSize,
      until: window?.to,
      onGap,
      onWarning,
      onCounts: (counts) => (this.#bookCounts = counts),
    });
  }
}
