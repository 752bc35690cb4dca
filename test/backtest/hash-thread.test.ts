/**
 * The hashing thread (src/backtest/hash-thread.ts): a stream that moves there past THREAD_BYTES
 * hashes the same bytes in the same order as hashing in place, a digest can be asked mid-stream,
 * and a journal file written there is the gzip members of the same lines.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { THREAD_BYTES, ThreadedSha256 } from '../../src/backtest/hash-thread.ts';
import { JournalFile } from '../../src/backtest/journal-file.ts';

/** Chunks of 256 KiB of numbers, each followed by a little text, until `total` bytes. */
function chunks(total: number): { bytes: Float64Array; text: string }[] {
  const out: { bytes: Float64Array; text: string }[] = [];
  for (let k = 0, n = 0; n < total; k++, n += 32_768 * 8) out.push({ bytes: Float64Array.from({ length: 32_768 }, (_, i) => k * 1e6 + i * 0.5), text: `chunk ${k} é` });
  return out;
}

describe('ThreadedSha256', () => {
  it('hashes what createHash hashes, in process below THREAD_BYTES and on the thread past it, mid-stream digests included', () => {
    for (const total of [1 << 20, THREAD_BYTES * 2]) {
      const reference = createHash('sha256');
      const stream = new ThreadedSha256();
      const digests: [string, string][] = [];
      chunks(total).forEach(({ bytes, text }, i) => {
        reference.update(new Uint8Array(bytes.buffer)).update(text);
        stream.update(bytes.slice().buffer, text);
        if (i === 20 || i === 50) digests.push([stream.digest(), reference.copy().digest('hex')]);
      });
      digests.push([stream.digest(), reference.digest('hex')]);
      for (const [mine, theirs] of digests) expect(mine).toBe(theirs);
    }
  });

  it('a journal file written on the thread holds the lines, and its hash is theirs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'exsim-hash-thread-'));
    try {
      const file = new JournalFile(join(dir, 'journal.jsonl.gz'));
      const reference = createHash('sha256');
      let text = '';
      for (let i = 0; i < 30_000; i++) {
        const command = { type: 'AdjustBalance', time: i, accountId: 1, asset: 'USDT', delta: i * 1000 } as const;
        file.record(command, []);
      }
      file.close();
      text = gunzipSync(readFileSync(join(dir, 'journal.jsonl.gz'))).toString();
      reference.update(text);
      expect(text.split('\n')).toHaveLength(30_001);
      expect(text.split('\n')[0]).toContain('"AdjustBalance"');
      expect(file.hash()).toBe(reference.digest('hex'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
