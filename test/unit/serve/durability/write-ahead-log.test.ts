/**
 * The serve journal's file rules and restore, in process: a restart restores the engine, the
 * clock and the facade's counters; a torn last line is cut and nothing else is ever truncated; a
 * journal of another exchange, or one whose checkpoint does not replay, is refused in one line.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { serve } from '../../../../src/serve/serve.ts';
import { FACADE_SNAPSHOT_EVERY, WriteAheadLog, type FacadeLine } from '../../../../src/serve/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'exsim-serve-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const identity = { fingerprint: 'f'.repeat(64), describe: 'test exchange' };

test('a new journal starts with its header; reopening keeps every byte and appends', async () => {
  const path = join(dir, 'append.jsonl');
  const first = WriteAheadLog.open(path, identity, 1_000, 'none');
  expect(first.existing).toBe(false);
  first.command({ type: 'CancelAllOrders', accountId: 1, symbol: 'BTCUSDT' }, 2_000, undefined);
  first.commit();
  await first.close();
  const before = readFileSync(path, 'utf8');
  expect(before.split('\n')[0]).toBe(JSON.stringify({ exsim: 'serve-journal', version: 1, fingerprint: identity.fingerprint, start: 1_000, describe: 'test exchange' }));
  expect(before.split('\n')[1]).toBe('{"c":{"type":"CancelAllOrders","accountId":1,"symbol":"BTCUSDT","time":2000}}');
  const second = WriteAheadLog.open(path, identity, 9_999, 'none');
  expect(second.existing).toBe(true);
  expect(second.header.start).toBe(1_000); // the journal's own start wins
  const applied: unknown[] = [];
  const restored = await second.restore({ advance: () => undefined, apply: (c) => void applied.push(c), stateHash: () => 'x' });
  expect(restored).toEqual({ commands: 1, now: 2_000, facade: null, checkpoints: 0, droppedBytes: 0 });
  expect(applied).toEqual([{ type: 'CancelAllOrders', accountId: 1, symbol: 'BTCUSDT', time: 2_000 }]);
  second.position(3_000, undefined);
  second.commit();
  await second.close();
  expect(readFileSync(path, 'utf8')).toBe(`${before}{"p":[3000,null]}\n`);
});

test('a torn last line is dropped and cut off; a line torn in the middle is an error', async () => {
  const path = join(dir, 'torn.jsonl');
  const journal = WriteAheadLog.open(path, identity, 1_000, 'none');
  journal.command({ type: 'CancelAllOrders', accountId: 1, symbol: 'BTCUSDT' }, 2_000, undefined);
  journal.commit();
  await journal.close();
  const whole = statSync(path).size;
  appendFileSync(path, '{"c":{"type":"Cancel');
  const reopened = WriteAheadLog.open(path, identity, 1_000, 'none');
  expect(statSync(path).size).toBe(whole);
  const restored = await reopened.restore({ advance: () => undefined, apply: () => undefined, stateHash: () => 'x' });
  expect(restored.commands).toBe(1);
  expect(restored.droppedBytes).toBe(20);
  await reopened.close();
  appendFileSync(path, '{"c":{"type":"Cancel\n{"p":[5000,null]}\n');
  const broken = WriteAheadLog.open(path, identity, 1_000, 'none');
  await expect(broken.restore({ advance: () => undefined, apply: () => undefined, stateHash: () => 'x' })).rejects.toThrow(`--journal ${path}:3: not a journal line`);
  await broken.close();
});

test('a journal of another exchange, or not a journal, is refused in one line and left as it was', () => {
  const path = join(dir, 'foreign.jsonl');
  void WriteAheadLog.open(path, identity, 1_000, 'none').close();
  const size = statSync(path).size;
  expect(() => WriteAheadLog.open(path, { fingerprint: 'e'.repeat(64), describe: 'another exchange' }, 1_000, 'none')).toThrow(
    `--journal ${path} belongs to another exchange (test exchange); this one is another exchange: use another file`,
  );
  expect(statSync(path).size).toBe(size);
  const notJournal = join(dir, 'notes.txt');
  writeFileSync(notJournal, 'my notes\n');
  expect(() => WriteAheadLog.open(notJournal, identity, 1_000, 'none')).toThrow(`--journal ${notJournal} is not an exsim serve journal (its first line is not a journal header)`);
  expect(readFileSync(notJournal, 'utf8')).toBe('my notes\n');
});

test('facade changes fold together across full snapshots: every key at its last value', async () => {
  const path = join(dir, 'facade.jsonl');
  const journal = WriteAheadLog.open(path, identity, 1_000, 'none');
  const ip = (n: number, used: number): FacadeLine['weight'][number] => [`10.0.0.${n}`, [[60_000_000, 300_000_000], [used, used]], 0, 0, 0, 0, 0];
  const account = (n: number, used: number): FacadeLine['orders'][number] => [String(n), [[10_000_000, 0], [used, used]]];
  const full = new Map<number, number>();
  // More changes than one full snapshot's period, each touching one IP and one account of 7.
  for (let i = 0; i < FACADE_SNAPSHOT_EVERY + 2_345; i++) {
    full.set(i % 7, i);
    journal.facade({ weight: [ip(i % 7, i)], orders: [account(i % 7, i)], keyed: [], faultDraws: i % 3 }, () => ({
      weight: [...full].map(([n, used]) => ip(n, used)),
      orders: [...full].map(([n, used]) => account(n, used)),
      keyed: [],
      faultDraws: i % 3,
    }));
  }
  journal.commit();
  await journal.close();
  expect(readFileSync(path, 'utf8').split('\n').filter((l) => l.startsWith('{"F":'))).toHaveLength(1);
  const reopened = WriteAheadLog.open(path, identity, 1_000, 'none');
  const restored = await reopened.restore({ advance: () => undefined, apply: () => undefined, stateHash: () => 'x' });
  await reopened.close();
  const last = FACADE_SNAPSHOT_EVERY + 2_344;
  const expected = [...full.keys()].sort();
  expect(restored.facade!.weight.map((row) => row[0]).sort()).toEqual(expected.map((n) => `10.0.0.${n}`));
  for (const row of restored.facade!.weight) expect(row).toEqual(ip(Number(row[0].slice(7)), full.get(Number(row[0].slice(7)))!));
  for (const row of restored.facade!.orders) expect(row).toEqual(account(Number(row[0]), full.get(Number(row[0]))!));
  expect(restored.facade!.faultDraws).toBe(last % 3);
});

test('a checkpoint that does not replay refuses the restore', async () => {
  const path = join(dir, 'checkpoint.jsonl');
  const journal = WriteAheadLog.open(path, identity, 1_000, 'none');
  journal.checkpoint('a'.repeat(64));
  journal.commit();
  await journal.close();
  const reopened = WriteAheadLog.open(path, identity, 1_000, 'none');
  await expect(reopened.restore({ advance: () => undefined, apply: () => undefined, stateHash: () => 'b'.repeat(64) })).rejects.toThrow(
    `--journal ${path}:2: the restored state (hash bbbbbbbbbbbb) is not the journaled one (aaaaaaaaaaaa) after 0 commands`,
  );
  await reopened.close();
});

test('serve restores balances, orders, the clock and the rate-limit counters from its journal, and verifies the state hash', async () => {
  const path = join(dir, 'serve.jsonl');
  const lines: string[] = [];
  const first = await serve({ port: 0, host: '127.0.0.1', clock: 'manual', data: 'sample', seed: '3', journal: path }, (l) => lines.push(l));
  const base = first.url;
  const time = ((await (await fetch(`${base}/api/v3/time`)).json()) as { serverTime: number }).serverTime;
  const { createHmac } = await import('node:crypto');
  const signed = (query: string): string => `${query}&signature=${createHmac('sha256', 'exsim-demo-secret').update(query).digest('hex')}`;
  const headers = { 'X-MBX-APIKEY': 'exsim-demo-key' };
  const placed = await fetch(`${base}/api/v3/order?${signed(`symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&price=30000.00&quantity=0.01000&newClientOrderId=kept&timestamp=${time}`)}`, { method: 'POST', headers });
  expect(placed.status).toBe(200);
  const account = async (url: string) => (await (await fetch(`${url}/api/v3/account?${signed(`omitZeroBalances=true&timestamp=${time}`)}`, { headers })).json()) as { balances: unknown[] };
  const rateLimit = async (url: string) => (await fetch(`${url}/api/v3/rateLimit/order?${signed(`timestamp=${time}`)}`, { headers })).json();
  const balancesBefore = (await account(base)).balances;
  const ordersBefore = await rateLimit(base);
  const weightBefore = (await fetch(`${base}/api/v3/time`)).headers.get('x-mbx-used-weight-1m');
  await first.close();
  const hash = /state hash ([0-9a-f]{64})/.exec(lines.join('\n'))![1];
  // Without the snapshot the stop wrote (snapshots.test.ts covers those): a full replay,
  // checked against the stop's checkpoint.
  rmSync(`${path}.snapshot`);

  const again: string[] = [];
  const second = await serve({ port: 0, host: '127.0.0.1', clock: 'manual', data: 'sample', seed: '3', journal: path }, (l) => again.push(l));
  try {
    expect(again.join('\n')).toContain(`journal: ${path} (restored 1 commands (1 checkpoints verified), appending; fsync batch)`);
    expect(((await (await fetch(`${second.url}/api/v3/time`)).json()) as { serverTime: number }).serverTime).toBe(time);
    // The minute's weight goes on from where it was: the time request above and this one.
    expect(Number((await fetch(`${second.url}/api/v3/time`)).headers.get('x-mbx-used-weight-1m'))).toBe(Number(weightBefore) + 2);
    expect((await account(second.url)).balances).toEqual(balancesBefore);
    expect(await rateLimit(second.url)).toEqual(ordersBefore);
    const order = await (await fetch(`${second.url}/api/v3/order?${signed(`symbol=BTCUSDT&origClientOrderId=kept&timestamp=${time}`)}`, { headers })).json();
    expect(order).toMatchObject({ clientOrderId: 'kept', status: 'NEW', price: '30000.00000000', origQty: '0.01000000' });
  } finally {
    await second.close();
  }
  // Nothing changed the engine since: the same state hash.
  expect(/state hash ([0-9a-f]{64})/.exec(again.join('\n'))![1]).toBe(hash);
});
