/**
 * What users run, end to end: `exsim backtest grid|trend` on a generated day of real size.
 *
 * Workload: one seeded synthetic BTCUSDT day of `dayTrades` trades (default 1.5M, about what
 * BTCUSDT spot prints in a day; `exsim data gen --trades-per-day N --seed 1`, written once into
 * a cache folder under the OS temp dir, not the repository). Each example strategy with its
 * default parameters is backtested over the whole day in a child process of its own: trades
 * read from the dump file, the strategy through the in-process REST client, the synthetic book
 * on, the default journal hash, the report folder written (into a temp folder, removed after).
 *
 * Rows `backtest/day/grid`, `backtest/day/trend` and `backtest/day/short` (the futures example:
 * shorts the BTCUSDT perpetual through /fapi; prints counts the spot and the derived perpetual
 * prints): prints, seconds (from reading the data to
 * the report written, in the child), printsPerSec, peakRssMB (the child's maxRSS), plus
 * processSeconds (the child's whole life, tsx start-up included). Row `backtest/day/trend-journal`:
 * the trend run again with the full journal file (`--journal`; target: at most 1.5x the trend row). Row
 * `backtest/day/trend-process`: `exsim backtest trend --data DAY` as a user runs it (bin/exsim.js,
 * no --out), wall seconds and peak RSS of the whole process.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { genCommand } from '../../src/cli/data-commands.ts';

export const DEFAULT_DAY_TRADES = 1_500_000;

export interface BacktestBenchRow {
  readonly name: string;
  readonly prints: number;
  readonly seconds: number;
  readonly printsPerSec: number;
  readonly peakRssMB: number;
  readonly processSeconds: number;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// `short` trades the USDⓈ-M perpetual (its prints derived from the day's spot tape, so the replay
// reads twice the prints, a mark each second and funding): the futures day end to end (issue 28).
const EXAMPLES = ['grid', 'trend', 'short'] as const;

/** The generated day, cached by trade count and seed (generating 1.5M trades takes ~10 s). */
export async function benchDay(dayTrades: number, seed: number, log: (m: string) => void): Promise<string> {
  const dir = join(tmpdir(), 'exsim-bench', `day-${dayTrades}-seed${seed}`);
  if (existsSync(dir)) return dir;
  log(`backtest: generating a day of ${dayTrades.toLocaleString('en-US')} trades into ${dir}...`);
  mkdirSync(dirname(dir), { recursive: true });
  const staging = mkdtempSync(`${dir}.staging-`);
  await genCommand({
    out: staging, symbol: 'BTCUSDT', from: '2024-01-01', days: '1', seed: String(seed), price: '42000',
    tradesPerDay: String(dayTrades), volatility: '0.025', tick: '0.01', step: '0.00001', medianQty: '0.0008',
    klines: '', aggTrades: false, csv: false,
  });
  renameSync(staging, dir);
  return dir;
}

function runChild(args: readonly string[]): { stdout: string; stderr: string; seconds: number } {
  const started = performance.now(); // determinism-ok: a bench's stopwatch
  const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - started) / 1000; // determinism-ok: as above
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  return { stdout: run.stdout, stderr: run.stderr, seconds };
}

export async function runBacktestBench(options: { dayTrades: number; seed: number; log: (m: string) => void }): Promise<BacktestBenchRow[]> {
  const day = await benchDay(options.dayTrades, options.seed, options.log);
  const rows: BacktestBenchRow[] = [];
  for (const strategy of EXAMPLES) {
    const out = mkdtempSync(join(tmpdir(), `exsim-bench-${strategy}-`));
    try {
      options.log(`backtest: ${strategy} on the day...`);
      const child = runChild(['--import', 'tsx', join(ROOT, 'bench/backtest/backtest-child.ts'), strategy, day, out]);
      const r = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { prints: number; seconds: number; peakRssMB: number };
      rows.push({ name: `backtest/day/${strategy}`, prints: r.prints, seconds: r.seconds, printsPerSec: r.prints / r.seconds, peakRssMB: r.peakRssMB, processSeconds: child.seconds });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
  const out = mkdtempSync(join(tmpdir(), 'exsim-bench-trend-journal-'));
  try {
    options.log('backtest: trend on the day with --journal...');
    const child = runChild(['--import', 'tsx', join(ROOT, 'bench/backtest/backtest-child.ts'), 'trend', day, out, '-', 'journal']);
    const r = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { prints: number; seconds: number; peakRssMB: number };
    rows.push({ name: 'backtest/day/trend-journal', prints: r.prints, seconds: r.seconds, printsPerSec: r.prints / r.seconds, peakRssMB: r.peakRssMB, processSeconds: child.seconds });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  options.log('backtest: exsim backtest trend --data DAY as a whole process...');
  const cli = runChild(['--require', join(ROOT, 'bench/backtest/report-peak-rss.cjs'), join(ROOT, 'bin/exsim.js'), 'backtest', 'trend', '--data', day, '--json']);
  const prints = (JSON.parse(cli.stdout.trim().split('\n').at(-1)!) as { replay: { prints: number } }).replay.prints;
  const rssKb = Number(/exsim-peak-rss-kb (\d+)/.exec(cli.stderr)?.[1] ?? NaN);
  rows.push({ name: 'backtest/day/trend-process', prints, seconds: cli.seconds, printsPerSec: prints / cli.seconds, peakRssMB: rssKb / 1024, processSeconds: cli.seconds });
  return rows;
}

export function backtestTable(rows: readonly BacktestBenchRow[], dayTrades: number): string {
  const header = ['row', 'prints', 'seconds', 'prints/s', 'peak RSS MB', 'process s'];
  const cells = rows.map((r) => [r.name, r.prints.toLocaleString('en-US'), r.seconds.toFixed(2), Math.round(r.printsPerSec).toLocaleString('en-US'), r.peakRssMB.toFixed(0), r.processSeconds.toFixed(2)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => c.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  ');
  return [`backtests end to end on a generated day of ${dayTrades.toLocaleString('en-US')} trades (examples with default parameters, report written; trend-process: the whole CLI, no --out)`, line(header), ...cells.map(line)].join('\n');
}

export function backtestJsonLines(rows: readonly BacktestBenchRow[]): string[] {
  return rows.map((r) =>
    JSON.stringify({
      name: r.name,
      prints: r.prints,
      seconds: Number(r.seconds.toFixed(3)),
      printsPerSec: Math.round(r.printsPerSec),
      peakRssMB: Math.round(r.peakRssMB),
      processSeconds: Number(r.processSeconds.toFixed(3)),
    }),
  );
}
