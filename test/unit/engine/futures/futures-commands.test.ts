/**
 * TransferFuturesWallet, SetLeverage, SetMarginType, SetPositionMode and AdjustPositionMargin:
 * what each changes, and each §8 refusal (nothing changed, one OrderRejected).
 */
import { describe, expect, it } from 'vitest';
import type { EngineCommand } from '../../../../src/engine/commands.ts';
import { FUTURES_REJECT_CODES } from '../../../../src/futures/trading/futures-reject-codes.ts';
import type { FuturesRejectReason } from '../../../../src/engine/reject-reason.ts';
import { FutSim, SYM, expectNoReject, rejectOf, u } from './futures-helpers.ts';

function refused(sim: FutSim, command: object, reason: string): void {
  const hash = sim.engine.stateHash();
  const events = sim.apply(command as EngineCommand);
  expect(events).toHaveLength(1);
  expect(rejectOf(events)).toBe(reason);
  expect(sim.engine.stateHash()).toBe(hash);
}

describe('TransferFuturesWallet', () => {
  it('moves USDT into um:USDT and back, each asset conserved', () => {
    const sim = new FutSim();
    sim.account(1, '100', '0');
    const events = expectNoReject(sim.apply({ type: 'TransferFuturesWallet', accountId: 1, asset: 'USDT', amount: u('60'), direction: 'TO_FUTURES' } as never));
    expect(events.map((e) => e.type)).toEqual(['BalanceAdjusted', 'FuturesWalletChanged']);
    expect(sim.engine.account(1)!.balances.find((b) => b.asset === 'USDT')!.free).toBe(u('40'));
    expect(sim.wallet(1).walletBalance).toBe(u('60'));
    expectNoReject(sim.apply({ type: 'TransferFuturesWallet', accountId: 1, asset: 'USDT', amount: u('10'), direction: 'TO_SPOT' } as never));
    expect(sim.wallet(1).walletBalance).toBe(u('50'));
    expect(sim.engine.futuresIncome(1).map((r) => [r.incomeType, r.income, r.info])).toEqual([
      ['TRANSFER', u('60'), 'MAIN_UMFUTURE'],
      ['TRANSFER', -u('10'), 'UMFUTURE_MAIN'],
    ]);
  });

  it('refuses more than spot holds, more than max withdraw, and unknown assets', () => {
    const sim = new FutSim();
    sim.account(1, '100', '50');
    sim.account(2, '1000');
    refused(sim, { type: 'TransferFuturesWallet', accountId: 1, asset: 'USDT', amount: u('50.01'), direction: 'TO_FUTURES' }, 'FUTURES_BALANCE_INSUFFICIENT');
    refused(sim, { type: 'TransferFuturesWallet', accountId: 1, asset: 'DOGE', amount: u('1'), direction: 'TO_FUTURES' }, 'FUTURES_ASSET_NOT_SUPPORTED');
    refused(sim, { type: 'TransferFuturesWallet', accountId: 1, asset: 'USDT', amount: 0, direction: 'TO_FUTURES' }, 'INVALID_AMOUNT');
    sim.mark('100');
    expectNoReject(sim.order(1, 'BUY', '2', '100'));
    // 50 wallet, 10 reserved by the order: 40 may leave.
    refused(sim, { type: 'TransferFuturesWallet', accountId: 1, asset: 'USDT', amount: u('40.01'), direction: 'TO_SPOT' }, 'FUTURES_BALANCE_INSUFFICIENT');
    expectNoReject(sim.order(2, 'SELL', '2'));
    sim.mark('110');
    // wallet 50 − 0.04 fee = 49.96, position IM 220 / 20 = 11, uPnL +20 does not count: 38.96
    expect(sim.wallet(1).maxWithdrawAmount).toBe(u('38.96'));
    expect(sim.wallet(1).availableBalance).toBe(u('58.96'));
    refused(sim, { type: 'TransferFuturesWallet', accountId: 1, asset: 'USDT', amount: u('38.97'), direction: 'TO_SPOT' }, 'FUTURES_BALANCE_INSUFFICIENT');
    expectNoReject(sim.apply({ type: 'TransferFuturesWallet', accountId: 1, asset: 'USDT', amount: u('38.96'), direction: 'TO_SPOT' } as never));
  });
});

describe('SetLeverage', () => {
  it('sets leverage within the brackets and reports it', () => {
    const sim = new FutSim();
    sim.account(1, '1000');
    expect(sim.engine.futuresSymbolSettings(1, SYM)).toEqual({ symbol: SYM, leverage: 20, marginType: 'CROSSED', maxNotionalValue: u('5000') });
    const events = expectNoReject(sim.apply({ type: 'SetLeverage', accountId: 1, symbol: SYM, leverage: 10 } as never));
    expect(events).toEqual([{ type: 'FuturesConfigChanged', time: sim.time, accountId: 1, symbol: SYM, leverage: 10 }]);
    expect(sim.engine.futuresSymbolSettings(1, SYM)!.maxNotionalValue).toBe(u('50000'));
    refused(sim, { type: 'SetLeverage', accountId: 1, symbol: SYM, leverage: 21 }, 'FUTURES_INVALID_LEVERAGE');
    refused(sim, { type: 'SetLeverage', accountId: 1, symbol: SYM, leverage: 0 }, 'FUTURES_INVALID_LEVERAGE');
    refused(sim, { type: 'SetLeverage', accountId: 1, symbol: 'XUSDT', leverage: 5 }, 'FUTURES_NOT_A_MARGIN_SYMBOL');
  });

  it('refuses a leverage the position exceeds (-2027) or the margin cannot carry (-2028)', () => {
    const sim = new FutSim();
    sim.account(1, '1000');
    sim.account(2, '10');
    sim.mark('100');
    expectNoReject(sim.apply({ type: 'SetLeverage', accountId: 1, symbol: SYM, leverage: 10 } as never));
    expectNoReject(sim.order(1, 'BUY', '60', '100'));
    expectNoReject(sim.apply({ type: 'SetLeverage', accountId: 2, symbol: SYM, leverage: 10 } as never));
    // account 2 sells 1 of it (IM at 10x: 10); then a position of 6 000 notional for account 1 at 20x is too big
    expectNoReject(sim.order(2, 'SELL', '1'));
    sim.apply({ type: 'CancelAllOrders', accountId: 1, symbol: SYM } as never);
    expect(sim.position(1).positionAmt).toBe(u('1'));
    // Account 2: wallet 10 − 0.05 fee, short 1 at 10x (IM 10): at 5x the IM would be 20.
    refused(sim, { type: 'SetLeverage', accountId: 2, symbol: SYM, leverage: 5 }, 'FUTURES_LEVERAGE_TOO_SMALL');
    expect(FUTURES_REJECT_CODES.FUTURES_LEVERAGE_TOO_SMALL.code).toBe(-2028);
  });

  it('refuses 20x for a position above 5 000 notional (-2027)', () => {
    const sim = new FutSim();
    sim.account(1, '10000');
    sim.account(2, '10000');
    sim.mark('100');
    expectNoReject(sim.apply({ type: 'SetLeverage', accountId: 1, symbol: SYM, leverage: 10 } as never));
    expectNoReject(sim.apply({ type: 'SetLeverage', accountId: 2, symbol: SYM, leverage: 10 } as never));
    expectNoReject(sim.order(1, 'BUY', '60', '100'));
    expectNoReject(sim.order(2, 'SELL', '60'));
    refused(sim, { type: 'SetLeverage', accountId: 1, symbol: SYM, leverage: 20 }, 'FUTURES_MAX_POSITION_AT_LEVERAGE');
  });
});

describe('SetMarginType and AdjustPositionMargin', () => {
  it('refuses the same type (-4046), with open orders (-4047), with a position (-4048)', () => {
    const sim = new FutSim();
    sim.account(1, '1000');
    sim.account(2, '1000');
    sim.mark('100');
    refused(sim, { type: 'SetMarginType', accountId: 1, symbol: SYM, marginType: 'CROSSED' }, 'FUTURES_NO_NEED_TO_CHANGE_MARGIN_TYPE');
    expectNoReject(sim.order(1, 'BUY', '1', '99'));
    refused(sim, { type: 'SetMarginType', accountId: 1, symbol: SYM, marginType: 'ISOLATED' }, 'FUTURES_MARGIN_TYPE_OPEN_ORDERS');
    expectNoReject(sim.order(2, 'SELL', '1'));
    refused(sim, { type: 'SetMarginType', accountId: 1, symbol: SYM, marginType: 'ISOLATED' }, 'FUTURES_MARGIN_TYPE_POSITION');
    refused(sim, { type: 'AdjustPositionMargin', accountId: 1, symbol: SYM, positionSide: 'BOTH', amount: u('1'), direction: 'ADD' }, 'FUTURES_ADD_MARGIN_ONLY_ISOLATED');
  });

  it('isolated: a fill moves its IM into the isolated wallet; margin can be added and removed down to IM', () => {
    const sim = new FutSim();
    sim.account(1, '100');
    sim.account(2, '1000');
    sim.mark('100');
    const events = expectNoReject(sim.apply({ type: 'SetMarginType', accountId: 1, symbol: SYM, marginType: 'ISOLATED' } as never));
    expect(events[0]).toMatchObject({ type: 'FuturesConfigChanged', marginType: 'ISOLATED' });
    expectNoReject(sim.order(1, 'BUY', '2', '100'));
    expectNoReject(sim.order(2, 'SELL', '2'));
    // IM 200 / 20 = 10 into the isolated wallet; cross wallet 100 − 10 − 0.04 fee
    const p = sim.position(1);
    expect(p.isolatedWallet).toBe(u('10'));
    expect(p.marginType).toBe('ISOLATED');
    expect(sim.wallet(1).crossWalletBalance).toBe(u('89.96'));
    expect(sim.wallet(1).walletBalance).toBe(u('99.96'));
    expectNoReject(sim.apply({ type: 'AdjustPositionMargin', accountId: 1, symbol: SYM, positionSide: 'BOTH', amount: u('5'), direction: 'ADD' } as never));
    expect(sim.position(1).isolatedWallet).toBe(u('15'));
    refused(sim, { type: 'AdjustPositionMargin', accountId: 1, symbol: SYM, positionSide: 'BOTH', amount: u('5.01'), direction: 'REDUCE' }, 'FUTURES_ISOLATED_BALANCE_INSUFFICIENT');
    refused(sim, { type: 'AdjustPositionMargin', accountId: 1, symbol: SYM, positionSide: 'LONG', amount: u('1'), direction: 'ADD' }, 'FUTURES_INVALID_POSITION_SIDE');
    expectNoReject(sim.apply({ type: 'AdjustPositionMargin', accountId: 1, symbol: SYM, positionSide: 'BOTH', amount: u('5'), direction: 'REDUCE' } as never));
    refused(sim, { type: 'SetLeverage', accountId: 1, symbol: SYM, leverage: 10 }, 'FUTURES_LEVERAGE_REDUCTION_ISOLATED');
    // Closing returns the isolated wallet to the cross wallet.
    expectNoReject(sim.order(2, 'BUY', '2', '100'));
    expectNoReject(sim.order(1, 'SELL', '2', undefined, { reduceOnly: true }));
    expect(sim.position(1).isolatedWallet).toBe(0);
    // 100 − 0.04 (maker) − 0.1 (taker 200 × 0.0005)
    expect(sim.wallet(1).crossWalletBalance).toBe(u('99.86'));
  });
});

describe('SetPositionMode (hedge)', () => {
  it('refuses the same mode (-4059), with open orders (-4067), with a position (-4068)', () => {
    const sim = new FutSim();
    sim.account(1, '1000');
    sim.account(2, '1000');
    sim.mark('100');
    refused(sim, { type: 'SetPositionMode', accountId: 1, mode: 'ONE_WAY' }, 'FUTURES_NO_NEED_TO_CHANGE_POSITION_SIDE');
    expectNoReject(sim.order(1, 'BUY', '1', '99'));
    refused(sim, { type: 'SetPositionMode', accountId: 1, mode: 'HEDGE' }, 'FUTURES_POSITION_SIDE_OPEN_ORDERS');
    expectNoReject(sim.order(2, 'SELL', '1'));
    refused(sim, { type: 'SetPositionMode', accountId: 1, mode: 'HEDGE' }, 'FUTURES_POSITION_SIDE_POSITION');
    const codes: FuturesRejectReason[] = ['FUTURES_NO_NEED_TO_CHANGE_POSITION_SIDE', 'FUTURES_POSITION_SIDE_OPEN_ORDERS', 'FUTURES_POSITION_SIDE_POSITION'];
    expect(codes.map((r) => FUTURES_REJECT_CODES[r].code)).toEqual([-4059, -4067, -4068]);
  });

  it('keeps LONG and SHORT apart: BUY LONG opens, SELL LONG closes, SELL SHORT opens', () => {
    const sim = new FutSim();
    sim.account(1, '1000');
    sim.account(2, '1000');
    sim.mark('100');
    expectNoReject(sim.apply({ type: 'SetPositionMode', accountId: 1, mode: 'HEDGE' } as never));
    expect(sim.engine.futuresPositionMode(1)).toBe('HEDGE');
    expectNoReject(sim.order(2, 'SELL', '2', '100'));
    expectNoReject(sim.order(1, 'BUY', '2', undefined, { positionSide: 'LONG' }));
    expectNoReject(sim.order(2, 'BUY', '1', '100'));
    expectNoReject(sim.order(1, 'SELL', '1', undefined, { positionSide: 'SHORT' }));
    expect(sim.position(1, 'LONG').positionAmt).toBe(u('2'));
    expect(sim.position(1, 'SHORT').positionAmt).toBe(-u('1'));
    expectNoReject(sim.order(2, 'BUY', '0.5', '100'));
    expectNoReject(sim.order(1, 'SELL', '0.5', undefined, { positionSide: 'LONG' }));
    expect(sim.position(1, 'LONG').positionAmt).toBe(u('1.5'));
    expect(sim.position(1, 'SHORT').positionAmt).toBe(-u('1'));
    expect(sim.engine.futuresPositions(1).map((p) => p.positionSide)).toEqual(['LONG', 'SHORT']);
    expect(sim.engine.futuresOrderInfo(SYM, sim.engine.allOrders(1, SYM).at(-1)!.orderId)).toEqual({ positionSide: 'LONG', reduceOnly: false, postOnly: false, goodTillTime: 0, liquidation: false });
  });
});

describe('SetFuturesCommissionRates and other margin assets', () => {
  it('charges the account its own rates instead of the contract ones', () => {
    const sim = new FutSim();
    sim.account(1, '1000');
    sim.account(2, '1000');
    sim.mark('100');
    expect(sim.engine.futuresCommissionRates(1, SYM)).toEqual({ maker: u('0.0002'), taker: u('0.0005') });
    expect(sim.apply({ type: 'SetFuturesCommissionRates', accountId: 2, makerRate: u('0.0001'), takerRate: u('0.0004') })).toEqual([]);
    expect(sim.engine.futuresCommissionRates(2, SYM)).toEqual({ maker: u('0.0001'), taker: u('0.0004') });
    expectNoReject(sim.order(1, 'BUY', '1', '100'));
    const events = expectNoReject(sim.order(2, 'SELL', '1'));
    // taker 100 × 0.0004 = 0.04 (own rate), maker 100 × 0.0002 = 0.02 (contract rate)
    expect(events.find((e) => e.type === 'TradeExecuted')).toMatchObject({ takerCommission: u('0.04'), takerCommissionAsset: 'um:USDT', makerCommission: u('0.02') });
    refused(sim, { type: 'SetFuturesCommissionRates', accountId: 2, makerRate: -2, takerRate: 0 }, 'INVALID_AMOUNT');
  });

  it('registers um:BNB with its first deposit; refuses a withdrawal from a wallet that never existed', () => {
    const sim = new FutSim();
    sim.apply({ type: 'CreateAccount', accountId: 1, balances: { USDT: u('10'), BNB: u('2') } });
    refused(sim, { type: 'TransferFuturesWallet', accountId: 1, asset: 'BNB', amount: u('1'), direction: 'TO_SPOT' }, 'FUTURES_BALANCE_INSUFFICIENT');
    expectNoReject(sim.apply({ type: 'TransferFuturesWallet', accountId: 1, asset: 'BNB', amount: u('1.5'), direction: 'TO_FUTURES' }));
    expect(sim.engine.account(1)!.balances.find((b) => b.asset === 'um:BNB')!.free).toBe(u('1.5'));
  });
});
