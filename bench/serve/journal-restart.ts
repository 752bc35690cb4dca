/**
 * serve/journal-restart: how long `exsim serve --journal FILE` takes to come back from a journal
 * of N commands (default 1,000,000). Workload: a journal of the static sample market (no --data,
 * clock manual) written as the server writes it: the demo account places LIMIT orders a few ticks
 * around the market maker's ladder (0.001 BTC, resting) and cancels each one 1,000 placements
 * later, so about 1,000 orders rest at any time; after each command the facade's counters it
 * changed (one IP, one account), as a served request writes them. The row is the
 * time from calling serve() to listening, with the journal, and the same without one (the
 * difference is the restore); target (issue 13): under 5 s for 1M commands.
 *
 * With snapshots (src/serve/durability/snapshots.ts): the full replay's clean stop writes a snapshot of
 * the N commands (its write time and size are in the row); a restart from it replays nothing
 * (`startSnapshotMs`). The worst case of the default --snapshot-every (200,000) is a snapshot
 * 200,000 commands before the journal's end: a journal of N - 200,000 commands is restored and
 * stopped (snapshot), 200,000 more are appended, and the restart reads the snapshot and replays
 * the tail (`startSnapshotTailMs`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../src/serve/serve.ts';
import { openWriteAheadLog, type FacadeLine } from '../../src/serve/index.ts';
import { DEFAULT_SNAPSHOT_EVERY } from '../../src/serve/durability/snapshots.ts';

export interface RestartRow {
  readonly commands: number;
  readonly journalBytes: number;
  readonly startWithoutMs: number;
  readonly startWithMs: number;
  readonly restoredCommands: number;
  /** The snapshot at the clean stop after the full replay: wall ms on the serving thread, bytes. */
  readonly snapshotWriteMs: number;
  readonly snapshotBytes: number;
  /** Start from that snapshot (nothing after it). */
  readonly startSnapshotMs: number;
  /** Start from a snapshot `tailCommands` before the end, replaying them. */
  readonly tailCommands: number;
  readonly startSnapshotTailMs: number;
}

const OPEN_ORDERS = 1000;
const FIRST_DEMO_ORDER_ID = 11; // the market maker's ladder holds orders 1..10 of BTCUSDT

/** Writes a journal of `commands` commands at `path` for the options serve() gets below. */
export async function writeRestartJournal(path: string, commands: number, from = 0): Promise<number> {
  const journal = await openWriteAheadLog({ journal: path, fsync: 'none' }, 1_764_000_000_000_000);
  const time = journal.header.start;
  let placed = from === 0 ? 0 : placedBefore(from);
  for (let i = from; i < commands; i++) {
    if (placed >= OPEN_ORDERS && i % 2 === 1) {
      journal.command({ type: 'CancelOrder', accountId: 1, symbol: 'BTCUSDT', orderId: FIRST_DEMO_ORDER_ID + placed - OPEN_ORDERS }, time, undefined);
    } else {
      const side = placed % 2 === 0 ? 'BUY' : 'SELL';
      const ticks = 3_000_000 + (placed % 37) * 1_000_000; // 30.00 .. 66.00 USDT off 42,000
      const price = side === 'BUY' ? 4_200_000_000_000 - ticks : 4_200_000_000_000 + ticks;
      journal.command({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: 100_000, clientOrderId: `bench-${placed}` }, time, undefined);
      placed++;
    }
    const weight = { weight: [['127.0.0.1', [[time - (time % 60_000_000), time - (time % 300_000_000)], [i % 6000, i % 61000]], 0, 0, 0, 0, 0]] as FacadeLine['weight'], orders: [['1', [[time - (time % 10_000_000), time - (time % 86_400_000_000)], [i % 100, i % 200_000]]]] as FacadeLine['orders'], keyed: [], faultDraws: 0 };
    journal.facade(weight, () => weight);
    if (i % 10_000 === 9_999) journal.commit();
  }
  await journal.close();
  const { statSync } = await import('node:fs');
  return statSync(path).size;
}

/** Orders the writer placed before command `from` (the same rule as its loop). */
function placedBefore(from: number): number {
  let placed = 0;
  for (let i = 0; i < from; i++) if (!(placed >= OPEN_ORDERS && i % 2 === 1)) placed++;
  return placed;
}

interface Started {
  readonly ms: number;
  readonly restored: number;
  readonly fromSnapshot: boolean;
  /** The snapshot written at the stop: ms, bytes. */
  readonly snapshotMs: number;
  readonly snapshotBytes: number;
}

async function timeStart(journal: string | undefined): Promise<Started> {
  const lines: string[] = [];
  const started = performance.now(); // determinism-ok: bench timing
  const handle = await serve({ port: 0, host: '127.0.0.1', clock: 'manual', ...(journal === undefined ? {} : { journal }) }, (line) => lines.push(line));
  const ms = performance.now() - started; // determinism-ok: bench timing
  await handle.close();
  const text = lines.join('\n');
  const restored = Number(/restored (\d+) commands/.exec(text)?.[1] ?? 0);
  const written = /journal: snapshot at \d+ commands, ([\d.]+) MB in (\d+) ms/.exec(text);
  return { ms, restored, fromSnapshot: text.includes('from the snapshot'), snapshotMs: Number(written?.[2] ?? 0), snapshotBytes: Math.round(Number(written?.[1] ?? 0) * 1e6) };
}

/** Commands a default snapshot interval can leave after the newest snapshot. */
const TAIL = DEFAULT_SNAPSHOT_EVERY;

export async function runRestartBench(commands: number, log: (line: string) => void): Promise<RestartRow> {
  const dir = mkdtempSync(join(tmpdir(), 'exsim-restart-'));
  try {
    const path = join(dir, 'journal.jsonl');
    log(`serve/journal-restart: writing a journal of ${commands.toLocaleString('en-US')} commands`);
    const journalBytes = await writeRestartJournal(path, commands);
    const without = await timeStart(undefined);
    log('serve/journal-restart: starting with it (a full replay; the stop writes a snapshot)');
    const withJournal = await timeStart(path);
    log('serve/journal-restart: starting from the snapshot');
    const fromSnapshot = await timeStart(path);
    if (!fromSnapshot.fromSnapshot || withJournal.fromSnapshot) throw new Error('serve/journal-restart: the snapshot was not used as expected');
    const tailCommands = Math.min(TAIL, commands);
    const tailPath = join(dir, 'tail.jsonl');
    log(`serve/journal-restart: a snapshot ${tailCommands.toLocaleString('en-US')} commands before the end`);
    await writeRestartJournal(tailPath, commands - tailCommands);
    if (commands > tailCommands) await timeStart(tailPath);
    await writeRestartJournal(tailPath, commands, commands - tailCommands);
    const fromTail = await timeStart(tailPath);
    if (fromTail.restored !== commands) throw new Error(`serve/journal-restart: restored ${fromTail.restored} of ${commands} commands`);
    return {
      commands,
      journalBytes,
      startWithoutMs: without.ms,
      startWithMs: withJournal.ms,
      restoredCommands: withJournal.restored,
      snapshotWriteMs: withJournal.snapshotMs,
      snapshotBytes: withJournal.snapshotBytes,
      startSnapshotMs: fromSnapshot.ms,
      tailCommands,
      startSnapshotTailMs: fromTail.ms,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
