/**
 * The replay's print fast path end to end: the trend example (an OCO armed most of the time, its
 * stop waiting off the book, polled through the in-process REST client) and the grid example
 * (resting orders the prints reach) over hours of the bundled sample, with the fast path (the
 * default) and with every print through the full path: the digest, the full journal file and
 * every report byte are the same.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { parseBacktestRequest, runBacktestRequest } from '../../src/backtest/index.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function reportOf(strategy: string, fastPrints: boolean): Promise<{ journal: unknown; files: Record<string, string> }> {
  const out = mkdtempSync(join(tmpdir(), 'exsim-fast-prints-'));
  dirs.push(out);
  const request = { ...parseBacktestRequest(strategy, { data: 'sample', from: '2024-01-01T06:00', to: '2024-01-01T12:00', fillModel: 'queue', latency: 'none', seed: '1' }), fastPrints };
  const { summary } = await runBacktestRequest(request, out, undefined, true);
  const files: Record<string, string> = {};
  for (const name of readdirSync(out).sort()) files[name] = readFileSync(join(out, name)).toString('base64');
  return { journal: summary.journal, files };
}

for (const strategy of ['trend', 'grid']) {
  test(`${strategy}: the fast path's digest, journal file and report are the full path's`, async () => {
    const fast = await reportOf(strategy, true);
    const full = await reportOf(strategy, false);
    expect(fast.journal).toEqual(full.journal);
    expect(Object.keys(fast.files)).toEqual(Object.keys(full.files));
    for (const name of Object.keys(full.files)) expect(fast.files[name] === full.files[name], name).toBe(true);
  }, 120_000);
}
