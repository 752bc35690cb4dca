/**
 * The write-ahead journal survives kill -9: `exsim serve --data sample --clock manual --journal`
 * as a child process (test/support/serve-child.ts: the CLI's serve(), loaded ahead so a restart
 * costs the restore, not Node's start; the CLI itself restores in serve-command.test.ts) takes a seeded stream of signed orders, cancels and market orders, is
 * SIGKILLed at 50 seeded points (half of them with a request in flight) and restarted with the
 * same journal each time. Every order acknowledged before a kill is there afterwards in the state
 * it was acknowledged in, and the final engine state hash equals that of the same stream sent to
 * a server that never crashed. (Longer runs: bench/serve/crash-long-run.ts.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { crashRun, killPoints } from '../support/crash-run.ts';

const dir = mkdtempSync(join(tmpdir(), 'exsim-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SERVE = { data: 'sample', clock: 'manual', seed: '5' };
const OPERATIONS = 300;

test('50 SIGKILLs: acknowledged orders survive, and the state hash equals an uncrashed run', async () => {
  const seed = 'crash-1';
  const reference = await crashRun({ journal: join(dir, 'reference.jsonl'), seed, operations: OPERATIONS, killPoints: [], serve: SERVE });
  const crashed = await crashRun({ journal: join(dir, 'crashed.jsonl'), seed, operations: OPERATIONS, killPoints: killPoints(seed, OPERATIONS, 50), serve: SERVE });
  expect(crashed.kills).toBe(50);
  expect(crashed.problems).toEqual([]);
  expect(crashed.acknowledged).toBeGreaterThan(150);
  expect(reference.problems).toEqual([]);
  expect(crashed.stateHash).toBe(reference.stateHash);
}, 300_000);
