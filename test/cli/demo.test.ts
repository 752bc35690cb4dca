import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/cli/demo.ts';

// Golden hashes: the demo is a fixed command stream, so its journal and final state are pinned.
// A change here means engine behaviour changed; update only when the change is intended.
// Beside each hash, the readable log in test/cli/golden/ shows WHAT changed when a hash does:
// the failure is a line diff of journal entries ({seq, command, events} per line). After an
// intended change: `UPDATE_GOLDEN=1 npx vitest run test/cli/demo.test.ts`, then review the diff.
const GOLDEN_JOURNAL = '6426521231a0f33e41b7560fb2c80e2bcbc00ac66981e22a49d96af372dc2ea5';
const GOLDEN_STATE = 'addcafcb6b3adef7cdff70fa74a938d49ddeaf317538229b9ec04b07948fc839';
const GOLDEN_REPLAY_JOURNAL = 'ebfd79b2ce023ee3a9a06d14858f60e2e9ecf19ee51fedc64a2f1c267c441aab';

const GOLDEN_DIR = join(import.meta.dirname, 'golden');

/** The golden log's lines next to the actual ones (rewritten first under UPDATE_GOLDEN=1). */
function goldenLines(file: string, actual: string): { golden: string[]; actual: string[] } {
  const path = join(GOLDEN_DIR, file);
  if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(path, actual);
  return { golden: readFileSync(path, 'utf8').split('\n'), actual: actual.split('\n') };
}

describe('demo session', () => {
  it('produces the golden journal (event log beside it) and state hashes on every run', () => {
    const lines: string[] = [];
    const first = runDemo((line) => lines.push(line));
    const second = runDemo(() => {});
    expect(first).toEqual(second);
    const log = goldenLines('demo-session.journal.jsonl', first.journal);
    expect(log.actual).toEqual(log.golden);
    // The log is the journal the hash is taken over: the two cannot drift apart.
    expect(createHash('sha256').update(log.golden.join('\n')).digest('hex')).toBe(GOLDEN_JOURNAL);
    expect(first.journalHash).toBe(GOLDEN_JOURNAL);
    expect(first.stateHash).toBe(GOLDEN_STATE);
    expect(lines.join('\n')).toContain('rebuilt from the journal: identical');
  });
});

describe('demo replay of the bundled sample day', () => {
  it('fills the same orders the same way on every run (golden journal hash, its non-print entries as the log)', async () => {
    const { runSampleReplay } = await import('../../src/cli/sample-replay-demo.ts');
    const lines: string[] = [];
    const first = await runSampleReplay((line) => lines.push(line));
    const second = await runSampleReplay(() => {});
    expect(first).toEqual(second);
    // The replay's journal has an entry per tape print; the log keeps every other entry (the
    // demo's orders, each market fill and what it set off), which is where a change shows.
    const log = goldenLines('sample-replay.log.jsonl', first.log);
    expect(log.actual).toEqual(log.golden);
    expect(first.journalHash).toBe(GOLDEN_REPLAY_JOURNAL);
    expect(first.fills).toBe(38);
    expect(lines.join('\n')).toContain('order #2 SELL @ 42041.74: FILLED');
    expect(lines.join('\n')).toContain('order #1 BUY @ 41790.25: NEW');
  });
});
