/**
 * Serve benches: what the live server's surroundings cost a request.
 *
 * serve/idle-streams: GET /api/v3/time (weight 1, no engine work: the request path itself)
 * requests per second over loopback with no user data stream open, then with `streams` idle
 * listen-key WebSocket connections open (default 10,000, held by a process of their own,
 * idle-stream-holder.ts; each costs a file descriptor in the server and one in the holder, so the
 * count must fit `ulimit -n`). Two servers run side by side as child processes (serve-target.ts),
 * one with the streams and one without, and autocannon (`connections` keep-alive connections)
 * alternates between them in rounds of 1 s (`duration` rounds each, at least 10, after a 1 s
 * warm-up), so the machine's drift (±20% between minutes on this VM) hits both alike. `ratio`:
 * the throughput with the streams over the one without; `server CPU µs/req`: each server process's CPU time per
 * request answered (what "per-request work" means, and less moved by a busy machine than
 * throughput). Target (issue 13): the idle streams change the throughput by less than 10%.
 *
 * serve/journal: signed POST /api/v3/order (the facade HTTP bench's order stream: 1,001 traders'
 * LIMIT orders that fill each other, signed before the run) requests per second, on a server
 * without a journal, then on a fresh one journaling with the default policy (`--fsync batch`),
 * then with `--fsync always`; same connections and duration. `ratio` is each row's throughput
 * over the unjournaled one. Target (issue 13): the default policy keeps >= 50%.
 *
 * serve/journal-restart (journal-restart.ts): the time to start from a journal of 1M commands.
 *
 * serve/slow-readers (slow-readers-bench.ts): 2,000 never-reading stream connections against
 * `exsim serve --data sample --clock speed:100`: the server's RSS against its send budget, REST p99.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { DEFAULT_TRADERS, makeTraders, signedOrderRequest } from '../facade/bench-exchange.ts';
import { closeHolder } from './bench-children.ts';
import { runRestartBench, type RestartRow } from './journal-restart.ts';
import { runSlowReadersBench, slowReadersJsonLines, type SlowReadersResult } from './slow-readers-bench.ts';
import type { ServeTargetReady, ServeTargetStreams } from './serve-target.ts';

export const SERVE_BENCHES = ['serve-idle-streams', 'serve-journal', 'serve-journal-restart', 'serve-slow-readers'] as const;
export const DEFAULT_RESTART_COMMANDS = 1_000_000;
export const DEFAULT_IDLE_STREAMS = 10_000;
const WARMUP_SECONDS = 1;

export interface ServeRow {
  readonly name: string;
  readonly variant: string;
  readonly requestsPerSec: number;
  readonly requests: number;
  readonly latencyP99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
  /** Open stream connections the server reported during the run. */
  readonly streams: number;
  /** Throughput over the first row of the same name (serve/journal), over the mean of the rows without streams (idle streams). */
  ratio?: number;
  /** The server's CPU time per request during the timed part, µs (serve/idle-streams). */
  serverCpuUsPerRequest?: number;
}

export interface ServeBenchOptions {
  readonly duration: number;
  readonly connections: number;
  readonly streams: number;
  readonly log: (message: string) => void;
  /** `serve` or undefined: every serve bench; else one of SERVE_BENCHES. */
  readonly only?: string;
  readonly restartCommands?: number;
}

class ServeTarget {
  readonly #child: ChildProcess;
  readonly ready: Promise<ServeTargetReady>;

  constructor(args: readonly string[] = []) {
    const script = fileURLToPath(new URL('./serve-target.ts', import.meta.url));
    this.#child = fork(script, [...args], { execArgv: process.execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    this.ready = new Promise((resolve, reject) => {
      this.#child.once('message', (m) => resolve(m as ServeTargetReady));
      this.#child.once('exit', (code) => reject(new Error(`serve target exited (${code}) before it was ready`)));
    });
  }

  streams(): Promise<ServeTargetStreams> {
    return new Promise((resolve) => {
      this.#child.once('message', (m) => resolve(m as ServeTargetStreams));
      this.#child.send('streams');
    });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (this.#child.exitCode !== null) return resolve();
      this.#child.once('exit', () => resolve());
      this.#child.send('stop');
    });
  }
}

export interface ServeResults {
  readonly rows: ServeRow[];
  readonly restart: RestartRow | null;
  readonly slowReaders: SlowReadersResult | null;
}

export async function runServeBenches(o: ServeBenchOptions): Promise<ServeResults> {
  const wants = (name: string): boolean => o.only === undefined || o.only === 'serve' || o.only === name;
  const rows: ServeRow[] = [];
  if (wants('serve-idle-streams')) rows.push(...(await runIdleStreams(o)));
  if (wants('serve-journal')) rows.push(...(await runJournalBench(o)));
  const restart = wants('serve-journal-restart') ? await runRestartBench(o.restartCommands ?? DEFAULT_RESTART_COMMANDS, o.log) : null;
  const slowReaders = wants('serve-slow-readers') ? await runSlowReadersBench({ duration: o.duration, log: o.log }) : null;
  return { rows, restart, slowReaders };
}

const RECV_WINDOW_MS = 60_000;

function orderRequests(): NonNullable<autocannon.Options['requests']> {
  const traders = makeTraders(DEFAULT_TRADERS);
  const timestampMs = Date.now(); // determinism-ok: bench timing (a client's wall-clock stamp)
  return Array.from({ length: 2 * traders.length }, (_, k) => {
    const r = signedOrderRequest(k, traders, timestampMs, RECV_WINDOW_MS);
    return { method: 'POST' as const, path: r.path, headers: r.headers as Record<string, string>, body: r.rawBody };
  });
}

async function timeOrders(args: readonly string[], variant: string, o: ServeBenchOptions): Promise<ServeRow> {
  const target = new ServeTarget(args);
  try {
    const { url } = await target.ready;
    o.log(`serve/journal: signed POST /api/v3/order, ${variant} (${o.duration} s, ${o.connections} connections)`);
    const run = (seconds: number) => autocannon({ url, connections: o.connections, pipelining: 1, duration: seconds, requests: orderRequests() });
    await run(WARMUP_SECONDS);
    return row('serve/journal', variant, await run(o.duration), 0);
  } finally {
    await target.stop();
  }
}

async function runJournalBench(o: ServeBenchOptions): Promise<ServeRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'exsim-journal-bench-'));
  try {
    const rows = [await timeOrders([], 'no journal', o), await timeOrders([join(dir, 'batch.jsonl'), 'batch'], 'journal, fsync batch', o), await timeOrders([join(dir, 'always.jsonl'), 'always'], 'journal, fsync always', o)];
    for (const r of rows) r.ratio = r.requestsPerSec / rows[0]!.requestsPerSec;
    o.log(`serve/journal: journaled (batch) / unjournaled = ${rows[1]!.ratio!.toFixed(2)}, (always) / unjournaled = ${rows[2]!.ratio!.toFixed(2)}`);
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One server's share of the interleaved idle-streams measurement. */
interface Tally {
  completed: number;
  seconds: number;
  cpuMicros: number;
  p99: number;
  non2xx: number;
  errors: number;
  streams: number;
}

async function runIdleStreams(o: ServeBenchOptions): Promise<ServeRow[]> {
  // Two servers side by side: the same machine drift hits both, and the rounds alternate them.
  const plain = new ServeTarget();
  const loaded = new ServeTarget();
  let holder: ChildProcess | undefined;
  try {
    const [plainReady, loadedReady] = await Promise.all([plain.ready, loaded.ready]);
    const wsUrl = `${loadedReady.url.replace('http:', 'ws:')}/ws/${loadedReady.listenKey}`;
    o.log(`serve/idle-streams: opening ${o.streams} idle streams on the second server (from a process of their own)`);
    const child = fork(fileURLToPath(new URL('./idle-stream-holder.ts', import.meta.url)), [wsUrl, String(o.streams)], { execArgv: process.execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    holder = child;
    const held = await new Promise<{ opened: number; error?: string }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as { opened: number; error?: string }));
      child.once('exit', (code) => reject(new Error(`the idle stream holder exited (${code})`)));
    });
    if (held.error !== undefined) o.log(`serve/idle-streams: stopped at ${held.opened} streams: ${held.error}`);
    const servers = [
      { target: plain, url: plainReady.url, tally: newTally() },
      { target: loaded, url: loadedReady.url, tally: newTally() },
    ];
    const measure = async (server: (typeof servers)[number], seconds: number, count: boolean): Promise<void> => {
      const before = await server.target.streams();
      const r = await autocannon({ url: `${server.url}/api/v3/time`, connections: o.connections, pipelining: 1, duration: seconds });
      const after = await server.target.streams();
      if (!count) return;
      const t = server.tally;
      t.completed += r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
      t.seconds += r.duration;
      t.cpuMicros += after.cpuMicros - before.cpuMicros;
      t.p99 = Math.max(t.p99, r.latency.p99);
      t.non2xx += r.non2xx;
      t.errors += r.errors;
      t.streams = after.streams;
    };
    for (const server of servers) await measure(server, WARMUP_SECONDS, false);
    const rounds = Math.max(10, o.duration);
    o.log(`serve/idle-streams: GET /api/v3/time, ${rounds} rounds of 1 s on each server, alternating (${o.connections} connections)`);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const server of order) await measure(server, 1, true);
    }
    const rows = servers.map(({ tally: t }, i) => ({
      name: 'serve/idle-streams',
      variant: i === 0 ? 'no streams' : `${t.streams} idle streams`,
      requestsPerSec: t.completed / t.seconds,
      requests: t.completed,
      latencyP99Ms: t.p99,
      non2xx: t.non2xx,
      errors: t.errors,
      streams: t.streams,
      serverCpuUsPerRequest: t.cpuMicros / Math.max(1, t.completed),
    })) as ServeRow[];
    const [without, withStreams] = rows as [ServeRow, ServeRow];
    withStreams.ratio = withStreams.requestsPerSec / without.requestsPerSec;
    o.log(
      `serve/idle-streams: with the streams / without: throughput ${withStreams.ratio.toFixed(3)}, ` +
        `server CPU per request ${(withStreams.serverCpuUsPerRequest! / without.serverCpuUsPerRequest!).toFixed(3)}`,
    );
    return rows;
  } finally {
    await closeHolder(holder);
    await Promise.all([plain.stop(), loaded.stop()]);
  }
}

function newTally(): Tally {
  return { completed: 0, seconds: 0, cpuMicros: 0, p99: 0, non2xx: 0, errors: 0, streams: 0 };
}

function row(name: string, variant: string, r: autocannon.Result, streams: number): ServeRow {
  const completed = r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
  return { name, variant, requestsPerSec: completed / r.duration, requests: completed, latencyP99Ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors, streams };
}

/** One line per row: the second and later rows of a name show their change against the first. */
export function serveTable(rows: readonly ServeRow[]): string {
  const lines = ['bench                 variant                 req/s      change   p99 ms  non-2xx  errors  ratio  server CPU µs/req'];
  const first = new Map<string, number>();
  for (const r of rows) {
    const base = first.get(r.name);
    if (base === undefined) first.set(r.name, r.requestsPerSec);
    const change = base === undefined ? '' : `${(((r.requestsPerSec - base) / base) * 100).toFixed(1)}%`;
    lines.push(`${r.name.padEnd(22)}${r.variant.padEnd(22)}${Math.round(r.requestsPerSec).toLocaleString('en-US').padStart(8)}  ${change.padStart(8)}  ${r.latencyP99Ms.toFixed(1).padStart(7)}  ${String(r.non2xx).padStart(7)}  ${String(r.errors).padStart(6)}  ${(r.ratio === undefined ? '' : r.ratio.toFixed(2)).padStart(5)}  ${r.serverCpuUsPerRequest === undefined ? '' : r.serverCpuUsPerRequest.toFixed(1).padStart(17)}`);
  }
  return lines.join('\n');
}

export function serveJsonLines(results: ServeResults): string[] {
  const lines = results.rows.map((r) =>
    JSON.stringify({ bench: r.name, variant: r.variant, requestsPerSec: Math.round(r.requestsPerSec), requests: r.requests, latencyP99Ms: r.latencyP99Ms, non2xx: r.non2xx, errors: r.errors, streams: r.streams, ...(r.ratio === undefined ? {} : { ratio: Number(r.ratio.toFixed(3)) }), ...(r.serverCpuUsPerRequest === undefined ? {} : { serverCpuUsPerRequest: Number(r.serverCpuUsPerRequest.toFixed(2)) }) }),
  );
  const restart = results.restart;
  if (restart !== null) lines.push(JSON.stringify({ bench: 'serve/journal-restart', ...restart, restoreMs: Math.round(restart.startWithMs - restart.startWithoutMs) }));
  if (results.slowReaders !== null) lines.push(...slowReadersJsonLines(results.slowReaders));
  return lines;
}

/** The restart row in words. */
export function restartTable(restart: RestartRow): string {
  const mb = (restart.journalBytes / 1e6).toFixed(0);
  const ms = (n: number, width: number): string => n.toFixed(0).padStart(width);
  return [
    'bench                   commands   journal MB  start without ms  full replay ms  restored  snapshot write ms  snapshot MB  from snapshot ms  from snapshot + tail ms (tail)',
    `${'serve/journal-restart'.padEnd(22)}${restart.commands.toLocaleString('en-US').padStart(10)}  ${mb.padStart(11)}  ${ms(restart.startWithoutMs, 16)}  ${ms(restart.startWithMs, 14)}  ${restart.restoredCommands.toLocaleString('en-US').padStart(8)}  ${ms(restart.snapshotWriteMs, 17)}  ${(restart.snapshotBytes / 1e6).toFixed(0).padStart(11)}  ${ms(restart.startSnapshotMs, 16)}  ${ms(restart.startSnapshotTailMs, 23)} (${restart.tailCommands.toLocaleString('en-US')})`,
  ].join('\n');
}
