import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/cli/demo.ts';

// Golden hashes: the demo is a fixed command stream, so its journal and final state are pinned.
// A change here means engine behaviour changed; update only when the change is intended.
const GOLDEN_JOURNAL = '47305169974533a8ee4c7ed5ff392da81287136465d3a6d2ca865e76a6ab91f7';
const GOLDEN_STATE = '14d4dc7184aa3c8a6cb7371d3529966bdb34c902be7c64f8621c7c00c09cc079';

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
