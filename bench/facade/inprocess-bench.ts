/**
 * Facade in-process bench: requests per second through handleRequest, the whole pipeline
 * (route, params, IP weight, API key + HMAC-SHA256 signature, timestamp/recvWindow, order count,
 * handler and engine, JSON serialization, limit headers), with no sockets.
 *
 * Workloads (exchange and order stream: bench-exchange.ts)
 * - futuresOrder: the same stream on the USDⓈ-M perpetual through signed POST /fapi/v1/order
 *   (bench-exchange.ts), beside spot's in the same run (issue 28).
 * - order: signed POST /api/v3/order, LIMIT GTC 0.001 BTC at 50,000.00, form body, 1,001 traders
 *   in turn (own key, own IP), BUY/SELL alternating so each SELL fills the BUY before it: half the
 *   answers are NEW, half FILLED with one fill (FULL response).
 * - depth: GET /api/v3/depth?symbol=BTCUSDT&limit=20 over a 100-level-a-side book (weight 5).
 * - bookTicker: GET /api/v3/ticker/bookTicker?symbol=BTCUSDT (weight 2).
 * Rate limits are Binance's own (6,000 weight/min and 300,000 raw requests/5 min per IP, 100
 * orders/10 s and 200,000/day per account), judged on simulated time as always: the simulated
 * clock advances 1 ms before every request (1,000 requests per simulated second, each trader
 * sending one per simulated second), so no request is refused. Any non-200 answer is counted
 * and reported as `rejected`.
 *
 * Each workload is measured two ways:
 * - server: requests built and signed by the bench before the timed loop (in chunks of 4,096,
 *   each stamped with the simulated ms it will be served at); the loop is clock advance +
 *   handleRequest. This is the facade's own cost, what DESIGN.md's target is about.
 * - client: InProcessClient (what an in-process bot or a backtest calls): it also builds the
 *   query/body, signs with HMAC, and JSON.parses every answer, inside the timed loop.
 * Per row: a warm-up pass, then `runs` timed passes of `requests` requests (median shown); the
 * exchange lives on across passes (time keeps moving, the book stays small).
 */
import { handleRequest, type ApiRequest, type ApiResponse } from '../../src/api-facade/rest/handle-request.ts';
import { InProcessClient } from '../../src/api-facade/rest/in-process-client.ts';
import type { EngineBackend } from '../../src/api-facade/core/market-backend.ts';
import type { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { collectGarbage } from '../matching-core/measure.ts';
import {
  BOOK_TICKER_PATH,
  BOOK_TICKER_QUERY,
  DEFAULT_TRADERS,
  DEPTH_PATH,
  DEPTH_QUERY,
  makeInProcessExchange,
  makeTraders,
  FUTURES_ORDER_PATH,
  futuresOrderOf,
  ORDER_PATH,
  orderOf,
  signedOrderRequest,
  SYMBOL,
  type Trader,
} from './bench-exchange.ts';

export const INPROCESS_BENCH_NAME = 'facade-inprocess';
/** DESIGN.md "Targets": facade in-process >= 200,000 signed requests/s. */
export const TARGET_INPROCESS_PER_SEC = 200_000;
/** Simulated time between two requests, µs. */
const STEP_US = 1_000;
const CHUNK = 4_096;

export type Workload = 'order' | 'futuresOrder' | 'depth' | 'bookTicker';
const isOrder = (w: Workload): w is 'order' | 'futuresOrder' => w === 'order' || w === 'futuresOrder';
const venueOf = (w: 'order' | 'futuresOrder'): 'spot' | 'futures' => (w === 'order' ? 'spot' : 'futures');
export type Mode = 'server' | 'client';

export interface InProcessOptions {
  /** Timed requests per pass. */
  requests: number;
  runs: number;
  log: (message: string) => void;
}

export interface InProcessRow {
  workload: Workload;
  mode: Mode;
  signed: boolean;
  requests: number;
  requestsPerSec: number;
  runsRequestsPerSec: number[];
  meanUs: number;
  /**
   * Requests per second of this process's CPU time (user + system) over the same passes: what the
   * figure would be on an idle core. On a shared machine wall time also counts the time the bench
   * was descheduled; this does not.
   */
  requestsPerCpuSec: number;
  /** Non-200 answers over all passes (warm-up included); 0 when the workload is honest. */
  rejected: number;
  firstRejection: string | null;
  /** Response bytes per request, last pass. */
  bodyBytes: number;
}

export interface InProcessResult {
  requests: number;
  runs: number;
  traders: number;
  warmup: number;
  rows: InProcessRow[];
  totalSeconds: number;
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One exchange, its traders, and a tally of the answers. */
class Session {
  readonly traders: Trader[];
  readonly backend: EngineBackend;
  readonly ctx: ExchangeContext;
  readonly clients: InProcessClient[];
  /** Requests sent so far (k of the order stream). */
  k = 0;
  rejected = 0;
  firstRejection: string | null = null;
  bodyBytes = 0;

  constructor(traders: number) {
    this.traders = makeTraders(traders);
    ({ backend: this.backend, ctx: this.ctx } = makeInProcessExchange(this.traders));
    this.clients = this.traders.map((t) => new InProcessClient(this.ctx, { apiKey: t.apiKey, ip: t.ip }));
  }

  tally(r: ApiResponse): void {
    if (r.status === 200) return;
    this.rejected++;
    this.firstRejection ??= `${r.status} ${r.body}`;
  }

  tick(): void {
    this.backend.advanceTo(this.backend.now + STEP_US);
  }
}

/**
 * Wall time and this process's CPU time (user + system) of the timed loops only. Both are read
 * once per loop (a chunk of thousands of requests), never per request.
 */
class Stopwatch {
  ns = 0;
  cpuUs = 0;
  #t0 = 0n;
  #cpu0: NodeJS.CpuUsage = { user: 0, system: 0 };

  start(): void {
    this.#cpu0 = process.cpuUsage(); // determinism-ok: bench timing
    this.#t0 = process.hrtime.bigint(); // determinism-ok: bench timing
  }

  stop(): void {
    this.ns += Number(process.hrtime.bigint() - this.#t0); // determinism-ok: bench timing
    const cpu = process.cpuUsage(this.#cpu0); // determinism-ok: bench timing
    this.cpuUs += cpu.user + cpu.system;
  }
}

/** Runs `count` requests of a workload, timing only the loops that serve them. */
function pass(s: Session, workload: Workload, mode: Mode, count: number): Stopwatch {
  const watch = new Stopwatch();
  if (mode === 'client') clientPass(s, workload, count, watch);
  else if (isOrder(workload)) orderServerPass(s, venueOf(workload), count, watch);
  else marketServerPass(s, workload, count, watch);
  return watch;
}

function orderServerPass(s: Session, venue: 'spot' | 'futures', count: number, watch: Stopwatch): void {
  const batch: ApiRequest[] = [];
  for (let done = 0; done < count; done += batch.length) {
    batch.length = 0;
    const n = Math.min(CHUNK, count - done);
    // Stamped with the simulated ms each request will be served at (the clock moves STEP_US first).
    for (let i = 0; i < n; i++) batch.push(signedOrderRequest(s.k + i, s.traders, Math.floor((s.backend.now + (i + 1) * STEP_US) / 1000), undefined, venue));
    watch.start();
    for (let i = 0; i < n; i++) {
      s.tick();
      s.tally(handleRequest(s.ctx, batch[i]!));
    }
    watch.stop();
    s.k += n;
  }
}

function marketRequests(s: Session, workload: 'depth' | 'bookTicker'): ApiRequest[] {
  const path = workload === 'depth' ? DEPTH_PATH : BOOK_TICKER_PATH;
  const rawQuery = workload === 'depth' ? DEPTH_QUERY : BOOK_TICKER_QUERY;
  return s.traders.map((t) => ({ method: 'GET', path, rawQuery, rawBody: '', headers: {}, ip: t.ip }));
}

function marketServerPass(s: Session, workload: 'depth' | 'bookTicker', count: number, watch: Stopwatch): void {
  const requests = marketRequests(s, workload);
  let last: ApiResponse | undefined;
  watch.start();
  for (let i = 0; i < count; i++) {
    s.tick();
    last = handleRequest(s.ctx, requests[s.k++ % requests.length]!);
    s.tally(last);
  }
  watch.stop();
  if (last !== undefined) s.bodyBytes = last.body.length;
}

function clientPass(s: Session, workload: Workload, count: number, watch: Stopwatch): void {
  const clients = s.clients;
  watch.start();
  if (isOrder(workload)) {
    const path = workload === 'order' ? ORDER_PATH : FUTURES_ORDER_PATH;
    const paramsOf = workload === 'order' ? orderOf : futuresOrderOf;
    for (let i = 0; i < count; i++) {
      s.tick();
      const { params } = paramsOf(s.k, s.traders);
      s.tally(clients[s.k++ % clients.length]!.post(path, params));
    }
  } else {
    const path = workload === 'depth' ? DEPTH_PATH : BOOK_TICKER_PATH;
    const params = workload === 'depth' ? { symbol: SYMBOL, limit: 20 } : { symbol: SYMBOL };
    for (let i = 0; i < count; i++) {
      s.tick();
      s.tally(clients[s.k++ % clients.length]!.get(path, params));
    }
  }
  watch.stop();
}

/** The order stream does what bench-exchange.ts says: a BUY rests (NEW), the SELL after it fills it. */
function checkOrderStream(s: Session, venue: 'spot' | 'futures'): void {
  const answers = [0, 1].map(() => {
    s.tick();
    const r = handleRequest(s.ctx, signedOrderRequest(s.k, s.traders, Math.floor(s.backend.now / 1000), undefined, venue));
    s.k++;
    return r.status === 200 ? (JSON.parse(r.body) as { status?: string }).status : `${r.status} ${r.body}`;
  });
  // /fapi's default answer is ACK (NEW whatever happened): the second order's fill shows in its query, not its answer.
  if (answers[0] !== 'NEW' || answers[1] !== (venue === 'spot' ? 'FILLED' : 'NEW')) throw new Error(`facade bench: ${venue} order stream answered ${JSON.stringify(answers)}, expected ["NEW","FILLED"]`);
}

function measureRow(workload: Workload, mode: Mode, options: InProcessOptions, warmup: number): InProcessRow {
  const s = new Session(DEFAULT_TRADERS);
  if (isOrder(workload)) checkOrderStream(s, venueOf(workload));
  pass(s, workload, mode, warmup);
  const rates: number[] = [];
  const cpuRates: number[] = [];
  for (let run = 0; run < options.runs; run++) {
    collectGarbage();
    const watch = pass(s, workload, mode, options.requests);
    rates.push(options.requests / (watch.ns / 1e9));
    cpuRates.push(options.requests / (watch.cpuUs / 1e6));
  }
  if (isOrder(workload) && mode === 'server') {
    // The body size of one NEW and one FILLED answer (their mean is the stream's mean).
    const venue = venueOf(workload);
    s.tick();
    const a = handleRequest(s.ctx, signedOrderRequest(s.k++, s.traders, Math.floor(s.backend.now / 1000), undefined, venue));
    s.tick();
    const b = handleRequest(s.ctx, signedOrderRequest(s.k++, s.traders, Math.floor(s.backend.now / 1000), undefined, venue));
    s.bodyBytes = (a.body.length + b.body.length) / 2;
  }
  const requestsPerSec = median(rates);
  return {
    workload,
    mode,
    signed: isOrder(workload),
    requests: options.requests,
    requestsPerSec,
    runsRequestsPerSec: rates,
    meanUs: 1e6 / requestsPerSec,
    requestsPerCpuSec: median(cpuRates),
    rejected: s.rejected,
    firstRejection: s.firstRejection,
    bodyBytes: s.bodyBytes,
  };
}

export function runInProcessBench(options: InProcessOptions): InProcessResult {
  const t0 = process.hrtime.bigint(); // determinism-ok: bench timing
  const warmup = Math.min(options.requests, 10_000);
  const rows: InProcessRow[] = [];
  for (const workload of ['order', 'futuresOrder', 'depth', 'bookTicker'] as const) {
    for (const mode of ['server', 'client'] as const) {
      options.log(`${INPROCESS_BENCH_NAME}: ${workload} (${mode})`);
      rows.push(measureRow(workload, mode, options, warmup));
    }
  }
  return { requests: options.requests, runs: options.runs, traders: DEFAULT_TRADERS, warmup, rows, totalSeconds: Number(process.hrtime.bigint() - t0) / 1e9 /* determinism-ok: bench timing */ };
}
