/** `exsim backtest` on a folder whose trades file is empty: a one-line error, not "0 prints". */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'exsim-empty-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('an empty trades CSV is an error: exit 1 with the file named', () => {
  writeFileSync(join(dir, 'BTCUSDT-trades-2024-01-01.csv'), '');
  const run = spawnSync(process.execPath, ['bin/exsim.js', 'backtest', 'grid', '--data', dir], { encoding: 'utf8', timeout: 60_000 });
  expect(run.stderr.trim()).toBe(`exsim: ${join(dir, 'BTCUSDT-trades-2024-01-01.csv')}: no rows: an empty trades file`);
  expect(run.status).toBe(1);
  expect(run.stdout).not.toMatch(/0 prints/);
}, 60_000);
