// The hashing thread of hash-thread.ts (plain JavaScript: it needs no TypeScript loader). Streams
// are SHA-256 hashes fed in the order their chunks were posted; a stream may also gzip each chunk
// into a file (the journal). Answers (a digest, a file closed) are written into the asker's
// SharedArrayBuffer and notified: the main thread waits for them with Atomics.wait.
import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';

const streams = new Map();
// Flow control with the poster (hash-thread.ts): bytes taken in, and a tick notified after each message.
const done = new BigInt64Array(workerData.progress, 0, 1);
const tick = new Int32Array(workerData.progress, 8, 1);

function tookIn(size) {
  if (size > 0) Atomics.add(done, 0, BigInt(size));
  Atomics.add(tick, 0, 1);
  Atomics.notify(tick, 0);
}

function answer(reply, text) {
  const flag = new Int32Array(reply, 0, 1);
  const bytes = new Uint8Array(reply, 8);
  const encoded = Buffer.from(text);
  bytes.set(encoded.subarray(0, bytes.length));
  new Int32Array(reply, 4, 1)[0] = encoded.length;
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

function update(s, chunk) {
  if (s.error !== undefined) return;
  try {
    if (chunk.bytes !== undefined) {
      const bytes = new Uint8Array(chunk.bytes, 0, chunk.length ?? chunk.bytes.byteLength);
      s.hash.update(bytes);
      if (s.fd !== null) writeSync(s.fd, gzipSync(bytes, { level: s.gzipLevel }));
    }
    if (chunk.text !== undefined) {
      s.hash.update(chunk.text);
      if (s.fd !== null) writeSync(s.fd, gzipSync(chunk.text, { level: s.gzipLevel }));
    }
  } catch (error) {
    // Said at the stream's next digest or close, the points where its owner waits.
    s.error = error instanceof Error ? error.message : String(error);
  }
}

parentPort.on('message', (m) => {
  try {
    handle(m);
  } finally {
    tookIn(m.size ?? 0);
  }
});

function handle(m) {
  try {
    if (m.op === 'open' && m.path !== undefined) {
      // The file is opened (and closed) here: a descriptor opened by another thread is not this one's to close.
      try {
        streams.set(m.id, { hash: createHash('sha256'), fd: openSync(m.path, 'w'), gzipLevel: m.gzipLevel ?? 6 });
      } catch (error) {
        streams.set(m.id, { hash: createHash('sha256'), fd: null, gzipLevel: 0, error: error instanceof Error ? error.message : String(error) });
      }
      return;
    }
    switch (m.op) {
      case 'open':
        streams.set(m.id, { hash: createHash('sha256'), fd: null, gzipLevel: 0 });
        return;
      case 'update':
        update(streams.get(m.id), m);
        return;
      case 'updates': {
        const s = streams.get(m.id);
        for (const chunk of m.chunks) update(s, chunk);
        return;
      }
      case 'digest': {
        const s = streams.get(m.id);
        answer(m.reply, s.error !== undefined ? `error: ${s.error}` : s.hash.copy().digest('hex'));
        return;
      }
      case 'close': {
        // The file is complete and closed; the hash stays for a digest after it.
        const s = streams.get(m.id);
        if (s.fd !== null) closeSync(s.fd);
        s.fd = null;
        answer(m.reply, s.error !== undefined ? `error: ${s.error}` : 'closed');
        return;
      }
    }
  } catch (error) {
    if (m.reply !== undefined) answer(m.reply, `error: ${error instanceof Error ? error.message : String(error)}`);
    else throw error;
  }
}
