import { describe, expect, it } from 'vitest';
import { FutSim, expectNoReject, u } from './futures-helpers.ts';

describe('futures smoke', () => {
  it('opens a long and a short with one trade, marks them, closes with realized PnL', () => {
    const sim = new FutSim();
    sim.account(1, '1000');
    sim.account(2, '1000');
    sim.mark('100');
    expectNoReject(sim.order(1, 'BUY', '1', '100'));
    expectNoReject(sim.order(2, 'SELL', '1'));
    expect(sim.position(1).positionAmt).toBe(u('1'));
    expect(sim.position(2).positionAmt).toBe(-u('1'));
    expect(sim.position(1).entryPrice).toBe(u('100'));
    sim.mark('110');
    expect(sim.position(1).unrealizedProfit).toBe(u('10'));
    expect(sim.position(2).unrealizedProfit).toBe(-u('10'));
    expectNoReject(sim.order(1, 'SELL', '1', '110', { reduceOnly: true }));
    expectNoReject(sim.order(2, 'BUY', '1'));
    expect(sim.position(1).positionAmt).toBe(0);
    expect(sim.position(2).positionAmt).toBe(0);
    // 1000 − 0.02 (maker at 100) + 10 − 0.022 (maker at 110)
    expect(sim.wallet(1).walletBalance).toBe(u('1009.958'));
    // 1000 − 0.05 (taker at 100) − 10 − 0.055 (taker at 110)
    expect(sim.wallet(2).walletBalance).toBe(u('989.895'));
  });
});
