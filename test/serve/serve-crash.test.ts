/**
 * The write-ahead journal survives kill -9: `exsim serve --data sample --clock manual --journal`
 * as a child process (test/support/serve-child.ts: the CLI's serve(), loaded ahead so a restart
 * costs the restore, not Node's start; the CLI itself restores in serve-command.test.ts) takes a seeded stream of signed orders, cancels and market orders, is
 * SIGKILLed at 50 seeded points (half of them with a request in flight) and restarted with the
 * same journal each time. Every order acknowledged before a kill is there afterwards in the state
 * it was acknowledged in, and the final engine state hash equals that of the same stream sent to
 * a server that never crashed. (Longer runs: bench/serve/crash-long-run.ts.)
 *
 * Snapshots (src/serve/durability/snapshots.ts) are taken every 25 commands, so most restarts read one and
 * replay only the journal after it. The same on the static market (no --data) with a snapshot every 10 commands
 * (src/serve/durability/snapshots.ts), so restarts read a snapshot and replay the tail after it, and
 * kills land right after snapshots and, with a request in flight, during one.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { crashRun, killPoints } from '../support/crash-run.ts';

const dir = mkdtempSync(join(tmpdir(), 'exsim-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A snapshot every 25 commands: restarts read one and replay the journal after it.
const SERVE = { data: 'sample', clock: 'manual', seed: '5', snapshotEvery: 25 };
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
  expect(crashed.fromSnapshot).toBeGreaterThan(30);
}, 300_000);

test('20 SIGKILLs on the static market with a snapshot every 10 commands: the same checks', async () => {
  const seed = 'crash-snap';
  const serve = { clock: 'manual', seed: '5', snapshotEvery: 10 };
  const start = 1_764_000_000_000_000;
  const operations = 150;
  const reference = await crashRun({ journal: join(dir, 'snap-reference.jsonl'), seed, operations, killPoints: [], serve, start });
  const crashed = await crashRun({ journal: join(dir, 'snap-crashed.jsonl'), seed, operations, killPoints: killPoints(seed, operations, 20), serve, start });
  expect(crashed.kills).toBe(20);
  expect(crashed.problems).toEqual([]);
  expect(crashed.acknowledged).toBeGreaterThan(80);
  expect(reference.problems).toEqual([]);
  expect(crashed.stateHash).toBe(reference.stateHash);
  expect(existsSync(join(dir, 'snap-crashed.jsonl.snapshot'))).toBe(true);
  // Most restarts come after a snapshot (one every 10 commands; the first ones may come before any).
  expect(crashed.fromSnapshot).toBeGreaterThan(10);
}, 300_000);

