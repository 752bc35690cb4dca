import { describe, expect, it } from 'vitest';
import { Sim, expectRejectedWithoutChange, qty, u } from '../helpers.ts';

describe('funds', () => {
  it('reserve on acceptance, settle on fills, release on cancel', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '1000' });
    sim.createAccount(2, { BTC: '5' });
    sim.buy(1, '4', '100'); // locks 400
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('600'), locked: u('400') });
    sim.sell(2, '1', '100'); // fills 1: 100 leaves the lock
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('600'), locked: u('300') });
    expect(sim.balance(1, 'BTC')).toEqual({ free: qty('1'), locked: 0 });
    expect(sim.balance(2, 'BTC')).toEqual({ free: qty('4'), locked: 0 });
    expect(sim.balance(2, 'USDT')).toEqual({ free: u('100'), locked: 0 });
    sim.cancel(1, { orderId: 1 });
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('900'), locked: 0 });
    sim.engine.checkInvariants();
  });

  it('a SELL reserves base and releases the unsold part on cancel', () => {
    const sim = new Sim();
    sim.createAccount(1, { BTC: '5' });
    sim.createAccount(2, { USDT: '1000' });
    sim.sell(1, '3', '100');
    expect(sim.balance(1, 'BTC')).toEqual({ free: qty('2'), locked: qty('3') });
    sim.buy(2, '1.5', '100');
    expect(sim.balance(1, 'BTC')).toEqual({ free: qty('2'), locked: qty('1.5') });
    sim.cancel(1, { orderId: 1 });
    expect(sim.balance(1, 'BTC')).toEqual({ free: qty('3.5'), locked: 0 });
  });

  it('price improvement on a resting BUY limit releases the difference fill by fill', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '1000' });
    sim.createAccount(2, { BTC: '5' });
    sim.sell(2, '1', '90');
    sim.sell(2, '1', '95');
    sim.buy(1, '3', '100'); // pays 90 + 95, rests 1 at 100
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('1000') - u('185') - u('100'), locked: u('100') });
    expect(sim.order(1, 3).lockedAmount).toBe(u('100'));
  });

  it('release on expiry (IOC)', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '1000' });
    sim.buy(1, '4', '100', { tif: 'IOC' });
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('1000'), locked: 0 });
  });

  it('release on STP expiry of a maker', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '1000', BTC: '1' });
    sim.buy(1, '4', '100');
    sim.sell(1, '1', '100', { stp: 'EXPIRE_MAKER' });
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('1000'), locked: 0 });
    expect(sim.balance(1, 'BTC')).toEqual({ free: 0, locked: qty('1') });
  });

  it('a command short of funds is INSUFFICIENT_BALANCE and changes nothing', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '99.99' });
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'BUY', price: '100', qty: '1' }), 'INSUFFICIENT_BALANCE');
    expectRejectedWithoutChange(sim, sim.placeCommand(1, { side: 'SELL', price: '100', qty: '1' }), 'INSUFFICIENT_BALANCE');
  });

  it('AdjustBalance deposits and withdraws free balance, never below zero', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '10' });
    expect(sim.apply({ type: 'AdjustBalance', accountId: 1, asset: 'USDT', delta: u('5') })[0]).toMatchObject({ type: 'BalanceAdjusted', delta: u('5') });
    expect(sim.balance(1, 'USDT').free).toBe(u('15'));
    sim.buy(1, '0.1', '100'); // locks 10
    expectRejectedWithoutChange(sim, { type: 'AdjustBalance', accountId: 1, asset: 'USDT', delta: -u('5.01') }, 'INSUFFICIENT_BALANCE');
    sim.apply({ type: 'AdjustBalance', accountId: 1, asset: 'USDT', delta: -u('5') });
    expect(sim.balance(1, 'USDT')).toEqual({ free: 0, locked: u('10') });
    expectRejectedWithoutChange(sim, { type: 'AdjustBalance', accountId: 1, asset: 'USDT', delta: 0 }, 'INVALID_AMOUNT');
    expectRejectedWithoutChange(sim, { type: 'AdjustBalance', accountId: 7, asset: 'USDT', delta: 1 }, 'UNKNOWN_ACCOUNT');
    expect(sim.engine.totalDeposited()).toMatchObject({ USDT: u('10') });
  });

  it('CreateAccount refuses a duplicate id and negative balances', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '10' });
    expectRejectedWithoutChange(sim, { type: 'CreateAccount', accountId: 1 }, 'ACCOUNT_EXISTS');
    expectRejectedWithoutChange(sim, { type: 'CreateAccount', accountId: 2, balances: { USDT: -1 } }, 'INVALID_AMOUNT');
  });

  it('value is conserved: balances plus fees equal deposits after a busy sequence', () => {
    const sim = new Sim();
    const fee = { standardCommission: { maker: 100_000, taker: 150_000, buyer: 0, seller: 0 } };
    sim.createAccount(1, { USDT: '5000', BTC: '5' }, fee);
    sim.createAccount(2, { USDT: '5000', BTC: '5' }, fee);
    sim.sell(1, '1', '101');
    sim.sell(1, '1', '102');
    sim.buy(2, '1.5', '103');
    sim.buy(2, '1', '99');
    sim.marketSell(1, '0.7');
    sim.place(2, { side: 'BUY', type: 'MARKET', quoteQty: '40' });
    sim.cancel(2, { orderId: 4 });
    const held: Record<string, number> = { USDT: 0, BTC: 0 };
    for (const id of [1, 2]) for (const b of sim.engine.account(id)?.balances ?? []) held[b.asset] = (held[b.asset] ?? 0) + b.free + b.locked;
    const fees = sim.engine.feesCollected();
    expect((held.USDT ?? 0) + (fees.USDT ?? 0)).toBe(u('10000'));
    expect((held.BTC ?? 0) + (fees.BTC ?? 0)).toBe(qty('10'));
    sim.engine.checkInvariants();
  });
});
