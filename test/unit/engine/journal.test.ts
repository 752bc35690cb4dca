import { describe, expect, it } from 'vitest';
import type { EngineCommand } from '../../../src/engine/commands.ts';
import { Journal, JournaledEngine, rebuildFromJournal } from '../../../src/engine/journal.ts';
import { journalLine } from '../../../src/engine/journal-line.ts';
import type { EngineConfig } from '../../../src/engine/symbol-config.ts';
import { px, qty, symbolConfig, u } from './helpers.ts';

const config: EngineConfig = { symbols: [symbolConfig({ defaultSelfTradePreventionMode: 'EXPIRE_MAKER' })] };

function commands(): EngineCommand[] {
  let t = 1_000_000;
  const time = () => (t += 10);
  const fee = { maker: 100_000, taker: 100_000, buyer: 0, seller: 0 };
  return [
    { type: 'CreateAccount', time: time(), accountId: 1, balances: { USDT: u('10000'), BTC: qty('10') }, standardCommission: fee },
    { type: 'CreateAccount', time: time(), accountId: 2, balances: { USDT: u('10000'), BTC: qty('10') }, standardCommission: fee },
    { type: 'PlaceOrder', time: time(), accountId: 1, symbol: 'BTCUSDT', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: px('101'), quantity: qty('2') },
    { type: 'PlaceOrder', time: time(), accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: px('99'), quantity: qty('1') },
    { type: 'PlaceOrder', time: time(), accountId: 2, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'IOC', price: px('101'), quantity: qty('3') },
    { type: 'PlaceOrder', time: time(), accountId: 2, symbol: 'BTCUSDT', side: 'SELL', orderType: 'MARKET', quantity: qty('0.5') },
    { type: 'PlaceOrder', time: time(), accountId: 1, symbol: 'BTCUSDT', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: px('99'), quantity: qty('0.1') },
    { type: 'PlaceOrder', time: time(), accountId: 2, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT_MAKER', price: px('200'), quantity: qty('1') },
    { type: 'CancelOrder', time: time(), accountId: 1, symbol: 'BTCUSDT', orderId: 4 },
    { type: 'AdjustBalance', time: time(), accountId: 2, asset: 'USDT', delta: u('5') },
    { type: 'SetReferencePrice', time: time(), symbol: 'BTCUSDT', price: px('100') },
  ];
}

function run(): JournaledEngine {
  const j = new JournaledEngine(config);
  for (const c of commands()) j.apply(c);
  return j;
}

describe('journal', () => {
  it('records every command with the events it produced, numbered from 1', () => {
    const j = run();
    expect(j.journal.entries).toHaveLength(commands().length);
    expect(j.journal.entries.map((e) => e.seq)).toEqual(commands().map((_, i) => i + 1));
    expect(j.journal.entries[4]?.events.map((e) => e.type)).toEqual(['OrderAccepted', 'TradeExecuted', 'OrderExpired']);
    // The refused LIMIT_MAKER is journaled with its rejection.
    expect(j.journal.entries[7]?.events.map((e) => e.type)).toEqual(['OrderRejected']);
  });

  it('the same command stream twice gives the same journal hash and state hash', () => {
    const a = run();
    const b = run();
    expect(a.journal.hash()).toMatch(/^[0-9a-f]{64}$/);
    expect(b.journal.hash()).toBe(a.journal.hash());
    expect(b.engine.stateHash()).toBe(a.engine.stateHash());
  });

  it('a different command stream gives a different journal hash', () => {
    const a = run();
    const b = new JournaledEngine(config);
    const cs = commands();
    cs[6] = { ...(cs[6] as EngineCommand & { type: 'PlaceOrder' }), quantity: qty('0.2') };
    for (const c of cs) b.apply(c);
    expect(b.journal.hash()).not.toBe(a.journal.hash());
  });

  it('rebuildFromJournal reproduces the state hash', () => {
    const a = run();
    const rebuilt = rebuildFromJournal(config, a.journal);
    expect(rebuilt.stateHash()).toBe(a.engine.stateHash());
  });

  it('survives its JSON-lines form', () => {
    const a = run();
    const text = a.journal.toJsonLines();
    expect(text.split('\n').filter((l) => l !== '')).toHaveLength(commands().length);
    const parsed = Journal.fromJsonLines(text);
    expect(parsed.hash()).toBe(a.journal.hash());
    expect(rebuildFromJournal(config, parsed).stateHash()).toBe(a.engine.stateHash());
  });

  it('an empty journal is empty text and rebuilds a fresh engine', () => {
    const j = new Journal();
    expect(j.toJsonLines()).toBe('');
    expect(rebuildFromJournal(config, j).accountIds()).toEqual([]);
  });

  it('a tampered event fails to rebuild', () => {
    const a = run();
    const text = a.journal.toJsonLines().replace(`"quantity":${qty('2')}`, `"quantity":${qty('2.5')}`);
    expect(text).not.toBe(a.journal.toJsonLines());
    expect(() => rebuildFromJournal(config, Journal.fromJsonLines(text))).toThrow(/does not replay/);
  });

  it('a tampered command fails to rebuild', () => {
    const a = run();
    const lines = a.journal.toJsonLines().split('\n');
    lines[4] = (lines[4] as string).replace(`"price":${px('101')},"quantity":${qty('3')}`, `"price":${px('101')},"quantity":${qty('1')}`);
    expect(() => rebuildFromJournal(config, Journal.fromJsonLines(lines.join('\n')))).toThrow(/does not replay/);
  });

  it('a dropped entry fails to rebuild', () => {
    const a = run();
    const lines = a.journal.toJsonLines().split('\n');
    lines.splice(2, 1);
    expect(() => rebuildFromJournal(config, Journal.fromJsonLines(lines.join('\n')))).toThrow();
  });
});

describe('journalLine of a replayed print (written out, not through JSON.stringify)', () => {
  const event = { type: 'MarketTradeRecorded', time: 1_704_067_200_123_456, symbol: 'BTCUSDT', tradeId: 42, price: 4_200_012_000_000, quantity: 80_000, quoteQuantity: 3_360_009_600, isBuyerMaker: true } as const;
  const stringified = (seq: number, command: EngineCommand, events: readonly unknown[]): string => `${JSON.stringify({ seq, command, events })}\n`;

  it('has JSON.stringify bytes, with and without a venue trade id', () => {
    const plain: EngineCommand = { type: 'RecordMarketTrade', time: 1_704_067_200_123_456, symbol: 'BTCUSDT', price: 4_200_012_000_000, quantity: 80_000, isBuyerMaker: true };
    const withId: EngineCommand = { ...plain, tradeId: 42 };
    expect(journalLine(7, plain, [event])).toBe(stringified(7, plain, [event]));
    expect(journalLine(8, withId, [event])).toBe(stringified(8, withId, [event]));
    expect(journalLine(7, plain, [event])).toBe(
      '{"seq":7,"command":{"type":"RecordMarketTrade","time":1704067200123456,"symbol":"BTCUSDT","price":4200012000000,"quantity":80000,"isBuyerMaker":true},"events":[{"type":"MarketTradeRecorded","time":1704067200123456,"symbol":"BTCUSDT","tradeId":42,"price":4200012000000,"quantity":80000,"quoteQuantity":3360009600,"isBuyerMaker":true}]}\n',
    );
  });

  it('any other form (keys in another order, an extra key, an explicit undefined) is what JSON.stringify writes', () => {
    const reordered = { type: 'RecordMarketTrade', symbol: 'BTCUSDT', time: 5, price: 1, quantity: 2, isBuyerMaker: false } as EngineCommand;
    const extra = { type: 'RecordMarketTrade', time: 5, symbol: 'BTCUSDT', price: 1, quantity: 2, isBuyerMaker: false, note: 'x' } as unknown as EngineCommand;
    const undefinedId = { type: 'RecordMarketTrade', time: 5, symbol: 'BTCUSDT', price: 1, quantity: 2, isBuyerMaker: false, tradeId: undefined } as unknown as EngineCommand;
    const quoted = { type: 'RecordMarketTrade', time: 5, symbol: 'A"B', price: 1, quantity: 2, isBuyerMaker: false } as EngineCommand;
    for (const command of [reordered, extra, undefinedId, quoted]) expect(journalLine(3, command, [event])).toBe(stringified(3, command, [event]));
    expect(journalLine(3, reordered, [{ ...event, extra: 1 } as never])).toBe(stringified(3, reordered, [{ ...event, extra: 1 }]));
  });
});
