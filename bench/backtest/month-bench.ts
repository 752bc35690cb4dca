/**
 * The headline: `exsim backtest trend` over a generated month, as a whole process.
 *
 * Workload: 30 seeded synthetic BTCUSDT days of `dayTrades` trades each (default 1.5M, ~45M
 * prints; `exsim data gen --days 30 --trades-per-day N --seed 1`, written once into a cache folder
 * under the OS temp dir, ~6 min the first time). The columnar tape cache lives in its own folder
 * beside it (EXSIM_CACHE_DIR): the first run over the month builds it (not measured unless it is
 * the first time; then it is its own row, `backtest/month/trend-first`), every measured run reads
 * it, as a user's second run does.
 *
 * Rows:
 * - `backtest/month/trend`: `exsim backtest trend --data MONTH --json` (bin/exsim.js, no --out):
 *   wall seconds of the whole process (tsx start-up included), prints, prints/s, peak RSS (target:
 *   <= 30 s, <= 1 GB);
 * - `backtest/month/day-loop`: the month's first day alone in a child (bench/backtest/backtest-child.ts:
 *   the same run, report folder written), seconds from opening the data to the report, so
 *   start-up is not in it: the loop's prints/s (target >= 1.5M).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { genCommand } from '../../src/cli/data-commands.ts';

export const MONTH_DAYS = 30;

export interface MonthBenchRow {
  readonly name: string;
  readonly prints: number;
  readonly seconds: number;
  readonly printsPerSec: number;
  readonly peakRssMB: number;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The generated month, cached by days, trade count and seed. */
export async function benchMonth(days: number, dayTrades: number, seed: number, log: (m: string) => void): Promise<string> {
  const dir = join(tmpdir(), 'exsim-bench', `month-${days}x${dayTrades}-seed${seed}`);
  if (existsSync(dir)) return dir;
  log(`month: generating ${days} days of ${dayTrades.toLocaleString('en-US')} trades into ${dir} (once, minutes)...`);
  mkdirSync(dirname(dir), { recursive: true });
  const staging = mkdtempSync(`${dir}.staging-`);
  await genCommand({
    out: staging, symbol: 'BTCUSDT', from: '2024-01-01', days: String(days), seed: String(seed), price: '42000',
    tradesPerDay: String(dayTrades), volatility: '0.025', tick: '0.01', step: '0.00001', medianQty: '0.0008',
    klines: '', aggTrades: false, csv: false,
  });
  renameSync(staging, dir);
  return dir;
}

function runChild(args: readonly string[], env: NodeJS.ProcessEnv): { stdout: string; stderr: string; seconds: number } {
  const started = performance.now(); // determinism-ok: a bench's stopwatch
  const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env });
  const seconds = (performance.now() - started) / 1000; // determinism-ok: as above
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  return { stdout: run.stdout, stderr: run.stderr, seconds };
}

export async function runMonthBench(options: { days: number; dayTrades: number; seed: number; log: (m: string) => void }): Promise<MonthBenchRow[]> {
  const month = await benchMonth(options.days, options.dayTrades, options.seed, options.log);
  const cacheDir = join(tmpdir(), 'exsim-bench', 'cache');
  const env: NodeJS.ProcessEnv = { ...process.env, EXSIM_CACHE_DIR: cacheDir };
  delete env['EXSIM_TAPE_CACHE'];
  const rows: MonthBenchRow[] = [];
  const wholeRun = (name: string): MonthBenchRow => {
    const cli = runChild(['--require', join(ROOT, 'bench/backtest/report-peak-rss.cjs'), join(ROOT, 'bin/exsim.js'), 'backtest', 'trend', '--data', month, '--json'], env);
    const prints = (JSON.parse(cli.stdout.trim().split('\n').at(-1)!) as { replay: { prints: number } }).replay.prints;
    const rssKb = Number(/exsim-peak-rss-kb (\d+)/.exec(cli.stderr)?.[1] ?? NaN);
    return { name, prints, seconds: cli.seconds, printsPerSec: prints / cli.seconds, peakRssMB: rssKb / 1024 };
  };
  if (!existsSync(join(cacheDir, 'tapes'))) {
    options.log('month: the first run (it builds the columnar cache)...');
    rows.push(wholeRun('backtest/month/trend-first'));
  }
  options.log('month: exsim backtest trend --data MONTH as a whole process...');
  rows.push(wholeRun('backtest/month/trend'));
  const out = mkdtempSync(join(tmpdir(), 'exsim-bench-month-day-'));
  try {
    options.log("month: the month's first day in the loop...");
    const child = runChild(['--import', 'tsx', join(ROOT, 'bench/backtest/backtest-child.ts'), 'trend', month, out, '2024-01-02'], env);
    const r = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { prints: number; seconds: number; peakRssMB: number };
    rows.push({ name: 'backtest/month/day-loop', prints: r.prints, seconds: r.seconds, printsPerSec: r.prints / r.seconds, peakRssMB: r.peakRssMB });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return rows;
}

export function monthTable(rows: readonly MonthBenchRow[], days: number, dayTrades: number): string {
  const header = ['row', 'prints', 'seconds', 'prints/s', 'peak RSS MB'];
  const cells = rows.map((r) => [r.name, r.prints.toLocaleString('en-US'), r.seconds.toFixed(2), Math.round(r.printsPerSec).toLocaleString('en-US'), r.peakRssMB.toFixed(0)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => c.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  ');
  return [
    `exsim backtest trend over ${days} generated days of ${dayTrades.toLocaleString('en-US')} trades, whole process, columnar cache built (targets: <= 30 s, <= 1 GB; the day's loop >= 1.5M prints/s)`,
    line(header),
    ...cells.map(line),
  ].join('\n');
}

export function monthJsonLines(rows: readonly MonthBenchRow[]): string[] {
  return rows.map((r) => JSON.stringify({ name: r.name, prints: r.prints, seconds: Number(r.seconds.toFixed(3)), printsPerSec: Math.round(r.printsPerSec), peakRssMB: Math.round(r.peakRssMB) }));
}
