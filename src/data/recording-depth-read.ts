/**
 * The depth reader of exsim recordings: the files' diff events and snapshots through Binance's
 * local-book recipe (recording/read-recording-depth.ts), its gaps, warnings and counts kept on
 * the stream's notes instead of printed.
 */
import type { DepthReadOptions, DepthStream } from './depth-stream.ts';
import type { DepthBatch } from './depth-tape.ts';
import type { DumpFileRef } from './dump-sources.ts';
import { clearReadNotes, emptyReadNotes, gapsInWindow } from './read-notes.ts';
import type { LocalBookCounts } from './recording/local-book-sync.ts';
import { readRecordingDepth } from './recording/read-recording-depth.ts';

export class RecordingDepthRead implements DepthStream {
  readonly notes = emptyReadNotes();
  #bookCounts: LocalBookCounts | undefined;

  constructor(
    private readonly files: () => Promise<readonly DumpFileRef[]>,
    private readonly options: DepthReadOptions,
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
    yield* readRecordingDepth(files, {
      scale,
      symbol,
      batchSize,
      until: window?.to,
      onGap: window === undefined ? (gap) => notes.gaps.push(gap) : gapsInWindow(notes, window.from, window.to),
      onWarning: (warning) => notes.warnings.push(warning),
      onCounts: (counts) => (this.#bookCounts = counts),
    });
  }
}
