/**
 * `exsim backtest --walk-forward`: on a generated 3-day folder (few trades a day), train=1d,
 * test=1d gives two windows; each chosen combination is the best of a plain sweep of its
 * training day, each test result is a plain backtest of the test day, and the stitched result
 * adds the PnLs and compounds the returns.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import { afterAll, expect, test } from 'vitest';

const exsim = (...args: string[]) => spawnSync(process.execPath, ['bin/exsim.js', ...args], { encoding: 'utf8', timeout: 240_000 });
const root = mkdtempSync(join(tmpdir(), 'exsim-walk-forward-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('train=1d,test=1d over 3 days: two windows, chosen in sample, tested out of sample, stitched', () => {
  const data = join(root, 'data');
  expect(exsim('data', 'gen', '--out', data, '--days', '3', '--trades-per-day', '800', '--klines', '', '--csv').status).toBe(0);
  const out = join(root, 'wf');
  const grid = ['--sweep', 'fast=3,8', '--workers', '2'];
  const run = exsim('backtest', 'trend', '--data', data, ...grid, '--walk-forward', 'train=1d,test=1d', '--out', out);
  expect(run.status).toBe(0);
  expect(run.stderr).toMatch(/^walk-forward 1\/2: trained 2024-01-01T00:00:00\.000000Z \.\. 2024-01-02T00:00:00\.000000Z, chose fast=\d\nwalk-forward 2\/2: trained 2024-01-02T00:00:00\.000000Z \.\. 2024-01-03T00:00:00\.000000Z, chose fast=\d\n$/);
  const result = JSON.parse(readFileSync(join(out, 'walk-forward.json'), 'utf8'));
  expect(result).toMatchObject({ train: '1d', test: '1d', select: 'excessReturn' });
  // The page: each window's choice, the in- and out-of-sample curves of each window, the stitched equity.
  const page = readFileSync(join(out, 'walk-forward.html'), 'utf8');
  expect(run.stdout).toContain(`walk-forward results: ${join(out, 'walk-forward.json')}, ${join(out, 'walk-forward.html')}`);
  const chart = JSON.parse(/<script type="application\/json" id="chart-data">([\s\S]*?)<\/script>/.exec(page)![1]!);
  expect(chart.count).toBe(2);
  expect(chart.windows.columns).toHaveLength(4); // in and out of sample, per window
  expect(chart.stitched.columns).toHaveLength(2); // the strategy and holding
  expect(chart.stitched.times[0]).toBe(Date.UTC(2024, 0, 2) / 1000);
  for (const w of result.windows) expect(page).toContain(`fast=${w.chosen.fast}`);
  expect(result.windows.map((w: { trainFrom: string; trainTo: string; testFrom: string; testTo: string; trainRuns: number }) => [w.trainFrom, w.trainTo, w.testFrom, w.testTo, w.trainRuns])).toEqual([
    ['2024-01-01T00:00:00.000000Z', '2024-01-02T00:00:00.000000Z', '2024-01-02T00:00:00.000000Z', '2024-01-03T00:00:00.000000Z', 2],
    ['2024-01-02T00:00:00.000000Z', '2024-01-03T00:00:00.000000Z', '2024-01-03T00:00:00.000000Z', '2024-01-04T00:00:00.000000Z', 2],
  ]);

  // Window 1: the choice is the best row of a plain sweep of day 1 ...
  const sweepOut = join(root, 'day1');
  expect(exsim('backtest', 'trend', '--data', data, ...grid, '--from', '2024-01-01', '--to', '2024-01-02', '--out', sweepOut).status).toBe(0);
  const rows = JSON.parse(readFileSync(join(sweepOut, 'sweep.json'), 'utf8')) as { params: { fast: string }; excessReturn: number }[];
  const best = rows.reduce((a, b) => (b.excessReturn > a.excessReturn ? b : a));
  const w1 = result.windows[0];
  expect(w1.chosen.fast).toBe(best.params.fast);
  expect(w1.trainScore).toBe(best.excessReturn);
  // ... and its test is a plain backtest of day 2 with that choice.
  const single = exsim('backtest', 'trend', '--data', data, '--from', '2024-01-02', '--to', '2024-01-03', '--param', `fast=${w1.chosen.fast}`, '--json');
  const summary = JSON.parse(single.stdout);
  expect(w1.test).toMatchObject({ pnl: summary.metrics.pnl, return: summary.metrics.return, excessReturn: summary.metrics.excessReturn.vsHold, journalSha256: summary.journal.sha256 });

  // Stitched: PnL added exactly, returns compounded.
  const [a, b] = result.windows;
  const o = result.outOfSample;
  expect(o).toMatchObject({ from: '2024-01-02T00:00:00.000000Z', to: '2024-01-04T00:00:00.000000Z' });
  expect(o.pnl).toBe(new Decimal(a.test.pnl).add(b.test.pnl).toFixed(8));
  expect(o.vsHold).toBe(new Decimal(a.test.vsHold).add(b.test.vsHold).toFixed(8));
  expect(o.return).toBe(Number(((1 + a.test.return) * (1 + b.test.return) - 1).toFixed(8)));
  expect(o.holdReturn).toBe(Number(((1 + a.test.holdReturn) * (1 + b.test.holdReturn) - 1).toFixed(8)));
  expect(o.excessReturn).toBe(Number((o.return - o.holdReturn).toFixed(8)));
  expect(run.stdout).toContain(`out of sample 2024-01-02T00:00:00.000000Z .. 2024-01-04T00:00:00.000000Z: PnL ${o.pnl} (vs hold ${o.vsHold})`);
}, 600_000);

test('mistakes are one line: no --sweep, a bad spec, a window too short', () => {
  const cases: [string[], string][] = [
    [['--walk-forward', 'train=1d,test=1d'], 'exsim: --walk-forward chooses among a --sweep grid; give it with --sweep'],
    [['--sweep', 'fast=3,8', '--walk-forward', 'train=1w'], 'exsim: --walk-forward must be train=<n><m|h|d>,test=<n><m|h|d> (e.g. train=7d,test=1d), got "train=1w"'],
    [['--sweep', 'fast=3,8', '--walk-forward', 'train=1d,test=1d', '--select', 'luck'], 'exsim: --select must be one of excessReturn, return, pnl, vsHold, sharpe, got "luck"'],
    [['--sweep', 'fast=3,8', '--walk-forward', 'train=1d,test=1d'], 'exsim: --walk-forward train=1d,test=1d needs 2d of data; the window 2024-01-01T00:00:00.000000Z .. 2024-01-02T00:00:00.000000Z is shorter'],
  ];
  for (const [args, message] of cases) {
    const run = exsim('backtest', 'trend', ...args);
    expect(run.stderr.trim(), args.join(' ')).toBe(message);
    expect(run.status).toBe(1);
  }
}, 120_000);
