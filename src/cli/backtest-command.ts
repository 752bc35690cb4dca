/**
 * `exsim backtest STRATEGY [--data DIR|sample] [--from T] [--to T] [--symbols A,B] [--fill-model M]
 *  [--latency SPEC] [--seed N] [--param k=v,...] [--out DIR [--journal]] [--sweep 'k=a,b;k2=c,d'] [--workers N] [--queue redis://HOST:PORT[/DB]]`
 *
 * One backtest: runs it, writes the report folder when --out is given, prints the headline
 * numbers, the journal hash and the speed. With --sweep: the parameter grid on worker threads
 * (sweep.ts), one table; with --queue, over a Redis queue on `exsim worker` processes (queue/). User mistakes are InputErrors: one line, exit 1 (main.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { formatUtcMicros } from '../data/index.ts';
import { InputError, loadStrategy, headline, parseBacktestRequest, runBacktestRequest, type BacktestRequestOptions, checkSweepParams, MAX_QUEUED_SWEEP_RUNS, MAX_SWEEP_RUNS, parseSweep, runSweep, sweepFailureMessage, sweepJson, sweepRuns, sweepTable, renderSweepHtml, runFolder, parseSelectMetric, parseWalkForward, runWalkForward, walkForwardTable, renderWalkForwardHtml, type DataGap, type WindowCurves } from '../backtest/index.ts';
import { ProgressBar } from './progress-bar.ts';
import { submitQueuedSweep } from './queue-submit.ts';

export type BacktestCommandOptions = BacktestRequestOptions & { queue?: string };

export async function backtestCommand(strategy: string, options: BacktestCommandOptions, print: (line: string) => void = console.log): Promise<void> {
  const request = parseBacktestRequest(strategy, options);
  if (options.queue !== undefined && options.sweep === undefined) throw new InputError('--queue runs a --sweep; give the grid with --sweep');
  if (options.queue !== undefined && options.workers !== undefined) throw new InputError('--workers sets local threads; over --queue, start `exsim worker --concurrency N` processes instead');
  if (options.walkForward !== undefined) {
    if (options.sweep === undefined) throw new InputError('--walk-forward chooses among a --sweep grid; give it with --sweep');
    if (options.queue !== undefined || options.sweepReports === true) throw new InputError('--walk-forward runs on local worker threads, without --queue or --sweep-reports');
    const spec = parseWalkForward(options.walkForward);
    const metric = parseSelectMetric(options.select);
    const grid = parseSweep(options.sweep);
    const workers = options.workers === undefined ? undefined : Number(options.workers);
    if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1 && workers <= 64)) throw new InputError(`--workers must be an integer 1..64, got "${options.workers}"`);
    checkSweepParams(await loadStrategy(strategy), sweepRuns(request, grid));
    const curves: WindowCurves[] = [];
    const result = await runWalkForward(request, grid, spec, metric, {
      ...(workers === undefined ? {} : { workers }),
      ...(options.out === undefined ? {} : { curves }),
      onWindow: (w, i, n) => process.stderr.write(`walk-forward ${i + 1}/${n}: trained ${w.trainFrom} .. ${w.trainTo}, chose ${Object.entries(w.chosen).map(([k, v]) => `${k}=${v}`).join(',')}\n`),
    });
    if (options.json === true) print(JSON.stringify(result));
    else for (const line of walkForwardTable(result)) print(line);
    if (options.out !== undefined) {
      mkdirSync(options.out, { recursive: true });
      writeFileSync(join(options.out, 'walk-forward.json'), `${JSON.stringify(result, null, 2)}\n`);
      const loaded = await loadStrategy(strategy);
      writeFileSync(join(options.out, 'walk-forward.html'), renderWalkForwardHtml(result, curves, `${loaded.name} on ${request.data}`));
      if (options.json !== true) print(`walk-forward results: ${join(options.out, 'walk-forward.json')}, ${join(options.out, 'walk-forward.html')}`);
    }
    return;
  }
  if (options.select !== undefined) throw new InputError('--select chooses the walk-forward metric; it needs --walk-forward');
  if (options.sweep !== undefined) {
    const grid = parseSweep(options.sweep, options.queue === undefined ? MAX_SWEEP_RUNS : MAX_QUEUED_SWEEP_RUNS);
    const workers = options.workers === undefined ? undefined : Number(options.workers);
    if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1 && workers <= 64)) throw new InputError(`--workers must be an integer 1..64, got "${options.workers}"`);
    if (options.sweepReports === true && options.out === undefined) throw new InputError('--sweep-reports needs --out (the runs are written to OUT/runs/)');
    const loaded = await loadStrategy(strategy);
    checkSweepParams(loaded, sweepRuns(request, grid)); // a bad strategy or parameter fails here, once, not in every worker
    const reportsRoot = options.sweepReports === true ? resolve(options.out!) : undefined;
    const queued = options.queue === undefined ? null : await submitQueuedSweep(request, grid, options.queue, undefined, reportsRoot);
    const sweep = queued ?? (await runSweep(request, grid, { ...(workers === undefined ? {} : { workers }), ...(reportsRoot === undefined ? {} : { reportsRoot }) }));
    for (const line of sweepTable(sweep)) print(line);
    const where = queued === null ? `on ${sweep.workers} worker threads` : `over the queue ${options.queue} (${queued.reused} finished before)`;
    print(`${sweep.rows.length} backtests ${where} in ${(sweep.wallMs / 1000).toFixed(1)} s`);
    if (options.out !== undefined) {
      mkdirSync(options.out, { recursive: true });
      writeFileSync(join(options.out, 'sweep.json'), sweepJson(sweep));
      const runFolders = reportsRoot === undefined ? undefined : grid.map((params, i) => runFolder(i, params));
      const window = `${request.from === undefined ? 'the data' : formatUtcMicros(request.from)}${request.to === undefined ? '' : ` .. ${formatUtcMicros(request.to)}`}`;
      writeFileSync(join(options.out, 'sweep.html'), renderSweepHtml({ sweep, title: `${loaded.name} on ${request.data}, ${window}`, ...(runFolders === undefined ? {} : { runFolders }) }));
      print(`sweep results: ${join(options.out, 'sweep.json')}, ${join(options.out, 'sweep.html')}${runFolders === undefined ? '' : `, one report folder per run in ${join(options.out, 'runs')}`}`);
    }
    const failed = sweepFailureMessage(sweep);
    if (failed !== null) throw new InputError(failed);
    return;
  }
  const bar = new ProgressBar();
  const started = performance.now(); // determinism-ok: the elapsed time printed for the user, not in the report
  if (options.journal === true && options.out === undefined) throw new InputError('--journal needs --out (the folder the journal is written to)');
  const warn = (gap: DataGap) => {
    const days = (gap.to - gap.from) / 86_400_000_000;
    process.stderr.write(`warning: no ${gap.symbol} data from ${formatUtcMicros(gap.from)} to ${formatUtcMicros(gap.to)} (${days >= 1 ? `${days.toFixed(1)} days` : `${((gap.to - gap.from) / 3_600_000_000).toFixed(1)} hours`}): the replay jumps over it\n`);
  };
  // The headline's first line (what runs on what) is printed as soon as the data is open, not after the replay.
  let printedFirst: string | null = null;
  const onStart = options.json === true ? undefined : (line: string) => {
    printedFirst = line;
    print(line);
  };
  const { result, summary, files } = await runBacktestRequest(request, options.out ?? null, (p) => bar.update(p), options.journal === true, warn, (line) => process.stderr.write(`warning: ${line}\n`), onStart);
  bar.done();
  const seconds = (performance.now() - started) / 1000; // determinism-ok: as above
  if (options.json === true) {
    print(JSON.stringify(summary));
    return;
  }
  headline(summary).forEach((line, i) => {
    if (!(i === 0 && line === printedFirst)) print(line);
  });
  const simulated = (result.to - result.from) / 1_000_000;
  const { prints, depthUpdates } = result.replayStats;
  // With recorded depth the events are the prints and the depth updates (level changes) together.
  const events = depthUpdates === 0 ? `${prints.toLocaleString('en-US')} prints` : `${prints.toLocaleString('en-US')} prints + ${depthUpdates.toLocaleString('en-US')} depth updates`;
  const rate = depthUpdates === 0 ? `${Math.round(prints / seconds).toLocaleString('en-US')} prints/s` : `${Math.round((prints + depthUpdates) / seconds).toLocaleString('en-US')} events/s`;
  print(
    `  ${events} in ${seconds.toFixed(2)} s (${rate}, ` +
      `${Math.round(simulated / seconds).toLocaleString('en-US')}x real time), ${result.replayStats.segments.toLocaleString('en-US')} strategy wake-ups, until ${formatUtcMicros(result.to)}`,
  );
  if (options.out !== undefined) print(`  report: ${join(options.out, 'report.html')} (${files.filter((f) => f !== 'report.html').join(', ')})`);
  for (const line of result.log.slice(0, 5)) print(`  log: ${line}`);
  if (result.log.length > 5) print(`  log: ... ${result.log.length - 5} more lines${options.out === undefined ? '' : ' in log.txt'}`);
}
