/**
 * SHA-256 streams hashed on a worker thread (hash-worker.mjs), so a long backtest's records cost
 * the replay only the filling of their buffers: the digest hashes ~110 bytes per print (45M prints
 * a month: ~5 GB, seconds of SHA-256), and `--journal` also gzips every line. The hashes are the
 * same bytes in the same order as hashing them in place, so every digest is unchanged.
 *
 * A stream starts in process: its chunks are kept (not hashed) until they pass `THREAD_BYTES`, and
 * a digest asked before that hashes them here, so a short run (tests, the sample) never starts the
 * thread. Past it, the chunks go to the one thread this thread keeps (started on first need,
 * unref'd) and a digest or a close waits for its answer (Atomics.wait on a SharedArrayBuffer).
 */
import { createHash, type Hash } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/** Bytes a stream keeps in process before it moves to the hashing thread. */
export const THREAD_BYTES = 8 << 20;
/** An answer the thread has not given by then means it is gone. */
const ANSWER_TIMEOUT_MS = 600_000;
const REPLY_BYTES = 4096;

/** Chunks posted together, one message for about this many bytes: a message costs tens of µs however small. */
const MESSAGE_BYTES = 4 << 20;
/** Bytes posted and not yet hashed past which a poster waits for the thread (a thread starved of CPU must not grow memory without bound). */
const IN_FLIGHT_BYTES = 64 << 20;

type Message =
  | { op: 'open'; id: number; path?: string; gzipLevel?: number }
  | { op: 'update'; id: number; bytes?: ArrayBuffer; length?: number; text?: string }
  | { op: 'updates'; id: number; chunks: { bytes?: ArrayBuffer; text?: string }[] }
  | { op: 'digest' | 'close'; id: number; reply: SharedArrayBuffer };

class HashThread {
  readonly #worker: Worker;
  #ids = 0;
  /** [0]: bytes the thread has taken in (BigInt64), written by it; [8..12): a tick it bumps and notifies after each message. */
  readonly #progress = new SharedArrayBuffer(16);
  readonly #done = new BigInt64Array(this.#progress, 0, 1);
  readonly #tick = new Int32Array(this.#progress, 8, 1);
  #posted = 0;

  constructor() {
    this.#worker = new Worker(new URL('./hash-worker.mjs', import.meta.url), { workerData: { progress: this.#progress } });
    // Never what keeps a process alive: whoever needs an answer waits for it.
    this.#worker.unref();
  }

  /**
   * A new stream; with `path`, the thread creates that file (a descriptor is closed by the thread
   * that opened it) and writes each chunk there gzipped, one gzip member each; `close` closes it,
   * and says whether anything failed on the way.
   */
  open(path?: string, gzipLevel = 6): number {
    const id = ++this.#ids;
    this.post(path === undefined ? { op: 'open', id } : { op: 'open', id, path, gzipLevel });
    return id;
  }

  post(message: Message, transfer: ArrayBuffer[] = []): void {
    const bytes = transfer.reduce((n, b) => n + b.byteLength, 0);
    // Flow control: wait while the thread is more than IN_FLIGHT_BYTES behind.
    while (this.#posted - Number(Atomics.load(this.#done, 0)) > IN_FLIGHT_BYTES) {
      const tick = Atomics.load(this.#tick, 0);
      if (this.#posted - Number(Atomics.load(this.#done, 0)) <= IN_FLIGHT_BYTES) break;
      if (Atomics.wait(this.#tick, 0, tick, ANSWER_TIMEOUT_MS) === 'timed-out') throw new Error(`the hashing thread took in nothing for ${ANSWER_TIMEOUT_MS / 1000} s`);
    }
    this.#posted += bytes;
    this.#worker.postMessage({ ...message, size: bytes }, transfer);
  }

  /** Posts a digest or close and waits for its answer. */
  ask(op: 'digest' | 'close', id: number): string {
    const reply = new SharedArrayBuffer(8 + REPLY_BYTES);
    const flag = new Int32Array(reply, 0, 1);
    this.post({ op, id, reply });
    if (Atomics.wait(flag, 0, 0, ANSWER_TIMEOUT_MS) === 'timed-out') throw new Error(`the hashing thread did not answer ${op} within ${ANSWER_TIMEOUT_MS / 1000} s`);
    const length = new Int32Array(reply, 4, 1)[0]!;
    const text = Buffer.from(new Uint8Array(reply, 8, length)).toString();
    if (text.startsWith('error: ')) throw new Error(`hashing thread: ${text.slice('error: '.length)}`);
    return text;
  }
}

let thread: HashThread | null = null;

/** The thread's one hashing worker, started on first use. */
export function hashThread(): HashThread {
  thread ??= new HashThread();
  return thread;
}

/** One SHA-256 stream of byte and text chunks (in the order given), hashed on the thread once large. */
export class ThreadedSha256 {
  #local: Hash | null = null;
  #id: number | null = null;
  #pending: { bytes: ArrayBuffer | null; text: string | null }[] = [];
  #pendingBytes = 0;
  /** On the thread: chunks waiting to go in one message. */
  #outgoing: { bytes?: ArrayBuffer; text?: string }[] = [];
  #outgoingBytes = 0;

  /** Hashes `bytes` (now owned by the stream: it may be transferred), then `text` (UTF-8). */
  update(bytes: ArrayBuffer | null, text: string | null): void {
    if (this.#local !== null) {
      if (bytes !== null) this.#local.update(new Uint8Array(bytes));
      if (text !== null) this.#local.update(text);
      return;
    }
    if (this.#id !== null) {
      this.#send(bytes, text);
      return;
    }
    this.#pending.push({ bytes, text });
    this.#pendingBytes += (bytes?.byteLength ?? 0) + (text?.length ?? 0);
    if (this.#pendingBytes >= THREAD_BYTES) {
      this.#id = hashThread().open();
      for (const chunk of this.#pending) this.#send(chunk.bytes, chunk.text);
      this.#pending = [];
    }
  }

  /** SHA-256 hex of everything so far (the stream can go on). */
  digest(): string {
    if (this.#id !== null) {
      this.#post();
      return hashThread().ask('digest', this.#id);
    }
    if (this.#local === null) {
      // Small enough never to have moved: hashed here, and from now on in place.
      this.#local = createHash('sha256');
      const pending = this.#pending;
      this.#pending = [];
      for (const chunk of pending) this.update(chunk.bytes, chunk.text);
    }
    return this.#local.copy().digest('hex');
  }

  #send(bytes: ArrayBuffer | null, text: string | null): void {
    this.#outgoing.push({ ...(bytes === null ? {} : { bytes }), ...(text === null ? {} : { text }) });
    this.#outgoingBytes += (bytes?.byteLength ?? 0) + (text?.length ?? 0);
    if (this.#outgoingBytes >= MESSAGE_BYTES) this.#post();
  }

  #post(): void {
    if (this.#outgoing.length === 0) return;
    const chunks = this.#outgoing;
    this.#outgoing = [];
    this.#outgoingBytes = 0;
    hashThread().post({ op: 'updates', id: this.#id!, chunks }, chunks.flatMap((c) => (c.bytes === undefined ? [] : [c.bytes])));
  }
}
