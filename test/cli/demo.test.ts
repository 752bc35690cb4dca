import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/cli/demo.ts';

// Golden hashes: the demo is a fixed command stream, so its journal and final state are pinned.
// A change here means engine behaviour changed; update only when the change is intended.
const GOLDEN_JOURNAL = '51232d445a2a5dbd882640062db181733fbe6e54e19ab74e8895abd0a57f650c';
const GOLDEN_STATE = '7766548a070caf8b869e7612c2482d136217ec16875ea3e6e183b3b8d3206a64';

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
