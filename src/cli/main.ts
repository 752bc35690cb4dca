/**
 * The `exsim` command line. Each subcommand is one module; errors a user can cause print one
 * line and exit non-zero.
 */
import { Command } from 'commander';
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
    .action(async (options: { port: string; host: string; clock: string }) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port must be 0..65535, got "${options.port}"`);
      const server = await serve({ port, host: options.host, clock: options.clock });
      const stop = () => void server.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  return program;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  console.error(`exsim: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
