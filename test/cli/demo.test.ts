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
