/**
 * Facade HTTP bench: requests per second over loopback, exsim beside a bare node:http server in
 * the same run, loaded by autocannon.
 *
 * Setup: each server runs in a child process (http-target.ts: one core for it, the other for the
 * load generator in this process), started with this process's own Node flags. autocannon keeps
 * `connections` keep-alive connections busy (no pipelining) for a warm-up, then for `duration`
 * seconds; the figure is the requests it completed per second. The server's own CPU time over
 * the measured run is read from the child and reported as requests per server CPU-second.
 *
 * Workloads
 * - bare: GET / answered by node:http with a constant JSON the size of a bookTicker answer.
 * - bookTicker: GET /api/v3/ticker/bookTicker?symbol=BTCUSDT through ExsimHttpServer and the
 *   whole pipeline (routing, params, weight limiter, serialization, limit headers).
 * - order: signed POST /api/v3/order, the in-process bench's order stream (bench-exchange.ts):
 *   1,001 traders' LIMIT GTC BUY/SELL at 50,000.00 that fill each other, form body, HMAC-SHA256
 *   over the body, recvWindow 60000. The requests are signed before the run (timestamp = the
 *   wall clock then, so they stay inside recvWindow for the run) and autocannon cycles through
 *   them on every connection; a load generator that signs per request would measure its own
 *   HMAC. The exsim server is paced in realtime like `exsim serve`, with its rate limits raised
 *   out of reach (one loopback IP stands in for all clients; the limiters still run).
 * Any non-2xx answer or socket error is counted and reported.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BOOK_TICKER_PATH, BOOK_TICKER_QUERY, DEFAULT_TRADERS, makeTraders, signedOrderRequest } from './bench-exchange.ts';
import type { TargetCpu, TargetKind, TargetReady } from './http-target.ts';

export const HTTP_BENCH_NAME = 'facade-http';
/** DESIGN.md "Targets": over loopback HTTP >= 20,000 req/s, beside a bare node:http server. */
export const TARGET_HTTP_PER_SEC = 20_000;
const RECV_WINDOW_MS = 60_000;

export interface HttpBenchOptions {
  /** Measured seconds per workload. */
  duration: number;
  connections: number;
  log: (message: string) => void;
}

export type HttpWorkload = 'bare' | 'bookTicker' | 'order';

export interface HttpRow {
  workload: HttpWorkload;
  server: TargetKind;
  requestsPerSec: number;
  requests: number;
  seconds: number;
  /** Requests per CPU-second of the server process over the measured run. */
  requestsPerServerCpuSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
}

export interface HttpBenchResult {
  duration: number;
  connections: number;
  warmupSeconds: number;
  rows: HttpRow[];
  autocannonVersion: string;
}

const WARMUP_SECONDS = 1;

export class Target {
  readonly #child: ChildProcess;
  readonly url: Promise<string>;

  constructor(kind: TargetKind) {
    const script = fileURLToPath(new URL('./http-target.ts', import.meta.url));
    // The parent's flags (--import tsx, heap sizes; --cpu-prof profiles the server too) so the
    // child runs TypeScript as this process does, under `npm run bench` or `exsim bench` alike.
    this.#child = fork(script, [kind], { execArgv: process.execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    this.url = new Promise((resolve, reject) => {
      this.#child.once('message', (m) => resolve((m as TargetReady).url));
      this.#child.once('exit', (code) => reject(new Error(`http target ${kind} exited (${code}) before it was ready`)));
    });
  }

  cpuUs(): Promise<number> {
    return new Promise((resolve) => {
      this.#child.once('message', (m) => resolve((m as TargetCpu).cpuUs));
      this.#child.send('cpu');
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

type Requests = NonNullable<autocannon.Options['requests']>;

function run(url: string, requests: Requests, seconds: number, connections: number): Promise<autocannon.Result> {
  return autocannon({ url, connections, pipelining: 1, duration: seconds, requests });
}

async function measure(target: Target, workload: HttpWorkload, kind: TargetKind, requests: () => Requests, options: HttpBenchOptions): Promise<HttpRow> {
  const url = await target.url;
  options.log(`${HTTP_BENCH_NAME}: ${workload} on ${kind} (${WARMUP_SECONDS} s warm-up, ${options.duration} s measured, ${options.connections} connections)`);
  await run(url, requests(), WARMUP_SECONDS, options.connections);
  const cpu0 = await target.cpuUs();
  const r = await run(url, requests(), options.duration, options.connections);
  const cpuUs = (await target.cpuUs()) - cpu0;
  const completed = r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
  return {
    workload,
    server: kind,
    requestsPerSec: completed / r.duration,
    requests: completed,
    seconds: r.duration,
    requestsPerServerCpuSec: completed / (cpuUs / 1e6),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

function orderRequests(): Requests {
  const traders = makeTraders(DEFAULT_TRADERS);
  const timestampMs = Date.now(); // determinism-ok: bench timing (a client's wall-clock stamp)
  return Array.from({ length: 2 * traders.length }, (_, k) => {
    const r = signedOrderRequest(k, traders, timestampMs, RECV_WINDOW_MS);
    return { method: 'POST' as const, path: r.path, headers: r.headers as Record<string, string>, body: r.rawBody };
  });
}

export async function runHttpBench(options: HttpBenchOptions): Promise<HttpBenchResult> {
  const rows: HttpRow[] = [];
  const bare = new Target('bare');
  try {
    rows.push(await measure(bare, 'bare', 'bare', () => [{ method: 'GET', path: '/' }], options));
  } finally {
    await bare.stop();
  }
  const exsim = new Target('exsim');
  try {
    rows.push(await measure(exsim, 'bookTicker', 'exsim', () => [{ method: 'GET', path: `${BOOK_TICKER_PATH}?${BOOK_TICKER_QUERY}` }], options));
    rows.push(await measure(exsim, 'order', 'exsim', orderRequests, options));
  } finally {
    await exsim.stop();
  }
  const { version } = createRequire(import.meta.url)('autocannon/package.json') as { version: string };
  return { duration: options.duration, connections: options.connections, warmupSeconds: WARMUP_SECONDS, rows, autocannonVersion: version };
}
