/**
 * The worker side of threaded-depth.ts: opens the same windowed depth stream the main thread
 * would (market-folder, depth-sources) and sends its batches, at most IN_FLIGHT ahead of the
 * consumer, then what the read noticed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { DepthBatch } from './depth-tape.ts';
import { windowedDepth } from './depth-sources.ts';
import { InputError } from './input-error.ts';
import { openMarketData } from './market-folder.ts';
import { DataFormatError } from './data-format-error.ts';
import { IN_FLIGHT, type DepthWorkerMessage, type ThreadedDepthRequest } from './threaded-depth.ts';

const port = parentPort!;
const request = workerData as ThreadedDepthRequest;
let credits = IN_FLIGHT;
let wake: (() => void) | null = null;
port.on('message', () => {
  credits++;
  wake?.();
});

const send = (message: DepthWorkerMessage, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);

/** The batch with buffers of its own (a view into a larger buffer is copied), and those buffers. */
function transferable(batch: DepthBatch): [DepthBatch, ArrayBuffer[]] {
  const own = <T extends Float64Array | Uint8Array>(a: T): T => (a.byteOffset === 0 && a.byteLength === a.buffer.byteLength && a.buffer instanceof ArrayBuffer ? a : (a.slice() as T));
  const out = { length: batch.length, time: own(batch.time), price: own(batch.price), qty: own(batch.qty), flags: own(batch.flags) };
  return [out, [out.time.buffer, out.price.buffer, out.qty.buffer, out.flags.buffer] as ArrayBuffer[]];
}

try {
  const depth = await windowedDepth(openMarketData(request.dir), request.symbol, request.from, request.to);
  if (depth === null) throw new InputError(`no ${request.symbol} depth files in ${request.dir}`);
  const stream = depth.open();
  for await (const batch of stream) {
    while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
    credits--;
    const [own, buffers] = transferable(batch);
    send({ kind: 'batch', batch: own }, buffers);
  }
  send({ kind: 'done', skippedUpdates: stream.skippedUpdates, notes: stream.notes, bookCounts: stream.bookCounts });
} catch (error) {
  const user = error instanceof InputError || error instanceof DataFormatError;
  send({ kind: 'error', message: error instanceof Error ? error.message : String(error), user });
}
port.close();
