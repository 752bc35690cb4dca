import { describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine.ts';
import type { EngineCommand } from '../../../src/engine/commands.ts';
import { Sim, expectRejectedWithoutChange, px, qty, rejectionOf, symbolConfig, u } from './helpers.ts';

describe('engine contract', () => {
  it('a command older than the previous one throws; the same time is fine', () => {
    const engine = new Engine({ symbols: [symbolConfig()] });
    engine.apply({ type: 'CreateAccount', time: 100, accountId: 1 });
    expect(() => engine.apply({ type: 'CreateAccount', time: 99, accountId: 2 })).toThrow(/time ran backwards/);
    expect(engine.apply({ type: 'CreateAccount', time: 100, accountId: 2 })[0]?.type).toBe('AccountCreated');
    expect(engine.time).toBe(100);
  });

  it('every event carries the time of its command', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '1000', BTC: '1' });
    sim.sell(1, '1', '100');
    const events = sim.apply({ type: 'PlaceOrder', time: sim.now + 500, accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: px('100'), quantity: qty('1') });
    expect(events.length).toBeGreaterThan(1);
    for (const e of events) expect(e.time).toBe(sim.now);
  });

  it('a refused command emits exactly one OrderRejected and leaves the state hash unchanged', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '100', BTC: '1' });
    sim.sell(1, '0.5', '100');
    const before = sim.engine.stateHash();
    const refused: Parameters<Sim['apply']>[0][] = [
      sim.placeCommand(1, { side: 'BUY', price: '100', qty: '2' }), // funds
      sim.placeCommand(1, { side: 'BUY', price: '100.001', qty: '0.1' }), // tick
      sim.placeCommand(1, { side: 'BUY', type: 'LIMIT_MAKER', price: '100', qty: '0.1' }), // would take
      { type: 'CancelOrder', accountId: 1, symbol: 'BTCUSDT', orderId: 9 },
      { type: 'CancelAllOrders', accountId: 2, symbol: 'BTCUSDT' },
      { type: 'AdjustBalance', accountId: 1, asset: 'USDT', delta: -u('101') },
      { type: 'CreateAccount', accountId: 1 },
      { type: 'SetReferencePrice', symbol: 'BTCUSDT', price: -5 },
    ];
    for (const command of refused) {
      const events = sim.apply(command); // each one later than the one before
      expect(events).toHaveLength(1);
      expect(events[0]?.type).toBe('OrderRejected');
      expect(sim.engine.stateHash()).toBe(before);
    }
    sim.engine.checkInvariants();
  });

  it('the OrderRejected names the command, account and symbol', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '1' });
    const events = sim.buy(1, '1', '100').events;
    expect(events[0]).toEqual({ type: 'OrderRejected', time: sim.now, command: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', reason: 'INSUFFICIENT_BALANCE' });
  });

  it('two engines fed the same commands produce the same events and state hash', () => {
    const script: EngineCommand[] = [
      { type: 'CreateAccount', time: 1, accountId: 1, balances: { USDT: u('1000'), BTC: qty('5') } },
      { type: 'CreateAccount', time: 2, accountId: 2, balances: { USDT: u('1000'), BTC: qty('5') } },
      { type: 'PlaceOrder', time: 3, accountId: 1, symbol: 'BTCUSDT', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: px('100'), quantity: qty('1') },
      { type: 'PlaceOrder', time: 4, accountId: 2, symbol: 'BTCUSDT', side: 'BUY', orderType: 'MARKET', quoteOrderQty: u('50') },
      { type: 'PlaceOrder', time: 5, accountId: 2, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: px('99'), quantity: qty('2') },
      { type: 'CancelAllOrders', time: 6, accountId: 2, symbol: 'BTCUSDT' },
    ];
    const a = new Engine({ symbols: [symbolConfig()] });
    const b = new Engine({ symbols: [symbolConfig()] });
    const ea = script.map((c) => a.apply(c));
    const eb = script.map((c) => b.apply(c));
    expect(JSON.stringify(eb)).toBe(JSON.stringify(ea));
    expect(b.stateHash()).toBe(a.stateHash());
    expect(a.stateHash()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the state hash changes when the state does', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '1000' });
    const h1 = sim.engine.stateHash();
    sim.buy(1, '1', '100');
    expect(sim.engine.stateHash()).not.toBe(h1);
  });

  it('SetReferencePrice sets and clears the reference price', () => {
    const sim = new Sim();
    expect(sim.apply({ type: 'SetReferencePrice', symbol: 'BTCUSDT', price: px('123') })[0]).toMatchObject({ type: 'ReferencePriceChanged', price: px('123') });
    expect(sim.engine.referencePrice('BTCUSDT')).toBe(px('123'));
    sim.apply({ type: 'SetReferencePrice', symbol: 'BTCUSDT', price: null });
    expect(sim.engine.referencePrice('BTCUSDT')).toBeNull();
    expectRejectedWithoutChange(sim, { type: 'SetReferencePrice', symbol: 'XYZ', price: 1 }, 'UNKNOWN_SYMBOL');
    expectRejectedWithoutChange(sim, { type: 'SetReferencePrice', symbol: 'BTCUSDT', price: 0 }, 'INVALID_AMOUNT');
  });

  it('a bad configuration is refused at construction', () => {
    expect(() => new Engine({ symbols: [symbolConfig(), symbolConfig()] })).toThrow(/twice/);
    expect(() => new Engine({ symbols: [symbolConfig({}, [{ filterType: 'PRICE_FILTER', minPrice: '0.000000001', maxPrice: '0', tickSize: '0.01' }])] })).toThrow();
  });

  it('an asset precision other than 8 scales amounts accordingly', () => {
    const engine = new Engine({ symbols: [{ symbol: 'XY', baseAsset: 'X', quoteAsset: 'Y', filters: [{ filterType: 'PRICE_FILTER', minPrice: '0.05', maxPrice: '0', tickSize: '0.05' }, { filterType: 'LOT_SIZE', minQty: '1', maxQty: '0', stepSize: '1' }] }], assets: [{ asset: 'X', precision: 0 }, { asset: 'Y', precision: 2 }] });
    engine.apply({ type: 'CreateAccount', time: 1, accountId: 1, balances: { X: 10 } });
    engine.apply({ type: 'CreateAccount', time: 1, accountId: 2, balances: { Y: 10_000 } }); // 100.00 Y
    engine.apply({ type: 'PlaceOrder', time: 2, accountId: 1, symbol: 'XY', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: 1_250, quantity: 3 }); // 3 X at 12.50
    const events = engine.apply({ type: 'PlaceOrder', time: 3, accountId: 2, symbol: 'XY', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: 1_250, quantity: 2 });
    expect(events.find((e) => e.type === 'TradeExecuted')).toMatchObject({ price: 1_250, quantity: 2, quoteQuantity: 2_500 });
    expect(engine.account(2)?.balances).toEqual([
      { asset: 'X', free: 2, locked: 0 },
      { asset: 'Y', free: 7_500, locked: 0 },
    ]);
    expect(rejectionOf(engine.apply({ type: 'PlaceOrder', time: 4, accountId: 2, symbol: 'XY', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: 1_253, quantity: 1 }))).toBe('FILTER_PRICE_FILTER');
  });
});
