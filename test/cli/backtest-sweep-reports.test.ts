/**
 * Sweeps a quant can use: --sweep-reports writes each run's report folder, sweep.html ranks the
 * runs with a heat map of two parameters, and `exsim report compare` puts report folders side
 * by side (table and overlaid equity curves).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { rankRows, renderSweepHtml } from '../../src/backtest/index.ts';
import type { SweepResult } from '../../src/backtest/sweep.ts';

const exsim = (...args: string[]) => spawnSync(process.execPath, ['bin/exsim.js', ...args], { encoding: 'utf8', timeout: 180_000 });
const root = mkdtempSync(join(tmpdir(), 'exsim-sweep-reports-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const row = (fast: string, slow: string, excess: number | null) => ({
  params: { fast, slow },
  pnl: '1.00000000',
  return: 0.001,
  vsHold: '0.50000000',
  excessReturn: excess,
  maxDrawdown: '2.00000000',
  sharpe: 1.5,
  fills: 3,
  fees: '0.10000000',
  orders: 4,
  journalSha256: 'ab'.repeat(32),
});

describe('sweep.html', () => {
  const sweep: SweepResult = {
    varied: ['fast', 'slow'],
    rows: [row('5', '30', -0.002), row('5', '60', 0.004), row('10', '30', null), { params: { fast: '10', slow: '60' }, error: 'boom' }],
    workers: 1,
    wallMs: 0,
  };

  test('ranks finished runs by excess return, none last; failures out of the ranking', () => {
    expect(rankRows(sweep.rows)).toEqual([1, 0, 2]);
  });

  test('the heat map: fast rows × slow columns, green above holding, red below, strongest at the largest |excess|; rows link to run reports', () => {
    const html = renderSweepHtml({ sweep, title: 'trend', runFolders: ['runs/001', 'runs/002', 'runs/003', 'runs/004'] });
    expect(html).toContain('<tr><th>5</th><td style="background:rgba(215,48,39,0.500)">-0.002</td><td style="background:rgba(26,152,80,1.000)">0.004</td></tr>');
    expect(html).toContain('<tr><th>10</th><td>-</td><td>-</td></tr>');
    expect(html).toContain('<td><a href="runs/002/report.html">1</a></td><td>5</td><td>60</td><td>0.004</td>');
    expect(html).toContain('<li>fast=10,slow=60: boom</li>');
    expect(html).not.toMatch(/https?:/);
  });
});

describe('exsim backtest --sweep --sweep-reports, then exsim report compare', () => {
  test('one report folder per run, whose journal hash is its sweep row; sweep.html; compare prints each run\'s numbers', () => {
    const out = join(root, 'sweep');
    const run = exsim('backtest', 'trend', '--from', '2024-01-01T00:00', '--to', '2024-01-01T01:30', '--sweep', 'fast=5,10;slow=30,60', '--workers', '2', '--sweep-reports', '--out', out);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['runs', 'sweep.html', 'sweep.json']);
    const folders = readdirSync(join(out, 'runs')).sort();
    expect(folders).toEqual(['001-fast=5,slow=30', '002-fast=5,slow=60', '003-fast=10,slow=30', '004-fast=10,slow=60']);
    const rows = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8'));
    folders.forEach((folder, i) => {
      const summary = JSON.parse(readFileSync(join(out, 'runs', folder, 'summary.json'), 'utf8'));
      expect(summary.journal.sha256).toBe(rows[i].journalSha256);
      expect(summary.metrics.pnl).toBe(rows[i].pnl);
      expect(existsSync(join(out, 'runs', folder, 'report.html'))).toBe(true);
    });
    const html = readFileSync(join(out, 'sweep.html'), 'utf8');
    expect(html).toContain('Excess return vs hold: fast (rows) × slow (columns)');
    for (const folder of folders) expect(html).toContain(`href="runs/${folder}/report.html"`);

    const page = join(root, 'compare.html');
    const compare = exsim('report', 'compare', join(out, 'runs', folders[0]!), join(out, 'runs', folders[2]!), '--out', page);
    expect(compare.stderr).toBe('');
    const lines = compare.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^run +strategy +params +source +pnl +return +excess vs hold +max drawdown +sharpe \(ann\.\) +round trips +fees$/);
    expect(lines).toHaveLength(5);
    for (const [line, i] of [[lines[2]!, 0], [lines[3]!, 2]] as const) {
      const summary = JSON.parse(readFileSync(join(out, 'runs', folders[i]!, 'summary.json'), 'utf8'));
      expect(line).toContain(`${summary.metrics.pnl} USDT`);
      expect(line).toContain(` ${summary.metrics.excessReturn.vsHold} `);
      expect(line).toContain(' trades ');
    }
    expect(lines[4]).toBe(`equity curves: ${page}`);
    const compareHtml = readFileSync(page, 'utf8');
    // The legend names runs by their folders, not by absolute paths.
    expect(compareHtml).toContain(`"labels":["${folders[0]}","${folders[2]}"]`);
    expect(compareHtml).toContain('uPlot');
    // Without --out the page goes beside the first report, and the command says where.
    const beside = exsim('report', 'compare', join(out, 'runs', folders[0]!), join(out, 'runs', folders[1]!));
    expect(beside.stdout.trim().split('\n').at(-1)).toBe(`equity curves: ${join(out, 'runs', folders[0]!, 'compare.html')} (beside the first report; --out FILE to put it elsewhere)`);
    expect(readFileSync(join(out, 'runs', folders[0]!, 'compare.html'), 'utf8')).toContain(`"labels":["${folders[0]}","${folders[1]}"]`);

    const bad = exsim('report', 'compare', root);
    expect(bad.stderr.trim()).toBe(`exsim: ${root} is not a backtest report folder (no summary.json or equity.csv)`);
    expect(bad.status).toBe(1);
  });

  test('--sweep-reports without --out is a one-line error', () => {
    const run = exsim('backtest', 'trend', '--sweep', 'fast=5,10', '--sweep-reports');
    expect(run.stderr.trim()).toBe('exsim: --sweep-reports needs --out (the runs are written to OUT/runs/)');
    expect(run.status).toBe(1);
  });
});
