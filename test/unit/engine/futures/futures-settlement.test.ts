/**
 * Fills on a margin symbol: positions (weighted entry, realized PnL on reduce and flip, exact
 * integers rounded toward the account's loss), commissions in the margin asset, income rows, and
 * the facts sheet's worked examples (binance-futures-facts §6). Expected values are computed by
 * hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import { ETHUSDT_LADDER } from '../../../../src/futures/trading/contract-rules.ts';
import { FutSim, SYM, expectNoReject, futuresConfig, testContract, u } from './futures-helpers.ts';

function pair(): FutSim {
  const sim = new FutSim();
  sim.account(1, '10000');
  sim.account(2, '10000');
  sim.mark('100');
  return sim;
}

describe('futures fills', () => {
  it('adds at a weighted entry and realizes PnL on a partial reduce', () => {
    const sim = pair();
    expectNoReject(sim.order(2, 'SELL', '1', '100'));
    expectNoReject(sim.order(1, 'BUY', '1'));
    expectNoReject(sim.order(2, 'SELL', '1', '110'));
    expectNoReject(sim.order(1, 'BUY', '1'));
    // entry (100 + 110) / 2 = 105
    expect(sim.position(1).entryPrice).toBe(u('105'));
    expect(sim.position(2).entryPrice).toBe(u('105'));
    expect(sim.position(2).positionAmt).toBe(-u('2'));
    sim.mark('110');
    expectNoReject(sim.order(2, 'BUY', '0.5', '120'));
    const events = expectNoReject(sim.order(1, 'SELL', '0.5'));
    // long: 0.5 × (120 − 105) = 7.5; short: 0.5 × (105 − 120) = −7.5
    const changes = events.filter((e) => e.type === 'FuturesPositionChanged');
    expect(changes.map((e) => [e.accountId, e.realizedPnl])).toEqual([[2, -u('7.5')], [1, u('7.5')]]);
    expect(sim.position(1).positionAmt).toBe(u('1.5'));
    expect(sim.position(1).entryPrice).toBe(u('105'));
    // Wallet 1: 10000 − taker fees 0.05 + 0.055 + 0.03 (0.0005 × 100, 110, 60) + 7.5
    expect(sim.wallet(1).walletBalance).toBe(u('10007.365'));
    // Wallet 2: 10000 − maker fees 0.02 + 0.022 + 0.012 (0.0002 × 100, 110, 60) − 7.5
    expect(sim.wallet(2).walletBalance).toBe(u('9992.446'));
    const income = sim.engine.futuresIncome(1).map((r) => [r.incomeType, r.income]);
    expect(income).toEqual([
      ['TRANSFER', u('10000')],
      ['COMMISSION', -u('0.05')],
      ['COMMISSION', -u('0.055')],
      ['REALIZED_PNL', u('7.5')],
      ['COMMISSION', -u('0.03')],
    ]);
    const trade = sim.engine.futuresIncome(1, { incomeType: 'REALIZED_PNL' })[0]!;
    expect(trade.tradeId).toBe(sim.engine.accountTrades(1, SYM).at(-1)!.id);
  });

  it('flips a long into a short at the fill price', () => {
    const sim = pair();
    expectNoReject(sim.order(2, 'SELL', '1', '100'));
    expectNoReject(sim.order(1, 'BUY', '1'));
    expectNoReject(sim.order(2, 'BUY', '3', '90'));
    const events = expectNoReject(sim.order(1, 'SELL', '3'));
    // closes 1 at 90: 1 × (90 − 100) = −10; opens a short of 2 at 90
    expect(events.find((e) => e.type === 'FuturesPositionChanged' && e.accountId === 1)).toMatchObject({ realizedPnl: -u('10'), positionAmt: -u('2'), entryPrice: u('90') });
    expect(sim.position(1).positionAmt).toBe(-u('2'));
    expect(sim.position(1).entryPrice).toBe(u('90'));
    // account 2 was short 1 at 100: buying 3 at 90 closes it (+10) and opens a long of 2 at 90
    expect(sim.position(2).positionAmt).toBe(u('2'));
    expect(sim.engine.futuresIncome(2, { incomeType: 'REALIZED_PNL' })[0]!.income).toBe(u('10'));
  });

  it('reports the break-even price: entry moved by the fees paid and the closing taker fee', () => {
    const sim = pair();
    expectNoReject(sim.order(2, 'SELL', '1', '100'));
    expectNoReject(sim.order(1, 'BUY', '1'));
    // long: (100 + 0.05 taker fee) / (1 − 0.0005) = 100.100050025… → 100.10005003 (rounded up, then half up)
    expect(sim.position(1).breakEvenPrice).toBe(u('100.10005003'));
    // short: (100 − 0.02 maker fee) / (1 + 0.0005) = 99.930034982… → 99.93003498
    expect(sim.position(2).breakEvenPrice).toBe(u('99.93003498'));
  });

  it('a SELL with no position opens a short; shorts gain when the mark falls', () => {
    const sim = pair();
    expectNoReject(sim.order(1, 'BUY', '2', '100'));
    expectNoReject(sim.order(2, 'SELL', '2'));
    sim.mark('90');
    expect(sim.position(2).positionAmt).toBe(-u('2'));
    // −2 × (90 − 100) = 20
    expect(sim.position(2).unrealizedProfit).toBe(u('20'));
    expect(sim.position(1).unrealizedProfit).toBe(-u('20'));
  });

  it('rounds the entry cost removed on a reduce toward the account loss', () => {
    const sim = new FutSim(futuresConfig([testContract('XUSDT', { minNotional: '0.01' })]));
    sim.account(1, '10000');
    sim.account(2, '10000');
    sim.mark('100');
    expectNoReject(sim.order(2, 'SELL', '0.002', '100.01'));
    expectNoReject(sim.order(2, 'SELL', '0.001', '100.02'));
    expectNoReject(sim.order(1, 'BUY', '0.003', '100.02', { timeInForce: 'IOC' }));
    // entry cost 0.20002 + 0.10002 = 0.30004 for 0.003; closing 0.001 removes ceil(0.30004 / 3)
    // = ceil(0.10001333…) = 0.10001334 at 8 decimals; sold at 100: 0.1 − 0.10001334 = −0.00001334
    expectNoReject(sim.order(2, 'BUY', '0.001', '100'));
    const events = expectNoReject(sim.order(1, 'SELL', '0.001', undefined, { reduceOnly: true }));
    expect(events.find((e) => e.type === 'FuturesPositionChanged' && e.accountId === 1)).toMatchObject({ realizedPnl: -1334 });
    // the short side (account 2) removes floor(0.30004 / 3) = 0.10001333 and pays 0.1: +0.00001333
    expect(events.find((e) => e.type === 'FuturesPositionChanged' && e.accountId === 2)).toMatchObject({ realizedPnl: 1333 });
  });

  it('releases the order reservation as it fills, and on cancel the rest', () => {
    const sim = pair();
    expectNoReject(sim.order(1, 'BUY', '4', '100'));
    // IM 400 / 20 = 20
    expect(sim.wallet(1).openOrderInitialMargin).toBe(u('20'));
    expectNoReject(sim.order(2, 'SELL', '1'));
    // 3 of 4 remain: ceil(20 × 3 / 4) = 15; the filled position's IM is 100 / 20 = 5 at mark 100
    expect(sim.wallet(1).openOrderInitialMargin).toBe(u('15'));
    expect(sim.wallet(1).positionInitialMargin).toBe(u('5'));
    sim.apply({ type: 'CancelAllOrders', accountId: 1, symbol: SYM } as never);
    expect(sim.wallet(1).openOrderInitialMargin).toBe(0);
  });

  it('fills by the market (FillFromMarket) settle the same way', () => {
    const sim = pair();
    expectNoReject(sim.order(1, 'BUY', '1', '100'));
    const orderId = sim.engine.openOrders(1, SYM)[0]!.orderId;
    const events = expectNoReject(sim.apply({ type: 'FillFromMarket', symbol: SYM, orderId, quantity: u('1'), reason: 'TRADE_THROUGH' } as never));
    expect(events.some((e) => e.type === 'OrderFilledByMarket')).toBe(true);
    expect(sim.position(1).positionAmt).toBe(u('1'));
    // maker fee 0.02
    expect(sim.wallet(1).walletBalance).toBe(u('9999.98'));
  });
});

describe('worked examples (binance-futures-facts §6)', () => {
  it('uPnL 30 × (0.4104759 − 0.385) = 0.764277, IM 12.314277 / 20, MM 12.314277 × 0.0065', () => {
    const config = futuresConfig([testContract('XUSDT', { tickSize: '0.0001', minPrice: '0.0001', minQty: '1', stepSize: '1', ladder: ETHUSDT_LADDER })]);
    const sim = new FutSim(config);
    sim.account(1, '1000');
    sim.account(2, '1000');
    sim.mark('0.385');
    expectNoReject(sim.order(2, 'SELL', '30', '0.385'));
    expectNoReject(sim.order(1, 'BUY', '30'));
    sim.mark('0.4104759');
    const p = sim.position(1);
    expect(p.unrealizedProfit).toBe(u('0.764277'));
    // notional 30 × 0.4104759 = 12.314277
    expect(p.notional).toBe(u('12.314277'));
    expect(p.initialMargin).toBe(u('0.61571385'));
    // 12.314277 × 0.0065 = 0.0800428005: rounded up to the unit (0.00000001) it is 0.08004281
    expect(p.maintMargin).toBe(u('0.08004281'));
  });

  it('short −1 × (49.72023376 − 70.92841) = 21.20817624', () => {
    const config = futuresConfig([testContract('XUSDT', { tickSize: '0.00001', minPrice: '0.00001', minQty: '1', stepSize: '1' })]);
    const sim = new FutSim(config);
    sim.account(1, '1000');
    sim.account(2, '1000');
    sim.mark('70.92841');
    expectNoReject(sim.order(1, 'BUY', '1', '70.92841'));
    expectNoReject(sim.order(2, 'SELL', '1'));
    sim.mark('49.72023376');
    expect(sim.position(2).unrealizedProfit).toBe(u('21.20817624'));
    expect(sim.position(1).unrealizedProfit).toBe(-u('21.20817624'));
  });
});
