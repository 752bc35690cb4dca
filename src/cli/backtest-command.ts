/**
 * `exsim backtest STRATEGY [--data DIR|sample] [--from T] [--to T] [--symbols A,B] [--fill-model M]
 *  [--latency SPEC] [--seed N] [--param k=v,...] [--out DIR [--journal]] [--sweep 'k=a,b;k2=c,d'] [--workers N]`
 *
 * One backtest: runs it, writes the report folder when --out is given, prints the headline
 * numbers, the journal hash and the speed. With --sweep: the parameter grid on worker threads
 * (sweep.ts), one table. User mistakes are InputErrors: one line, exit 1 (main.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatUtcMicros } from '../data/utc-date.ts';
import { InputError } from '../backtest/input-error.ts';
import { loadStrategy } from '../backtest/load-strategy.ts';
import { headline, parseBacktestRequest, runBacktestRequest, type BacktestRequestOptions } from '../backtest/backtest-request.ts';
import { parseSweep, runSweep, sweepTable } from '../backtest/sweep.ts';
import { ProgressBar } from './progress-bar.ts';

export type BacktestCommandOptions = BacktestRequestOptions;

export async function backtestCommand(strategy: string, options: BacktestCommandOptions, print: (line: string) => void = console.log): Promise<void> {
  const request = parseBacktestRequest(strategy, options);
  if (options.sweep !== undefined) {
    const grid = parseSweep(options.sweep);
    const workers = options.workers === undefined ? undefined : Number(options.workers);
    if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1 && workers <= 64)) throw new InputError(`--workers must be an integer 1..64, got "${options.workers}"`);
    await loadStrategy(strategy); // a bad strategy fails here, once, not in every worker
    const sweep = await runSweep(request, grid, workers === undefined ? {} : { workers });
    for (const line of sweepTable(sweep)) print(line);
    print(`${sweep.rows.length} backtests on ${sweep.workers} worker threads in ${(sweep.wallMs / 1000).toFixed(1)} s`);
    if (options.out !== undefined) {
      mkdirSync(options.out, { recursive: true });
      writeFileSync(join(options.out, 'sweep.json'), `${JSON.stringify(sweep.rows, null, 2)}\n`);
      print(`sweep results: ${join(options.out, 'sweep.json')}`);
    }
    return;
  }
  const bar = new ProgressBar();
  const started = performance.now(); // determinism-ok: the elapsed time printed for the user, not in the report
  if (options.journal === true && options.out === undefined) throw new InputError('--journal needs --out (the folder the journal is written to)');
  const { result, summary, files } = await runBacktestRequest(request, options.out ?? null, (p) => bar.update(p), options.journal === true);
  bar.done();
  const seconds = (performance.now() - started) / 1000; // determinism-ok: as above
  if (options.json === true) {
    print(JSON.stringify(summary));
    return;
  }
  for (const line of headline(summary)) print(line);
  const simulated = (result.to - result.from) / 1_000_000;
  print(
    `  ${result.replayStats.prints.toLocaleString('en-US')} prints in ${seconds.toFixed(2)} s (${Math.round(result.replayStats.prints / seconds).toLocaleString('en-US')} prints/s, ` +
      `${Math.round(simulated / seconds).toLocaleString('en-US')}x real time), ${result.replayStats.segments.toLocaleString('en-US')} strategy wake-ups, until ${formatUtcMicros(result.to)}`,
  );
  if (options.out !== undefined) print(`  report: ${join(options.out, 'report.html')} (${files.filter((f) => f !== 'report.html').join(', ')})`);
  for (const line of result.log.slice(0, 5)) print(`  log: ${line}`);
  if (result.log.length > 5) print(`  log: ... ${result.log.length - 5} more lines${options.out === undefined ? '' : ' in log.txt'}`);
}
