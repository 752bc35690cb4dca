/**
 * Serve benches: what the live server's surroundings cost a request.
 *
 * serve/idle-streams: GET /api/v3/time (weight 1, no engine work: the request path itself)
 * requests per second over loopback with no user data stream open, then with `streams` idle
 * listen-key WebSocket connections open on the same server (default 10,000; each costs a file
 * descriptor in the server and one in this process, so the count must fit `ulimit -n`). The
 * server is a child process (serve-target.ts); autocannon keeps `connections` keep-alive
 * connections busy for a 1 s warm-up, then `duration` seconds. Target (issue 13): the idle
 * streams change the throughput by less than 10%.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import WebSocket from 'ws';
import type { ServeTargetReady, ServeTargetStreams } from './serve-target.ts';

export const SERVE_BENCHES = ['serve-idle-streams'] as const;
export const DEFAULT_IDLE_STREAMS = 10_000;
const WARMUP_SECONDS = 1;
const OPEN_BATCH = 250;

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
}

export interface ServeBenchOptions {
  readonly duration: number;
  readonly connections: number;
  readonly streams: number;
  readonly log: (message: string) => void;
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

  streams(): Promise<number> {
    return new Promise((resolve) => {
      this.#child.once('message', (m) => resolve((m as ServeTargetStreams).streams));
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

async function timeThroughput(url: string, o: ServeBenchOptions): Promise<autocannon.Result> {
  const run = (seconds: number) => autocannon({ url: `${url}/api/v3/time`, connections: o.connections, pipelining: 1, duration: seconds });
  await run(WARMUP_SECONDS);
  return run(o.duration);
}

export async function runServeBenches(o: ServeBenchOptions): Promise<ServeRow[]> {
  const rows: ServeRow[] = [];
  const target = new ServeTarget();
  try {
    const { url, listenKey } = await target.ready;
    o.log(`serve/idle-streams: GET /api/v3/time, no streams (${o.duration} s, ${o.connections} connections)`);
    const none = await timeThroughput(url, o);
    rows.push(row('serve/idle-streams', 'no streams', none, await target.streams()));
    const sockets: WebSocket[] = [];
    const wsUrl = `${url.replace('http:', 'ws:')}/ws/${listenKey}`;
    o.log(`serve/idle-streams: opening ${o.streams} idle streams`);
    try {
      while (sockets.length < o.streams) {
        const batch = Math.min(OPEN_BATCH, o.streams - sockets.length);
        const opened = await Promise.all(
          Array.from({ length: batch }, () =>
            new Promise<WebSocket>((resolve, reject) => {
              const ws = new WebSocket(wsUrl);
              ws.once('open', () => resolve(ws));
              ws.once('error', reject);
            }),
          ),
        );
        for (const ws of opened) ws.on('error', () => undefined);
        sockets.push(...opened);
      }
    } catch (error) {
      o.log(`serve/idle-streams: stopped at ${sockets.length} streams: ${error instanceof Error ? error.message : String(error)}`);
    }
    const streams = await target.streams();
    o.log(`serve/idle-streams: GET /api/v3/time with ${streams} idle streams`);
    const idle = await timeThroughput(url, o);
    rows.push(row('serve/idle-streams', `${streams} idle streams`, idle, streams));
    for (const ws of sockets) ws.terminate();
    await new Promise((r) => setTimeout(r, 500));
    o.log('serve/idle-streams: GET /api/v3/time after closing them');
    const after = await timeThroughput(url, o);
    rows.push(row('serve/idle-streams', 'streams closed again', after, await target.streams()));
  } finally {
    await target.stop();
  }
  return rows;
}

function row(name: string, variant: string, r: autocannon.Result, streams: number): ServeRow {
  const completed = r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
  return { name, variant, requestsPerSec: completed / r.duration, requests: completed, latencyP99Ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors, streams };
}

/** One line per row: the second and later rows of a name show their change against the first. */
export function serveTable(rows: readonly ServeRow[]): string {
  const lines = ['bench                 variant                 req/s      change   p99 ms  non-2xx  errors'];
  const first = new Map<string, number>();
  for (const r of rows) {
    const base = first.get(r.name);
    if (base === undefined) first.set(r.name, r.requestsPerSec);
    const change = base === undefined ? '' : `${(((r.requestsPerSec - base) / base) * 100).toFixed(1)}%`;
    lines.push(`${r.name.padEnd(22)}${r.variant.padEnd(22)}${Math.round(r.requestsPerSec).toLocaleString('en-US').padStart(8)}  ${change.padStart(8)}  ${r.latencyP99Ms.toFixed(1).padStart(7)}  ${String(r.non2xx).padStart(7)}  ${String(r.errors).padStart(6)}`);
  }
  return lines.join('\n');
}

export function serveJsonLines(rows: readonly ServeRow[]): string[] {
  return rows.map((r) => JSON.stringify({ bench: r.name, variant: r.variant, requestsPerSec: Math.round(r.requestsPerSec), requests: r.requests, latencyP99Ms: r.latencyP99Ms, non2xx: r.non2xx, errors: r.errors, streams: r.streams }));
}
