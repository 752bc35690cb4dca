/**
 * The backtest's default journal: a compact streaming hash that tells different entries apart
 * (strings split differently, a field moved, a boolean for a number), is the same for the same
 * entries, forwards everything to a tee, and keeps the strategy's commands.
 */
import { expect, test } from 'vitest';
import type { EngineCommand, EngineEvent } from '../../src/engine/index.ts';
import { BacktestDigest } from '../../src/backtest/backtest-digest.ts';
import { Journal } from '../../src/engine/index.ts';

type Entry = [EngineCommand, EngineEvent[]];
const print = (time: number, price: number): Entry => [
  { type: 'RecordMarketTrade', time, symbol: 'BTCUSDT', price, quantity: 5, isBuyerMaker: true },
  [{ type: 'MarketTradeRecorded', time, symbol: 'BTCUSDT', tradeId: time, price, quantity: 5, quoteQuantity: price * 5, isBuyerMaker: true }],
];
const cancel = (accountId: number, clientOrderId: string): Entry => [
  { type: 'CancelOrder', time: 9, accountId, symbol: 'BTCUSDT', origClientOrderId: clientOrderId } as EngineCommand,
  [],
];

function digest(entries: readonly Entry[], tee?: Journal): BacktestDigest {
  const d = new BacktestDigest({ strategyAccountId: 1, tee: tee ?? null });
  for (const [command, events] of entries) d.record(command, events);
  return d;
}

test('the same entries give the same hash; any difference changes it', () => {
  const base = [print(1, 100), cancel(1, 'AB'), print(2, 101)];
  const hash = digest(base).hash();
  expect(digest(base).hash()).toBe(hash);
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
  const variants: Entry[][] = [
    [print(1, 100), cancel(1, 'ABC'), print(2, 101)],
    [print(1, 100), cancel(2, 'AB'), print(2, 101)],
    [print(1, 100), print(2, 101), cancel(1, 'AB')],
    [print(1, 100), cancel(1, 'AB'), print(2, 102)],
    [print(1, 100), cancel(1, 'AB')],
  ];
  const hashes = variants.map((v) => digest(v).hash());
  expect(new Set([hash, ...hashes]).size).toBe(variants.length + 1);
  // Text is hashed by length as well as content: "AB"+"C" is not "A"+"BC".
  const split1 = digest([cancel(1, 'AB'), cancel(1, 'C')]).hash();
  const split2 = digest([cancel(1, 'A'), cancel(1, 'BC')]).hash();
  expect(split1).not.toBe(split2);
});

test('it forwards every entry to the tee, keeps the strategy account\'s commands and fingerprints the tape apart', () => {
  const tee = new Journal();
  const d = digest([print(1, 100), cancel(1, 'AB'), cancel(3, 'book'), print(2, 101)], tee);
  expect(tee.entries).toHaveLength(4);
  expect(d.entries).toBe(4);
  expect(d.strategyCommands).toEqual([cancel(1, 'AB')[0]]);
  const a = new BacktestDigest({ strategyAccountId: 1 });
  const b = new BacktestDigest({ strategyAccountId: 1 });
  a.print('BTCUSDT', 7, 1, 100, 5, true);
  b.print('BTCUSDT', 7, 1, 100, 5, false);
  expect(a.tapeHash()).not.toBe(b.tapeHash());
  expect(a.prints).toBe(1);
});
