/**
 * A symbol's windowed depth read on a worker thread: the same stream as `WindowedDepth.open()`
 * (the same batches, byte for byte, in the same order), parsed while the replay runs on the main
 * thread. On a recorded L2 day, unzipping and parsing 20M rows takes about as long as replaying
 * them, so on two cores the two overlap instead of adding up.
 *
 * Flow control: the worker keeps at most `IN_FLIGHT` batches ahead of the consumer (each ~1.6 MB
 * at 64k rows), so memory stays flat however fast it parses. Batches move by transferring their
 * buffers (a batch that is a view into a larger buffer is copied first). A read error on the
 * worker comes back as the same one-line error on the main thread.
 */
import { Worker } from 'node:worker_threads';
import type { DepthBatch } from './depth-tape.ts';
import { emptyReadNotes, type ReadNotes } from './read-notes.ts';
import type { DepthStream } from './read-depth.ts';
import type { LocalBookCounts } from './recording/local-book-sync.ts';
import { InputError } from './input-error.ts';

/** Batches the worker may have sent and the consumer not yet taken. */
export const IN_FLIGHT = 4;

/** What the worker needs to open the same stream: the folder, the symbol and the window. */
export interface ThreadedDepthRequest {
  readonly dir: string;
  readonly symbol: string;
  readonly from: number;
  readonly to: number;
}

/** Messages from the worker. */
export type DepthWorkerMessage =
  | { readonly kind: 'batch'; readonly batch: DepthBatch }
  | { readonly kind: 'done'; readonly skippedUpdates: number; readonly notes: ReadNotes; readonly bookCounts: LocalBookCounts | undefined }
  | { readonly kind: 'error'; readonly message: string; readonly user: boolean };

export class ThreadedDepthStream implements DepthStream {
  skippedUpdates = 0;
  readonly notes: ReadNotes = emptyReadNotes();
  bookCounts: LocalBookCounts | undefined = undefined;

  constructor(private readonly request: ThreadedDepthRequest) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<DepthBatch> {
    const worker = new Worker(new URL('./threaded-depth-worker.mjs', import.meta.url), { workerData: this.request });
    const queue: DepthWorkerMessage[] = [];
    let wake: (() => void) | null = null;
    let failure: Error | null = null;
    worker.on('message', (message: DepthWorkerMessage) => {
      queue.push(message);
      wake?.();
    });
    worker.on('error', (error: unknown) => {
      failure = error instanceof Error ? error : new Error(String(error));
      wake?.();
    });
    worker.on('exit', (code) => {
      if (code !== 0 && failure === null) failure = new Error(`the depth reader of ${this.request.symbol} stopped (exit ${code})`);
      wake?.();
    });
    try {
      for (;;) {
        while (queue.length === 0 && failure === null) await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        const message = queue.shift();
        if (message === undefined) throw failure!;
        if (message.kind === 'batch') {
          worker.postMessage('more');
          yield message.batch;
          continue;
        }
        if (message.kind === 'error') throw message.user ? new InputError(message.message) : new Error(message.message);
        this.skippedUpdates = message.skippedUpdates;
        this.bookCounts = message.bookCounts;
        const { gaps, warnings, restampedRows } = message.notes;
        this.notes.gaps.push(...gaps);
        this.notes.warnings.push(...warnings);
        this.notes.restampedRows = restampedRows;
        return;
      }
    } finally {
      // A consumer that stops early (or an error) ends the reader too.
      await worker.terminate();
    }
  }
}
