/**
 * `npm run bench [-- --json | --write [--results FILE]] [--only backtest|matching-core|conditional-mix|replay|facade|sweep|ws-api] [--ops N] [--trades N] [--day-trades N] [--seed N] [--runs N] [--requests N] [--duration S]`:
 * runs every bench (the backtest of a real-size day end to end, the matching core, the conditional mix, the replay, then the API facade in-process and over HTTP, the serve benches, and the WebSocket API order round trip against REST's). Human table by default, progress on stderr; with --json this program writes
 * nothing but one JSON object per result line to stdout (use `npm run -s bench -- --json` so npm
 * does not add its own banner lines), so it can be piped into a tracker. With --write the tables
 * also go into bench/RESULTS.md (or --results FILE), one dated section per bench with the machine
 * and its load (results-file.ts): the one place figures are kept.
 */
import { parseArgs } from 'node:util';
import { runMatchingCoreBench } from './matching-core/matching-core-bench.ts';
import { jsonLines, table } from './matching-core/report.ts';
import { conditionalMixJsonLine, conditionalMixTable, runConditionalMixBench } from './matching-core/conditional-mix-bench.ts';
import { replayJsonLines, replayTable, runReplayBench } from './replay/replay-bench.ts';
import { DEFAULT_DURATION_SECONDS, DEFAULT_REQUESTS, FACADE_BENCHES, runFacadeBenches } from './facade/facade-bench.ts';
import { runSweepBench, sweepJsonLine, sweepTable } from './sweep/sweep-bench.ts';
import { runSweepQueueBench, sweepQueueJsonLines, sweepQueueTable } from './sweep/sweep-queue-bench.ts';
import { DEFAULT_IDLE_STREAMS, DEFAULT_RESTART_COMMANDS, restartTable, runServeBenches, SERVE_BENCHES, serveJsonLines, serveTable } from './serve/serve-bench.ts';
import { slowReadersTable } from './serve/slow-readers-bench.ts';
import { DEFAULT_SUBSCRIBERS, fanoutJsonLine, fanoutTable, runFanoutBench } from './streams/fanout-bench.ts';
import { backtestJsonLines, backtestTable, DEFAULT_DAY_TRADES, runBacktestBench } from './backtest/backtest-bench.ts';
import { DEFAULT_ROUND_TRIPS, runWsApiBench, WS_API_BENCHES, wsApiJsonLines, wsApiTable } from './ws-api/ws-api-bench.ts';
import { measured, RESULTS_FILE, writeResults, type ResultSection } from './results-file.ts';
import { liveMarketJsonLine, liveMarketTable, runLiveMarketBench } from './serve/live-market-bench.ts';
import { MONTH_DAYS, monthJsonLines, monthTable, runMonthBench } from './backtest/month-bench.ts';
import { DEFAULT_L2_BOOK_ROWS, DEFAULT_L2_DEPTH_ROWS, DEFAULT_L2_TRADES, l2JsonLines, l2Table, runL2Bench } from './l2/l2-bench.ts';

const BENCHES = ['backtest', 'l2', 'live-market', 'matching-core', 'conditional-mix', 'replay', 'facade', ...FACADE_BENCHES, 'sweep', 'sweep-queue', 'serve', ...SERVE_BENCHES, 'streams', ...WS_API_BENCHES, 'month'] as const;
const USAGE =
  'usage: npm run bench -- [--json | --write [--results FILE]] [--only backtest|month|l2|live-market|matching-core|conditional-mix|replay|facade|facade-inprocess|facade-http|sweep|sweep-queue|serve|serve-idle-streams|serve-journal|serve-journal-restart|serve-slow-readers|streams|ws-api] [--ops N (default 1000000; conditional-mix: the exchange-core-mix ops, its conditional ops come on top)] [--trades N (replay, default 2000000)] [--day-trades N (backtest, default 1500000)] [--seed N (default 1)] [--runs N (default 3)]' +
  ` [--requests N (facade in-process, per pass, default ${DEFAULT_REQUESTS})] [--duration S (facade HTTP, per row, default ${DEFAULT_DURATION_SECONDS})] [--hours N (sweep, sweep-queue, default 6)] [--streams N (serve-idle-streams, default ${DEFAULT_IDLE_STREAMS})] [--subscribers N (streams, default ${DEFAULT_SUBSCRIBERS})] [--round-trips N (ws-api, per pass, default ${DEFAULT_ROUND_TRIPS})] [--commands N (serve-journal-restart, default ${DEFAULT_RESTART_COMMANDS})] [--l2-rows N (l2: the book rebuild's depth rows, default ${DEFAULT_L2_BOOK_ROWS})]`;

/** A bad command line: reported as a message, not a stack trace. */
class UsageError extends Error {}

function positiveInt(name: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const n = Number(text.replace(/[_,]/g, ''));
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}, got "${text}"`);
  return n;
}

async function main(): Promise<void> {
  let values: { json?: boolean; write?: boolean; results?: string; ops?: string; seed?: string; runs?: string; trades?: string; 'day-trades'?: string; only?: string; hours?: string; requests?: string; duration?: string; streams?: string; subscribers?: string; 'round-trips'?: string; commands?: string; 'l2-rows'?: string };
  try {
    ({ values } = parseArgs({
      options: {
        json: { type: 'boolean', default: false },
        write: { type: 'boolean', default: false },
        results: { type: 'string' },
        ops: { type: 'string' },
        seed: { type: 'string' },
        runs: { type: 'string' },
        trades: { type: 'string' },
        'day-trades': { type: 'string' },
        only: { type: 'string' },
        hours: { type: 'string' },
        requests: { type: 'string' },
        duration: { type: 'string' },
        streams: { type: 'string' },
        subscribers: { type: 'string' },
        'round-trips': { type: 'string' },
        commands: { type: 'string' },
        'l2-rows': { type: 'string' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const json = values.json === true;
  const write = values.write === true;
  if (write && json) throw new UsageError('--write keeps the tables: use it without --json');
  if (values.results !== undefined && !write) throw new UsageError('--results names the file --write writes: give --write too');
  const ops = positiveInt('ops', values.ops, 1_000_000, 1);
  const seed = positiveInt('seed', values.seed, 1, 0);
  const runs = positiveInt('runs', values.runs, 3, 1);
  const trades = positiveInt('trades', values.trades, 2_000_000, 1);
  const hours = positiveInt('hours', values.hours, 6, 1);
  const dayTrades = positiveInt('day-trades', values['day-trades'], DEFAULT_DAY_TRADES, 1);
  const only = values.only;
  const requests = positiveInt('requests', values.requests, DEFAULT_REQUESTS, 1);
  const duration = positiveInt('duration', values.duration, DEFAULT_DURATION_SECONDS, 1);
  const streams = positiveInt('streams', values.streams, DEFAULT_IDLE_STREAMS, 0);
  const subscribers = positiveInt('subscribers', values.subscribers, DEFAULT_SUBSCRIBERS, 1);
  const roundTrips = positiveInt('round-trips', values['round-trips'], DEFAULT_ROUND_TRIPS, 1);
  if (only !== undefined && !(BENCHES as readonly string[]).includes(only)) throw new UsageError(`--only must be one of ${BENCHES.join(', ')}, got "${only}"`);
  const log = json ? (): void => {} : (message: string): void => void process.stderr.write(`  ${message}\n`);
  // Each bench's output, kept for --write with the conditions it ran under.
  const sections: ResultSection[] = [];
  const run = async (name: string, bench: () => Promise<void> | void): Promise<void> => {
    if (write) sections.push(await measured(name, async () => bench()));
    else await bench();
  };

  if (only === undefined || only === 'backtest') {
    await run('backtest', async () => {
      const rows = await runBacktestBench({ dayTrades, seed, log });
      process.stdout.write(json ? backtestJsonLines(rows).map((l) => `${l}\n`).join('') : `\n${backtestTable(rows, dayTrades)}\n`);
    });
  }
  // Not in the default run: a month is minutes the first time (generated, cache built) (`--only month`).
  if (only === 'month') {
    await run('month', async () => {
      const rows = await runMonthBench({ days: MONTH_DAYS, dayTrades, seed, log });
      process.stdout.write(json ? monthJsonLines(rows).map((l) => `${l}\n`).join('') : `\n${monthTable(rows, MONTH_DAYS, dayTrades)}\n`);
    });
  }
  if (only === undefined || only === 'l2') {
    await run('l2', async () => {
      const rows = await runL2Bench({ depthRows: DEFAULT_L2_DEPTH_ROWS, trades: DEFAULT_L2_TRADES, bookRows: positiveInt('l2-rows', values['l2-rows'], DEFAULT_L2_BOOK_ROWS, 1), seed, log });
      process.stdout.write(json ? l2JsonLines(rows).map((l) => `${l}\n`).join('') : `\n${l2Table(rows)}\n`);
    });
  }
  if (only === undefined || only === 'live-market') {
    await run('live-market', async () => {
      const result = await runLiveMarketBench({ duration: values.duration === undefined ? 30 : duration, log });
      process.stdout.write(json ? `${liveMarketJsonLine(result)}\n` : `\n${liveMarketTable(result)}\n`);
    });
  }
  if (only === undefined || only === 'matching-core') {
    await run('matching-core', () => {
      const result = runMatchingCoreBench({ ops, seed, runs, log });
      if (json) {
        for (const line of jsonLines(result)) process.stdout.write(`${line}\n`);
      } else {
        process.stdout.write(`\n${table(result)}\n`);
      }
    });
  }
  if (only === undefined || only === 'conditional-mix') {
    await run('conditional-mix', () => {
      const result = runConditionalMixBench({ ops, seed, runs, log });
      process.stdout.write(json ? `${conditionalMixJsonLine(result)}\n` : `\n${conditionalMixTable(result)}\n`);
    });
  }
  if (only === undefined || only === 'replay') {
    await run('replay', async () => {
      const result = await runReplayBench({ trades, seed, runs, log });
      if (json) {
        for (const line of replayJsonLines(result)) process.stdout.write(`${line}\n`);
      } else {
        process.stdout.write(`\n${replayTable(result)}\n`);
      }
    });
  }
  if (only === undefined || only.startsWith('facade')) {
    await run(only ?? 'facade', () => runFacadeBenches({ only, json, runs, requests, duration, log }));
  }
  if (only === undefined || only.startsWith('serve')) {
    await run(only ?? 'serve', async () => {
      const results = await runServeBenches({ duration, connections: 10, streams, log, ...(only === undefined ? {} : { only }), restartCommands: positiveInt('commands', values.commands, DEFAULT_RESTART_COMMANDS, 1) });
      if (json) process.stdout.write(serveJsonLines(results).map((l) => `${l}\n`).join(''));
      else process.stdout.write(`\n${results.rows.length > 0 ? `${serveTable(results.rows)}\n` : ''}${results.restart === null ? '' : `${restartTable(results.restart)}\n`}${results.slowReaders === null ? '' : `${slowReadersTable(results.slowReaders)}\n`}`);
    });
  }
  if (only === undefined || only === 'streams') {
    await run('streams', async () => {
      const result = await runFanoutBench({ subscribers, duration: Math.max(duration, 10), log });
      process.stdout.write(json ? `${fanoutJsonLine(result)}\n` : `\n${fanoutTable(result)}\n`);
    });
  }
  if (only === undefined || only === 'ws-api') {
    await run('ws-api', async () => {
      const rows = await runWsApiBench({ roundTrips, log });
      process.stdout.write(json ? wsApiJsonLines(rows).map((l) => `${l}\n`).join('') : `\n${wsApiTable(rows)}\n`);
    });
  }
  // Not in the default run: it takes tens of seconds of wall time (`--only sweep`).
  if (only === 'sweep') {
    await run('sweep', async () => {
      const result = await runSweepBench({ hours, log });
      process.stdout.write(json ? `${sweepJsonLine(result)}\n` : `\n${sweepTable(result)}\n`);
    });
  }
  // Not in the default run either: it needs redis-server and starts worker processes (`--only sweep-queue`).
  if (only === 'sweep-queue') {
    await run('sweep-queue', async () => {
      const result = await runSweepQueueBench({ hours, runs, log });
      process.stdout.write(json ? sweepQueueJsonLines(result).map((l) => `${l}\n`).join('') : `\n${sweepQueueTable(result)}\n`);
    });
  }
  if (write) {
    // A group run whole holds its sub-benches' rows: their older sections go.
    const supersedes = only === undefined ? [...FACADE_BENCHES, ...SERVE_BENCHES] : only === 'facade' ? [...FACADE_BENCHES] : only === 'serve' ? [...SERVE_BENCHES] : [];
    const path = values.results ?? RESULTS_FILE;
    writeResults(path, sections, { fullRun: only === undefined, supersedes, order: BENCHES });
    process.stderr.write(`  wrote ${sections.map((s) => s.name).join(', ')} into ${String(path instanceof URL ? path.pathname : path)}\n`);
  }
}

try {
  await main();
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
