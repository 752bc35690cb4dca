/**
 * The `exsim` command line. Each subcommand is one module; errors a user can cause print one
 * line and exit non-zero.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { genCommand, inspectCommand } from './data-commands.ts';
import { runDemo } from './demo.ts';
import { runSampleReplay } from './sample-replay-demo.ts';
import { serve } from './serve.ts';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('exsim')
    .description('Deterministic exchange simulator and backtester (Binance-style spot API).')
    .showHelpAfterError();
  program
    .command('demo')
    .description('a deterministic session through the matching engine, then a replay of the bundled sample day')
    .action(async () => {
      runDemo();
      await runSampleReplay();
    });
  program
    .command('serve')
    .description('serve the simulated exchange (Binance-style spot REST API) on the sample market')
    .option('--port <n>', 'port to listen on', '8080')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--clock <mode>', 'manual | speed:N | realtime', 'realtime')
    .option('--engine-timeout <p>', 'fault: answer -1007 (the command still runs) with probability p', '0')
    .option('--firewall', 'fault: refuse requests holding SQL statements with 403', false)
    .option('--fault-seed <seed>', 'seed of the fault draws', 'exsim-faults')
    .action(async (options: { port: string; host: string; clock: string; engineTimeout: string; firewall: boolean; faultSeed: string }) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port must be 0..65535, got "${options.port}"`);
      const engineTimeoutProbability = Number(options.engineTimeout);
      if (!(engineTimeoutProbability >= 0 && engineTimeoutProbability <= 1)) throw new Error(`--engine-timeout must be a probability 0..1, got "${options.engineTimeout}"`);
      const faults = { engineTimeoutProbability, firewall: options.firewall, seed: options.faultSeed };
      const server = await serve({ port, host: options.host, clock: options.clock, faults });
      const stop = () => void server.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  const data = program.command('data').description('market data folders: inspect what one holds, generate synthetic dumps');
  data
    .command('inspect <dir>')
    .description('symbols, kinds, intervals, days, row counts, time ranges and gaps of a dump folder')
    .option('--no-scan', 'look at file names only (fast)')
    .option('--json', 'print the report as one JSON object')
    .action(async (dir: string, options: { scan: boolean; json?: boolean }) => {
      console.log(await inspectCommand(dir, { scan: options.scan, json: options.json === true }));
    });
  data
    .command('gen')
    .description('write a seeded synthetic market as Binance daily dump files (trades, klines, aggTrades)')
    .requiredOption('--out <dir>', 'folder to write into')
    .option('--symbol <symbol>', 'symbol name', 'BTCUSDT')
    .option('--from <date>', 'first UTC day, YYYY-MM-DD', '2024-01-01')
    .option('--days <n>', 'number of days', '1')
    .option('--seed <seed>', 'same seed, same market', '1')
    .option('--price <p>', 'start price', '42000')
    .option('--trades-per-day <n>', 'expected trades per day', '60000')
    .option('--volatility <v>', 'daily volatility of the log price', '0.025')
    .option('--tick <t>', 'price tick size', '0.01')
    .option('--step <s>', 'quantity step size', '0.00001')
    .option('--median-qty <q>', 'median taker order size', '0.0008')
    .option('--klines <list>', 'kline intervals to derive, comma-separated (empty for none)', '1m')
    .option('--agg-trades', 'derive aggTrades files too', false)
    .option('--csv', 'write .csv instead of .zip', false)
    .action(async (options: Parameters<typeof genCommand>[0]) => {
      const written = await genCommand(options);
      console.log(`wrote ${written.length} files to ${options.out}`);
    });
  program
    .command('bench')
    .description('the benchmarks (bench/run.ts): --only matching-core|replay|facade, --json, --ops N, --trades N, --runs N, --seed N')
    .allowUnknownOption()
    .helpOption(false)
    .argument('[options...]')
    .action((args: string[]) => {
      // A child process: the benches need V8 flags (a larger young generation) set at startup.
      const script = fileURLToPath(new URL('../../bench/run.ts', import.meta.url));
      const run = spawnSync(process.execPath, ['--max-semi-space-size=64', '--import', import.meta.resolve('tsx'), script, ...args], { stdio: 'inherit' });
      process.exitCode = run.status ?? 1;
    });
  return program;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  console.error(`exsim: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
