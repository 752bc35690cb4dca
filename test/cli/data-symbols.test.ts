/**
 * Any symbol without a set-up step: `exsim data symbols` (the bundled snapshot of Binance's spot
 * rules, refreshed from a live exchangeInfo where a network exists, one line when not), and a
 * generated market of a symbol exsim has no rules for backtesting with and without --symbols.
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { symbolsCommand } from '../../src/cli/data-symbols.ts';
import { readSpotRules } from '../../src/data/spot-symbol-rules.ts';

const exsim = (...args: string[]) => spawnSync(process.execPath, ['bin/exsim.js', ...args], { encoding: 'utf8', timeout: 120_000 });
const dir = mkdtempSync(join(tmpdir(), 'exsim-symbols-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('exsim data symbols', () => {
  test('says what the bundled snapshot holds and as of when; the rules of a symbol named', () => {
    const snapshot = readSpotRules();
    const all = exsim('data', 'symbols');
    expect(all.status).toBe(0);
    expect(all.stdout).toContain(`${snapshot.symbols.length} Binance spot symbols as of ${snapshot.date}`);
    const ada = exsim('data', 'symbols', 'ADAUSDT');
    expect(ada.stdout.trim()).toBe('ADAUSDT TRADING ADA/USDT: tick 0.0001, step 0.1, min qty 0.1, min notional 5');
    const none = exsim('data', 'symbols', 'NOSUCHUSDT');
    expect(none.status).toBe(1);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
  });

  test('--update: the live answer trimmed into the snapshot; no network is one line and the snapshot stays', async () => {
    const file = join(dir, 'rules.json.gz');
    const server = createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ serverTime: Date.UTC(2026, 10, 1), symbols: [{ symbol: 'SOLUSDT', status: 'TRADING', baseAsset: 'SOL', quoteAsset: 'USDT', baseAssetPrecision: 8, quoteAssetPrecision: 8, filters: [{ filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '10000', tickSize: '0.01' }] }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const url = `http://127.0.0.1:${port}/api/v3/exchangeInfo`;
      expect(await symbolsCommand([], { update: true, url, file })).toEqual([`updated: 1 Binance spot symbols as of 2026-11-01 (GET ${url}): ${file}`]);
      expect(readSpotRules(file).symbols.map((s) => s.symbol)).toEqual(['SOLUSDT']);
    } finally {
      server.close();
    }
    const before = readFileSync(file);
    await expect(symbolsCommand([], { update: true, url: 'http://127.0.0.1:9/api/v3/exchangeInfo', file })).rejects.toThrow(/^cannot reach http:\/\/127\.0\.0\.1:9\/api\/v3\/exchangeInfo to refresh the symbol rules \(fetch failed.*\); the snapshot of 2026-11-01 stays in use$/);
    expect(readFileSync(file)).toEqual(before);
  });
});

test('a generated market of a symbol exsim has no rules for: its rules written beside it, backtested with and without --symbols', () => {
  const data = join(dir, 'sol');
  const gen = exsim('data', 'gen', '--out', data, '--symbol', 'SOLUSDT', '--price', '100', '--trades-per-day', '4000', '--median-qty', '0.5');
  expect(gen.status).toBe(0);
  expect(gen.stdout).toContain(`rules of SOLUSDT (tick 0.01, step 0.00001, no other filters: edit them for a real market): ${join(data, 'exsim-market.json')}`);
  const market = JSON.parse(readFileSync(join(data, 'exsim-market.json'), 'utf8'));
  expect(market.symbols.map((s: { symbol: string }) => s.symbol)).toEqual(['SOLUSDT']);
  for (const extra of [[], ['--symbols', 'SOLUSDT']]) {
    const run = exsim('backtest', 'trend', '--data', data, '--to', '2024-01-01T03:00', '--param', 'size=1', ...extra);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('backtest trend on SOLUSDT 2024-01-01T00:00:00.000000Z .. 2024-01-01T03:00:00.000000Z');
  }
  // The summary says where the rules came from (a run depends on them).
  const json = exsim('backtest', 'trend', '--data', data, '--to', '2024-01-01T01:00', '--json');
  expect(JSON.parse(json.stdout).market).toMatchObject({ symbols: ['SOLUSDT'], rules: 'exsim-market.json' });
});
