import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/cli/demo.ts';

// Golden hashes: the demo is a fixed command stream, so its journal and final state are pinned.
// A change here means engine behaviour changed; update only when the change is intended.
const GOLDEN_JOURNAL = '9a7eb08e4d080b83c03c033e28227543a77a9e5f269e96ba15599aa49f03d4b5';
const GOLDEN_STATE = 'eb5583cf3243ad9f9f49176eba55d5c6c282e8797c07f950aff758a3c2ac4ee9';

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
