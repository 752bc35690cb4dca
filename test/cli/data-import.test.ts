/**
 * `exsim data import` through the real binary: generated dumps (with a Binance-style CHECKSUM
 * file) and a sample file land in DIR/<SYMBOL>/ with the market rules; the imported folder
 * backtests; a dump whose checksum does not match, or a file that is no dump, is a one-line error.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const exsim = (...args: string[]) => spawnSync(process.execPath, ['bin/exsim.js', ...args], { encoding: 'utf8', timeout: 120_000 });
const dir = mkdtempSync(join(tmpdir(), 'exsim-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('imports checked dumps with their rules; the folder backtests', () => {
  const src = join(dir, 'download');
  const out = join(dir, 'market');
  expect(exsim('data', 'gen', '--out', src, '--symbol', 'SOLUSDT', '--price', '100', '--tick', '0.01', '--step', '0.001', '--median-qty', '1', '--trades-per-day', '3000').status).toBe(0);
  const zip = join(src, 'SOLUSDT-trades-2024-01-01.zip');
  writeFileSync(`${zip}.CHECKSUM`, `${createHash('sha256').update(readFileSync(zip)).digest('hex')}  SOLUSDT-trades-2024-01-01.zip\n`);
  const run = exsim('data', 'import', src, 'data/sample/BTCUSDT-trades-2024-01-01.zip', '--out', out);
  expect(run.stderr).toBe('');
  expect(run.stdout).toContain(`imported 3 files of BTCUSDT, SOLUSDT into ${out}`);
  expect(readdirSync(join(out, 'SOLUSDT')).sort()).toEqual(['SOLUSDT-1m-2024-01-01.zip', 'SOLUSDT-trades-2024-01-01.zip']);
  const market = JSON.parse(readFileSync(join(out, 'exsim-market.json'), 'utf8'));
  const sol = market.symbols.find((s: { symbol: string }) => s.symbol === 'SOLUSDT');
  expect(sol).toMatchObject({ baseAsset: 'SOL', quoteAsset: 'USDT' });
  expect(sol.filters[0]).toMatchObject({ filterType: 'PRICE_FILTER', tickSize: '0.01000000' });
  expect(sol.filters[1]).toMatchObject({ filterType: 'LOT_SIZE', stepSize: '0.00100000' });
  const backtest = exsim('backtest', 'grid', '--data', out, '--symbols', 'SOLUSDT', '--param', 'size=1', '--to', '2024-01-01T02:00');
  expect(backtest.status).toBe(0);
  expect(backtest.stdout).toContain('backtest grid on SOLUSDT');
});

test('a dump that does not match its CHECKSUM is refused', () => {
  const src = join(dir, 'bad');
  expect(exsim('data', 'gen', '--out', src, '--trades-per-day', '500', '--klines', '').status).toBe(0);
  writeFileSync(join(src, 'BTCUSDT-trades-2024-01-01.zip.CHECKSUM'), `${'0'.repeat(64)}  BTCUSDT-trades-2024-01-01.zip\n`);
  const run = exsim('data', 'import', src, '--out', join(dir, 'bad-out'));
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/BTCUSDT-trades-2024-01-01\.zip: SHA-256 [0-9a-f]{64} does not match BTCUSDT-trades-2024-01-01\.zip\.CHECKSUM/);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  const notDump = exsim('data', 'import', 'package.json', '--out', join(dir, 'x'));
  expect(notDump.status).toBe(1);
  expect(notDump.stderr).toContain('package.json: not a Binance dump file name');
});
