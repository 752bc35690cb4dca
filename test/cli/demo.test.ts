import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/cli/demo.ts';

// Golden hashes: the demo is a fixed command stream, so its journal and final state are pinned.
// A change here means engine behaviour changed; update only when the change is intended.
const GOLDEN_JOURNAL = '6426521231a0f33e41b7560fb2c80e2bcbc00ac66981e22a49d96af372dc2ea5';
const GOLDEN_STATE = 'addcafcb6b3adef7cdff70fa74a938d49ddeaf317538229b9ec04b07948fc839';

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
    expect(first.journalHash).toBe('ebfd79b2ce023ee3a9a06d14858f60e2e9ecf19ee51fedc64a2f1c267c441aab');
    expect(first.fills).toBe(38);
    expect(lines.join('\n')).toContain('order #2 SELL @ 42041.74: FILLED');
    expect(lines.join('\n')).toContain('order #1 BUY @ 41790.25: NEW');
  });
});
