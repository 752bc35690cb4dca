/**
 * A backtest over an exsim recording: the book is the one Binance's local-book recipe rebuilds
 * from the recorded diffs (named `recorded L2 (exsim recording)`), the trades keep the venue's
 * ids, and a gap in the recorded diffs is said once (a warning line, summary.json) and shows as
 * an empty book until the next snapshot resynchronises it.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import type { StrategyContext } from '../../src/backtest/strategy.ts';
import { formatRecordingFileName } from '../../src/data/index.ts';
import { at, B, diff, recordingFile, snapshot, trade } from '../unit/data/recording/recording-fixture.ts';

test('the recorded book, the venue trade ids and a gap resynchronised at the next snapshot', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'exsim-rec-bt-'));
  mkdirSync(join(dir, 'BTCUSDT'));
  recordingFile(
    [
      at(B + 10, snapshot(100, [['42000.00', '1.000'], ['41999.99', '2.000']], [['42000.01', '1.500'], ['42000.02', '3.000']])),
      at(B + 100, diff(B + 100, 101, 102, [['42000.00', '0.500']], [['42000.03', '4.000']])),
      at(B + 150, trade(B + 150, 5001, '42000.01', '0.100', false)),
      // Update ids jump from 102 to 110: the book cannot be trusted until the next snapshot.
      at(B + 200, diff(B + 200, 110, 111, [['41999.98', '7.000']])),
      at(B + 300, snapshot(120, [['42000.05', '1.000']], [['42000.06', '2.000']])),
      at(B + 310, diff(B + 310, 121, 121, [['42000.04', '0.250']])),
      at(B + 350, trade(B + 350, 5002, '42000.06', '0.200', false)),
    ],
    formatRecordingFileName('BTCUSDT', '2024-01-01'),
    join(dir, 'BTCUSDT'),
  );
  const books: Record<string, { bids: string[][]; asks: string[][] }> = {};
  const warnings: string[] = [];
  const tradeIds: number[] = [];
  const result = await runBacktest({
    data: dir,
    from: B * 1000,
    to: B * 1000 + 1_000_000,
    onDataWarning: (line) => warnings.push(line),
    strategy: {
      name: 'looker',
      path: 'inline',
      params: {},
      balances: undefined,
      fees: undefined,
      bnbDiscount: undefined,
      description: 'reads the book at three moments',
      run: async (ctx: StrategyContext) => {
        for (const [name, ms] of [['after the first diff', 120], ['in the gap', 250], ['resynchronised', 320]] as const) {
          await ctx.clock.sleep(ms - (ctx.clock.now() - B));
          books[name] = await ctx.client.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5 });
        }
        await ctx.clock.sleep(100);
        tradeIds.push(...(await ctx.client.get<{ id: number }[]>('/api/v3/trades', { symbol: 'BTCUSDT' })).map((t) => t.id));
      },
    },
  });
  expect(result.books).toEqual({ BTCUSDT: 'recorded L2 (exsim recording)' });
  expect(books['after the first diff']).toMatchObject({
    bids: [['42000.00000000', '0.50000000'], ['41999.99000000', '2.00000000']],
    asks: [['42000.01000000', '1.50000000'], ['42000.02000000', '3.00000000'], ['42000.03000000', '4.00000000']],
  });
  expect(books['in the gap']).toMatchObject({ bids: [], asks: [] });
  expect(books['resynchronised']).toMatchObject({ bids: [['42000.05000000', '1.00000000'], ['42000.04000000', '0.25000000']], asks: [['42000.06000000', '2.00000000']] });
  expect(result.fills).toEqual([]);
  expect(tradeIds).toEqual([5001, 5002]);
  expect(result.dataNotes['BTCUSDT']!.gaps).toHaveLength(1);
  expect(warnings).toEqual(result.dataNotes['BTCUSDT']!.gaps);
  expect(warnings[0]).toMatch(/^BTCUSDT depth gap 2024-01-01T00:00:00\.\d{6}Z \.\. 2024-01-01T00:00:00\.3\d{5}Z: /);
});
