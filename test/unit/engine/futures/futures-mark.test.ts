/**
 * SetMarkPrice (margin call, cross and isolated liquidation against the insurance fund, the
 * liquidation price of §6) and SettleFunding. Test contract: 20x to 5 000 notional, mmr 1%,
 * liquidation fee 1%, maker 0.02% / taker 0.05%. Expected values worked out in the comments.
 */
import { describe, expect, it } from 'vitest';
import type { EngineEvent, PositionLiquidated } from '../../../../src/engine/events.ts';
import { Engine } from '../../../../src/engine/engine.ts';
import { FutSim, SYM, expectNoReject, futuresConfig, rejectOf, testContract, u } from './futures-helpers.ts';

const types = (events: readonly EngineEvent[]) => events.map((e) => e.type);

describe('SetMarkPrice: margin call and cross liquidation', () => {
  function crossLong(): FutSim {
    const sim = new FutSim();
    sim.account(1, '10.5');
    sim.account(2, '1000');
    sim.mark('100');
    // cost 200 / 20 = 10 and 9 / 20 = 0.45: 10.45 of 10.5
    expectNoReject(sim.order(1, 'BUY', '2', '100'));
    expectNoReject(sim.order(1, 'BUY', '0.1', '90'));
    expectNoReject(sim.order(2, 'SELL', '2'));
    return sim;
  }

  it('reports the liquidation price of §6: (EC − WB − cum) / (Q × (1 − MMR))', () => {
    const sim = crossLong();
    // wallet 10.5 − 0.04 maker fee = 10.46; (200 − 10.46) / (2 × 0.99) = 95.727272727… → 95.72727273
    expect(sim.wallet(1).walletBalance).toBe(u('10.46'));
    expect(sim.position(1).liquidationPrice).toBe(u('95.72727273'));
    // short of account 2: wallet 1000 − 0.1 = 999.9: (200 + 999.9) / (2 × 1.01) = 594.0099009… → 594.00990099
    expect(sim.position(2).liquidationPrice).toBe(u('594.00990099'));
  });

  it('sends MarginCalled at a margin ratio of 80% and liquidates at or below maintenance', () => {
    const sim = crossLong();
    // mark 96: margin balance 10.46 − 8 = 2.46, MM 1.92: ratio 78%, nothing
    expect(types(sim.mark('96'))).toEqual(['MarkPriceChanged']);
    // mark 95.8: 10.46 − 8.4 = 2.06, MM ceil(1.916) = 1.916: ratio 93%
    const called = sim.mark('95.8');
    expect(types(called)).toEqual(['MarkPriceChanged', 'MarginCalled']);
    expect(called[1]).toMatchObject({ accountId: 1, asset: 'um:USDT', crossWalletBalance: u('10.46'), positions: [{ symbol: SYM, positionAmt: u('2'), unrealizedPnl: -u('8.4'), maintMargin: u('1.916') }] });
    // mark 95.72: uPnL −8.56, margin balance 1.90 ≤ MM 1.9144: liquidated
    const events = sim.mark('95.72');
    expect(types(events)).toContain('PositionLiquidated');
    const expired = events.filter((e) => e.type === 'OrderExpired');
    expect(expired).toHaveLength(1);
    expect(expired[0]).toMatchObject({ accountId: 1, expiryReason: 'ACCOUNT_LIQUIDATION' });
    const liquidated = events.find((e): e is PositionLiquidated => e.type === 'PositionLiquidated')!;
    // The fund takes the 1.90 left at the mark (the 1% fee, 1.9144, capped by it); the account
    // realizes −8.56 − 1.90 = −10.46, i.e. closes at the bankruptcy price (200 − 10.46) / 2 = 94.77.
    expect(liquidated).toMatchObject({
      accountId: 1,
      symbol: SYM,
      positionSide: 'BOTH',
      clientOrderId: `autoclose-${sim.time / 1000}`,
      side: 'SELL',
      quantity: u('2'),
      price: u('94.77'),
      markPrice: u('95.72'),
      realizedPnl: -u('10.46'),
      liquidationFee: u('1.9'),
      insuranceFundChange: u('1.9'),
    });
    expect(sim.position(1).positionAmt).toBe(0);
    expect(sim.wallet(1).walletBalance).toBe(0);
    expect(sim.engine.openOrders(1, SYM)).toHaveLength(0);
    expect(sim.engine.futuresInsuranceFund()).toEqual([{ asset: 'um:USDT', balance: u('1.9') }]);
    // the short of account 2 is untouched
    expect(sim.position(2).positionAmt).toBe(-u('2'));
  });

  it('covers a deficit from the insurance fund when the mark gaps through bankruptcy', () => {
    const sim = crossLong();
    // mark 90: uPnL −20, wallet 10.46: the fund pays 9.54 so the account ends at 0
    const events = sim.mark('90');
    const liquidated = events.find((e): e is PositionLiquidated => e.type === 'PositionLiquidated')!;
    expect(liquidated).toMatchObject({ insuranceFundChange: -u('9.54'), liquidationFee: 0, realizedPnl: -u('10.46'), price: u('94.77') });
    expect(sim.wallet(1).walletBalance).toBe(0);
    expect(sim.engine.futuresInsuranceFund()[0]!.balance).toBe(-u('9.54'));
  });
});

describe('SetMarkPrice: isolated liquidation', () => {
  it('liquidates the isolated position alone; the cross wallet stays', () => {
    const sim = new FutSim();
    sim.account(1, '20');
    sim.account(2, '1000');
    sim.mark('100');
    expectNoReject(sim.apply({ type: 'SetMarginType', accountId: 1, symbol: SYM, marginType: 'ISOLATED' }));
    expectNoReject(sim.order(1, 'BUY', '2', '100'));
    expectNoReject(sim.order(2, 'SELL', '2'));
    // isolated wallet 10; (200 − 10) / (2 × 0.99) = 95.95959595… → 95.95959596
    expect(sim.position(1).isolatedWallet).toBe(u('10'));
    expect(sim.position(1).liquidationPrice).toBe(u('95.95959596'));
    expect(types(sim.mark('96'))).toEqual(['MarkPriceChanged']);
    // mark 95.95: 10 − 8.1 = 1.9 ≤ MM ceil(1.919): liquidated at (200 − 10) / 2 = 95
    const events = sim.mark('95.95');
    expect(events.find((e) => e.type === 'PositionLiquidated')).toMatchObject({ price: u('95'), realizedPnl: -u('10'), insuranceFundChange: u('1.9') });
    expect(sim.position(1).positionAmt).toBe(0);
    expect(sim.position(1).isolatedWallet).toBe(0);
    expect(sim.wallet(1).crossWalletBalance).toBe(u('9.96'));
  });
});

describe('SettleFunding', () => {
  function pair(): FutSim {
    const sim = new FutSim();
    sim.account(1, '1000');
    sim.account(2, '1000');
    sim.mark('100');
    expectNoReject(sim.order(1, 'BUY', '2', '100'));
    expectNoReject(sim.order(2, 'SELL', '2'));
    return sim;
  }

  it('rate > 0: longs pay shorts notional × rate, booked as FUNDING_FEE', () => {
    const sim = pair();
    const before1 = sim.wallet(1).walletBalance;
    const before2 = sim.wallet(2).walletBalance;
    const events = expectNoReject(sim.apply({ type: 'SettleFunding', symbol: SYM, rate: u('0.0001') }));
    expect(events.at(-1)).toMatchObject({ type: 'FundingSettled', symbol: SYM, rate: u('0.0001'), markPrice: u('100'), positions: 2 });
    // 200 × 0.0001 = 0.02
    expect(sim.wallet(1).walletBalance).toBe(before1 - u('0.02'));
    expect(sim.wallet(2).walletBalance).toBe(before2 + u('0.02'));
    expect(sim.engine.futuresIncome(1, { incomeType: 'FUNDING_FEE' }).map((r) => r.income)).toEqual([-u('0.02')]);
    expect(sim.engine.futuresMarkPrice(SYM)!.lastFundingRate).toBe(u('0.0001'));
  });

  it('rate < 0: shorts pay longs; the payer rounds up and the receiver down', () => {
    const sim = pair();
    const before1 = sim.wallet(1).walletBalance;
    const before2 = sim.wallet(2).walletBalance;
    // 200.02 × 0.00012345 = 0.024692469: the short pays 0.02469247, the long gets 0.02469246
    expectNoReject(sim.apply({ type: 'SettleFunding', symbol: SYM, rate: -u('0.00012345'), markPrice: u('100.01') }));
    expect(sim.wallet(1).walletBalance).toBe(before1 + u('0.02469246'));
    expect(sim.wallet(2).walletBalance).toBe(before2 - u('0.02469247'));
  });

  it('refuses a spot symbol and a missing mark', () => {
    const sim = new FutSim();
    expect(rejectOf(sim.apply({ type: 'SettleFunding', symbol: 'XUSDT', rate: 1 }))).toBe('FUTURES_NOT_A_MARGIN_SYMBOL');
    expect(rejectOf(sim.apply({ type: 'SettleFunding', symbol: SYM, rate: 1 }))).toBe('INVALID_AMOUNT');
    expect(rejectOf(sim.apply({ type: 'SetMarkPrice', symbol: SYM, markPrice: 0 }))).toBe('INVALID_AMOUNT');
  });
});

describe('snapshot', () => {
  it('round-trips the futures state: same hash, same events afterwards', () => {
    const sim = new FutSim();
    sim.account(1, '1000');
    sim.account(2, '1000');
    sim.account(3, '50');
    sim.mark('100');
    expectNoReject(sim.apply({ type: 'SetPositionMode', accountId: 3, mode: 'HEDGE' }));
    expectNoReject(sim.apply({ type: 'SetMarginType', accountId: 2, symbol: SYM, marginType: 'ISOLATED' }));
    expectNoReject(sim.order(1, 'BUY', '3', '100'));
    expectNoReject(sim.order(2, 'SELL', '2'));
    expectNoReject(sim.order(3, 'SELL', '0.1', undefined, { positionSide: 'SHORT' }));
    expectNoReject(sim.order(1, 'SELL', '1', '120', { reduceOnly: true }));
    expectNoReject(sim.apply({ type: 'SettleFunding', symbol: SYM, rate: u('0.0001') }));
    const copy = new Engine(futuresConfig());
    copy.importSnapshot(sim.engine.exportSnapshot());
    expect(copy.stateHash()).toBe(sim.engine.stateHash());
    copy.checkInvariants();
    expect(copy.futuresPositions(3)).toEqual(sim.engine.futuresPositions(3));
    const next = [
      { type: 'SetMarkPrice', time: sim.time + 10, symbol: SYM, markPrice: u('104') },
      { type: 'PlaceOrder', time: sim.time + 20, accountId: 2, symbol: SYM, side: 'BUY', orderType: 'MARKET', quantity: u('1') },
      { type: 'SetMarkPrice', time: sim.time + 30, symbol: SYM, markPrice: u('160') },
    ] as const;
    for (const command of next) expect(copy.apply(command as never)).toEqual(sim.engine.apply(command as never));
    expect(copy.stateHash()).toBe(sim.engine.stateHash());
  });
});

describe('cross liquidation across symbols and in hedge mode', () => {
  it('closes every cross position of the margin asset; the first takes the clearance in its price', () => {
    const sim = new FutSim(futuresConfig([testContract('XUSDT'), testContract('YUSDT')]));
    const Y = 'um:YUSDT';
    sim.account(1, '20');
    sim.account(2, '1000');
    sim.mark('100');
    sim.mark('100', Y);
    for (const symbol of [SYM, Y]) {
      expectNoReject(sim.apply({ type: 'PlaceOrder', accountId: 1, symbol, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: u('100'), quantity: u('1') }));
      expectNoReject(sim.apply({ type: 'PlaceOrder', accountId: 2, symbol, side: 'SELL', orderType: 'MARKET', quantity: u('1') }));
    }
    // wallet 20 − 2 × 0.02; marks 95 and 90: 19.96 − 5 − 10 = 4.96 > MM 0.95 + 0.9
    sim.mark('95');
    expect(types(sim.mark('90', Y))).toEqual(['MarkPriceChanged']);
    // Y at 85: 19.96 − 5 − 15 = −0.04: both positions go, the fund pays 0.04
    const events = sim.mark('85', Y);
    const closes = events.filter((e): e is PositionLiquidated => e.type === 'PositionLiquidated');
    expect(closes.map((c) => [c.symbol, c.price, c.realizedPnl, c.insuranceFundChange])).toEqual([
      // X: −5 at the mark, plus the clearance of 0.04 the fund paid: −4.96, i.e. (100 − 4.96) / 1
      [SYM, u('95.04'), -u('4.96'), -u('0.04')],
      [Y, u('85'), -u('15'), 0],
    ]);
    expect(sim.wallet(1).walletBalance).toBe(0);
    expect(sim.engine.futuresPositions(1).every((p) => p.positionAmt === 0)).toBe(true);
    expect(sim.engine.futuresInsuranceFund()).toEqual([{ asset: 'um:USDT', balance: -u('0.04') }]);
  });

  it('liquidates both sides of a hedge-mode account', () => {
    const sim = new FutSim();
    sim.account(1, '11');
    sim.account(2, '1000');
    sim.mark('100');
    expectNoReject(sim.apply({ type: 'SetPositionMode', accountId: 1, mode: 'HEDGE' }));
    expectNoReject(sim.order(2, 'SELL', '2', '100'));
    expectNoReject(sim.order(1, 'BUY', '2', undefined, { positionSide: 'LONG' }));
    expectNoReject(sim.order(2, 'BUY', '0.1', '100'));
    expectNoReject(sim.order(1, 'SELL', '0.1', undefined, { positionSide: 'SHORT' }));
    expect(sim.position(1, 'LONG').positionAmt).toBe(u('2'));
    expect(sim.position(1, 'SHORT').positionAmt).toBe(-u('0.1'));
    const events = sim.mark('94');
    const closes = events.filter((e): e is PositionLiquidated => e.type === 'PositionLiquidated');
    expect(closes.map((c) => [c.positionSide, c.side, c.quantity])).toEqual([
      ['LONG', 'SELL', u('2')],
      ['SHORT', 'BUY', u('0.1')],
    ]);
    expect(sim.wallet(1).walletBalance).toBe(0);
  });
});
