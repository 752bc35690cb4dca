/**
 * `exsim serve` as a real process: a replay of the sample paced at speed:60 with a journal,
 * the connector bot example (examples/connector-bot.ts, the official client) trading on it,
 * SIGINT stopping it cleanly with the journal flushed; an accounts file; and the one-line errors.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'exsim-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `exsim serve ...args` on a free port; resolves with the process and its URL. */
function startServer(...args: string[]): Promise<{ child: ChildProcessWithoutNullStreams; url: string; output: () => string }> {
  const child = spawn(process.execPath, ['bin/exsim.js', 'serve', '--port', '0', ...args]);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      const url = /at (http:\/\/\S+)/.exec(out)?.[1];
      if (url !== undefined && out.includes('(Ctrl-C stops)')) {
        clearInterval(poll);
        resolve({ child, url, output: () => out });
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      reject(new Error(`serve exited ${code}: ${out}`));
    });
  });
}

const stopped = (child: ChildProcessWithoutNullStreams): Promise<number | null> => new Promise((resolve) => child.once('exit', (code) => resolve(code)));

test('the connector bot trades on a paced replay of the sample; SIGINT stops the server and closes the journal', async () => {
  const journal = join(dir, 'serve-journal.jsonl');
  const { child, url, output } = await startServer('--data', 'sample', '--clock', 'speed:60', '--seed', '7', '--journal', journal);
  expect(output()).toContain('exsim serving a replay of sample (BTCUSDT, ETHBTC) from 2024-01-01T04:00:00.000Z, seed 7');
  expect(output()).toContain('API key exsim-demo-key, HMAC secret exsim-demo-secret');
  const bot = spawnSync(process.execPath, ['--import', 'tsx', 'examples/connector-bot.ts', url, '2'], { encoding: 'utf8', timeout: 60_000 });
  expect(bot.stderr).toBe('');
  expect(bot.status).toBe(0);
  const lines = bot.stdout.trim().split('\n');
  expect(lines.filter((l) => l.startsWith('round '))).toHaveLength(2);
  expect(bot.stdout).toMatch(/rested bid #\d+: NEW/);
  expect(bot.stdout).toMatch(/canceled bid #\d+: CANCELED/);
  expect(bot.stdout).toMatch(/market buy: FILLED 0\.00100000 BTC for \d+\.\d{8} USDT/);
  // The replay moves on: the server's time at the first round is after the data's first minute.
  expect(lines.at(-1)).toMatch(/^balances: BTC 1\.001998\d*, ETH 10\.00000000, USDT/);
  child.kill('SIGINT');
  expect(await stopped(child)).toBe(0);
  expect(output()).toMatch(/journal: \d+ commands, state hash [0-9a-f]{64}/);
  expect(existsSync(journal) && statSync(journal).size > 0).toBe(true);
  const commands = Number(/journal: (\d+) commands/.exec(output())![1]);
  expect(commands).toBeGreaterThan(0);
  // Started again with the same journal: the replay, the clock and the account come back (from
  // the snapshot the stop wrote, its state hash verified), and it goes on appending.
  const again = await startServer('--data', 'sample', '--clock', 'speed:60', '--seed', '7', '--journal', journal);
  try {
    expect(again.output()).toContain(`journal: ${journal} (restored ${commands} commands (from the snapshot at ${commands} (state hash verified), 0 checkpoints verified), appending; fsync batch)`);
    // At speed:60 the default recvWindow (5 s simulated) is 83 ms of real time: a loaded machine needs the longest one.
    const query = `omitZeroBalances=true&recvWindow=60000&timestamp=${Date.now()}`;
    const signature = createHmac('sha256', 'exsim-demo-secret').update(query).digest('hex');
    const account = (await (await fetch(`${again.url}/api/v3/account?${query}&signature=${signature}`, { headers: { 'X-MBX-APIKEY': 'exsim-demo-key' } })).json()) as { balances: { asset: string; free: string }[] };
    expect(account).toHaveProperty('balances');
    const btc = account.balances.find((b) => b.asset === 'BTC');
    expect(btc?.free).toMatch(/^1\.001998/);
  } finally {
    again.child.kill('SIGTERM');
    await stopped(again.child);
  }
}, 120_000);

test('--accounts: the keys and balances of the file, no demo account', async () => {
  const file = join(dir, 'accounts.json');
  writeFileSync(file, JSON.stringify({ accounts: [{ accountId: 5, apiKey: 'k5', secret: 's5', balances: { USDT: '123.45' } }] }));
  const { child, url, output } = await startServer('--clock', 'realtime', '--accounts', file);
  try {
    expect(output()).toContain(`accounts from ${file}: 1 accounts, API keys k5`);
    const { Spot } = await import('@binance/connector');
    const silent = { log: () => {}, error: () => {}, info: () => {}, warn: () => {}, debug: () => {} };
    const account = await new Spot('k5', 's5', { baseURL: url, logger: silent }).account({ omitZeroBalances: true });
    expect(account.data.balances).toEqual([{ asset: 'USDT', free: '123.45000000', locked: '0.00000000' }]);
    await expect(new Spot('exsim-demo-key', 'exsim-demo-secret', { baseURL: url, logger: silent }).account()).rejects.toMatchObject({ response: { status: 401 } });
  } finally {
    child.kill('SIGTERM');
    await stopped(child);
  }
}, 60_000);

test.each([
  [['--accounts', '/no/such/accounts.json'], '--accounts /no/such/accounts.json: no such file'],
  [['--data', '/no/such/folder'], 'no such data folder: /no/such/folder'],
  [['--clock', 'fast'], 'exsim:'],
  [['--snapshot-every', '-5'], '--snapshot-every must be a whole number of commands >= 0, got "-5"'],
])('serve %j is one line on stderr and exit 1', (args, message) => {
  const run = spawnSync(process.execPath, ['bin/exsim.js', 'serve', '--port', '0', ...args], { encoding: 'utf8', timeout: 30_000 });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain(message);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
});

test('serve --data with a bad row anywhere in the trades refuses to start: one line, exit 1, nothing served', () => {
  const data = join(dir, 'bad-data');
  mkdirSync(data);
  const good = Array.from({ length: 1000 }, (_, i) => `${i + 1},42000.01000000,0.00100000,42.00001000,${1704067200000 + i},True,True`);
  writeFileSync(join(data, 'BTCUSDT-trades-2024-01-01.csv'), [...good, '1001,abc,0.001,42,1704067201000,True,True', ''].join('\n'));
  const run = spawnSync(process.execPath, ['bin/exsim.js', 'serve', '--port', '0', '--data', data], { encoding: 'utf8', timeout: 30_000 });
  expect(run.status).toBe(1);
  expect(run.stdout).not.toContain('exsim serving');
  expect(run.stderr.trim()).toBe(`exsim: ${join(data, 'BTCUSDT-trades-2024-01-01.csv')}:1001: column 2 (price): "abc" is not a decimal`);
}, 30_000);

test('serve --journal on the static market: the stop writes a snapshot beside the journal, the restart reads it', async () => {
  const journal = join(dir, 'snapshot.jsonl');
  const first = await startServer('--clock', 'manual', '--journal', journal, '--snapshot-every', '1000');
  first.child.kill('SIGINT');
  expect(await stopped(first.child)).toBe(0);
  expect(first.output()).toMatch(/journal: snapshot at 0 commands, [\d.]+ MB in \d+ ms/);
  const second = await startServer('--clock', 'manual', '--journal', journal);
  try {
    expect(second.output()).toContain(`journal: ${journal} (restored 0 commands (from the snapshot at 0 (state hash verified), 0 checkpoints verified), appending; fsync batch)`);
  } finally {
    second.child.kill('SIGINT');
    await stopped(second.child);
  }
});
