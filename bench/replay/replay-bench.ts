/**
 * Replay bench: tape trades per second through the whole backtest step loop (src/sim Replay:
 * tape merge, scheduler, fill model, engine RecordMarketTrade/FillFromMarket, MarketHistory
 * ingest), beside the raw parse rate of the same dump file with csv-parse alone, in one run.
 *
 * Workloads
 * - csv-parse: the bundled BTCUSDT sample day (data/sample, ~62k trades, one .zip) unzipped
 *   (the loaders' own openDumpFile) and parsed by csv-parse into string arrays, nothing else:
 *   the floor any CSV-based replay starts from.
 * - sample/file: the same file streamed by readTrades (exsim's loader) into a Replay. The loader
 *   is in the timed part.
 * - memory/<N>: a seeded synthetic BTCUSDT tape of ~N trades (default 2,000,000, one day, the
 *   sample's generator and grid) generated into TradeBatches before timing, replayed from memory.
 *   This is the DESIGN.md target (>= 2,000,000 trades/s without strategy, in-memory tape).
 * Each with no strategy (no resting order: every print is one comparison + RecordMarketTrade +
 * history) and with a quoting strategy: every 100 prints it cancels its two resting orders and
 * re-quotes a bid and an ask one tick either side of the print, under the risk-averse queue
 * model (queue estimates, FIFO consumption, market fills, book mirror refreshes).
 *
 * Measurement: `runs` passes per row (median reported), each on a fresh Replay after a GC, wall
 * time around the whole run; journal off (null) in the throughput rows, since journaling every
 * print is a choice of the caller (a JournalHasher row shows its cost on the sample). RSS is
 * read after each row.
 */
import { parse } from 'csv-parse';
import { generateTradeBatches, loadSample, readTrades } from '../../src/data/index.ts';
import type { TradeBatch } from '../../src/data/tape.ts';
import { openDumpFile } from '../../src/data/open-dump-file.ts';
import { SAMPLE_SPECS } from '../../src/data/synthetic/sample-spec.ts';
import { collectGarbage } from '../matching-core/measure.ts';
import { runMemoryFlatness, type MemoryFlatnessResult } from './memory-flatness.ts';
import { SAMPLE_CONFIG } from '../../src/sample/sample-market.ts';
import { JournalHasher, queuePosition, Replay, type JournalSink, type TapeSource } from '../../src/sim/index.ts';

export const REPLAY_BENCH_NAME = 'replay';
export const TARGET_TRADES_PER_SEC = 2_000_000;
/** The memory row: 30 streamed days (DESIGN.md: a 30-day replay under 1 GB RSS). */
const MEMORY_DAYS = 30;
const MEMORY_TRADES_PER_DAY = 100_000;
const MEMORY_TARGET_MB = 1024;

export interface ReplayBenchOptions {
  trades: number;
  seed: number;
  runs: number;
  log: (message: string) => void;
}

export interface ReplayRow {
  name: string;
  source: 'file' | 'memory';
  strategy: 'none' | 'quoting';
  journal: 'none' | 'hash';
  trades: number;
  tradesPerSec: number;
  runsTradesPerSec: number[];
  marketFills: number;
  /** Strategy commands applied. */
  commands: number;
  rssMB: number;
}

export interface ReplayBenchResult {
  seed: number;
  runs: number;
  csvParse: { trades: number; tradesPerSec: number; runsTradesPerSec: number[] };
  rows: ReplayRow[];
  generateSeconds: number;
  memory: MemoryFlatnessResult;
}

const now = (): number => Number(process.hrtime.bigint()) / 1e9;
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function csvParseRate(path: string): Promise<number> {
  const file = await openDumpFile(path);
  const parser = parse({ relax_column_count: true });
  let rows = 0;
  const done = (async () => {
    for await (const _record of parser) rows++;
  })();
  for await (const chunk of file.chunks) {
    if (!parser.write(chunk)) await new Promise((resolve) => parser.once('drain', resolve));
  }
  parser.end();
  await done;
  return rows;
}

/** Runs one replay; returns [trades, market fills, strategy commands]. */
async function replayOnce(tape: () => TapeSource, quoting: boolean, journal: JournalSink | null, startTime: number): Promise<[number, number, number]> {
  const replay = new Replay({ engine: SAMPLE_CONFIG, tapes: [{ symbol: 'BTCUSDT', trades: tape() }], fillModel: queuePosition(), seed: 1, startTime, journal });
  let commands = 0;
  if (quoting) {
    replay.apply({ type: 'CreateAccount', accountId: 1, balances: { BTC: 1e12, USDT: 1e15 } });
    const tick = 1_000_000;
    let bid = 0;
    let ask = 0;
    let count = 0;
    replay.onTrade((trade, r) => {
      if (++count % 100 !== 0) return;
      // A cancel of an order the market filled meanwhile is refused (UNKNOWN_ORDER): harmless here.
      if (bid !== 0) r.apply({ type: 'CancelOrder', accountId: 1, symbol: 'BTCUSDT', orderId: bid });
      if (ask !== 0) r.apply({ type: 'CancelOrder', accountId: 1, symbol: 'BTCUSDT', orderId: ask });
      commands += (bid !== 0 ? 1 : 0) + (ask !== 0 ? 1 : 0) + 2;
      const b = r.apply({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: trade.price - tick, quantity: 100_000 });
      const a = r.apply({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: trade.price + tick, quantity: 100_000 });
      bid = b[0]?.type === 'OrderAccepted' ? b[0].orderId : 0;
      ask = a[0]?.type === 'OrderAccepted' ? a[0].orderId : 0;
    });
  }
  await replay.runToEnd();
  return [replay.stats.tapeTrades, replay.stats.marketFills, commands];
}

async function measureRow(
  name: string,
  source: ReplayRow['source'],
  strategy: ReplayRow['strategy'],
  journalKind: ReplayRow['journal'],
  tape: () => TapeSource,
  startTime: number,
  runs: number,
): Promise<ReplayRow> {
  const rates: number[] = [];
  let last: [number, number, number] = [0, 0, 0];
  for (let run = 0; run < runs; run++) {
    collectGarbage();
    const t0 = now();
    last = await replayOnce(tape, strategy === 'quoting', journalKind === 'hash' ? new JournalHasher() : null, startTime);
    rates.push(last[0] / (now() - t0));
  }
  return {
    name,
    source,
    strategy,
    journal: journalKind,
    trades: last[0],
    tradesPerSec: median(rates),
    runsTradesPerSec: rates,
    marketFills: last[1],
    commands: last[2],
    rssMB: process.memoryUsage().rss / 2 ** 20,
  };
}

export async function runReplayBench(options: ReplayBenchOptions): Promise<ReplayBenchResult> {
  const { runs, log } = options;
  const sample = loadSample('BTCUSDT');
  const file = sample.trades[0]!;
  log('replay: csv-parse alone on the sample file');
  const csvRates: number[] = [];
  let csvRows = 0;
  for (let run = 0; run < runs; run++) {
    collectGarbage();
    const t0 = now();
    csvRows = await csvParseRate(file);
    csvRates.push(csvRows / (now() - t0));
  }
  const rows: ReplayRow[] = [];
  const fromFile = () => readTrades(sample.trades, { scale: sample.scale });
  log('replay: sample file, no strategy / quoting / hashed journal');
  rows.push(await measureRow('sample/file', 'file', 'none', 'none', fromFile, sample.startTime, runs));
  rows.push(await measureRow('sample/file', 'file', 'quoting', 'none', fromFile, sample.startTime, runs));
  rows.push(await measureRow('sample/file', 'file', 'none', 'hash', fromFile, sample.startTime, runs));

  log(`replay: generating ~${options.trades.toLocaleString('en-US')} synthetic trades in memory`);
  const g0 = now();
  const spec = { ...SAMPLE_SPECS[0]!, seed: `replay-bench-${options.seed}`, tradesPerDay: options.trades };
  const batches: TradeBatch[] = [...generateTradeBatches(spec)];
  const generateSeconds = now() - g0;
  const inMemory = () => batches;
  const label = `memory/${batches.reduce((n, b) => n + b.length, 0)}`;
  log('replay: in-memory tape, no strategy / quoting');
  rows.push(await measureRow(label, 'memory', 'none', 'none', inMemory, spec.startTime, runs));
  rows.push(await measureRow(label, 'memory', 'quoting', 'none', inMemory, spec.startTime, runs));
  batches.length = 0; // let the in-memory tape go before measuring memory over a long replay
  log(`replay: memory over ${MEMORY_DAYS} streamed days`);
  const memory = await runMemoryFlatness(MEMORY_DAYS, MEMORY_TRADES_PER_DAY, options.seed);
  return { seed: options.seed, runs, csvParse: { trades: csvRows, tradesPerSec: median(csvRates), runsTradesPerSec: csvRates }, rows, generateSeconds, memory };
}

const round = (x: number, digits: number): number => Number(x.toFixed(digits));

/** One JSON object per row; field names are a contract (add, do not rename). */
export function replayJsonLines(r: ReplayBenchResult): string[] {
  const common = { seed: r.seed, runs: r.runs, node: process.version, nodeFlags: process.execArgv.filter((a) => a.startsWith('--max')) };
  const lines = [
    JSON.stringify({ name: `${REPLAY_BENCH_NAME}/csv-parse`, tradesPerSec: Math.round(r.csvParse.tradesPerSec), trades: r.csvParse.trades, runsTradesPerSec: r.csvParse.runsTradesPerSec.map(Math.round), ...common }),
  ];
  for (const row of r.rows) {
    lines.push(
      JSON.stringify({
        name: `${REPLAY_BENCH_NAME}/${row.name}/${row.strategy}${row.journal === 'hash' ? '/journal-hash' : ''}`,
        tradesPerSec: Math.round(row.tradesPerSec),
        trades: row.trades,
        strategy: row.strategy,
        journal: row.journal,
        source: row.source,
        ratioToCsvParse: round(row.tradesPerSec / r.csvParse.tradesPerSec, 3),
        marketFills: row.marketFills,
        strategyCommands: row.commands,
        rssMB: round(row.rssMB, 0),
        runsTradesPerSec: row.runsTradesPerSec.map(Math.round),
        targetTradesPerSec: row.source === 'memory' && row.strategy === 'none' ? TARGET_TRADES_PER_SEC : null,
        ...common,
      }),
    );
  }
  const m = r.memory;
  lines.push(
    JSON.stringify({
      name: `${REPLAY_BENCH_NAME}/memory/${m.days}d`,
      days: m.days,
      tradesPerDay: m.tradesPerDay,
      trades: m.trades,
      seconds: round(m.seconds, 2),
      maxRssMB: round(m.maxRssMB, 0),
      heapGrowthMB: m.heapGrowthMB === null ? null : round(m.heapGrowthMB, 1),
      readings: m.readings.map((x) => ({ day: x.day, trades: x.trades, rssMB: round(x.rssMB, 0), heapMB: x.heapMB === null ? null : round(x.heapMB, 1) })),
      targetMaxRssMB: MEMORY_TARGET_MB,
      ...common,
    }),
  );
  return lines;
}

export function replayTable(r: ReplayBenchResult): string {
  const int = (x: number): string => Math.round(x).toLocaleString('en-US');
  const flags = process.execArgv.filter((a) => a.startsWith('--max')).join(' ');
  const lines: string[] = [];
  lines.push(`${REPLAY_BENCH_NAME}  node ${process.version}${flags ? ` (${flags})` : ''}, ${r.runs} run(s) per row (median shown), fill model queue-risk-averse, BTCUSDT sample market`);
  lines.push(`csv-parse alone on the sample file: ${int(r.csvParse.tradesPerSec)} rows/s (${int(r.csvParse.trades)} rows)`);
  lines.push('');
  const header = ['tape', 'strategy', 'journal', 'trades', 'trades/s', 'x csv-parse', 'fills', 'cmds', 'RSS MB', 'runs trades/s'];
  const rows = r.rows.map((row) => [
    row.name,
    row.strategy,
    row.journal,
    int(row.trades),
    int(row.tradesPerSec),
    `${(row.tradesPerSec / r.csvParse.tradesPerSec).toFixed(2)}x`,
    int(row.marketFills),
    int(row.commands),
    row.rssMB.toFixed(0),
    row.runsTradesPerSec.map(int).join(' / '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const fmt = (cells: readonly string[]): string => cells.map((c, i) => (i <= 2 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  lines.push(fmt(header));
  lines.push(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) lines.push(fmt(row));
  const target = r.rows.find((row) => row.source === 'memory' && row.strategy === 'none');
  if (target) {
    lines.push('');
    lines.push(`in-memory, no strategy: ${int(target.tradesPerSec)} trades/s (target >= ${int(TARGET_TRADES_PER_SEC)}: ${target.tradesPerSec >= TARGET_TRADES_PER_SEC ? 'met' : 'NOT met'})`);
  }
  lines.push(`(${r.generateSeconds.toFixed(1)} s generating the in-memory tape)`);
  const m = r.memory;
  const readings = m.readings.map((x) => `day ${x.day}: ${x.rssMB.toFixed(0)} MB RSS${x.heapMB === null ? '' : `, ${x.heapMB.toFixed(0)} MB heap`}`).join('; ');
  lines.push('');
  lines.push(`memory over ${m.days} streamed days (${int(m.trades)} trades, ${m.seconds.toFixed(1)} s): ${readings}`);
  lines.push(
    `max RSS ${m.maxRssMB.toFixed(0)} MB (target < ${MEMORY_TARGET_MB}: ${m.maxRssMB < MEMORY_TARGET_MB ? 'met' : 'NOT met'})` +
      (m.heapGrowthMB === null ? '' : `, heap growth day 1 -> day ${m.days}: ${m.heapGrowthMB.toFixed(1)} MB`),
  );
  return lines.join('\n');
}
