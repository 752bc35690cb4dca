import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/cli/demo.ts';

// Golden hashes: the demo is a fixed command stream, so its journal and final state are pinned.
// A change here means engine behaviour changed; update only when the change is intended.
const GOLDEN_JOURNAL = '47305169974533a8ee4c7ed5ff392da81287136465d3a6d2ca865e76a6ab91f7';
const GOLDEN_STATE = 'ec5081cab07aa5bb3b482d8cea5c90fb832db39b5300641c05d1e77648ba7fad';

describe('demo session', () => {
  it('produces the golden journal and state hashes on every run', () => {
    const lines: string[] = [];
    const first = runDemo((line) => lines.push(line));
    const second = runDemo(() => {});
    expect(first).toEqual(second);
    expect(first.journalHash).toBe(GOLDEN_JOURNAL);
    expect(first.stateHash).toBe(GOLDEN_STATE);
    expect(lines.join('\n')).toContain('rebuilt from the journal: identical');
  });
});

describe('demo replay of the bundled sample day', () => {
  it('fills the same orders the same way on every run (golden journal hash)', async () => {
    const { runSampleReplay } = await import('../../src/cli/sample-replay-demo.ts');
    const lines: string[] = [];
    const first = await runSampleReplay((line) => lines.push(line));
    const second = await runSampleReplay(() => {});
    expect(first).toEqual(second);
    expect(first.journalHash).toBe('18d0070787b40c1867847d43c211b242b5c6008e7f94d47c1234f87bd1c63ca0');
    expect(first.fills).toBe(38);
    expect(lines.join('\n')).toContain('order #2 SELL @ 42041.74: FILLED');
    expect(lines.join('\n')).toContain('order #1 BUY @ 41790.25: NEW');
  });
});
