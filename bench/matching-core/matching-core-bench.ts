/**
 * Matching-core bench: exsim vs nodejs-order-book on one exchange-core-style op stream.
 *
 * Workload (see op-stream.ts for the exact rules): one BTCUSDT book pre-filled to ~1,000 resting
 * orders over ~750 price levels and kept there; 1,000 accounts; then a warm-up and the measured
 * ops (default 1,000,000) in exchange-core's benchmark mix: ~9% GTC limit places near the touch,
 * ~3% IOC takers crossing the spread, ~6% cancels, ~82% moves (cancel/replace at a new price near
 * the touch). The stream is a pure function of the seed, generated into typed arrays before any
 * timing, and the SAME stream is replayed through both engines.
 *
 * Op mapping:            exsim (Engine.apply)                  nodejs-order-book
 *   GTC place            PlaceOrder LIMIT GTC                  limit({..., timeInForce: GTC})
 *   IOC                  PlaceOrder LIMIT IOC                  limit({..., timeInForce: IOC})
 *   cancel               CancelOrder                           cancel(id)
 *   move (one op)        CancelOrder + PlaceOrder LIMIT GTC    modify(id, { price })
 *
 * Not like for like, on purpose: exsim runs every command through accounts and balances (funds
 * locked and settled per trade), fees, symbol filters, a simulated clock and full event objects,
 * i.e. risk + matching like exchange-core; the peer is a bare book (no accounts, balances, fees or
 * filters). The ratio therefore understates exsim's matching speed, never overstates it.
 *
 * Measurement (measure.ts): each engine gets one discarded warm-up pass over the whole stream
 * (JIT tier-up), then `runs` throughput passes (default 3) and one latency pass, each on a fresh engine with prefill and warm-up replayed untimed and a GC before the
 * timed loop. A throughput pass reads no clock inside its loop: ops/s = measured ops / its wall
 * time; the median pass is reported. The latency pass reads the clock at every op boundary and
 * gives p50/p99/p99.9/max of the per-op durations (each carries one timer read). `npm run bench` gives V8 a 64 MB young generation
 * (--max-semi-space-size=64, the usual throughput setting for allocation-heavy Node services);
 * both engines run under it. All runs of exsim come first, then all runs of the peer, so neither
 * engine runs while the other's heap is alive.
 */
import { compareBooks } from './book-comparison.ts';
import type { BookComparison } from './book-comparison.ts';
import type { BenchTarget } from './bench-target.ts';
import { ExsimTarget } from './exsim-adapter.ts';
import { collectGarbage, liveHeapMB, medianIndex, replay, summarizeLatency, throughputRun, timeRun, timerOverheadNs } from './measure.ts';
import type { LatencySummary } from './measure.ts';
import { generateOpStream } from './op-stream.ts';
import type { OpStreamStats } from './op-stream.ts';
import { PEER_VERSION, PeerTarget } from './peer-adapter.ts';

export const BENCH_NAME = 'matching-core/exchange-core-mix';

export interface MatchingCoreOptions {
  ops: number;
  seed: number;
  runs: number;
  /** Progress messages (the caller decides where they go, if anywhere). */
  log: (message: string) => void;
}

export interface EngineMeasurement {
  name: string;
  /** Of the median run. */
  opsPerSec: number;
  /** Each run's ops/s, in run order. */
  runsOpsPerSec: number[];
  /** Latencies of the median run, µs. */
  p50Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
  meanUs: number;
  /** Ops refused in the measured part of the stream (the most seen in any run; runs are identical). */
  rejected: number;
  /**
   * Heap the engine gained over the whole stream (prefill + warm-up + measured), MB after full
   * GCs, last run; null if no GC could be forced. exsim keeps every order and trade for its
   * query API, the peer only resting orders, so this shows what the engine retains per op.
   */
  retainedHeapMB: number | null;
}

export interface MatchingCoreResult {
  ops: number;
  seed: number;
  runs: number;
  prefillOps: number;
  warmupOps: number;
  accounts: number;
  stream: OpStreamStats;
  exsim: EngineMeasurement;
  peer: EngineMeasurement;
  peerVersion: string;
  /** Refusals by reason over the whole stream of the last exsim run (prefill and warm-up too). */
  exsimRejectReasons: Record<string, number>;
  books: BookComparison;
  timerOverheadNs: number;
  generateSeconds: number;
  totalSeconds: number;
}

const TARGET_ORDERS = 1_000;
const ACCOUNTS = 1_000;

export function warmupOpsFor(ops: number): number {
  return Math.min(100_000, Math.max(10_000, Math.round(ops / 10)));
}

interface RunResult extends LatencySummary {
  opsPerSec: number;
  rejected: number;
  retainedHeapMB: number | null;
}

export function runMatchingCoreBench(options: MatchingCoreOptions): MatchingCoreResult {
  const started = process.hrtime.bigint();
  const { ops, seed, runs, log } = options;
  if (runs < 1) throw new Error('runs must be at least 1');
  const warmupOps = warmupOpsFor(ops);
  log(`generating op stream (seed ${seed}, ${ops} measured + ${warmupOps} warm-up ops)...`);
  const stream = generateOpStream({ seed, measuredOps: ops, warmupOps, targetOrders: TARGET_ORDERS, accounts: ACCOUNTS });
  const generateSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const measuredStart = stream.prefillOps + stream.warmupOps;
  const latencies = new Float64Array(stream.measuredOps);
  const overhead = timerOverheadNs();

  const exsimRuns: RunResult[] = [];
  const peerRuns: RunResult[] = [];
  let exsim: ExsimTarget | undefined;
  let peer: PeerTarget | undefined;
  /** Prefill and warm-up untimed, then a full GC, so neither is collected inside a timed loop. */
  const prepare = (target: BenchTarget): void => {
    replay(target, 0, measuredStart);
    collectGarbage();
  };
  /** A throughput pass: no clock read inside the loop. */
  const measureThroughput = (target: BenchTarget, run: number): number => {
    prepare(target);
    const before = target.rejected;
    const opsPerSec = stream.measuredOps / (throughputRun(target, measuredStart, stream.totalOps) / 1e9);
    rejectedMost = Math.max(rejectedMost, target.rejected - before);
    log(`run ${run}/${runs} ${target.name}: ${Math.round(opsPerSec).toLocaleString('en-US')} ops/s`);
    return opsPerSec;
  };
  /** The latency pass: one clock read per op. */
  const measureLatency = (target: BenchTarget): LatencySummary & { retainedHeapMB: number | null } => {
    const heapBefore = liveHeapMB();
    prepare(target);
    timeRun(target, measuredStart, stream.totalOps, latencies);
    const heapAfter = liveHeapMB();
    const summary = summarizeLatency(latencies);
    log(`latency ${target.name}: p50 ${summary.p50Us} µs, p99 ${summary.p99Us} µs, p99.9 ${summary.p999Us} µs`);
    return { ...summary, retainedHeapMB: heapBefore === null || heapAfter === null ? null : heapAfter - heapBefore };
  };
  let rejectedMost = 0;

  // All passes of one engine, then all of the other: an engine never runs while the other's heap
  // (and the other's garbage) is alive, which otherwise taxes whichever runs second.
  // One whole discarded pass per engine first: the JIT tiers up over more than the in-stream
  // warm-up (the first timed pass ran ~35% slower than the following ones without it).
  log('warm-up pass exsim (not reported)');
  replay(new ExsimTarget(stream), 0, stream.totalOps);
  collectGarbage();
  const exsimOps: number[] = [];
  for (let run = 1; run <= runs; run++) {
    exsim = undefined; // drop the previous run's engine first so it is not live during this run
    exsim = new ExsimTarget(stream);
    exsimOps.push(measureThroughput(exsim, run));
  }
  exsim = undefined;
  exsim = new ExsimTarget(stream);
  const exsimLatency = measureLatency(exsim);
  const exsimRejected = rejectedMost;
  const exsimBook = exsim;
  exsim = undefined;
  collectGarbage();
  rejectedMost = 0;
  log('warm-up pass nodejs-order-book (not reported)');
  replay(new PeerTarget(stream), 0, stream.totalOps);
  collectGarbage();
  const peerOps: number[] = [];
  for (let run = 1; run <= runs; run++) {
    peer = undefined;
    peer = new PeerTarget(stream);
    peerOps.push(measureThroughput(peer, run));
  }
  peer = undefined;
  peer = new PeerTarget(stream);
  const peerLatency = measureLatency(peer);
  const peerRejected = rejectedMost;
  exsim = exsimBook;
  for (const [list, ops, latency, rejected] of [
    [exsimRuns, exsimOps, exsimLatency, exsimRejected],
    [peerRuns, peerOps, peerLatency, peerRejected],
  ] as const) {
    for (const opsPerSec of ops) list.push({ opsPerSec, rejected, ...latency });
  }
  if (exsim === undefined || peer === undefined) throw new Error('unreachable: no run');

  // The last run of each engine has replayed the whole stream: compare the final books.
  const books = compareBooks(stream, exsim, peer);
  return {
    ops: stream.measuredOps,
    seed,
    runs,
    prefillOps: stream.prefillOps,
    warmupOps: stream.warmupOps,
    accounts: ACCOUNTS,
    stream: stream.stats,
    exsim: summarize(exsim.name, exsimRuns),
    peer: summarize(peer.name, peerRuns),
    peerVersion: PEER_VERSION,
    exsimRejectReasons: Object.fromEntries(exsim.rejectReasons),
    books,
    timerOverheadNs: overhead,
    generateSeconds,
    totalSeconds: Number(process.hrtime.bigint() - started) / 1e9,
  };
}

function summarize(name: string, runs: readonly RunResult[]): EngineMeasurement {
  const opsPerSec = runs.map((r) => r.opsPerSec);
  const mid = runs[medianIndex(opsPerSec)]!;
  return {
    name,
    opsPerSec: mid.opsPerSec,
    runsOpsPerSec: opsPerSec,
    p50Us: mid.p50Us,
    p99Us: mid.p99Us,
    p999Us: mid.p999Us,
    maxUs: mid.maxUs,
    meanUs: mid.meanUs,
    rejected: Math.max(...runs.map((r) => r.rejected)),
    retainedHeapMB: runs[runs.length - 1]!.retainedHeapMB,
  };
}
