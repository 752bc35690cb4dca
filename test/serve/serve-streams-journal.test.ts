/**
 * The market streams of a served replay are the same with `--journal` as without: the logged
 * backend forwards every hook of the replay (a per-print pump, the scheduler's boundary timers),
 * so trades and diff-depth events come out with the same payloads, in the same order, with the
 * same U/u, instead of falling back to the host tick (the journaled backend once forgot `onTrade`
 * and `schedule`, and the 100 ms diffs of a journaled server were cut wherever the tick fell).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { serve } from '../../src/serve/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'exsim-streams-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STREAMS = 'btcusdt@trade/btcusdt@depth@100ms/btcusdt@kline_1s';

/** Every message of STREAMS while the manual clock is advanced 1 minute in 5 s steps. */
async function streamed(journal: string | null): Promise<string[]> {
  const handle = await serve({ port: 0, host: '127.0.0.1', clock: 'manual', data: 'sample', seed: '3', ...(journal === null ? {} : { journal }) }, () => undefined);
  try {
    const ws = new WebSocket(`${handle.url.replace('http:', 'ws:')}/stream?streams=${STREAMS}`);
    const messages: string[] = [];
    ws.on('message', (data) => messages.push(String(data)));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    for (let step = 0; step < 12; step++) await handle.control.advance({ byMs: 5_000 });
    // The frames are sent; wait until they stop arriving.
    for (let seen = -1; seen !== messages.length; ) {
      seen = messages.length;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    const seen = [...messages];
    ws.close();
    return seen;
  } finally {
    await handle.close();
  }
}

test('a journaled served replay streams the same messages, in the same order, with the same U/u', async () => {
  const plain = await streamed(null);
  const logged = await streamed(join(dir, 'streams.jsonl'));
  const kinds = (messages: string[]) => new Set(messages.map((m) => (JSON.parse(m) as { stream: string }).stream));
  // Something of each stream went out: prints, diffs at their 100 ms boundaries, 1 s klines.
  expect([...kinds(plain)].sort()).toEqual(['btcusdt@depth@100ms', 'btcusdt@kline_1s', 'btcusdt@trade']);
  const diffs = plain.map((m) => JSON.parse(m) as { stream: string; data: { U: number; u: number } }).filter((m) => m.stream === 'btcusdt@depth@100ms');
  expect(diffs.length).toBeGreaterThan(5);
  // Consecutive diffs chain (U = previous u + 1), as a local book needs.
  for (let i = 1; i < diffs.length; i++) expect(diffs[i]!.data.U).toBe(diffs[i - 1]!.data.u + 1);
  expect(logged).toEqual(plain);
});
