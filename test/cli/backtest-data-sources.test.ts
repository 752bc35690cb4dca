/**
 * `exsim backtest` from whatever the user has: a folder of klines only or aggTrades only (made by
 * `exsim data gen --no-trades`) gives a report that names its source; before, both failed with
 * "no BTCUSDT trades files". Kline-path fills say which bar, path and leg filled them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const exsim = (...args: string[]) => spawnSync(process.execPath, ['bin/exsim.js', ...args], { encoding: 'utf8', timeout: 120_000 });
const root = mkdtempSync(join(tmpdir(), 'exsim-sources-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const gen = (name: string, ...args: string[]) => {
  const dir = join(root, name);
  const run = exsim('data', 'gen', '--out', dir, '--trades-per-day', '4000', '--csv', '--no-trades', ...args);
  expect(run.stderr).toBe('');
  return dir;
};

describe('backtests without trades files', () => {
  test('a klines-only folder (1m and 5m): the 1m klines, named in summary.json and the headline; fills.csv explains each market fill', () => {
    const data = gen('klines', '--klines', '1m,5m');
    expect(readdirSync(data).sort()).toEqual(['BTCUSDT-1m-2024-01-01.csv', 'BTCUSDT-5m-2024-01-01.csv']);
    const out = join(root, 'klines-out');
    const run = exsim('backtest', 'grid', '--data', data, '--to', '2024-01-01T03:00', '--out', out);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe(
      'backtest grid on BTCUSDT 2024-01-01T00:00:00.000000Z .. 2024-01-01T03:00:00.000000Z from klines:1m (prints along an intra-bar path: see fills.csv) (fill model queue, seed 1)',
    );
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.market).toMatchObject({ data, source: 'klines:1m', symbols: ['BTCUSDT'] });
    const fills = readFileSync(join(out, 'fills.csv'), 'utf8').trim().split('\n');
    expect(fills[0]).toBe('time,symbol,tradeId,orderId,side,price,qty,quoteQty,commission,commissionAsset,maker,print,rule');
    expect(fills.length - 1).toBe(summary.metrics.makerTaker.makerFills);
    expect(fills.length).toBeGreaterThan(1);
    for (const line of fills.slice(1)) {
      const cells = line.split(',');
      // The bar opens at or before the fill, within its minute.
      const match = /^kline (2024-01-01T\d\d:\d\d):00\.000000Z adaptive:O(HL|LH)C (open|O-H|H-L|L-C|O-L|L-H|H-C)$/.exec(cells[11]!);
      expect(match, line).not.toBeNull();
      expect(cells[0]!.startsWith(match![1]!)).toBe(true);
      // The rule with its numbers: which model filled it and the queue ahead before and after.
      expect(cells[12]).toMatch(/^(QUEUE_POSITION|TRADE_THROUGH) tapeTrade=\d+ .*model=queue-risk-averse/);
    }
  });

  test('an aggTrades-only folder: one print per aggregate, source aggTrades', () => {
    const data = gen('agg', '--klines', '', '--agg-trades');
    expect(readdirSync(data)).toEqual(['BTCUSDT-aggTrades-2024-01-01.csv']);
    const out = join(root, 'agg-out');
    const run = exsim('backtest', 'trend', '--data', data, '--to', '2024-01-01T06:00', '--out', out);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^backtest trend on BTCUSDT 2024-01-01T00:00:00\.000000Z \.\. 2024-01-01T06:00:00\.000000Z from aggTrades \(fill model/);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.market.source).toBe('aggTrades');
    // The aggregates stamped before 06:00 (times in ms in a 2024 dump).
    const aggRows = readFileSync(join(data, 'BTCUSDT-aggTrades-2024-01-01.csv'), 'utf8').trim().split('\n').filter((l) => Number(l.split(',')[5]) < Date.UTC(2024, 0, 1, 6));
    expect(summary.replay.prints).toBe(aggRows.length);
  });

  test('the bundled sample has trades: source trades', () => {
    const run = exsim('backtest', 'trend', '--to', '2024-01-01T00:30', '--json');
    expect(JSON.parse(run.stdout).market.source).toBe('trades');
  });

  test('--no-trades with nothing else to write is a one-line error', () => {
    const run = exsim('data', 'gen', '--out', join(root, 'none'), '--no-trades', '--klines', '');
    expect(run.stderr.trim()).toBe('exsim: --no-trades needs --klines or --agg-trades (something to write)');
    expect(run.status).toBe(1);
  });
});
