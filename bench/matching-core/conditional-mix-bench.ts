/**
 * Conditional-mix bench (issue 3): the exchange-core-style stream of the matching-core bench
 * with stop-loss / take-profit orders (some trailing) and OCO lists mixed in, plus cancels of
 * them. exsim only: the peer has no equivalent of exsim's stop and list semantics, so there is
 * nothing like for like to compare against.
 *
 * Workload. The base stream is op-stream.ts unchanged (one BTCUSDT book of ~1,000 resting orders,
 * 1,000 accounts, 9% GTC / 3% IOC / 6% cancel / 82% move). Before each base op of the warm-up and
 * measured phases, with fixed probabilities (seeded, generated up front like the base stream):
 *   8%  a conditional placement, by a random account, 1..3 lots, priced from the last trade at
 *       the time it runs (so it stays near the market as the book drifts):
 *         25% STOP_LOSS (market), stop 1..30 ticks on its trigger side
 *         15% STOP_LOSS_LIMIT, limit 2 ticks beyond the stop (marketable when triggered)
 *         10% TAKE_PROFIT (market)
 *         10% TAKE_PROFIT_LIMIT
 *         15% trailing STOP_LOSS, trailingDelta 10..50 bps (0.1..0.5 USDT at 100), no stop price
 *         25% OCO: LIMIT_MAKER 1..30 ticks on the profit side + STOP_LOSS 1..30 ticks on the other
 *       (each side half the time);
 *   8%  a cancel of the oldest conditional still queued: CancelOrder for a stop, CancelOrderList
 *       for an OCO. Many have triggered or ended by then; those cancels are refused
 *       (UNKNOWN_ORDER / UNKNOWN_ORDER_LIST) after a full lookup, and are counted.
 * Equal placement and cancel rates keep the number of waiting stops bounded (every trade is
 * checked against all of them). Every op, base or conditional, counts as one op. Triggered stops
 * trade against the book like any taker, so the book drifts from the reference model's: the base
 * stream's cancels of an order a stop consumed are refused too (counted).
 *
 * Measurement as in matching-core-bench.ts (measure.ts): one discarded pass, `runs` throughput
 * passes (median reported), one latency pass; prefill and warm-up replayed untimed.
 */
import seedrandom from 'seedrandom';
import type { EngineEvent } from '../../src/engine/events.ts';
import type { BenchTarget } from './bench-target.ts';
import { ExsimTarget } from './exsim-adapter.ts';
import { SYMBOL, TICK_UNITS, quantityUnits } from './instrument.ts';
import { warmupOpsFor } from './matching-core-bench.ts';
import { collectGarbage, liveHeapMB, medianIndex, replay, summarizeLatency, throughputRun, timeRun, timerOverheadNs } from './measure.ts';
import type { LatencySummary } from './measure.ts';
import { CENTER_TICK, generateOpStream } from './op-stream.ts';
import type { OpStream } from './op-stream.ts';

export const CONDITIONAL_BENCH_NAME = 'matching-core/conditional-mix';

const TARGET_ORDERS = 1_000;
const ACCOUNTS = 1_000;
const PLACE_PROBABILITY = 0.08;
const CANCEL_PROBABILITY = 0.08;

const C_STOP_LOSS = 1;
const C_STOP_LOSS_LIMIT = 2;
const C_TAKE_PROFIT = 3;
const C_TAKE_PROFIT_LIMIT = 4;
const C_TRAILING = 5;
const C_OCO = 6;
const C_CANCEL = 7;
const KIND_NAMES = ['', 'stopLoss', 'stopLossLimit', 'takeProfit', 'takeProfitLimit', 'trailingStop', 'oco', 'cancel'] as const;
/** Cumulative weights of the placement kinds 1..6 (25/15/10/10/15/25). */
const KIND_CUMULATIVE = [0.25, 0.4, 0.5, 0.6, 0.75, 1];

/** The merged stream: base ops (by index into the base stream) and conditional ops, in order. */
export interface MergedStream {
  base: OpStream;
  /** Base op index, or -1 for a conditional op. */
  baseIndex: Int32Array;
  /** C_* kind of a conditional op (0 for base ops). */
  kind: Uint8Array;
  isBuy: Uint8Array;
  account: Int32Array;
  /** Ticks from the last price to the stop (and, for OCOs, to the limit maker). */
  stopTicks: Int32Array;
  limitTicks: Int32Array;
  trailingDelta: Int32Array;
  lots: Int32Array;
  measuredStart: number;
  total: number;
  measuredOps: number;
  /** Conditional ops of each kind in the measured part. */
  kindCounts: number[];
}

export function mergeStream(base: OpStream, seed: number): MergedStream {
  const rng = seedrandom(`exsim-conditional-mix-${seed}`);
  const capacity = base.totalOps * 2;
  const m: MergedStream = {
    base,
    baseIndex: new Int32Array(capacity),
    kind: new Uint8Array(capacity),
    isBuy: new Uint8Array(capacity),
    account: new Int32Array(capacity),
    stopTicks: new Int32Array(capacity),
    limitTicks: new Int32Array(capacity),
    trailingDelta: new Int32Array(capacity),
    lots: new Int32Array(capacity),
    measuredStart: 0,
    total: 0,
    measuredOps: 0,
    kindCounts: new Array<number>(KIND_NAMES.length).fill(0),
  };
  const baseMeasuredStart = base.prefillOps + base.warmupOps;
  let n = 0;
  let queued = 0;
  for (let i = 0; i < base.totalOps; i++) {
    if (i === baseMeasuredStart) m.measuredStart = n;
    if (i >= base.prefillOps) {
      const r = rng();
      let kind = 0;
      if (r < PLACE_PROBABILITY) {
        const k = rng();
        kind = 1 + KIND_CUMULATIVE.findIndex((c) => k < c);
        queued++;
      } else if (r < PLACE_PROBABILITY + CANCEL_PROBABILITY && queued > 0) {
        kind = C_CANCEL;
        queued--;
      }
      if (kind !== 0) {
        m.baseIndex[n] = -1;
        m.kind[n] = kind;
        m.isBuy[n] = rng() < 0.5 ? 1 : 0;
        m.account[n] = 1 + Math.floor(rng() * ACCOUNTS);
        m.stopTicks[n] = 1 + Math.floor(rng() * 30);
        m.limitTicks[n] = 1 + Math.floor(rng() * 30);
        m.trailingDelta[n] = 10 + Math.floor(rng() * 41);
        m.lots[n] = 1 + Math.floor(rng() * 3);
        if (i >= baseMeasuredStart) m.kindCounts[kind]! += 1;
        n++;
      }
    }
    m.baseIndex[n] = i;
    n++;
  }
  m.total = n;
  m.measuredOps = n - m.measuredStart;
  return m;
}

/** Drives exsim through the merged stream: base ops through ExsimTarget, conditional ones here. */
export class ConditionalTarget implements BenchTarget {
  readonly name = 'exsim';
  readonly baseTarget: ExsimTarget;
  /** Conditional placements (order id, or list id for OCOs) waiting for their cancel, oldest first. */
  private readonly queueId: Float64Array;
  private readonly queueIsList: Uint8Array;
  private readonly queueAccount: Int32Array;
  private head = 0;
  private tail = 0;
  /** Every conditional order placed, for the outcome count after the run: [accountId, orderId]. */
  readonly placedOrders: [number, number][] = [];
  conditionalRefused = 0;
  cancelsRefused = 0;

  constructor(private readonly stream: MergedStream) {
    this.baseTarget = new ExsimTarget(stream.base);
    this.queueId = new Float64Array(stream.total);
    this.queueIsList = new Uint8Array(stream.total);
    this.queueAccount = new Int32Array(stream.total);
  }

  get rejected(): number {
    return this.baseTarget.rejected + this.conditionalRefused;
  }

  step(j: number): void {
    const s = this.stream;
    const baseIndex = s.baseIndex[j]!;
    if (baseIndex >= 0) {
      this.baseTarget.step(baseIndex);
      return;
    }
    const engine = this.baseTarget.engine;
    // Same simulated instant as the base op that follows (times only need to be non-decreasing).
    const time = engine.time;
    const accountId = s.account[j]!;
    const kind = s.kind[j]!;
    if (kind === C_CANCEL) {
      const q = this.head++;
      const accountOf = this.queueAccount[q]!;
      const events = this.queueIsList[q] === 1
        ? engine.apply({ type: 'CancelOrderList', time, accountId: accountOf, symbol: SYMBOL, orderListId: this.queueId[q]! })
        : engine.apply({ type: 'CancelOrder', time, accountId: accountOf, symbol: SYMBOL, orderId: this.queueId[q]! });
      if (events[0]?.type === 'OrderRejected') this.cancelsRefused++;
      return;
    }
    const last = engine.lastTrade(SYMBOL);
    const lastTick = last === undefined ? CENTER_TICK : Math.round(last.price / TICK_UNITS);
    const isBuy = s.isBuy[j] === 1;
    const side = isBuy ? 'BUY' : 'SELL';
    const quantity = quantityUnits(s.lots[j]!);
    const d = s.stopTicks[j]!;
    // Stop-loss waits for the price to move against the position: up for a BUY, down for a SELL;
    // take-profit the other way.
    const lossTick = isBuy ? lastTick + d : lastTick - d;
    const profitTick = isBuy ? lastTick - d : lastTick + d;
    const through = isBuy ? 2 : -2;
    let events: readonly EngineEvent[];
    switch (kind) {
      case C_STOP_LOSS:
        events = engine.apply({ type: 'PlaceOrder', time, accountId, symbol: SYMBOL, side, orderType: 'STOP_LOSS', stopPrice: lossTick * TICK_UNITS, quantity });
        break;
      case C_STOP_LOSS_LIMIT:
        events = engine.apply({ type: 'PlaceOrder', time, accountId, symbol: SYMBOL, side, orderType: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', stopPrice: lossTick * TICK_UNITS, price: (lossTick + through) * TICK_UNITS, quantity });
        break;
      case C_TAKE_PROFIT:
        events = engine.apply({ type: 'PlaceOrder', time, accountId, symbol: SYMBOL, side, orderType: 'TAKE_PROFIT', stopPrice: profitTick * TICK_UNITS, quantity });
        break;
      case C_TAKE_PROFIT_LIMIT:
        events = engine.apply({ type: 'PlaceOrder', time, accountId, symbol: SYMBOL, side, orderType: 'TAKE_PROFIT_LIMIT', timeInForce: 'GTC', stopPrice: profitTick * TICK_UNITS, price: (profitTick + through) * TICK_UNITS, quantity });
        break;
      case C_TRAILING:
        events = engine.apply({ type: 'PlaceOrder', time, accountId, symbol: SYMBOL, side, orderType: 'STOP_LOSS', trailingDelta: s.trailingDelta[j]!, quantity });
        break;
      default: {
        // OCO [above, below]: SELL = limit maker above, stop-loss below; BUY = stop-loss above, limit maker below.
        const limitTick = isBuy ? lastTick - s.limitTicks[j]! : lastTick + s.limitTicks[j]!;
        const maker = { side, orderType: 'LIMIT_MAKER', price: limitTick * TICK_UNITS, quantity } as const;
        const stop = { side, orderType: 'STOP_LOSS', stopPrice: lossTick * TICK_UNITS, quantity } as const;
        events = engine.apply({ type: 'PlaceOrderList', time, accountId, symbol: SYMBOL, kind: 'OCO', legs: isBuy ? [stop, maker] : [maker, stop] });
      }
    }
    const first = events[0];
    if (first === undefined || first.type !== 'OrderAccepted') {
      this.conditionalRefused++;
      // Its cancel still comes (the stream was generated blind): it will name nothing.
      this.enqueue(-1, false, accountId);
      return;
    }
    const list = kind === C_OCO ? events.find((e) => e.type === 'OrderListUpdated') : undefined;
    if (list?.type === 'OrderListUpdated') {
      this.enqueue(list.orderListId, true, accountId);
      for (const o of list.orders) this.placedOrders.push([accountId, o.orderId]);
    } else {
      this.enqueue(first.orderId, false, accountId);
      this.placedOrders.push([accountId, first.orderId]);
    }
  }

  private enqueue(id: number, isList: boolean, accountId: number): void {
    this.queueId[this.tail] = id;
    this.queueIsList[this.tail] = isList ? 1 : 0;
    this.queueAccount[this.tail] = accountId;
    this.tail++;
  }

  /** What became of the conditional orders (whole stream, read after the run through the query API). */
  outcomes(): Record<string, number> {
    const engine = this.baseTarget.engine;
    const out: Record<string, number> = { placed: this.placedOrders.length, triggered: 0, filledOrPartly: 0, canceled: 0, expiredOcoTrigger: 0, expiredOther: 0, stillWaiting: 0 };
    for (const [accountId, orderId] of this.placedOrders) {
      const o = engine.getOrder(accountId, SYMBOL, { orderId });
      if (!o) continue;
      if (o.stopPrice > 0 || o.trailingDelta > 0) {
        if (o.workingTime !== -1) out['triggered']! += 1;
        else if (o.status === 'NEW') out['stillWaiting']! += 1;
      }
      if (o.executedQty > 0) out['filledOrPartly']! += 1;
      if (o.status === 'CANCELED') out['canceled']! += 1;
      if (o.status === 'EXPIRED') out[o.expiryReason === 'OCO_TRIGGER' ? 'expiredOcoTrigger' : 'expiredOther']! += 1;
    }
    return out;
  }
}

export interface ConditionalMixOptions {
  ops: number;
  seed: number;
  runs: number;
  log: (message: string) => void;
}

export interface ConditionalMixResult {
  /** Base ops measured (the --ops given); measuredOps adds the conditional ones. */
  baseOps: number;
  measuredOps: number;
  seed: number;
  runs: number;
  opsPerSec: number;
  runsOpsPerSec: number[];
  latency: LatencySummary;
  retainedHeapMB: number | null;
  /** Measured conditional ops per kind, % of measured ops. */
  mix: Record<string, number>;
  /** Refused in the measured part (most in any run): base ops, conditional placements, cancels of ended conditionals. */
  baseRefused: number;
  conditionalRefused: number;
  cancelsRefused: number;
  outcomes: Record<string, number>;
  invariants: string;
  timerOverheadNs: number;
  totalSeconds: number;
}

export function runConditionalMixBench(options: ConditionalMixOptions): ConditionalMixResult {
  const started = process.hrtime.bigint();
  const { ops, seed, runs, log } = options;
  const warmupOps = warmupOpsFor(ops);
  log(`generating conditional-mix stream (seed ${seed}, ${ops} base measured + ${warmupOps} warm-up ops)...`);
  const stream = mergeStream(generateOpStream({ seed, measuredOps: ops, warmupOps, targetOrders: TARGET_ORDERS, accounts: ACCOUNTS }), seed);
  const overhead = timerOverheadNs();
  const prepare = (target: BenchTarget): void => {
    replay(target, 0, stream.measuredStart);
    collectGarbage();
  };
  let baseRefused = 0;
  let conditionalRefused = 0;
  let cancelsRefused = 0;
  const measured = (target: ConditionalTarget, run: () => void): void => {
    const before = [target.baseTarget.rejected, target.conditionalRefused, target.cancelsRefused];
    run();
    baseRefused = Math.max(baseRefused, target.baseTarget.rejected - before[0]!);
    conditionalRefused = Math.max(conditionalRefused, target.conditionalRefused - before[1]!);
    cancelsRefused = Math.max(cancelsRefused, target.cancelsRefused - before[2]!);
  };

  log('warm-up pass (not reported)');
  replay(new ConditionalTarget(stream), 0, stream.total);
  collectGarbage();
  const opsPerRun: number[] = [];
  for (let run = 1; run <= runs; run++) {
    const target = new ConditionalTarget(stream);
    prepare(target);
    measured(target, () => {
      opsPerRun.push(stream.measuredOps / (throughputRun(target, stream.measuredStart, stream.total) / 1e9));
    });
    log(`run ${run}/${runs}: ${Math.round(opsPerRun[opsPerRun.length - 1]!).toLocaleString('en-US')} ops/s`);
  }
  const latencies = new Float64Array(stream.measuredOps);
  const heapBefore = liveHeapMB();
  const target = new ConditionalTarget(stream);
  prepare(target);
  measured(target, () => void timeRun(target, stream.measuredStart, stream.total, latencies));
  const heapAfter = liveHeapMB();
  const latency = summarizeLatency(latencies);
  log(`latency: p50 ${latency.p50Us} µs, p99 ${latency.p99Us} µs, p99.9 ${latency.p999Us} µs`);
  let invariants = 'ok';
  try {
    target.baseTarget.engine.checkInvariants();
  } catch (error) {
    invariants = `FAILED: ${error instanceof Error ? error.message : String(error)}`;
  }
  const pct = (n: number): number => Number(((100 * n) / stream.measuredOps).toFixed(2));
  const mix: Record<string, number> = {};
  for (let k = 1; k < KIND_NAMES.length; k++) mix[KIND_NAMES[k]!] = pct(stream.kindCounts[k]!);
  return {
    baseOps: ops,
    measuredOps: stream.measuredOps,
    seed,
    runs,
    opsPerSec: opsPerRun[medianIndex(opsPerRun)]!,
    runsOpsPerSec: opsPerRun,
    latency,
    retainedHeapMB: heapBefore === null || heapAfter === null ? null : heapAfter - heapBefore,
    mix,
    baseRefused,
    conditionalRefused,
    cancelsRefused,
    outcomes: target.outcomes(),
    invariants,
    timerOverheadNs: overhead,
    totalSeconds: Number(process.hrtime.bigint() - started) / 1e9,
  };
}

export function conditionalMixJsonLine(r: ConditionalMixResult): string {
  const round = (x: number): number => Number(x.toFixed(3));
  return JSON.stringify({
    name: CONDITIONAL_BENCH_NAME,
    engine: 'exsim',
    opsPerSec: Math.round(r.opsPerSec),
    p50Us: round(r.latency.p50Us),
    p99Us: round(r.latency.p99Us),
    p999Us: round(r.latency.p999Us),
    maxUs: round(r.latency.maxUs),
    meanUs: round(r.latency.meanUs),
    retainedHeapMB: r.retainedHeapMB === null ? null : Number(r.retainedHeapMB.toFixed(1)),
    ops: r.measuredOps,
    baseOps: r.baseOps,
    seed: r.seed,
    runs: r.runs,
    node: process.version,
    nodeFlags: process.execArgv.filter((a) => a.startsWith('--max')),
    runsOpsPerSec: r.runsOpsPerSec.map(Math.round),
    conditionalMix: r.mix,
    baseRefused: r.baseRefused,
    conditionalRefused: r.conditionalRefused,
    cancelsRefused: r.cancelsRefused,
    outcomes: r.outcomes,
    invariants: r.invariants,
    timerOverheadNs: r.timerOverheadNs,
  });
}

export function conditionalMixTable(r: ConditionalMixResult): string {
  const int = (x: number): string => Math.round(x).toLocaleString('en-US');
  const us = (x: number): string => x.toFixed(2);
  const flags = process.execArgv.filter((a) => a.startsWith('--max')).join(' ');
  const conditionalPct = Object.values(r.mix).reduce((a, b) => a + b, 0);
  return [
    `${CONDITIONAL_BENCH_NAME}  node ${process.version}${flags ? ` (${flags})` : ''}, seed ${r.seed}, ${int(r.measuredOps)} measured ops (${int(r.baseOps)} exchange-core-mix ops + conditional ops), ${r.runs} throughput pass(es) (median shown) + 1 latency pass`,
    `conditional ops ${conditionalPct.toFixed(1)}% of measured ops: ${Object.entries(r.mix).map(([k, v]) => `${k} ${v}%`).join('  ')}`,
    '',
    'engine  ops/s      mean µs  p50 µs  p99 µs  p99.9 µs  max µs  heap MB  runs ops/s',
    `exsim   ${int(r.opsPerSec).padStart(9)}  ${us(r.latency.meanUs).padStart(7)}  ${us(r.latency.p50Us).padStart(6)}  ${us(r.latency.p99Us).padStart(6)}  ${us(r.latency.p999Us).padStart(8)}  ${us(r.latency.maxUs).padStart(6)}  ${(r.retainedHeapMB === null ? 'n/a' : r.retainedHeapMB.toFixed(0)).padStart(7)}  ${r.runsOpsPerSec.map(int).join(' / ')}`,
    '',
    `refused in the measured part: ${r.baseRefused} base ops (their order was taken by a triggered stop), ${r.conditionalRefused} conditional placements, ${r.cancelsRefused} cancels of conditionals that had already triggered or ended`,
    `conditional orders over the whole stream (last run): ${Object.entries(r.outcomes).map(([k, v]) => `${k} ${int(v)}`).join(', ')}`,
    `exsim checkInvariants after the last run: ${r.invariants}  (${r.totalSeconds.toFixed(1)} s total)`,
  ].join('\n');
}
