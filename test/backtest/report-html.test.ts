/**
 * The HTML report renders offline. Two checks:
 * - always: the file is self-contained (no external script, stylesheet or image), uPlot is
 *   inlined, and the chart data block parses with consistent series;
 * - where Chromium is installed (Debian's `chromium`; CI images may lack it, then this check is
 *   skipped and says so): headless Chromium loads the file from disk, runs its script, and the
 *   DOM it dumps has three uPlot canvases and `data-rendered="3"` (set after the last chart).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runBacktestRequest } from '../../src/backtest/backtest-request.ts';
import { parseTime } from '../../src/backtest/parse-time.ts';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => existsSync(p));
let dir: string;
let html: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'exsim-report-'));
  await runBacktestRequest(
    { strategy: 'grid', data: 'sample', from: parseTime('2024-01-01', 'from'), to: parseTime('2024-01-01T03:00', 'to'), fillModel: 'queue', latency: 'none', seed: '1', params: {} },
    dir,
  );
  html = readFileSync(join(dir, 'report.html'), 'utf8');
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the report is self-contained: uPlot inlined, nothing fetched, the chart data consistent', () => {
  // (uPlot's licence comment names its home page; nothing loads from it.)
  expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|<img[^>]+src=|url\(\s*["']?https?:|\bfetch\(|XMLHttpRequest/i);
  expect(html).toContain('var uPlot'); // the iife build, inlined
  const data = JSON.parse(/<script type="application\/json" id="chart-data">([\s\S]*?)<\/script>/.exec(html)![1]!);
  expect(data.symbol).toBe('BTCUSDT');
  // Per-minute closes of three hours (a minute with no print has no close).
  expect(data.priceTimes.length).toBeGreaterThan(150);
  expect(data.priceTimes.length).toBeLessThanOrEqual(180);
  expect(data.priceTimes.every((t: number, i: number) => i === 0 || t - data.priceTimes[i - 1] >= 60)).toBe(true);
  expect(data.prices).toHaveLength(data.priceTimes.length);
  expect(data.equity.length).toBe(data.equityTimes.length);
  expect(data.drawdown.every((x: number) => x <= 0)).toBe(true);
  expect(data.buys.length + data.sells.length).toBeGreaterThan(0);
});

test.skipIf(CHROMIUM === undefined)('headless Chromium renders the three charts', () => {
  const profile = mkdtempSync(join(tmpdir(), 'exsim-chromium-'));
  try {
    const run = spawnSync(
      CHROMIUM!,
      ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`, '--dump-dom', `file://${join(dir, 'report.html')}`],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('<body data-rendered="3">');
    expect(run.stdout.match(/<canvas /g)).toHaveLength(3);
    expect(run.stdout).toContain('class="uplot');
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
});
