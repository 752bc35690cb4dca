/**
 * compare.html and walk-forward.html render offline, as report.html does (report-html.test.ts):
 * always, the page is self-contained and its chart data parses; where Chromium is installed,
 * headless Chromium at 1400 × 1000 runs its script and the DOM it dumps has the charts drawn and
 * every column of the table inside the window.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { ComparedRun } from '../../src/backtest/compare-reports.ts';
import { renderCompareHtml } from '../../src/backtest/compare-reports.ts';
import { renderWalkForwardHtml } from '../../src/backtest/walk-forward-html.ts';
import type { WalkForwardResult, WindowCurves } from '../../src/backtest/walk-forward.ts';
import type { BacktestSummary } from '../../src/backtest/report-summary.ts';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => existsSync(p));
const dir = mkdtempSync(join(tmpdir(), 'exsim-pages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DAY = 86_400;
const T0 = Date.UTC(2024, 0, 1) / 1000;
const curve = (from: number, n: number, start: number) => ({
  times: Array.from({ length: n }, (_, i) => from + i * 60),
  equity: Array.from({ length: n }, (_, i) => start + i),
  hold: Array.from({ length: n }, (_, i) => start + i / 2),
});

function run(dir: string, params: Record<string, string>): ComparedRun {
  const metrics = {
    pnl: '-1234.56789012',
    return: -0.01234568,
    excessReturn: { vsHold: -0.02345679 },
    maxDrawdown: { amount: '2345.67890123', fraction: 0.023457 },
    ratios: { sharpeAnnualised: -12.3456 },
    trades: { roundTrips: 123 },
    fees: { valued: '345.67890123' },
  };
  const summary = { strategy: { name: 'trend', params }, market: { source: 'trades' }, valuationAsset: 'USDT', metrics } as unknown as BacktestSummary;
  return { dir, summary, times: curve(T0, 60, 100_000).times, equity: curve(T0, 60, 100_000).equity };
}

/** The DOM Chromium dumps after the page's scripts ran, and the right edge of the widest table cell. */
function render(file: string): { dom: string; right: number } {
  const profile = mkdtempSync(join(tmpdir(), 'exsim-chromium-'));
  try {
    // The page reports its own layout: the rightmost table cell edge, written into the DOM.
    const probe = `${file}.probe.html`;
    const html = readFile(file).replace('</body>', `<script>document.body.setAttribute('data-right', String(Math.max(0, ...Array.from(document.querySelectorAll('td,th')).map(function (c) { return c.getBoundingClientRect().right; }))));</script></body>`);
    writeFileSync(probe, html);
    const result = spawnSync(
      CHROMIUM!,
      ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--window-size=1400,1000', `--user-data-dir=${profile}`, '--dump-dom', `file://${probe}`],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(result.status).toBe(0);
    return { dom: result.stdout, right: Number(/data-right="([\d.]+)"/.exec(result.stdout)?.[1] ?? 'NaN') };
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

const readFile = (file: string): string => readFileSync(file, 'utf8');

const compareFile = join(dir, 'compare.html');
const walkFile = join(dir, 'walk-forward.html');
const many = { fast: '10', slow: '60', size: '0.05', stopLoss: '0.004', takeProfit: '0.008', exits: 'oco', levels: '2', interval: '10', maxInventory: '0.2' };
writeFileSync(compareFile, renderCompareHtml([run('/home/quant/a-rather-long-folder-name-for-a-run/2024-01-01-trend-fast-10-slow-60', many), run('/home/quant/b/2024-01-01-trend-fast-5-slow-30', many)]));

const windowOf = (i: number) => ({
  trainFrom: `2024-01-0${i + 1}T00:00:00.000000Z`,
  trainTo: `2024-01-0${i + 2}T00:00:00.000000Z`,
  testFrom: `2024-01-0${i + 2}T00:00:00.000000Z`,
  testTo: `2024-01-0${i + 3}T00:00:00.000000Z`,
  chosen: { fast: '5', slow: '30' },
  trainScore: 0.001,
  trainRuns: 4,
  test: { pnl: '12.34567890', return: 0.0001, holdReturn: 0.0002, vsHold: '-1.00000000', excessReturn: -0.0001, fills: 12, journalSha256: 'x' },
});
const result: WalkForwardResult = {
  train: '1d',
  test: '1d',
  select: 'excessReturn',
  windows: [windowOf(0), windowOf(1)],
  outOfSample: { from: '2024-01-02T00:00:00.000000Z', to: '2024-01-04T00:00:00.000000Z', pnl: '24.69135780', vsHold: '-2.00000000', return: 0.0002, holdReturn: 0.0004, excessReturn: -0.0002 },
};
const curves: WindowCurves[] = [0, 1].map((i) => ({ train: curve(T0 + i * DAY, 1441, 100_000), test: curve(T0 + (i + 1) * DAY, 1441, 100_000) }));
writeFileSync(walkFile, renderWalkForwardHtml(result, curves, 'trend on market'));

test('the pages are self-contained and their chart data parse', () => {
  for (const file of [compareFile, walkFile]) {
    const html = readFile(file);
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|<img[^>]+src=|\bfetch\(|XMLHttpRequest/i);
    expect(() => JSON.parse(/<script type="application\/json" id="chart-data">([\s\S]*?)<\/script>/.exec(html)![1]!)).not.toThrow();
  }
  // The stitched curve: the second test stretch continues where the first ended (growth 1.144 then × 1.0144).
  const data = JSON.parse(/<script type="application\/json" id="chart-data">([\s\S]*?)<\/script>/.exec(readFile(walkFile))![1]!);
  expect(data.stitched.times[0]).toBe(T0 + DAY);
  expect(data.stitched.columns[0][1440]).toBe(0.0144);
  expect(data.stitched.columns[0].at(-1)).toBe(Number((1.0144 * 1.0144 - 1).toFixed(8)));
});

test.skipIf(CHROMIUM === undefined)('headless Chromium at 1400 × 1000 draws the charts and keeps every table column in the window (skipped without a chromium binary: apt-get install -y chromium)', () => {
  const compare = render(compareFile);
  expect(compare.dom).toContain('data-rendered="1"');
  expect(compare.right).toBeLessThanOrEqual(1400);
  const walk = render(walkFile);
  expect(walk.dom).toContain('data-rendered="2"');
  expect(walk.dom.match(/<canvas /g)).toHaveLength(2);
  expect(walk.right).toBeLessThanOrEqual(1400);
});
