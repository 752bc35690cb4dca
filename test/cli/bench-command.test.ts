import { spawnSync } from 'node:child_process';
import { expect, test } from 'vitest';

const exsim = (...args: string[]) => spawnSync(process.execPath, ['bin/exsim.js', ...args], { encoding: 'utf8', timeout: 60_000 });

test('exsim bench passes its options to bench/run.ts: JSON lines, one per engine', () => {
  const run = exsim('bench', '--only', 'matching-core', '--ops', '2000', '--runs', '1', '--json');
  expect(run.status).toBe(0);
  const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
  expect(lines.map((l) => l.engine)).toEqual(['exsim', 'nodejs-order-book']);
  expect(lines[0]).toMatchObject({ ops: 2000, runs: 1, rejected: 0, booksMatch: true });
  expect(lines[0].opsPerSec).toBeGreaterThan(0);
});

test('exsim bench refuses an unknown bench with its usage line and exit code 2', () => {
  const run = exsim('bench', '--only', 'nope');
  expect(run.status).toBe(2);
  // The list grows with the benches; it names them all, the end-to-end backtest first.
  expect(run.stderr).toMatch(/--only must be one of backtest, matching-core, .*sweep-queue, .*got "nope"/);
});
