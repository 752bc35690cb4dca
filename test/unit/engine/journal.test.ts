import { describe, expect, it } from 'vitest';
import type { EngineCommand } from '../../../src/engine/commands.ts';
import { Journal, JournaledEngine, rebuildFromJournal } from '../../../src/engine/journal.ts';
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
