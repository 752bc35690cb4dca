import { describe, expect, test } from 'vitest';
import { ProgressBar } from '../../../src/cli/progress-bar.ts';

const HOUR = 3_600_000_000;
const FROM = Date.UTC(2024, 0, 1) * 1000;

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns: 120, write: (chunk: string) => (writes.push(chunk), true) } as never };
}

describe('progress', () => {
  test('not on a terminal: a plain line every 15 s of a long run, nothing in a short one', () => {
    const { writes, stream } = fakeStream(false);
    let wall = 0;
    const bar = new ProgressBar(stream, () => wall);
    wall = 14_000;
    bar.update({ now: FROM + HOUR, from: FROM, to: FROM + 4 * HOUR, prints: 1000 });
    expect(writes).toEqual([]);
    wall = 16_000;
    bar.update({ now: FROM + 2 * HOUR, from: FROM, to: FROM + 4 * HOUR, prints: 32_000 });
    expect(writes).toEqual(['progress: 50%, 2024-01-01T02:00:00, 2,000 trades/s, ETA 16s\n']);
    wall = 20_000;
    bar.update({ now: FROM + 3 * HOUR, from: FROM, to: FROM + 4 * HOUR, prints: 40_000 });
    expect(writes).toHaveLength(1); // next line 15 s after the last
    bar.done();
    expect(writes).toHaveLength(1);
  });

  test('on a terminal: one line redrawn in place and erased at the end', () => {
    const { writes, stream } = fakeStream(true);
    let wall = 0;
    const bar = new ProgressBar(stream, () => wall);
    wall = 200;
    bar.update({ now: FROM + HOUR, from: FROM, to: FROM + 2 * HOUR, prints: 100 });
    expect(writes[0]).toMatch(/^\r\[#{12}\.{12}\]  50%  2024-01-01T01:00:00  500 trades\/s  ETA 0s\x1b\[K$/);
    bar.done();
    expect(writes[1]).toBe('\r\x1b[K');
  });
});
