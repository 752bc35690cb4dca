/**
 * A backtest says what it runs before the replay (issue 26 point 6): `exsim backtest` prints the
 * headline's first line as soon as the data is open, and not again at the end; the output is the
 * same lines as before, the first one sooner.
 */
import { expect, test } from 'vitest';
import { backtestCommand } from '../../src/cli/backtest-command.ts';
import { headline, parseBacktestRequest, runBacktestRequest } from '../../src/backtest/index.ts';

const WINDOW = { data: 'sample', from: '2024-01-01T00:00', to: '2024-01-01T01:00', fillModel: 'queue', latency: 'none', seed: '1' };

test('onStart comes before the replay with the line the headline starts with', async () => {
  const order: string[] = [];
  let line = '';
  const request = parseBacktestRequest('trend', WINDOW);
  const { summary } = await runBacktestRequest(request, null, (p) => order.push(`progress ${p.prints}`), false, undefined, undefined, (l) => {
    line = l;
    order.push('start');
  });
  expect(order[0]).toBe('start');
  expect(order.filter((o) => o === 'start')).toHaveLength(1);
  expect(line).toBe('backtest trend on BTCUSDT 2024-01-01T00:00:00.000000Z .. 2024-01-01T01:00:00.000000Z from trades (fill model queue, seed 1)');
  expect(line).toBe(headline(summary)[0]);
});

test('the command prints it first and once', async () => {
  const lines: string[] = [];
  await backtestCommand('trend', WINDOW, (l) => lines.push(l));
  expect(lines[0]).toMatch(/^backtest trend on BTCUSDT 2024-01-01T00:00:00.000000Z .. 2024-01-01T01:00:00.000000Z from trades/);
  expect(lines.filter((l) => l === lines[0])).toHaveLength(1);
  expect(lines[1]).toMatch(/^ {2}book: /);
});
