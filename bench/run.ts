/**
 * `npm run bench [-- --json] [--ops N] [--seed N] [--runs N]`: runs every bench (for now the
 * matching core). Human table by default, progress on stderr; with --json this program writes
 * nothing but one JSON object per result line to stdout (use `npm run -s bench -- --json` so npm
 * does not add its own banner lines), so it can be piped into a tracker.
 */
import { parseArgs } from 'node:util';
import { runMatchingCoreBench } from './matching-core/matching-core-bench.ts';
import { jsonLines, table } from './matching-core/report.ts';

const USAGE = 'usage: npm run bench -- [--json] [--ops N (default 1000000)] [--seed N (default 1)] [--runs N (default 3)]';

/** A bad command line: reported as a message, not a stack trace. */
class UsageError extends Error {}

function positiveInt(name: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const n = Number(text.replace(/[_,]/g, ''));
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}, got "${text}"`);
  return n;
}

function main(): void {
  let values: { json?: boolean; ops?: string; seed?: string; runs?: string };
  try {
    ({ values } = parseArgs({
      options: {
        json: { type: 'boolean', default: false },
        ops: { type: 'string' },
        seed: { type: 'string' },
        runs: { type: 'string' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const json = values.json === true;
  const ops = positiveInt('ops', values.ops, 1_000_000, 1);
  const seed = positiveInt('seed', values.seed, 1, 0);
  const runs = positiveInt('runs', values.runs, 3, 1);
  const log = json ? (): void => {} : (message: string): void => void process.stderr.write(`  ${message}\n`);

  const result = runMatchingCoreBench({ ops, seed, runs, log });
  if (json) {
    for (const line of jsonLines(result)) process.stdout.write(`${line}\n`);
  } else {
    process.stdout.write(`\n${table(result)}\n`);
  }
}

try {
  main();
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
