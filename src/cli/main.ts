/**
 * The `exsim` command line: argument parsing into each command's options. Each subcommand is one
 * module; a mistake a user can make is an InputError (src/backtest for now, src/data once it moves
 * there), printed as one line with a non-zero exit.
 *
 * Start-up: only commander and Node's own modules load before the arguments are parsed; each
 * action imports what it runs (the layers below take ~0.5 s to load: Arrow, the facade, ws), so
 * `exsim --version` and `--help` answer at once. Option defaults that are another layer's constants
 * are applied by that layer when the option is absent.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import type { BacktestCommandOptions } from './backtest-command.ts';
import type { GenOptions } from './data-commands.ts';
import type { RecordCommandOptions } from './record-command.ts';
import type { FsyncPolicy } from '../serve/index.ts';
import type { WorkerCommandOptions } from './worker-command.ts';
import type { TapeEndMode } from '../sim/index.ts';
import { parsePacingMode } from '../clock/index.ts';
import { BENCH_ROWS } from './bench-rows.ts';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('exsim')
    .description('Deterministic exchange simulator and backtester (Binance-style spot API).')
    .version(packageVersion(), '-V, --version', 'the exsim version')
    .showHelpAfterError();
  program
    .command('demo')
    .description('a deterministic session through the matching engine, then a replay of the bundled sample day')
    .action(async () => {
      const [{ runDemo }, { runSampleReplay }] = await Promise.all([import('./demo.ts'), import('./sample-replay-demo.ts')]);
      runDemo();
      await runSampleReplay();
    });
  program
    .command('serve')
    .description('serve the simulated exchange (Binance-style spot REST API, WebSocket API and streams): a replay of --data on the paced clock, or without --data a static sample market')
    .option('--port <n>', 'port to listen on', '8080')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--clock <mode>', 'manual | speed:N | realtime', 'realtime')
    .option('--engine-timeout <p>', 'fault: answer -1007 (the command still runs) with probability p', '0')
    .option('--firewall', 'fault: refuse requests holding SQL statements with 403', false)
    .option('--fault-seed <seed>', 'seed of the fault draws', 'exsim-faults')
    .option('--data <dir>', 'replay market data on the paced clock: sample, or a folder of Binance dumps and/or Tardis files (default: a static sample market)')
    .option('--seed <n>', 'seed of the replay\'s market model and synthetic book', '1')
    .option('--admin-key <key>', 'turn on the control plane (/exsim/v1/clock, /exsim/v1/status, /exsim/v1/accounts) for requests carrying this key in X-EXSIM-ADMIN-KEY')
    .option('--from <time>', 'with --data: start the served market here, the history before it replayed at once (UTC YYYY-MM-DD[THH:MM[:SS]] or epoch ms; default 4 hours into the data)')
    .option('--accounts <file>', 'accounts, balances and API keys (JSON, see README) instead of the demo account')
    .option('--journal <file>', 'write-ahead journal (plain JSON lines): every command is written before its answer; an existing journal of the same exchange is restored and appended to')
    .option('--fsync <policy>', 'journal durability: always (fdatasync before answering, grouped) | batch (fdatasync every --fsync-ms) | none', 'batch')
    .option('--fsync-ms <ms>', 'fdatasync period of --fsync batch', '50')
    .option('--snapshot-every <n>', 'journal snapshots beside the journal (FILE.snapshot) every n commands (default 200000), and at a clean stop, so a restart replays only what follows the newest; 0: only at a clean stop')
    .option('--at-end <mode>', 'when the replayed tape runs out: stop (the market goes still) | loop (replay it again, later, ids continuing) | synthetic (seeded generated trades from its last price)', 'stop')
    .option('--futures <symbols>', 'with --data: also serve these USDⓈ-M perpetuals (BTCUSDT[,ETHUSDT:4h]) for trading through /fapi: prints from the folder\'s futures/um dumps or derived from the spot tape, the mark each second, funding every 8 h (:1h or :4h after a name sets its interval) at the model\'s rates, or as the folder\'s futures/um fundingRate dumps record')
    .action(async (options: { port: string; host: string; clock: string; engineTimeout: string; firewall: boolean; faultSeed: string; data?: string; seed: string; accounts?: string; journal?: string; fsync: string; fsyncMs: string; snapshotEvery?: string; from?: string; adminKey?: string; atEnd: string; futures?: string }) => {
      const [{ FSYNC_POLICIES, serve }, { TAPE_END_MODES }, { InputError }] = await Promise.all([import('../serve/index.ts'), import('../sim/index.ts'), import('../data/index.ts')]);
      const port = Number(options.port);
      try {
        parsePacingMode(options.clock);
      } catch (error) {
        throw new InputError(error instanceof Error ? error.message : String(error));
      }
      if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new InputError(`--port must be 0..65535, got "${options.port}"`);
      const engineTimeoutProbability = Number(options.engineTimeout);
      if (!(engineTimeoutProbability >= 0 && engineTimeoutProbability <= 1)) throw new InputError(`--engine-timeout must be a probability 0..1, got "${options.engineTimeout}"`);
      const faults = { engineTimeoutProbability, firewall: options.firewall, seed: options.faultSeed };
      const fsync = options.fsync as FsyncPolicy;
      if (!FSYNC_POLICIES.includes(fsync)) throw new InputError(`--fsync must be ${FSYNC_POLICIES.join(' | ')}, got "${options.fsync}"`);
      const fsyncMs = Number(options.fsyncMs);
      if (!(Number.isInteger(fsyncMs) && fsyncMs >= 1)) throw new InputError(`--fsync-ms must be a whole number of ms >= 1, got "${options.fsyncMs}"`);
      const snapshotEvery = options.snapshotEvery === undefined ? undefined : Number(options.snapshotEvery);
      if (snapshotEvery !== undefined && !(Number.isSafeInteger(snapshotEvery) && snapshotEvery >= 0)) throw new InputError(`--snapshot-every must be a whole number of commands >= 0, got "${options.snapshotEvery}"`);
      if (!(TAPE_END_MODES as readonly string[]).includes(options.atEnd)) throw new InputError(`--at-end must be ${TAPE_END_MODES.join(' | ')}, got "${options.atEnd}"`);
      const server = await serve({
        atEnd: options.atEnd as TapeEndMode,
        port,
        host: options.host,
        clock: options.clock,
        faults,
        seed: options.seed,
        ...(options.data === undefined ? {} : { data: options.data }),
        ...(options.accounts === undefined ? {} : { accounts: options.accounts }),
        ...(options.journal === undefined ? {} : { journal: options.journal, fsync, fsyncMs, ...(snapshotEvery === undefined ? {} : { snapshotEvery }) }),
        ...(options.from === undefined ? {} : { from: options.from }),
        ...(options.adminKey === undefined ? {} : { adminKey: options.adminKey }),
        ...(options.futures === undefined ? {} : { futures: (await import('../backtest/futures-setup.ts')).futuresEntryTexts(options.futures) }),
      });
      // Stop cleanly: close the sockets, flush the journal, then exit.
      const stop = () => void server.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  program
    .command('record')
    .description("record a Binance-compatible venue's trade, diff-depth and bookTicker streams with REST depth snapshots into daily gzip files (DIR/<SYMBOL>/exsim_recording_<date>_<SYMBOL>.gz) until Ctrl-C")
    .requiredOption('--symbols <list>', 'symbols, comma-separated, e.g. BTCUSDT,ETHUSDT')
    .requiredOption('--out <dir>', 'the recording folder')
    .option('--stream-url <url>', "the venue's market streams (default: Binance's)")
    .option('--rest-url <url>', "the venue's REST API, for depth snapshots (default: Binance's)")
    .action(async (options: Omit<RecordCommandOptions, 'streamUrl' | 'restUrl'> & Partial<Pick<RecordCommandOptions, 'streamUrl' | 'restUrl'>>) => {
      const { RECORD_DEFAULTS, recordCommand } = await import('./record-command.ts');
      await recordCommand({ ...options, streamUrl: options.streamUrl ?? RECORD_DEFAULTS.streamUrl, restUrl: options.restUrl ?? RECORD_DEFAULTS.restUrl });
    });
  program
    .command('backtest <strategy>')
    .description('run a strategy (a module path, or the example grid | trend | book) in process on the manual clock, as fast as possible; writes a report folder with --out')
    .option('--data <dir>', 'market data: sample, or a folder of Binance dumps and/or Tardis files', 'sample')
    .option('--from <time>', 'start, UTC: YYYY-MM-DD[THH:MM[:SS]] or epoch ms (default: the data\'s first day)')
    .option('--to <time>', 'end (exclusive), same forms (default: the end of the data\'s last day)')
    .option('--symbols <list>', 'symbols to replay, comma-separated (default: the data folder\'s first symbol with exchange rules; the sample\'s BTCUSDT)')
    .option('--fill-model <model>', 'queue | queue-probabilistic[:power:N|power2:N|power3:N|log|log2] | trade-through | touch (queue models read the queue from a recorded book)', 'queue')
    .option('--latency <spec>', 'none | 5ms | normal:5ms,1ms | lognormal:2ms,0.5 (each leg: entry, cancel, ack)', 'none')
    .option('--seed <seed>', 'seed of every random stream (same seed, same journal)', '1')
    .option('--book <spec>', "the synthetic book: 'off', or levels=10,spread=1-3,gap=1,size=1000,growth=1.5,jitter=0.25 (size: x the minimum quantity at the best level; any subset)")
    .option('--param <list>', 'strategy parameters, key=value,key=value')
    .option('--balances <list>', "the strategy account's opening balances, e.g. BTC=0,USDT=10000 (default: the module's `balances`, else 1 BTC, 10 ETH, 100,000 USDT where the run values them)")
    .option('--fees <rates>', 'commission: maker=0.0002,taker=0.0004 (fractions) or a Binance spot tier VIP0..VIP9 (default: the module\'s `fees`, else VIP0: 0.1%)')
    .option('--bnb-discount', 'fees paid in BNB: 25% off every rate (charged in the asset received; see README)')
    .option('--out <dir>', 'write summary.json, orders/fills/equity CSV, the strategy\'s commands and report.html here')
    .option('--journal', 'also write every engine command and its events to journal.jsonl.gz in --out (large: about a million lines a day)')
    .option('--sweep <grid>', "parameter grid on worker threads, e.g. 'spread=0.001,0.002;size=0.01,0.02'")
    .option('--sweep-reports', "with --sweep and --out: each run's report folder (summary.json, CSVs, report.html) in OUT/runs/")
    .option('--walk-forward <spec>', 'train=7d,test=1d: on each training window run the --sweep, pick the best by --select, run it on the following test window; report the stitched out-of-sample result (walk-forward.json and walk-forward.html in --out)')
    .option('--select <metric>', 'what --walk-forward picks by: excessReturn (over holding; default), return, pnl, vsHold, sharpe')
    .option('--workers <n>', 'worker threads for --sweep (default: the number of cores)')
    .option('--queue <url>', 'run the --sweep over a Redis queue (redis://HOST:PORT[/DB]) on `exsim worker` processes instead')
    .option('--json', 'print the summary as one JSON object')
    .option('--futures <symbols>', 'trade these USDⓈ-M perpetuals (BTCUSDT[,ETHUSDT:4h]) through /fapi beside their spot symbols: prints from the folder\'s futures/um dumps or derived from the spot tape, the mark each second, funding every 8 h (:1h or :4h after a name sets its interval) at the model\'s rates, or as the folder\'s futures/um fundingRate dumps record; fund the futures wallet with POST /sapi/v1/asset/transfer (default: the strategy\'s `futures` export)')
    .option('--allow-host-time', "let the strategy use host timers (setTimeout, setInterval, setImmediate) and Date.now, warned on stderr; the run is then not reproducible. Without it they fail the run, naming ctx.clock's equivalent")
    .action(async (strategy: string, options: BacktestCommandOptions) => {
      const { backtestCommand } = await import('./backtest-command.ts');
      await backtestCommand(strategy, options);
    });
  program
    .command('report')
    .description('backtest report folders')
    .command('compare <dirs...>')
    .description('key metrics of report folders (exsim backtest --out DIR) side by side, and an HTML page with their equity curves overlaid')
    .option('--out <file>', "the HTML page (default: compare.html in the first report's folder)")
    .action(async (dirs: string[], options: { out?: string }) => {
      const { reportCompareCommand } = await import('./report-command.ts');
      await reportCompareCommand(dirs, options.out);
    });
  program
    .command('worker')
    .description('run queued sweep backtests (exsim backtest --sweep ... --queue URL) from a Redis queue until stopped')
    .requiredOption('--queue <url>', 'the queue: redis://HOST:PORT[/DB]')
    .option('--concurrency <n>', 'backtests at a time (worker threads)', '1')
    .option('--data <dir>', "this machine's market data: sample or a folder (default: the folder each job names)")
    .option('--lock-duration <ms>', "a job's lock; a killed worker's job is taken up again about this long after", '30000')
    .option('--tape-rows <n>', "prints held in shared memory for the jobs of the same window (about 41 bytes each); a window over it is read by each job", '20000000')
    .option('--parallel-gc', "keep V8's GC helper threads (parallel scavenge, concurrent marking; off by default: they slow the other workers sharing the machine's cores)")
    .action(async (options: WorkerCommandOptions) => {
      const { workerCommand } = await import('./worker-command.ts');
      await workerCommand(options);
    });
  program
    .command('scenario')
    .description('scenario files: data + accounts + scripted actions + expected outcome (scenarios/schema.json)')
    .command('run <files...>')
    .description('run scenario files and check their expectations; one line per failure, exit 1 if any failed')
    .action(async (files: string[]) => {
      const { scenarioRunCommand } = await import('./scenario-command.ts');
      process.exitCode = await scenarioRunCommand(files);
    });
  const data = program.command('data').description('market data folders: inspect what one holds, generate synthetic dumps');
  data
    .command('inspect <dir>')
    .description('symbols, kinds, intervals, days, row counts, time ranges and gaps of a dump folder')
    .option('--no-scan', 'look at file names only (fast)')
    .option('--json', 'print the report as one JSON object')
    .action(async (dir: string, options: { scan: boolean; json?: boolean }) => {
      const { inspectCommand } = await import('./data-commands.ts');
      const { output, problems } = await inspectCommand(dir, { scan: options.scan, json: options.json === true });
      console.log(output);
      if (problems > 0) process.exitCode = 1; // the problem lines are in the report
    });
  data
    .command('import <sources...>')
    .description('check local Binance dump and Tardis files (names, CHECKSUM files, every row) and copy them into DIR/<SYMBOL>/ with DIR/exsim-market.json (rules of new symbols inferred; --out DIR itself imports in place)')
    .requiredOption('--out <dir>', 'folder to import into (what --data reads)')
    .action(async (sources: string[], options: { out: string }) => {
      const [{ importCommand }, { tapeCache }] = await Promise.all([import('./data-import.ts'), import('../data/index.ts')]);
      const report = await importCommand(sources, options.out);
      console.log(`imported ${report.files.length} files of ${report.symbols.join(', ')} into ${options.out}`);
      if (report.cached.length > 0) console.log(`${report.cached.length} of them read into the columnar cache (${tapeCache()!.dir}): backtests read them without parsing`);
      if (report.inferred.length > 0) console.log(`rules inferred from the trades for ${report.inferred.join(', ')}: check ${options.out}/exsim-market.json`);
    });
  data
    .command('gen')
    .description('write a seeded synthetic market as Binance daily dump files (trades, klines, aggTrades), or with --l2 an order-book market as Tardis files (incremental_book_L2 + trades)')
    .requiredOption('--out <dir>', 'folder to write into')
    .option('--symbol <symbol>', 'symbol name', 'BTCUSDT')
    .option('--from <date>', 'first UTC day, YYYY-MM-DD', '2024-01-01')
    .option('--days <n>', 'number of days', '1')
    .option('--seed <seed>', 'same seed, same market', '1')
    .option('--price <p>', 'start price', '42000')
    .option('--trades-per-day <n>', 'expected trades per day (default 60000; 1500000 with --l2)')
    .option('--volatility <v>', 'daily volatility of the log price', '0.025')
    .option('--tick <t>', "price tick size (default: the symbol's tickSize in the sample market or the Binance snapshot, else 0.01)")
    .option('--step <s>', "quantity step size (default: the symbol's LOT_SIZE stepSize there, else 0.00001)")
    .option('--median-qty <q>', 'median taker order size', '0.0008')
    .option('--klines <list>', 'kline intervals to derive, comma-separated (empty for none; default 1m)')
    .option('--agg-trades', 'derive aggTrades files too')
    .option('--no-trades', 'leave the trades files out (a klines- or aggTrades-only folder, as many users have)')
    .option('--csv', 'write .csv instead of .zip (.csv.gz with --l2)', false)
    .option('--l2', 'an order-book market: binance_incremental_book_L2_<date>_<SYMBOL>.csv.gz (a snapshot at 00:00, then 100 ms update messages) and binance_trades_<date>_<SYMBOL>.csv.gz, the trades taken from that book')
    .option('--depth-per-day <n>', 'with --l2: depth update rows per day (default 20000000)')
    .action(async (options: GenOptions) => {
      const { genCommand } = await import('./data-commands.ts');
      const written = await genCommand(options, (line) => console.log(line));
      console.log(`wrote ${written.length} files to ${options.out}`);
    });
  data
    .command('symbols [symbols...]')
    .description("the bundled snapshot of Binance's spot symbol rules (filters, precisions, permissions) a data folder's symbols take theirs from: its date, or the rules of the symbols named")
    .option('--update', 'refresh the snapshot from the live GET /api/v3/exchangeInfo (needs a network)')
    .action(async (symbols: string[], options: { update?: boolean }) => {
      const { symbolsCommand } = await import('./data-symbols.ts');
      for (const line of await symbolsCommand(symbols, { update: options.update })) console.log(line);
    });
  program
    .command('bench')
    .description(`the benchmarks (bench/run.ts, in a clone): --only ${BENCH_ROWS.join('|')}, --json, --write, --ops N, --trades N, --hours N, --requests N, --duration S, --runs N, --seed N`)
    .allowUnknownOption()
    .helpOption(false)
    .argument('[options...]')
    .action((args: string[]) => {
      // A child process: the benches need V8 flags (a larger young generation) set at startup.
      const script = fileURLToPath(new URL('../../bench/run.ts', import.meta.url));
      if (!existsSync(script)) throw new Error('exsim bench runs from a clone of the repository: the package does not ship bench/');
      const run = spawnSync(process.execPath, ['--max-semi-space-size=64', '--import', import.meta.resolve('tsx'), script, ...args], { stdio: 'inherit' });
      process.exitCode = run.status ?? 1;
    });
  return program;
}

/** The package's version (package.json sits two folders up from src/cli and from dist/cli alike). */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

// Output piped into `head` and closed early is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// The data layer converts a file read for the first time into the columnar cache (src/data/tape-cache.ts): said once.
// Hooked before any command runs (not before --version or --help: they load no data layer).
async function sayCacheBuildsOnce(): Promise<void> {
  const { tapeCache } = await import('../data/index.ts');
  const cache = tapeCache();
  if (cache === null) return;
  let said = false;
  cache.onBuild = () => {
    if (said) return;
    said = true;
    process.stderr.write(`exsim: keeping the data files read for the first time in the columnar cache (${cache.dir}); later runs read them without parsing\n`);
  };
}

try {
  await buildProgram().hook('preAction', sayCacheBuildsOnce).parseAsync(process.argv);
} catch (error) {
  console.error(`exsim: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
