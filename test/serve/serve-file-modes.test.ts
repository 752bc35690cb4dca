/**
 * Secrets at rest (issue 25 item 1): every file `exsim serve --journal` writes may hold the HMAC
 * secrets of accounts created while serving (the journal's facade lines, the snapshots), so each
 * is the owner's alone (0600) from the moment it exists, under the usual umask 022: the journal,
 * `FILE.snapshot`, `FILE.snapshot.prev` and the temporary file a snapshot is written to (a
 * leftover of a crash is not reused with its mode). Files an older build left readable are
 * narrowed when exsim next writes beside them.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serve } from '../../src/serve/serve.ts';
import { snapshotPaths } from '../../src/serve/durability/snapshots.ts';

const dir = mkdtempSync(join(tmpdir(), 'exsim-file-modes-'));
const ADMIN = 'admin-key-for-modes';
const SECRET = 'a-secret-nobody-else-may-read';
let umask: number;
beforeAll(() => {
  umask = process.umask(0o022);
});
afterAll(() => {
  process.umask(umask);
  rmSync(dir, { recursive: true, force: true });
});

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

/** One run of a journaled server that creates account `accountId` (its key's secret is SECRET); a clean stop writes a snapshot. */
async function serveOnce(journal: string, accountId: number): Promise<void> {
  const handle = await serve({ port: 0, host: '127.0.0.1', clock: 'manual', journal, fsync: 'none', snapshotEvery: 0, adminKey: ADMIN }, () => undefined);
  try {
    const created = await fetch(`${handle.url}/exsim/v1/accounts`, {
      method: 'POST',
      headers: { 'X-EXSIM-ADMIN-KEY': ADMIN },
      body: JSON.stringify({ accounts: [{ accountId, apiKey: `bot-${accountId}`, secret: SECRET, balances: { USDT: '100' } }] }),
    });
    expect(created.status).toBe(200);
  } finally {
    await handle.close();
  }
}

test('the journal, both snapshots and the snapshot being written are 0600 under umask 022', async () => {
  const journal = join(dir, 'fresh.jsonl');
  const paths = snapshotPaths(journal);
  await serveOnce(journal, 77);
  // What the files protect: the secret is in the journal and in the snapshot.
  expect(readFileSync(journal, 'latin1')).toContain(SECRET);
  expect(readFileSync(paths.newest, 'latin1')).toContain(SECRET);
  // A crash's leftover temporary file, readable by all: the next snapshot does not write into it as it is.
  writeFileSync(paths.temp, 'torn');
  chmodSync(paths.temp, 0o644);
  await serveOnce(journal, 78);
  expect(existsSync(paths.temp)).toBe(false);
  expect([modeOf(journal), modeOf(paths.newest), modeOf(paths.previous)]).toEqual(['600', '600', '600']);
});

test('files an older build left readable by all are narrowed to 0600 when exsim writes beside them', async () => {
  const journal = join(dir, 'older.jsonl');
  const paths = snapshotPaths(journal);
  await serveOnce(journal, 77);
  await serveOnce(journal, 78);
  for (const path of [journal, paths.newest, paths.previous]) chmodSync(path, 0o644);
  await serveOnce(journal, 79);
  expect([modeOf(journal), modeOf(paths.newest), modeOf(paths.previous)]).toEqual(['600', '600', '600']);
});
