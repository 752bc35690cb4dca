/**
 * ws-api/order: the round trip of one signed order placement over the WebSocket API
 * (`order.place` on /ws-api/v3) against the same placement over REST (POST /api/v3/order), in
 * the same run, on the same server.
 *
 * Setup: the HTTP bench's exsim target (bench/facade/http-target.ts, a child process with a core
 * of its own: realtime pacing, the bench exchange's 1,001 traders, rate limits raised out of
 * reach). The order stream is the facade benches' (bench-exchange.ts: LIMIT GTC BUY/SELL
 * 0.001 @ 50,000.00 that fill each other, HMAC-SHA256, recvWindow 60000), signed before the run
 * (REST: form body as sent; WebSocket API: the sorted-parameter payload, apiKey in the params).
 * One client connection per transport (a keep-alive HTTP agent with one socket; one WebSocket),
 * one request in flight: each figure is a full round trip (send, server work, answer read).
 * Warm-up 1,000 round trips per transport, then two measured passes of `roundTrips` each,
 * alternating REST, WebSocket API, REST, WebSocket API so load on the machine falls on both;
 * the pass with the lower mean is reported, the other kept in `passesMeanUs`. The server's CPU
 * time per request over the measured passes is read from the child.
 * Target (issue 14): the WebSocket API round trip costs no more than the REST one.
 */
import { Agent, request } from 'node:http';
import WebSocket from 'ws';
import { signHmacSha256 } from '../../src/api-facade/signing/hmac-sha256.ts';
import { DEFAULT_TRADERS, makeTraders, orderOf, signedOrderRequest } from '../facade/bench-exchange.ts';
import { Target } from '../facade/http-bench.ts';

export { WS_API_BENCHES } from '../../src/cli/bench-rows.ts';
export const WS_API_BENCH_NAME = 'ws-api/order';
export const DEFAULT_ROUND_TRIPS = 5000;
const WARMUP = 1000;
const PASSES = 2;
const RECV_WINDOW_MS = 60_000;

export type Transport = 'rest' | 'ws-api';

export interface WsApiRow {
  readonly transport: Transport;
  readonly roundTrips: number;
  readonly meanUs: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly perSec: number;
  readonly passesMeanUs: readonly number[];
  /** Server CPU µs per request over every measured pass of this transport. */
  readonly serverCpuUsPerRequest: number;
  /** Answers that were not 200 (none expected). */
  readonly failures: number;
}

export interface WsApiBenchOptions {
  readonly roundTrips: number;
  readonly log: (message: string) => void;
}

/** What one transport needs: send request k, resolve when its answer is in, with its status. */
type Sender = (k: number) => Promise<number>;

interface RestRequest {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

function restSender(url: URL, requests: readonly RestRequest[]): { send: Sender; close: () => void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const send: Sender = (k) =>
    new Promise((resolve, reject) => {
      const r = requests[k]!;
      const req = request({ host: url.hostname, port: url.port, method: 'POST', path: r.path, headers: r.headers, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(r.body);
    });
  return { send, close: () => agent.destroy() };
}

function restRequest(k: number, traders: ReturnType<typeof makeTraders>, timestampMs: number): RestRequest {
  const r = signedOrderRequest(k, traders, timestampMs, RECV_WINDOW_MS);
  return { path: r.path, headers: { ...(r.headers as Record<string, string>), 'content-length': String(r.rawBody.length) }, body: r.rawBody };
}

/** The WebSocket API frame of order k, signed as web-socket-api.md signs (sorted parameters). */
function wsFrame(k: number, traders: ReturnType<typeof makeTraders>, timestampMs: number): string {
  const { trader, params } = orderOf(k, traders);
  const all: Record<string, string | number> = { ...params, recvWindow: RECV_WINDOW_MS, timestamp: timestampMs, apiKey: trader.apiKey };
  const payload = Object.keys(all)
    .sort()
    .map((name) => `${name}=${all[name]}`)
    .join('&');
  return JSON.stringify({ id: k, method: 'order.place', params: { ...all, signature: signHmacSha256(trader.secret, payload) } });
}

async function wsSender(url: string, frames: readonly string[]): Promise<{ send: Sender; close: () => void }> {
  const ws = await new Promise<WebSocket>((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
  let waiting: ((status: number) => void) | undefined;
  ws.on('message', (data) => {
    const text = String(data);
    // The status follows the id: no JSON.parse of the whole answer on the client's clock.
    const at = text.indexOf('"status":');
    const status = at < 0 ? 0 : Number(text.slice(at + 9, at + 12));
    const done = waiting;
    waiting = undefined;
    done?.(status);
  });
  const send: Sender = (k) =>
    new Promise((resolve) => {
      waiting = resolve;
      ws.send(frames[k]!);
    });
  return { send, close: () => ws.terminate() };
}

interface Pass {
  readonly latenciesUs: Float64Array;
  readonly failures: number;
}

async function pass(send: Sender, first: number, count: number): Promise<Pass> {
  const latenciesUs = new Float64Array(count);
  let failures = 0;
  for (let i = 0; i < count; i++) {
    const t0 = performance.now(); // determinism-ok: bench timing
    const status = await send(first + i);
    latenciesUs[i] = (performance.now() - t0) * 1000; // determinism-ok: bench timing
    if (status !== 200) failures++;
  }
  return { latenciesUs, failures };
}

const mean = (xs: Float64Array): number => xs.reduce((a, b) => a + b, 0) / xs.length;
function quantile(xs: Float64Array, q: number): number {
  const sorted = Float64Array.from(xs).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export async function runWsApiBench(o: WsApiBenchOptions): Promise<WsApiRow[]> {
  const target = new Target('exsim');
  try {
    const base = await target.url;
    const traders = makeTraders(DEFAULT_TRADERS);
    const timestampMs = Date.now(); // determinism-ok: bench timing (a client's wall-clock stamp)
    const total = WARMUP + PASSES * o.roundTrips;
    // One order stream: REST sends requests [0, total), the WebSocket API [total, 2 total), each signed before the run.
    const restClient = restSender(new URL(base), Array.from({ length: total }, (_, k) => restRequest(k, traders, timestampMs)));
    const wsFrames = Array.from({ length: 2 * total }, (_, k) => (k < total ? '' : wsFrame(k, traders, timestampMs)));
    const wsClient = await wsSender(`${base.replace('http:', 'ws:')}/ws-api/v3`, wsFrames);
    const senders: Record<Transport, Sender> = { rest: restClient.send, 'ws-api': wsClient.send };
    const next: Record<Transport, number> = { rest: 0, 'ws-api': total };
    const passes: Record<Transport, Pass[]> = { rest: [], 'ws-api': [] };
    const cpuUs: Record<Transport, number> = { rest: 0, 'ws-api': 0 };
    for (const transport of ['rest', 'ws-api'] as const) {
      o.log(`${WS_API_BENCH_NAME}: ${transport} warm-up (${WARMUP} round trips)`);
      await pass(senders[transport], next[transport], WARMUP);
      next[transport] += WARMUP;
    }
    for (let p = 0; p < PASSES; p++) {
      for (const transport of ['rest', 'ws-api'] as const) {
        o.log(`${WS_API_BENCH_NAME}: ${transport} pass ${p + 1}/${PASSES} (${o.roundTrips} round trips)`);
        const cpu0 = await target.cpuUs();
        passes[transport].push(await pass(senders[transport], next[transport], o.roundTrips));
        cpuUs[transport] += (await target.cpuUs()) - cpu0;
        next[transport] += o.roundTrips;
      }
    }
    restClient.close();
    wsClient.close();
    return (['rest', 'ws-api'] as const).map((transport) => {
      const all = passes[transport];
      const best = all.reduce((a, b) => (mean(b.latenciesUs) < mean(a.latenciesUs) ? b : a));
      const meanUs = mean(best.latenciesUs);
      return {
        transport,
        roundTrips: o.roundTrips,
        meanUs,
        p50Us: quantile(best.latenciesUs, 0.5),
        p99Us: quantile(best.latenciesUs, 0.99),
        perSec: 1e6 / meanUs,
        passesMeanUs: all.map((x) => mean(x.latenciesUs)),
        serverCpuUsPerRequest: cpuUs[transport] / (PASSES * o.roundTrips),
        failures: all.reduce((n, x) => n + x.failures, 0),
      };
    });
  } finally {
    await target.stop();
  }
}

const round1 = (x: number): number => Number(x.toFixed(1));

export function wsApiTable(rows: readonly WsApiRow[]): string {
  const rest = rows.find((r) => r.transport === 'rest');
  const ws = rows.find((r) => r.transport === 'ws-api');
  const lines = [`${WS_API_BENCH_NAME}: one signed LIMIT order per round trip, one connection, one request in flight`, 'transport  round trips  mean µs  p50 µs  p99 µs  round trips/s  server CPU µs/req  failures'];
  for (const r of rows) {
    lines.push(
      `${r.transport.padEnd(9)}  ${String(r.roundTrips).padStart(11)}  ${r.meanUs.toFixed(1).padStart(7)}  ${r.p50Us.toFixed(1).padStart(6)}  ${r.p99Us.toFixed(1).padStart(6)}  ${Math.round(r.perSec).toLocaleString('en-US').padStart(13)}  ${r.serverCpuUsPerRequest.toFixed(1).padStart(17)}  ${String(r.failures).padStart(8)}`,
    );
  }
  if (rest !== undefined && ws !== undefined) lines.push(`target: WebSocket API mean <= REST mean: ${ws.meanUs <= rest.meanUs ? 'met' : 'NOT met'} (${((ws.meanUs / rest.meanUs) * 100).toFixed(0)}% of REST)`);
  return lines.join('\n');
}

export function wsApiJsonLines(rows: readonly WsApiRow[]): string[] {
  const rest = rows.find((r) => r.transport === 'rest');
  return rows.map((r) =>
    JSON.stringify({
      name: WS_API_BENCH_NAME,
      transport: r.transport,
      roundTrips: r.roundTrips,
      meanUs: round1(r.meanUs),
      p50Us: round1(r.p50Us),
      p99Us: round1(r.p99Us),
      roundTripsPerSec: Math.round(r.perSec),
      passesMeanUs: r.passesMeanUs.map(round1),
      serverCpuUsPerRequest: round1(r.serverCpuUsPerRequest),
      failures: r.failures,
      targetMet: r.transport === 'ws-api' && rest !== undefined ? r.meanUs <= rest.meanUs : null,
      node: process.version,
    }),
  );
}
