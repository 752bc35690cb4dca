/**
 * Recorded order books (L2), what users run and the core under it, on a generated BTCUSDT day
 * (`exsim data gen --l2`: a snapshot, then ~20M level updates in 100 ms messages, and 1.5M trades,
 * each at the touch of the book before it), written once as Tardis files into the temp folder:
 *
 * - `backtest/l2-day`: `exsim backtest grid --data DAY --json` as a whole process (start-up, both
 *   files unzipped and parsed, the depth on a worker thread, the replay, the grid's requests, the
 *   summary): events (prints + depth updates) per second of the process, peak RSS. Targets
 *   (DESIGN.md, issue 23): >= 2M events/s, <= 20 s, <= 1 GB.
 * - `replay/l2-book`: the book rebuild alone, the day's first `--l2-rows` depth rows (default 5M)
 *   parsed into memory first, then applied message by message to a fresh engine's recorded book
 *   (SetDepthBook + ApplyDepth: checks, grid conversion, level updates, crossed-message repair),
 *   three passes, the median reported (the first pass runs cold: the JIT warms up on it).
 *   Target >= 10M updates/s.
 * - `replay/l2-replay`: the same rows and the trades of that stretch through a Replay from memory
 *   (merge, clock, depth messages, prints, history), no strategy: what the replay adds.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openMarketData, windowedDepth, windowedTape, writeSyntheticL2Days, type DepthBatch, type TradeBatch } from '../../src/data/index.ts';
import { Engine } from '../../src/engine/index.ts';
import { queuePosition, Replay } from '../../src/sim/index.ts';
import { DEPTH_ASK, DEPTH_CLEAR, DEPTH_MESSAGE_START } from '../../src/data/depth-tape.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DAY = Date.UTC(2024, 0, 1) * 1000;
export const DEFAULT_L2_DEPTH_ROWS = 20_000_000;
export const DEFAULT_L2_TRADES = 1_500_000;
export const DEFAULT_L2_BOOK_ROWS = 5_000_000;

export interface L2Row {
  readonly name: string;
  readonly events: number;
  readonly seconds: number;
  readonly eventsPerSec: number;
  readonly peakRssMB: number | null;
  readonly target: string;
}

/** The generated L2 day, cached by its size and seed (generating 20M rows takes ~30-50 s). */
export async function l2Day(depthRows: number, trades: number, seed: number, log: (m: string) => void): Promise<string> {
  const dir = join(tmpdir(), 'exsim-bench', `l2-day-${depthRows}-${trades}-seed${seed}`);
  if (existsSync(dir)) return dir;
  log(`l2: generating an L2 day (${depthRows.toLocaleString('en-US')} depth rows, ${trades.toLocaleString('en-US')} trades) into ${dir}...`);
  mkdirSync(dirname(dir), { recursive: true });
  const staging = mkdtempSync(`${dir}.staging-`);
  const units = (d: number) => Math.round(d * 1e8);
  await writeSyntheticL2Days(staging, {
    symbol: 'BTCUSDT', seed, scale: { quotePrecision: 8, basePrecision: 8 }, tickSize: units(0.01), stepSize: units(0.00001), startPrice: units(42_000),
    startTime: DAY, endTime: DAY + 86_400_000_000, tradesPerDay: trades, depthRowsPerDay: depthRows, dailyVolatility: 0.025, medianQty: units(0.0008), firstTradeId: 3_000_000_000,
  });
  renameSync(staging, dir);
  return dir;
}

export async function runL2Bench(options: { depthRows: number; trades: number; bookRows: number; seed: number; log: (m: string) => void }): Promise<L2Row[]> {
  const day = await l2Day(options.depthRows, options.trades, options.seed, options.log);
  const rows: L2Row[] = [];
  options.log('l2: exsim backtest grid on the day as a whole process...');
  const started = performance.now(); // determinism-ok: a bench's stopwatch
  const run = spawnSync(process.execPath, ['--require', join(ROOT, 'bench/backtest/report-peak-rss.cjs'), join(ROOT, 'bin/exsim.js'), 'backtest', 'grid', '--data', day, '--json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - started) / 1000; // determinism-ok: as above
  if (run.status !== 0) throw new Error(`exsim backtest grid --data ${day} failed: ${run.stderr}`);
  const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { replay: { prints: number; depthUpdates: number } };
  const events = summary.replay.prints + summary.replay.depthUpdates;
  const rssKb = Number(/exsim-peak-rss-kb (\d+)/.exec(run.stderr)?.[1] ?? NaN);
  rows.push({ name: 'backtest/l2-day', events, seconds, eventsPerSec: events / seconds, peakRssMB: rssKb / 1024, target: '>= 2M events/s, <= 20 s, <= 1 GB' });

  options.log(`l2: reading the day's first ${options.bookRows.toLocaleString('en-US')} depth rows into memory...`);
  const data = openMarketData(day);
  const batches: DepthBatch[] = [];
  let read = 0;
  for await (const batch of (await windowedDepth(data, 'BTCUSDT', DAY, DAY + 86_400_000_000))!.open()) {
    batches.push(batch);
    read += batch.length;
    if (read >= options.bookRows) break;
  }
  const last = batches.at(-1)!;
  const until = last.time[last.length - 1]! + 1;
  const messages = toMessages(batches);
  options.log('l2: the book rebuild alone (3 passes)...');
  const passes: number[] = [];
  for (let pass = 0; pass < 3; pass++) {
    const engine = new Engine(data.config);
    engine.apply({ type: 'SetDepthBook', time: DAY, symbol: 'BTCUSDT', mode: 'recorded' });
    const started = performance.now(); // determinism-ok: as above
    for (const m of messages) engine.apply({ type: 'ApplyDepth', time: Math.max(DAY, m.time), symbol: 'BTCUSDT', clear: m.clear, bids: m.bids, asks: m.asks });
    passes.push((performance.now() - started) / 1000); // determinism-ok: as above
  }
  const median = [...passes].sort((a, b) => a - b)[1]!;
  rows.push({ name: 'replay/l2-book', events: read, seconds: median, eventsPerSec: read / median, peakRssMB: null, target: '>= 10M updates/s' });
  let t: number;
  let s: number;

  options.log('l2: the replay from memory (depth and trades, no strategy)...');
  const trades: TradeBatch[] = [];
  let prints = 0;
  for await (const batch of (await windowedTape(data, 'BTCUSDT', DAY, until)).trades) {
    trades.push(batch as TradeBatch);
    prints += (batch as TradeBatch).length;
  }
  const replay = new Replay({ engine: data.config, tapes: [{ symbol: 'BTCUSDT', trades, depth: batches, keepTradeIds: true }], fillModel: queuePosition(), seed: '1', startTime: DAY, journal: null });
  t = performance.now(); // determinism-ok: as above
  await replay.runToEnd();
  s = (performance.now() - t) / 1000; // determinism-ok: as above
  rows.push({ name: 'replay/l2-replay', events: read + prints, seconds: s, eventsPerSec: (read + prints) / s, peakRssMB: null, target: '-' });
  return rows;
}

/** Batches as the messages the replay makes of them ([price, qty, ...] per side). */
function toMessages(batches: readonly DepthBatch[]): { time: number; clear: boolean; bids: number[]; asks: number[] }[] {
  const out: { time: number; clear: boolean; bids: number[]; asks: number[] }[] = [];
  for (const b of batches) {
    for (let i = 0; i < b.length; i++) {
      const flags = b.flags[i]!;
      if ((flags & DEPTH_MESSAGE_START) !== 0) out.push({ time: b.time[i]!, clear: (flags & DEPTH_CLEAR) !== 0, bids: [], asks: [] });
      const m = out[out.length - 1]!;
      ((flags & DEPTH_ASK) !== 0 ? m.asks : m.bids).push(b.price[i]!, b.qty[i]!);
    }
  }
  return out;
}

export function l2Table(rows: readonly L2Row[]): string {
  const header = ['row', 'events', 'seconds', 'events/s', 'peak RSS MB', 'target'];
  const cells = rows.map((r) => [r.name, r.events.toLocaleString('en-US'), r.seconds.toFixed(2), Math.round(r.eventsPerSec).toLocaleString('en-US'), r.peakRssMB === null ? '-' : r.peakRssMB.toFixed(0), r.target]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => c.map((x, i) => (i === 0 || i === 5 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  ');
  return ['recorded order books (L2) on a generated BTCUSDT day: backtest/l2-day is the whole process (grid example), the replay rows run from memory', line(header), ...cells.map(line)].join('\n');
}

export function l2JsonLines(rows: readonly L2Row[]): string[] {
  return rows.map((r) => JSON.stringify({ name: r.name, events: r.events, seconds: Number(r.seconds.toFixed(3)), eventsPerSec: Math.round(r.eventsPerSec), peakRssMB: r.peakRssMB === null ? null : Math.round(r.peakRssMB) }));
}
