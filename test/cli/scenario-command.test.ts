/**
 * `exsim scenario run` through the real binary: every scenario of the library passes (twice,
 * with the same journal hashes), a file with wrong expectations prints one line per failure and
 * exits 1, and unrunnable files are one-line errors.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const exsim = (...args: string[]) => spawnSync(process.execPath, ['bin/exsim.js', ...args], { encoding: 'utf8', timeout: 120_000 });
const LIBRARY = readdirSync('scenarios/library').filter((f) => f.endsWith('.json')).sort().map((f) => join('scenarios/library', f));

test('every scenario in the library passes, with the same journal hash on a second run', () => {
  expect(LIBRARY.length).toBeGreaterThanOrEqual(7);
  const first = exsim('scenario', 'run', ...LIBRARY);
  expect(first.stderr).toBe('');
  expect(first.status).toBe(0);
  expect(first.stdout).toContain(`${LIBRARY.length} scenarios: ${LIBRARY.length} ok, 0 failed`);
  const second = exsim('scenario', 'run', ...LIBRARY);
  const hashes = (out: string) => out.match(/journal [0-9a-f]{64}/g);
  expect(hashes(second.stdout)).toEqual(hashes(first.stdout));
  expect(hashes(first.stdout)).toHaveLength(LIBRARY.length);
});

test('a failed expectation is one line on stderr each, and exit 1', () => {
  const run = exsim('scenario', 'run', 'test/fixtures/scenarios/failing.json');
  expect(run.status).toBe(1);
  expect(run.stdout).toContain('FAIL  deliberately-failing  (2 failed expectations)');
  expect(run.stderr.trim().split('\n')).toEqual([
    'test/fixtures/scenarios/failing.json: step 1 (GET /api/v3/ping): status: expected 418, got 200 {}',
    'test/fixtures/scenarios/failing.json: step 2: balance ivy USDT free: expected 99, got 100.00000000',
  ]);
});

test.each([
  ['test/fixtures/scenarios/invalid.json', 'not a valid scenario: /steps/0 must NOT have additional properties (wait)'],
  ['no/such/file.json', 'no/such/file.json: no such scenario file'],
  ['package.json', 'not a valid scenario'],
])('%s is a one-line error', (file, message) => {
  const run = exsim('scenario', 'run', file);
  expect(run.status).toBe(1);
  expect(run.stderr).toContain(message);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
});
