/**
 * Walk-forward: `--walk-forward train=7d,test=1d --sweep GRID [--select METRIC]`. The window
 * [from, to) is cut into steps of `test`: step k trains on [from + k·test, + train) (the sweep
 * over GRID, the best row by METRIC, ties to the first in grid order) and tests that choice on
 * the following `test` stretch. Only the test stretches are out of sample; they are stitched:
 * PnLs added (each test run starts from the opening balances), returns compounded, and the
 * holding benchmark compounded the same way, so `excessReturn` is what the chosen parameters
 * added out of sample. Steps whose test stretch would pass `to` are not run.
 */
import { Decimal } from 'decimal.js';
import { formatUtcMicros } from '../data/index.ts';
import type { BacktestRequest } from './backtest-request.ts';
import type { EquityCurve } from './equity-curve.ts';
import { InputError } from './input-error.ts';
import { availableParallelism } from 'node:os';
import { createSweepPool, isSweepFailure, resolveSweepMarket, runInPool, runSweep, type SweepOptions, type SweepRow, type SweepRowWithCurve } from './sweep.ts';

export const SELECT_METRICS = ['excessReturn', 'return', 'pnl', 'vsHold', 'sharpe'] as const;
export type SelectMetric = (typeof SELECT_METRICS)[number];

export interface WalkForwardSpec {
  /** µs. */
  readonly train: number;
  readonly test: number;
}

const UNIT_US: Readonly<Record<string, number>> = { m: 60_000_000, h: 3_600_000_000, d: 86_400_000_000 };

/** `train=7d,test=1d` (units m, h, d). */
export function parseWalkForward(text: string): WalkForwardSpec {
  const parts = new Map<string, number>();
  for (const part of text.split(',').map((p) => p.trim())) {
    const match = /^(train|test)=(\d+)(m|h|d)$/.exec(part);
    if (match === null || parts.has(match[1]!)) throw new InputError(`--walk-forward must be train=<n><m|h|d>,test=<n><m|h|d> (e.g. train=7d,test=1d), got "${text}"`);
    const length = Number(match[2]) * UNIT_US[match[3]!]!;
    if (!(length > 0)) throw new InputError(`--walk-forward: ${match[1]} must be longer than 0`);
    parts.set(match[1]!, length);
  }
  if (!parts.has('train') || !parts.has('test')) throw new InputError(`--walk-forward must be train=<n><m|h|d>,test=<n><m|h|d> (e.g. train=7d,test=1d), got "${text}"`);
  return { train: parts.get('train')!, test: parts.get('test')! };
}

export function parseSelectMetric(text: string | undefined): SelectMetric {
  const metric = text ?? 'excessReturn';
  if (!(SELECT_METRICS as readonly string[]).includes(metric)) throw new InputError(`--select must be one of ${SELECT_METRICS.join(', ')}, got "${metric}"`);
  return metric as SelectMetric;
}

export interface WalkForwardWindow {
  readonly trainFrom: string;
  readonly trainTo: string;
  readonly testFrom: string;
  readonly testTo: string;
  /** The best combination on the training window, and its score there. */
  readonly chosen: Readonly<Record<string, string>>;
  readonly trainScore: number | string | null;
  readonly trainRuns: number;
  /** The chosen parameters on the test window. */
  readonly test: {
    readonly pnl: string;
    readonly return: number | null;
    readonly holdReturn: number | null;
    readonly vsHold: string;
    readonly excessReturn: number | null;
    readonly fills: number;
    readonly journalSha256: string;
  };
}

export interface WalkForwardResult {
  readonly train: string;
  readonly test: string;
  readonly select: SelectMetric;
  readonly windows: readonly WalkForwardWindow[];
  /** The test windows stitched. */
  readonly outOfSample: {
    readonly from: string;
    readonly to: string;
    readonly pnl: string;
    readonly vsHold: string;
    /** Π(1 + return) − 1 over the test windows (8 decimals). */
    readonly return: number | null;
    readonly holdReturn: number | null;
    readonly excessReturn: number | null;
  };
}

/** A window's curves: the chosen parameters on the training stretch (in sample) and on the test stretch. */
export interface WindowCurves {
  readonly train: EquityCurve;
  readonly test: EquityCurve;
}

/** The row's score by `metric` (null: no score; never chosen over a row with one). */
function score(row: SweepRow, metric: SelectMetric): number | null {
  switch (metric) {
    case 'excessReturn':
      return row.excessReturn;
    case 'return':
      return row.return;
    case 'sharpe':
      return row.sharpe;
    case 'pnl':
      return Number(row.pnl);
    case 'vsHold':
      return Number(row.vsHold);
  }
}

const round8 = (x: number): number => Number(x.toFixed(8));

function durationText(us: number): string {
  for (const [unit, size] of [['d', UNIT_US.d!], ['h', UNIT_US.h!], ['m', UNIT_US.m!]] as const) if (us % size === 0) return `${us / size}${unit}`;
  return `${us}us`;
}

export async function runWalkForward(
  request: BacktestRequest,
  grid: readonly Record<string, string>[],
  spec: WalkForwardSpec,
  metric: SelectMetric,
  options: SweepOptions & {
    readonly onWindow?: (window: WalkForwardWindow, index: number, total: number) => void;
    /** Filled with each window's curves (walk-forward.html): every training run returns its curve, the chosen one's is kept. */
    readonly curves?: WindowCurves[];
  } = {},
): Promise<WalkForwardResult> {
  const { from, to } = await resolveSweepMarket(request);
  const starts: number[] = [];
  for (let start = from; start + spec.train + spec.test <= to; start += spec.test) starts.push(start);
  if (starts.length === 0) {
    throw new InputError(`--walk-forward train=${durationText(spec.train)},test=${durationText(spec.test)} needs ${durationText(spec.train + spec.test)} of data; the window ${formatUtcMicros(from)} .. ${formatUtcMicros(to)} is shorter`);
  }
  const windows: WalkForwardWindow[] = [];
  const wantCurves = options.curves !== undefined;
  // One pool for every window: its threads stay warm from one training sweep to the next. The
  // test runs go to the pool too: the main thread replays nothing, so peak memory is the pool's.
  const pool = createSweepPool(Math.max(1, Math.min(options.workers ?? availableParallelism(), grid.length)));
  try {
    for (const [index, trainFrom] of starts.entries()) {
      const trainTo = trainFrom + spec.train;
      const testTo = trainTo + spec.test;
      const sweep = await runSweep({ ...request, from: trainFrom, to: trainTo }, grid, { pool, withCurves: wantCurves });
      let best: SweepRow | null = null;
      for (const row of sweep.rows) {
        if (isSweepFailure(row)) continue;
        const s = score(row, metric);
        const b = best === null ? null : score(best, metric);
        if (best === null || (s !== null && (b === null || s > b))) best = row;
      }
      if (best === null) throw new InputError(`walk-forward: every run failed on the training window ${formatUtcMicros(trainFrom)} .. ${formatUtcMicros(trainTo)}`);
      const test = await runInPool(pool, { ...request, from: trainTo, to: testTo, params: best.params, curve: true });
      if (isSweepFailure(test)) throw new Error(test.error);
      const window: WalkForwardWindow = {
        trainFrom: formatUtcMicros(trainFrom),
        trainTo: formatUtcMicros(trainTo),
        testFrom: formatUtcMicros(trainTo),
        testTo: formatUtcMicros(testTo),
        chosen: best.params,
        trainScore: metric === 'pnl' ? best.pnl : metric === 'vsHold' ? best.vsHold : score(best, metric),
        trainRuns: sweep.rows.length,
        test: { pnl: test.pnl, return: test.return, holdReturn: test.holdReturn, vsHold: test.vsHold, excessReturn: test.excessReturn, fills: test.fills, journalSha256: test.journalSha256 },
      };
      windows.push(window);
      if (options.curves !== undefined) options.curves.push({ train: (best as SweepRowWithCurve).curve, test: test.curve });
      options.onWindow?.(window, index, starts.length);
    }
  } finally {
    await pool.destroy();
  }
  const compound = (pick: (w: WalkForwardWindow) => number | null): number | null => {
    let growth = 1;
    for (const w of windows) {
      const r = pick(w);
      if (r === null) return null;
      growth *= 1 + r;
    }
    return round8(growth - 1);
  };
  const ret = compound((w) => w.test.return);
  const hold = compound((w) => w.test.holdReturn);
  const places = (windows[0]!.test.pnl.split('.')[1] ?? '').length;
  return {
    train: durationText(spec.train),
    test: durationText(spec.test),
    select: metric,
    windows,
    outOfSample: {
      from: windows[0]!.testFrom,
      to: windows.at(-1)!.testTo,
      pnl: windows.reduce((sum, w) => sum.add(w.test.pnl), new Decimal(0)).toFixed(places),
      vsHold: windows.reduce((sum, w) => sum.add(w.test.vsHold), new Decimal(0)).toFixed(places),
      return: ret,
      holdReturn: hold,
      excessReturn: ret === null || hold === null ? null : round8(ret - hold),
    },
  };
}

/** The windows as an aligned table, then the stitched line. */
export function walkForwardTable(result: WalkForwardResult): string[] {
  const header = ['test window (UTC)', 'chosen', `train ${result.select}`, 'test pnl', 'test return', 'excess vs hold', 'fills'];
  const rows = result.windows.map((w) => [
    `${w.testFrom.slice(0, 16)} .. ${w.testTo.slice(0, 16)}`,
    Object.entries(w.chosen).map(([k, v]) => `${k}=${v}`).join(',') || '(defaults)',
    String(w.trainScore ?? '-'),
    w.test.pnl,
    String(w.test.return ?? '-'),
    String(w.test.excessReturn ?? '-'),
    String(w.test.fills),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (row: readonly string[]) => row.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  const o = result.outOfSample;
  return [
    `walk-forward train=${result.train},test=${result.test}, chosen by ${result.select}: ${result.windows.length} windows`,
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    `out of sample ${o.from} .. ${o.to}: PnL ${o.pnl} (vs hold ${o.vsHold}), return ${o.return ?? '-'} compounded, holding ${o.holdReturn ?? '-'}, excess ${o.excessReturn ?? '-'}`,
  ];
}
