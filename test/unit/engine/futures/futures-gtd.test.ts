/**
 * GTD margin orders (fapi timeInForce GTD, sent as GTC + goodTillTime): they rest like GTC and
 * expire on the first command at or after their due time, before that command acts, with the due
 * time as the event time; the reservation is released as on a cancel. The queue is engine state:
 * a snapshot carries it, and the digest sees it.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../../src/engine/engine.ts';
import { FUTURES_REJECT_CODES } from '../../../../src/futures/trading/futures-reject-codes.ts';
import { FutSim, SYM, expectNoReject, futuresConfig, rejectOf, u } from './futures-helpers.ts';

// Engine times are µs. Orders are placed at T; the GTD is T + 700 s.
const T = 1_700_000_000_000_000;
const DUE = T + 700_000_000;

function setup(): FutSim {
  const sim = new FutSim();
  sim.account(1, '100');
  sim.account(2, '1000');
  sim.mark('100');
  // apply() adds 1 ms: the order is placed at exactly T.
  sim.time = T - 1000;
  expectNoReject(sim.order(1, 'BUY', '2', '95', { goodTillTime: DUE }));
  return sim;
}

/** Sets the next command's time exactly (the driver adds 1 ms before applying). */
function at(sim: FutSim, time: number): void {
  sim.time = time - 1000;
}

describe('GTD margin orders', () => {
  it('rest until the due time and expire on the first command at or after it, before it acts', () => {
    const sim = setup();
    const orderId = sim.engine.openOrders(1, SYM)[0]!.orderId;
    // 2 × 95 / 20 = 9.5 of initial margin reserved, as for GTC.
    expect(sim.wallet(1).openOrderInitialMargin).toBe(u('9.5'));
    expect(sim.engine.futuresOrderInfo(SYM, orderId)).toMatchObject({ goodTillTime: DUE, liquidation: false });

    // One µs before the due time: still open.
    at(sim, DUE - 1);
    expect(sim.mark('100').map((e) => e.type)).toEqual(['MarkPriceChanged']);
    expect(sim.engine.getOrder(1, SYM, { orderId })!.status).toBe('NEW');

    // The first command at the due time: the expiry comes first, stamped with the due time.
    at(sim, DUE);
    const events = sim.mark('101');
    expect(events.map((e) => e.type)).toEqual(['OrderExpired', 'MarkPriceChanged']);
    expect(events[0]).toEqual({ type: 'OrderExpired', time: DUE, symbol: SYM, orderId, accountId: 1, status: 'EXPIRED', expiryReason: 'NONE' });
    expect(sim.engine.getOrder(1, SYM, { orderId })).toMatchObject({ status: 'EXPIRED', updateTime: DUE });
    // The reservation is released as on a cancel.
    expect(sim.wallet(1).openOrderInitialMargin).toBe(0);
    expect(sim.engine.futuresOrderInfo(SYM, orderId)).toMatchObject({ goodTillTime: DUE });
  });

  it('expire at the due time even when the command comes later, in due-time then order-id order', () => {
    const sim = setup();
    at(sim, T + 1000);
    expectNoReject(sim.order(1, 'BUY', '1', '94', { goodTillTime: DUE }));
    at(sim, T + 2000);
    expectNoReject(sim.order(1, 'BUY', '1', '93', { goodTillTime: DUE - 1_000_000 }));
    // A command 5 s after the due time (any command: here another account's placement).
    at(sim, DUE + 5_000_000);
    const events = sim.order(2, 'BUY', '1', '90');
    const expired = events.filter((e) => e.type === 'OrderExpired');
    expect(expired.map((e) => [e.type === 'OrderExpired' && e.orderId, e.time])).toEqual([[3, DUE - 1_000_000], [1, DUE], [2, DUE]]);
    expect(events[3]!.type).toBe('OrderAccepted');
    expect(sim.engine.openOrders(1, SYM)).toEqual([]);
  });

  it('leave nothing to expire once filled', () => {
    const sim = setup();
    expectNoReject(sim.order(2, 'SELL', '2', '95'));
    at(sim, DUE + 1);
    expect(sim.mark('100').map((e) => e.type)).toEqual(['MarkPriceChanged']);
    expect(sim.engine.getOrder(1, SYM, { orderId: 1 })!.status).toBe('FILLED');
  });

  it('keep their GTD through a modify (same order id)', () => {
    const sim = setup();
    expectNoReject(sim.apply({ type: 'ModifyMarginOrder', accountId: 1, symbol: SYM, orderId: 1, price: u('96'), quantity: u('3') }));
    at(sim, DUE);
    expect(sim.mark('100').map((e) => e.type)).toEqual(['OrderExpired', 'MarkPriceChanged']);
  });

  it('are refused with a due time not after now (-5040) or with another time in force', () => {
    const sim = setup();
    const now = sim.time + 1000;
    expect(rejectOf(sim.order(1, 'BUY', '1', '95', { goodTillTime: now }))).toBe('FUTURES_GTD_OUT_OF_BOUNDS');
    expect(FUTURES_REJECT_CODES.FUTURES_GTD_OUT_OF_BOUNDS.code).toBe(-5040);
    expect(rejectOf(sim.order(1, 'BUY', '1', '95', { goodTillTime: DUE, timeInForce: 'IOC' }))).toBe('UNSUPPORTED_ORDER_COMBINATION');
    expect(rejectOf(sim.order(1, 'BUY', '1', '95', { goodTillTime: DUE, postOnly: true }))).toBe('UNSUPPORTED_ORDER_COMBINATION');
    expect(rejectOf(sim.order(1, 'BUY', '1', undefined, { goodTillTime: DUE }))).toBe('UNSUPPORTED_ORDER_COMBINATION');
    expect(sim.engine.openOrders(1, SYM).length).toBe(1);
  });

  it('survive a snapshot: the restored engine expires the same order at the same time', () => {
    const sim = setup();
    const restored = new Engine(futuresConfig());
    restored.importSnapshot(sim.engine.exportSnapshot());
    expect(restored.stateHash()).toBe(sim.engine.stateHash());
    const command = { type: 'SetMarkPrice', symbol: SYM, markPrice: u('100'), time: DUE } as const;
    const a = sim.engine.apply(command);
    const b = restored.apply(command);
    expect(b).toEqual(a);
    expect(b[0]).toMatchObject({ type: 'OrderExpired', orderId: 1, time: DUE });
    expect(restored.stateHash()).toBe(sim.engine.stateHash());
  });

  it('are part of the digest', () => {
    const plain = new FutSim();
    const gtd = new FutSim();
    for (const sim of [plain, gtd]) {
      sim.account(1, '100');
      sim.mark('100');
    }
    expectNoReject(plain.order(1, 'BUY', '2', '95'));
    expectNoReject(gtd.order(1, 'BUY', '2', '95', { goodTillTime: DUE }));
    expect(gtd.engine.stateHash()).not.toBe(plain.engine.stateHash());
  });
});
