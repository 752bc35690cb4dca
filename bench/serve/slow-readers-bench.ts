/**
 * serve/slow-readers (issue 25 item 6): what readers that never read cost the served exchange.
 * Two `exsim serve --data sample --clock speed:100` run side by side as child processes (the market
 * streaming 100 times faster than real time, the default send budget DEFAULT_SEND_BUDGET); on one
 * of them `readers` (default 2,000) connections to /stream?streams=STREAMS open at once, from a
 * process of their own (slow-reader-holder.ts: raw sockets that never read a byte, spread over
 * 127.0.0.2..); then REST load (GET /api/v3/depth?symbol=BTCUSDT&limit=20 at RATE requests/s over
 * 10 connections) alternates between the two in rounds of 1 s, twice `duration` s each (at least
 * 20), so the machine's drift hits both alike. Meanwhile each server's RSS is sampled every
 * 200 ms (Linux: /proc/<pid>/status) and the readers the loaded one still holds are read from
 * /exsim/v1/status.
 *
 * STREAMS is one partial book (btcusdt@depth20: ~1.5 KB a simulated second, 100 a wall second at
 * speed:100), a stream whose fan-out to 2,000 connections the server affords (~200,000 frames a
 * second): what feeding many subscribers costs is serve/idle-streams' and streams' subject; this
 * row isolates what readers that stop reading add (queues, drops). SLOW_STREAMS=<names> in the
 * environment replaces it.
 *
 * The rows: REST p99 (the median round's and the worst round's: this VM's drift moves single
 * rounds by tens of ms) and max on each server; each one's peak RSS and its
 * growth over its RSS when the readers opened, against the budget; the readers dropped, and when
 * the last went. Targets: the growth stays within the budget, REST p99 as on the twin.
 *
 * Heavy on the kernel: 2,000 never-read sockets fill their kernel send buffers (~1-4 MB each)
 * before a byte queues in the server, so the machine's TCP memory nears its tcp_mem bound for the
 * run's length. Run it alone.
 */
import { spawn, fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { DEFAULT_SEND_BUDGET } from '../../src/api-facade/index.ts';
import { closeHolder, untilServing } from './bench-children.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DEFAULT_SLOW_READERS = 2000;
const RATE = 200;
const ADMIN_KEY = 'slow-readers-bench';
const STREAMS = process.env['SLOW_STREAMS'] ?? 'btcusdt@depth20';

export interface SlowReadersRow {
  readonly variant: string;
  readonly requests: number;
  /** The 1 s rounds' p99: the median round's and the worst round's; the slowest request, ms. */
  readonly latencyP99Ms: number;
  readonly worstRoundP99Ms: number;
  readonly latencyMaxMs: number;
  readonly non2xx: number;
  readonly peakRssMb: number;
  /** Peak RSS over the RSS when the readers opened. */
  readonly rssGrowthMb: number;
  /** Readers opened, and those the server still held at the end (0 on the twin). */
  readonly readersOpened: number;
  readonly readersAtEnd: number;
  /** Seconds from the readers' opening until the server held none (null: some were left, or none opened). */
  readonly allDroppedAfterS: number | null;
}

export interface SlowReadersResult {
  readonly streams: string;
  readonly budgetMb: number;
  readonly rows: readonly SlowReadersRow[];
}

/** One server and what the rounds measured on it. */
interface Target {
  readonly child: ChildProcess;
  readonly url: string;
  requests: number;
  /** Each round's p99. */
  readonly p99s: number[];
  max: number;
  non2xx: number;
  rssAtOpen: number;
  peakRss: number;
}

export async function runSlowReadersBench(o: { readonly duration: number; readonly readers?: number; readonly log: (m: string) => void }): Promise<SlowReadersResult> {
  const readers = o.readers ?? DEFAULT_SLOW_READERS;
  const rounds = 2 * Math.max(10, o.duration);
  const basePort = 19_000 + 2 * (process.pid % 500);
  o.log(`serve/slow-readers: two exsim serve --data sample --clock speed:100, ports ${basePort} and ${basePort + 1}...`);
  const twin = start(basePort);
  const loaded = start(basePort + 1);
  let holder: ChildProcess | undefined;
  try {
    await Promise.all([untilServing(twin.child), untilServing(loaded.child)]);
    for (const t of [twin, loaded]) await load(t.url, 2); // warm-up
    for (const t of [twin, loaded]) t.rssAtOpen = t.peakRss = rssMb(t.child.pid!);
    o.log(`serve/slow-readers: ${readers} never-reading connections to /stream?streams=${STREAMS} on the second (a process of their own), then ${rounds} rounds of 1 s of REST at ${RATE} req/s on each, alternating`);
    const opened = Date.now(); // determinism-ok: a bench's stopwatch
    const child = fork(fileURLToPath(new URL('./slow-reader-holder.ts', import.meta.url)), [String(basePort + 1), String(readers), `/stream?streams=${STREAMS}`], { execArgv: process.execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    holder = child;
    let allDroppedAfterS: number | null = null;
    // Counted once the server has held some (before, 0 means not yet open).
    let seenOpen = false;
    let polling = false;
    const sampler = setInterval(() => {
      for (const t of [twin, loaded]) t.peakRss = Math.max(t.peakRss, rssMb(t.child.pid!));
      if (allDroppedAfterS !== null || polling) return;
      polling = true;
      void streamConnections(loaded.url).then((open) => {
        polling = false;
        if (open > 0) seenOpen = true;
        else if (seenOpen && allDroppedAfterS === null) allDroppedAfterS = (Date.now() - opened) / 1000; // determinism-ok: as above
      });
    }, 200); // determinism-ok: the bench's sampling period
    try {
      const held = await new Promise<{ opened: number; error?: string }>((resolve, reject) => {
        child.once('message', (m) => resolve(m as { opened: number; error?: string }));
        child.once('exit', (code) => reject(new Error(`the slow reader holder exited (${code})`)));
      });
      if (held.error !== undefined) o.log(`serve/slow-readers: stopped at ${held.opened} readers: ${held.error}`);
      for (let round = 0; round < rounds; round++) {
        for (const t of round % 2 === 0 ? [twin, loaded] : [loaded, twin]) {
          const r = await load(t.url, 1);
          t.requests += r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
          t.p99s.push(r.latency.p99);
          t.max = Math.max(t.max, r.latency.max);
          t.non2xx += r.non2xx;
        }
      }
      const atEnd = await streamConnections(loaded.url);
      const row = (t: Target, variant: string, opened: number, left: number, dropped: number | null): SlowReadersRow => ({
        variant,
        requests: t.requests,
        latencyP99Ms: median(t.p99s),
        worstRoundP99Ms: Math.max(...t.p99s),
        latencyMaxMs: t.max,
        non2xx: t.non2xx,
        peakRssMb: t.peakRss,
        rssGrowthMb: t.peakRss - t.rssAtOpen,
        readersOpened: opened,
        readersAtEnd: left,
        allDroppedAfterS: dropped,
      });
      return {
        streams: STREAMS,
        budgetMb: DEFAULT_SEND_BUDGET.totalBytes / 2 ** 20,
        rows: [row(twin, 'twin, no readers', 0, 0, null), row(loaded, `${held.opened} never-reading streams`, held.opened, atEnd, allDroppedAfterS)],
      };
    } finally {
      clearInterval(sampler);
    }
  } finally {
    await closeHolder(holder);
    twin.child.kill('SIGTERM');
    loaded.child.kill('SIGTERM');
  }
}

function start(port: number): Target {
  const child = spawn(process.execPath, [join(ROOT, 'bin/exsim.js'), 'serve', '--data', 'sample', '--clock', 'speed:100', '--port', String(port), '--admin-key', ADMIN_KEY], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return { child, url: `http://127.0.0.1:${port}`, requests: 0, p99s: [], max: 0, non2xx: 0, rssAtOpen: 0, peakRss: 0 };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function load(url: string, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url: `${url}/api/v3/depth?symbol=BTCUSDT&limit=20`, connections: 10, pipelining: 1, duration: seconds, overallRate: RATE });
}

async function streamConnections(url: string): Promise<number> {
  const res = await fetch(`${url}/exsim/v1/status`, { headers: { 'X-EXSIM-ADMIN-KEY': ADMIN_KEY } });
  return ((await res.json()) as { connections: number }).connections;
}

/** A process's resident set, MB (NaN where /proc is not there). */
function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? Number.NaN : Number(kb) / 1024;
  } catch {
    return Number.NaN;
  }
}

export function slowReadersTable(result: SlowReadersResult): string {
  const lines = [
    `never-reading connections to /stream?streams=${result.streams} on exsim serve --data sample --clock speed:100, beside a twin without (send budget ${result.budgetMb} MiB; REST: GET depth at ${RATE} req/s, 1 s rounds alternating)`,
    'bench               variant                         p99 ms (median round, worst)  max ms  non-2xx  peak RSS MB  RSS growth MB  readers open→end  all dropped after s',
  ];
  for (const r of result.rows) {
    lines.push(
      `${'serve/slow-readers'.padEnd(20)}${r.variant.padEnd(32)}${`${r.latencyP99Ms.toFixed(1)}, ${r.worstRoundP99Ms.toFixed(0)}`.padStart(29)}  ${r.latencyMaxMs.toFixed(0).padStart(6)}  ${String(r.non2xx).padStart(7)}  ${r.peakRssMb.toFixed(0).padStart(11)}  ${r.rssGrowthMb.toFixed(0).padStart(13)}  ${`${r.readersOpened}→${r.readersAtEnd}`.padStart(16)}  ${(r.allDroppedAfterS === null ? '-' : r.allDroppedAfterS.toFixed(1)).padStart(19)}`,
    );
  }
  return lines.join('\n');
}

export function slowReadersJsonLines(result: SlowReadersResult): string[] {
  return result.rows.map((r) =>
    JSON.stringify({ bench: 'serve/slow-readers', variant: r.variant, streams: result.streams, budgetMb: result.budgetMb, requests: r.requests, latencyP99Ms: r.latencyP99Ms, worstRoundP99Ms: r.worstRoundP99Ms, latencyMaxMs: r.latencyMaxMs, non2xx: r.non2xx, peakRssMb: Math.round(r.peakRssMb), rssGrowthMb: Math.round(r.rssGrowthMb), readersOpened: r.readersOpened, readersAtEnd: r.readersAtEnd, allDroppedAfterS: r.allDroppedAfterS }),
  );
}
