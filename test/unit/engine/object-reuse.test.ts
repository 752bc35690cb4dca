/**
 * What the matching core reuses instead of allocating, and why nobody can tell: a closed plain
 * order's object becomes a later order (Order.reuse, order-lifecycle.ts), and Engine.apply keeps
 * no reference to a PlaceOrder or CancelOrder, so a caller may refill one command object (the
 * matching-core bench does).
 */
import { describe, expect, it } from 'vitest';
import { Account, ZERO_RATES } from '../../../src/engine/accounts/account.ts';
import type { CancelOrder, PlaceOrder } from '../../../src/engine/commands.ts';
import { Order, OrderExtras } from '../../../src/engine/order.ts';
import { computeStateHash } from '../../../src/engine/state-hash.ts';
import type { EngineState } from '../../../src/engine/engine-state.ts';
import { Sim, u } from './helpers.ts';

const account = (id: number) => new Account(id - 1, id, ZERO_RATES, ZERO_RATES, ZERO_RATES, { enabled: false, asset: 'BNB', rate: 0 }, ['SPOT'], true, -1);

function stateOf(sim: Sim): EngineState {
  return (sim.engine as unknown as { state: EngineState }).state;
}

describe('Order.reuse', () => {
  it('leaves an order exactly as the constructor builds it, every field in the same order', () => {
    const args = [0, 42, 'exsim0o42', account(7), true, 'LIMIT', 'IOC', 1234, 56, 0, 'EXPIRE_MAKER', 1_700_000_000_000_123, 5, 6] as const;
    const fresh = new Order(...args);
    const used = new Order(1, 9, 'old', account(3), false, 'LIMIT_MAKER', 'GTC', 99, 1, 7, 'NONE', 1, null, null);
    // Everything an order can go through: fills, prevention, book links, extras, closing.
    Object.assign(used, { executedSteps: 1, preventedSteps: 2, cumQuote: 3, status: 'FILLED', expiryReason: 'INSUFFICIENT_LIQUIDITY', updateTime: 4, workingTime: 5, preventedMatchId: 6, locked: 7, clientIdChosen: true, ext: new OrderExtras() });
    used.prev = fresh;
    used.next = fresh;
    used.reuse(...args);
    expect(Object.entries(used)).toEqual(Object.entries(fresh));
    expect(Object.keys(used)).toEqual(Object.keys(fresh));
  });
});

describe('recycled orders', () => {
  it('a canceled plain order becomes the next one; both read back as themselves', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '10000', BTC: '10' });
    sim.createAccount(2, { USDT: '10000', BTC: '10' });
    sim.buy(1, '1', '100'); // 1
    const first = stateOf(sim).symbols.get('BTCUSDT')!.live.get(1);
    sim.cancel(1, { orderId: 1 });
    sim.sell(2, '2', '101'); // 2: built on order 1's object
    const symbol = stateOf(sim).symbols.get('BTCUSDT')!;
    expect(symbol.live.get(2)).toBe(first);
    expect(symbol.live.get(1)).toBeUndefined();
    expect(sim.order(1, 1)).toMatchObject({ orderId: 1, status: 'CANCELED', side: 'BUY', price: u('100'), origQty: u('1'), lockedAmount: 0 });
    expect(sim.order(2, 2)).toMatchObject({ orderId: 2, status: 'NEW', side: 'SELL', price: u('101'), origQty: u('2'), executedQty: 0, lockedAmount: u('2') });
    expect(sim.engine.depth('BTCUSDT', 5)).toMatchObject({ bids: [], asks: [[u('101'), u('2')]] });
    sim.engine.checkInvariants();
  });

  it('an order is not reused by the command that closed it (its events are built from it)', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '10000', BTC: '10' });
    sim.createAccount(2, { USDT: '10000', BTC: '10' });
    sim.sell(1, '1', '100'); // 1
    // The taker fills maker 1 (closed FILLED) and rests its remainder: a new object, not order 1's.
    const events = sim.buy(2, '3', '100').events; // 2
    expect(events.map((e) => e.type)).toEqual(['OrderAccepted', 'TradeExecuted']);
    expect(events[1]).toMatchObject({ makerOrderId: 1, takerOrderId: 2, makerStatus: 'FILLED', takerStatus: 'PARTIALLY_FILLED' });
    expect(sim.order(1, 1)).toMatchObject({ status: 'FILLED', executedQty: u('1') });
    expect(sim.order(2, 2)).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: u('1') });
    sim.engine.checkInvariants();
  });
});

describe('Engine.apply keeps no reference to a command', () => {
  it('one PlaceOrder and one CancelOrder object refilled for every command: same state as fresh ones', () => {
    const fresh = new Sim();
    const reused = new Sim();
    const place: PlaceOrder = { type: 'PlaceOrder', time: 0, accountId: 0, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: 0, quantity: 0 };
    const cancel: CancelOrder = { type: 'CancelOrder', time: 0, accountId: 0, symbol: 'BTCUSDT', orderId: 0 };
    for (const sim of [fresh, reused]) {
      sim.createAccount(1, { USDT: '10000', BTC: '10' });
      sim.createAccount(2, { USDT: '10000', BTC: '10' });
    }
    const steps: [accountId: number, side: 'BUY' | 'SELL', price: string, qty: string, cancelId: number][] = [
      [1, 'BUY', '100', '1', 0],
      [2, 'SELL', '101', '2', 0],
      [1, 'BUY', '99', '1', 1],
      [2, 'SELL', '99', '1.5', 0],
      [1, 'BUY', '102', '1', 3],
    ];
    for (const [accountId, side, price, qty, cancelId] of steps) {
      const time = (fresh.now += 10);
      reused.now = time;
      if (cancelId !== 0) {
        const a = fresh.engine.apply({ type: 'CancelOrder', time, accountId, symbol: 'BTCUSDT', orderId: cancelId });
        Object.assign(cancel, { time, accountId, orderId: cancelId });
        expect(reused.engine.apply(cancel)).toEqual(a);
      }
      const a = fresh.engine.apply({ type: 'PlaceOrder', time, accountId, symbol: 'BTCUSDT', side, orderType: 'LIMIT', timeInForce: 'GTC', price: u(price), quantity: u(qty) });
      Object.assign(place, { time, accountId, side, price: u(price), quantity: u(qty) });
      expect(reused.engine.apply(place)).toEqual(a);
      // Scribbling on the command afterwards changes nothing the engine holds.
      Object.assign(place, { accountId: 2, side: side === 'BUY' ? 'SELL' : 'BUY', price: 1, quantity: 1 });
      Object.assign(cancel, { accountId: 2, orderId: 1 });
      expect(computeStateHash(stateOf(reused))).toBe(computeStateHash(stateOf(fresh)));
    }
    reused.engine.checkInvariants();
  });
});
