/**
 * One crash run (see crash-client.ts): the seeded operations against a server with a fresh
 * journal, SIGKILLed before the operations at `killPoints` (half of them while that operation's
 * request is in flight), restarted with the same journal each time. Returns the final state hash
 * and what the checks after each restart found.
 */
import { rmSync, writeFileSync } from 'node:fs';
import seedrandom from 'seedrandom';
import { openWriteAheadLog } from '../../src/serve/index.ts';
import { call, CRASH_ACCOUNTS, CrashClient, exited, operations, prepareServer, stopServer, type Operation, type ServerProcess } from './crash-client.ts';

/** Servers kept loaded ahead of the kills. */
const PREPARED = 3;

export interface CrashRunOptions {
  readonly journal: string;
  readonly seed: string;
  readonly operations: number;
  /** Kill points (operation indices); none: the uncrashed reference run. */
  readonly killPoints: readonly number[];
  /** ServeOptions besides port, host, accounts and journal. */
  readonly serve: Record<string, unknown>;
  /**
   * The simulated start of the journal (written before the first server starts; its start wins
   * over the wall clock): needed for the static market, whose start is otherwise the wall clock,
   * so two runs compare.
   */
  readonly start?: number;
  readonly log?: (line: string) => void;
}

export interface CrashRunResult {
  readonly stateHash: string;
  readonly kills: number;
  readonly inFlightLanded: number;
  readonly acknowledged: number;
  /** Restarts that read a journal snapshot (src/serve/durability/snapshots.ts) and replayed only the tail after it. */
  readonly fromSnapshot: number;
  readonly problems: readonly string[];
}

/** Distinct seeded kill points in 1..operations-1. */
export function killPoints(seed: string, operationsCount: number, count: number): number[] {
  const random = seedrandom(`${seed}-kills`);
  const points = new Set<number>();
  while (points.size < Math.min(count, operationsCount - 1)) points.add(1 + Math.floor(random() * (operationsCount - 1)));
  return [...points].sort((a, b) => a - b);
}

export async function crashRun(o: CrashRunOptions): Promise<CrashRunResult> {
  for (const path of [o.journal, `${o.journal}.snapshot`, `${o.journal}.snapshot.prev`, `${o.journal}.snapshot.tmp`]) rmSync(path, { force: true });
  const accounts = `${o.journal}.accounts.json`;
  writeFileSync(accounts, JSON.stringify({ accounts: CRASH_ACCOUNTS }));
  const options = { ...o.serve, accounts, journal: o.journal };
  if (o.start !== undefined) await (await openWriteAheadLog(options, o.start)).close();
  let server: ServerProcess = await prepareServer(options).go();
  // The next servers load while this one serves: a restart costs serve() itself, not Node's start.
  const ready = Array.from({ length: o.killPoints.length === 0 ? 0 : PREPARED }, () => prepareServer(options));
  const time = (await call(server.url, 'GET', '/api/v3/time', {}, null, 0)).body['serverTime'] as number;
  const depth = (await call(server.url, 'GET', '/api/v3/depth', { symbol: 'BTCUSDT', limit: '5' }, null, 0)).body as { bids: string[][]; asks: string[][] };
  const price = (Number(depth.bids[0]![0]) + Number(depth.asks[0]![0])) / 2;
  const ops: Operation[] = operations(o.seed, o.operations, Math.round(price * 100));
  const client = new CrashClient(time);
  const random = seedrandom(`${o.seed}-delays`);
  const kills = new Set(o.killPoints);
  const problems: string[] = [];
  let inFlightLanded = 0;
  let fromSnapshot = 0;
  for (let i = 0; i < ops.length; i++) {
    if (!kills.has(i)) {
      await client.send(server.url, ops, i);
      continue;
    }
    // Kill while operation i is in flight (its answer may or may not have been sent), or between two operations.
    const inFlight = random() < 0.5;
    const pending = inFlight ? client.send(server.url, ops, i).catch(() => undefined) : Promise.resolve();
    if (inFlight) await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 3)));
    server.child.kill('SIGKILL');
    await exited(server.child);
    await pending;
    server = await ready.shift()!.go();
    if (server.output().includes('from the snapshot')) fromSnapshot++;
    ready.push(prepareServer(options));
    if (inFlight) {
      if (await client.landed(server.url, ops, i)) inFlightLanded++;
      else await client.send(server.url, ops, i);
    } else {
      await client.send(server.url, ops, i);
    }
    const found = await client.differences(server.url);
    for (const p of found) problems.push(`after the kill before operation ${i}: ${p}`);
    o.log?.(`kill ${i}: ${inFlight ? 'in flight' : 'between requests'}, ${client.acked.size} acknowledged orders checked, ${found.length} problems`);
  }
  const found = await client.differences(server.url);
  problems.push(...found);
  for (const prepared of ready) prepared.discard();
  const stateHash = await stopServer(server);
  return { stateHash, kills: kills.size, inFlightLanded, acknowledged: client.acked.size, fromSnapshot, problems };
}
