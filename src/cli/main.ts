/**
 * The `exsim` command line. Each subcommand is one module; errors a user can cause print one
 * line and exit non-zero.
 */
import { Command } from 'commander';
import { runDemo } from './demo.ts';
import { runSampleReplay } from './sample-replay-demo.ts';

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
  return program;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  console.error(`exsim: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
