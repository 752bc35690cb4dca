import { describe, expect, it } from 'vitest';
import { Sim, px, qty, symbolConfig, types, u } from './helpers.ts';

function stpSim(defaultMode: 'NONE' | 'EXPIRE_MAKER' = 'NONE'): Sim {
  const sim = new Sim(symbolConfig({ defaultSelfTradePreventionMode: defaultMode }));
  sim.createAccount(1, { USDT: '10000', BTC: '100' });
  sim.createAccount(2, { USDT: '10000', BTC: '100' });
  return sim;
}

describe('self-trade prevention', () => {
  describe('EXPIRE_MAKER', () => {
    it('doc scenario: SELL 3 @1 against own BUYs 1.2@1.2, 1.3@1.1, 8.1@1 expires the three makers and rests the taker', () => {
      const sim = stpSim();
      sim.buy(1, '1.2', '1.2'); // 1
      sim.buy(1, '1.3', '1.1'); // 2
      sim.buy(1, '8.1', '1'); // 3
      const r = sim.sell(1, '3', '1', { stp: 'EXPIRE_MAKER' });
      expect(types(r.events)).toEqual(['OrderAccepted', 'MatchPrevented', 'MatchPrevented', 'MatchPrevented']);
      expect(r.prevented.map((p) => [p.preventedMatchId, p.makerOrderId, p.price, p.makerPreventedQuantity, p.takerPreventedQuantity, p.makerStatus, p.takerStatus])).toEqual([
        [0, 1, px('1.2'), qty('1.2'), 0, 'EXPIRED_IN_MATCH', 'NEW'],
        [1, 2, px('1.1'), qty('1.3'), 0, 'EXPIRED_IN_MATCH', 'NEW'],
        [2, 3, px('1'), qty('8.1'), 0, 'EXPIRED_IN_MATCH', 'NEW'],
      ]);
      expect(r.trades).toEqual([]);
      for (const [id, matchId] of [[1, 0], [2, 1], [3, 2]] as const) {
        expect(sim.order(1, id)).toMatchObject({ status: 'EXPIRED_IN_MATCH', preventedMatchId: matchId, executedQty: 0, lockedAmount: 0 });
      }
      expect(sim.order(1, 1).preventedQuantity).toBe(qty('1.2'));
      expect(sim.order(1, 4)).toMatchObject({ status: 'NEW', executedQty: 0, preventedQuantity: 0, selfTradePreventionMode: 'EXPIRE_MAKER' });
      expect(sim.engine.depth('BTCUSDT', 5)).toEqual({ bids: [], asks: [[px('1'), qty('3')]] });
      // The makers' quote is all released; only the resting SELL's base stays locked.
      expect(sim.balance(1, 'USDT')).toEqual({ free: u('10000'), locked: 0 });
      expect(sim.balance(1, 'BTC')).toEqual({ free: qty('97'), locked: qty('3') });
    });

    it('the taker skips its own makers and still trades with others', () => {
      const sim = stpSim();
      sim.buy(1, '1', '101'); // 1 own
      sim.buy(2, '1', '100'); // 2 other
      const r = sim.sell(1, '1', '100', { stp: 'EXPIRE_MAKER' });
      expect(types(r.events)).toEqual(['OrderAccepted', 'MatchPrevented', 'TradeExecuted']);
      expect(r.trades[0]).toMatchObject({ makerOrderId: 2, price: px('100'), takerStatus: 'FILLED' });
      expect(sim.order(1, 1).status).toBe('EXPIRED_IN_MATCH');
    });

    it('a MARKET taker whose only liquidity is its own maker ends EXPIRED, not EXPIRED_IN_MATCH', () => {
      const sim = stpSim();
      sim.sell(1, '1', '100'); // 1
      const r = sim.marketBuy(1, '1', { stp: 'EXPIRE_MAKER' });
      expect(types(r.events)).toEqual(['OrderAccepted', 'MatchPrevented', 'OrderExpired']);
      expect(sim.order(1, 1).status).toBe('EXPIRED_IN_MATCH');
      expect(r.expired[0]).toMatchObject({ orderId: 2, status: 'EXPIRED', expiryReason: 'INSUFFICIENT_LIQUIDITY' });
      expect(sim.order(1, 2)).toMatchObject({ status: 'EXPIRED', executedQty: 0 });
      expect(sim.balance(1, 'USDT')).toEqual({ free: u('10000'), locked: 0 });
      expect(sim.balance(1, 'BTC')).toEqual({ free: qty('100'), locked: 0 });
    });

    it('the symbol default mode applies when the order names none', () => {
      const sim = stpSim('EXPIRE_MAKER');
      sim.sell(1, '1', '100');
      const r = sim.buy(1, '1', '100');
      expect(r.accepted?.selfTradePreventionMode).toBe('EXPIRE_MAKER');
      expect(r.trades).toEqual([]);
      expect(r.prevented).toHaveLength(1);
    });
  });

  describe('EXPIRE_TAKER', () => {
    it('the taker expires EXPIRED_IN_MATCH at its own maker, keeping earlier fills; the maker is untouched', () => {
      const sim = stpSim();
      sim.sell(2, '1', '100'); // 1 other
      sim.sell(1, '2', '101'); // 2 own
      const r = sim.buy(1, '3', '101', { stp: 'EXPIRE_TAKER' });
      // EXPIRED_IN_MATCH is reported by the MatchPrevented event itself (no OrderExpired follows).
      expect(types(r.events)).toEqual(['OrderAccepted', 'TradeExecuted', 'MatchPrevented']);
      expect(r.prevented[0]).toMatchObject({
        preventedMatchId: 0,
        takerOrderId: 3,
        makerOrderId: 2,
        mode: 'EXPIRE_TAKER',
        takerPreventedQuantity: qty('2'),
        makerPreventedQuantity: 0,
        takerStatus: 'EXPIRED_IN_MATCH',
        makerStatus: 'NEW',
      });
      expect(sim.order(1, 3)).toMatchObject({ status: 'EXPIRED_IN_MATCH', executedQty: qty('1'), preventedQuantity: qty('2'), preventedMatchId: 0, lockedAmount: 0 });
      expect(sim.order(1, 2)).toMatchObject({ status: 'NEW', preventedQuantity: 0, lockedAmount: qty('2') });
      expect(sim.balance(1, 'USDT')).toEqual({ free: u('9900'), locked: 0 });
    });
  });

  describe('EXPIRE_BOTH', () => {
    it('both the taker and the maker expire EXPIRED_IN_MATCH', () => {
      const sim = stpSim();
      sim.sell(1, '2', '100'); // 1
      const r = sim.buy(1, '1', '100', { stp: 'EXPIRE_BOTH' });
      expect(types(r.events)).toEqual(['OrderAccepted', 'MatchPrevented']);
      expect(r.prevented[0]).toMatchObject({ takerPreventedQuantity: qty('1'), makerPreventedQuantity: qty('2'), takerStatus: 'EXPIRED_IN_MATCH', makerStatus: 'EXPIRED_IN_MATCH' });
      expect(sim.order(1, 1)).toMatchObject({ status: 'EXPIRED_IN_MATCH', preventedQuantity: qty('2') });
      expect(sim.order(1, 2)).toMatchObject({ status: 'EXPIRED_IN_MATCH', preventedQuantity: qty('1') });
      expect(sim.engine.depth('BTCUSDT', 5)).toEqual({ bids: [], asks: [] });
      expect(sim.balance(1, 'USDT')).toEqual({ free: u('10000'), locked: 0 });
      expect(sim.balance(1, 'BTC')).toEqual({ free: qty('100'), locked: 0 });
    });
  });

  describe('DECREMENT', () => {
    it('doc scenario: maker BUY 6@2 vs taker SELL 2@2: both prevented 2, taker EXPIRED_IN_MATCH, maker NEW with 4 left', () => {
      const sim = stpSim();
      sim.buy(1, '6', '2'); // 1
      const r = sim.sell(1, '2', '2', { stp: 'DECREMENT' });
      expect(types(r.events)).toEqual(['OrderAccepted', 'MatchPrevented']);
      expect(r.prevented[0]).toMatchObject({
        mode: 'DECREMENT',
        takerPreventedQuantity: qty('2'),
        makerPreventedQuantity: qty('2'),
        takerStatus: 'EXPIRED_IN_MATCH',
        makerStatus: 'NEW',
      });
      expect(sim.order(1, 2)).toMatchObject({ status: 'EXPIRED_IN_MATCH', preventedQuantity: qty('2'), executedQty: 0 });
      expect(sim.order(1, 1)).toMatchObject({ status: 'NEW', preventedQuantity: qty('2'), executedQty: 0, origQty: qty('6'), lockedAmount: u('8') });
      expect(sim.engine.depth('BTCUSDT', 5).bids).toEqual([[px('2'), qty('4')]]);
      expect(sim.balance(1, 'USDT')).toEqual({ free: u('9992'), locked: u('8') });
      expect(sim.balance(1, 'BTC')).toEqual({ free: qty('100'), locked: 0 });
    });

    it('the larger taker continues with less quantity and rests what is left', () => {
      const sim = stpSim();
      sim.sell(1, '1', '100'); // 1
      const r = sim.buy(1, '3', '100', { stp: 'DECREMENT' });
      expect(r.prevented[0]).toMatchObject({ takerPreventedQuantity: qty('1'), makerPreventedQuantity: qty('1'), takerStatus: 'NEW', makerStatus: 'EXPIRED_IN_MATCH' });
      expect(sim.order(1, 2)).toMatchObject({ status: 'NEW', preventedQuantity: qty('1'), lockedAmount: u('200') });
      expect(sim.engine.depth('BTCUSDT', 5).bids).toEqual([[px('100'), qty('2')]]);
      expect(sim.balance(1, 'USDT')).toEqual({ free: u('9800'), locked: u('200') });
    });

    it('equal quantities expire both', () => {
      const sim = stpSim();
      sim.sell(1, '1', '100');
      const r = sim.buy(1, '1', '100', { stp: 'DECREMENT' });
      expect(r.prevented[0]).toMatchObject({ takerStatus: 'EXPIRED_IN_MATCH', makerStatus: 'EXPIRED_IN_MATCH' });
    });
  });

  describe('with time in force and MARKET', () => {
    it('a FOK whose only other liquidity sits behind its own maker fills when EXPIRE_MAKER clears the way', () => {
      const sim = stpSim();
      sim.sell(1, '1', '100'); // 1 own
      sim.sell(2, '2', '100'); // 2 other
      const r = sim.buy(1, '2', '100', { tif: 'FOK', stp: 'EXPIRE_MAKER' });
      expect(types(r.events)).toEqual(['OrderAccepted', 'MatchPrevented', 'TradeExecuted']);
      expect(sim.order(1, 3)).toMatchObject({ status: 'FILLED', executedQty: qty('2') });
    });

    it('a FOK that would meet its own maker with EXPIRE_TAKER before filling expires with no fills', () => {
      const sim = stpSim();
      sim.sell(2, '1', '100'); // 1 other
      sim.sell(1, '1', '100'); // 2 own
      sim.sell(2, '1', '100'); // 3 other
      const r = sim.buy(1, '3', '100', { tif: 'FOK', stp: 'EXPIRE_TAKER' });
      expect(types(r.events)).toEqual(['OrderAccepted', 'OrderExpired']);
      expect(r.expired[0]).toMatchObject({ status: 'EXPIRED', expiryReason: 'UNFILLED_FOK_ORDER_EXPIRED' });
      expect(sim.engine.depth('BTCUSDT', 5).asks).toEqual([[px('100'), qty('3')]]);
    });

    it('an IOC with EXPIRE_MAKER expires its own makers, trades the rest and expires the remainder', () => {
      const sim = stpSim();
      sim.sell(1, '1', '100'); // 1 own
      sim.sell(2, '1', '100'); // 2 other
      const r = sim.buy(1, '3', '100', { tif: 'IOC', stp: 'EXPIRE_MAKER' });
      expect(types(r.events)).toEqual(['OrderAccepted', 'MatchPrevented', 'TradeExecuted', 'OrderExpired']);
      expect(sim.order(1, 3)).toMatchObject({ status: 'EXPIRED', executedQty: qty('1'), expiryReason: 'UNFILLED_IOC_QUANTITY_EXPIRED', preventedQuantity: 0 });
    });

    it('a MARKET taker with EXPIRE_TAKER ends EXPIRED_IN_MATCH at its own maker and releases its reservation', () => {
      const sim = stpSim();
      sim.sell(2, '1', '100'); // 1 other
      sim.sell(1, '1', '101'); // 2 own
      const r = sim.marketBuy(1, '2', { stp: 'EXPIRE_TAKER' });
      expect(types(r.events)).toEqual(['OrderAccepted', 'TradeExecuted', 'MatchPrevented']);
      expect(sim.order(1, 3)).toMatchObject({ status: 'EXPIRED_IN_MATCH', executedQty: qty('1'), preventedQuantity: qty('1'), lockedAmount: 0 });
      expect(sim.balance(1, 'USDT')).toEqual({ free: u('9900'), locked: 0 });
    });

    it('a MARKET SELL by quoteOrderQty skips its own maker under EXPIRE_MAKER', () => {
      const sim = stpSim();
      sim.buy(1, '1', '100'); // 1 own
      sim.buy(2, '1', '99'); // 2 other
      const r = sim.place(1, { side: 'SELL', type: 'MARKET', quoteQty: '49.5', stp: 'EXPIRE_MAKER' });
      expect(r.trades.map((t) => [t.makerOrderId, t.quantity])).toEqual([[2, qty('0.5')]]);
      expect(sim.order(1, 1).status).toBe('EXPIRED_IN_MATCH');
    });

    it('a DECREMENT maker that was partly filled stays PARTIALLY_FILLED', () => {
      const sim = stpSim();
      sim.sell(1, '3', '100'); // 1
      sim.buy(2, '1', '100'); // fills 1 of it
      const r = sim.buy(1, '1', '100', { stp: 'DECREMENT' });
      expect(r.prevented[0]).toMatchObject({ makerStatus: 'PARTIALLY_FILLED', takerStatus: 'EXPIRED_IN_MATCH' });
      expect(sim.order(1, 1)).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: qty('1'), preventedQuantity: qty('1'), lockedAmount: qty('1') });
      expect(sim.engine.depth('BTCUSDT', 5).asks).toEqual([[px('100'), qty('1')]]);
    });
  });

  describe('parties', () => {
    it('accounts with the same tradeGroupId are one party: their orders do not trade', () => {
      const sim = new Sim();
      sim.createAccount(1, { BTC: '10' }, { tradeGroupId: 7 });
      sim.createAccount(2, { USDT: '1000' }, { tradeGroupId: 7 });
      sim.createAccount(3, { USDT: '1000' }, { tradeGroupId: 8 });
      sim.sell(1, '1', '100'); // 1
      const r = sim.buy(2, '1', '100', { stp: 'EXPIRE_TAKER' });
      expect(r.trades).toEqual([]);
      expect(r.prevented[0]).toMatchObject({ takerAccountId: 2, makerAccountId: 1, mode: 'EXPIRE_TAKER' });
      expect(sim.order(2, 2).status).toBe('EXPIRED_IN_MATCH');
      // Another group trades normally.
      expect(sim.buy(3, '1', '100', { stp: 'EXPIRE_TAKER' }).trades).toHaveLength(1);
    });

    it('accounts without a group (-1) are never the same party', () => {
      const sim = stpSim();
      sim.sell(1, '1', '100');
      expect(sim.buy(2, '1', '100', { stp: 'EXPIRE_BOTH' }).trades).toHaveLength(1);
    });

    it('NONE lets an account trade with itself, paying commission on both sides', () => {
      const sim = new Sim();
      sim.createAccount(1, { USDT: '1000', BTC: '10' }, { standardCommission: { maker: 100_000, taker: 100_000, buyer: 0, seller: 0 } });
      sim.sell(1, '1', '100');
      const r = sim.buy(1, '1', '100', { stp: 'NONE' });
      expect(r.trades[0]).toMatchObject({ takerAccountId: 1, makerAccountId: 1, takerCommission: qty('0.001'), makerCommission: u('0.1') });
      expect(r.prevented).toEqual([]);
      expect(sim.balance(1, 'BTC')).toEqual({ free: qty('9.999'), locked: 0 });
      expect(sim.balance(1, 'USDT')).toEqual({ free: u('999.9'), locked: 0 });
    });

    it('the taker mode decides: a NONE taker trades with its own EXPIRE_BOTH maker', () => {
      const sim = stpSim();
      sim.sell(1, '1', '100', { stp: 'EXPIRE_BOTH' });
      expect(sim.buy(1, '1', '100', { stp: 'NONE' }).trades).toHaveLength(1);
    });
  });

  describe('TRANSFER', () => {
    function groupSim(): Sim {
      const sim = new Sim();
      const fees = { maker: 100_000, taker: 100_000, buyer: 0, seller: 0 };
      sim.createAccount(1, { BTC: '10' }, { tradeGroupId: 5, standardCommission: fees });
      sim.createAccount(2, { USDT: '1000' }, { tradeGroupId: 5, standardCommission: fees });
      return sim;
    }

    it('between two accounts of a group, both TRANSFER: the overlap moves at the maker price, fee-free, with no trade', () => {
      const sim = groupSim();
      sim.sell(1, '2', '100', { stp: 'TRANSFER' }); // 1
      const r = sim.buy(2, '3', '101', { stp: 'TRANSFER' }); // 2
      expect(types(r.events)).toEqual(['OrderAccepted', 'MatchPrevented']);
      expect(r.prevented[0]).toMatchObject({ mode: 'TRANSFER', price: px('100'), takerPreventedQuantity: qty('2'), makerPreventedQuantity: qty('2'), makerStatus: 'EXPIRED_IN_MATCH', takerStatus: 'NEW' });
      expect(sim.balance(1, 'BTC')).toEqual({ free: qty('8'), locked: 0 });
      expect(sim.balance(1, 'USDT')).toEqual({ free: u('200'), locked: 0 });
      // Taker paid 200 for 2 BTC; its remaining 1 rests at 101.
      expect(sim.balance(2, 'BTC')).toEqual({ free: qty('2'), locked: 0 });
      expect(sim.balance(2, 'USDT')).toEqual({ free: u('699'), locked: u('101') });
      expect(sim.order(2, 2)).toMatchObject({ status: 'NEW', executedQty: 0, preventedQuantity: qty('2'), lockedAmount: u('101') });
      expect(sim.engine.feesCollected()).toMatchObject({ BTC: 0, USDT: 0 });
      expect(sim.engine.lastTrade('BTCUSDT')).toBeUndefined();
      expect(sim.engine.accountTrades(1, 'BTCUSDT')).toEqual([]);
      sim.engine.checkInvariants();
    });

    it('a TRANSFER taker against a maker of another mode acts as DECREMENT (no transfer)', () => {
      const sim = groupSim();
      sim.sell(1, '2', '100', { stp: 'NONE' });
      const r = sim.buy(2, '1', '100', { stp: 'TRANSFER' });
      expect(r.prevented[0]).toMatchObject({ mode: 'DECREMENT', takerPreventedQuantity: qty('1'), makerPreventedQuantity: qty('1') });
      expect(sim.balance(2, 'BTC').free).toBe(0);
      expect(sim.balance(2, 'USDT')).toEqual({ free: u('1000'), locked: 0 });
      // The maker lost 1 to prevention: 1 BTC stays locked, the other is free again.
      expect(sim.balance(1, 'BTC')).toEqual({ free: qty('9'), locked: qty('1') });
    });

    it('TRANSFER within one account acts as DECREMENT', () => {
      const sim = stpSim();
      sim.sell(1, '2', '100', { stp: 'TRANSFER' });
      const r = sim.buy(1, '1', '100', { stp: 'TRANSFER' });
      expect(r.prevented[0]?.mode).toBe('DECREMENT');
      expect(sim.balance(1, 'USDT')).toEqual({ free: u('10000'), locked: 0 });
      expect(sim.balance(1, 'BTC')).toEqual({ free: qty('99'), locked: qty('1') });
    });

    it('a MARKET SELL TRANSFER taker moves its base to the group maker', () => {
      const sim = new Sim();
      sim.createAccount(1, { BTC: '10' }, { tradeGroupId: 5 });
      sim.createAccount(2, { USDT: '1000' }, { tradeGroupId: 5 });
      sim.buy(2, '2', '100', { stp: 'TRANSFER' });
      sim.marketSell(1, '1', { stp: 'TRANSFER' });
      expect(sim.balance(1, 'USDT')).toEqual({ free: u('100'), locked: 0 });
      expect(sim.balance(2, 'BTC')).toEqual({ free: qty('1'), locked: 0 });
      expect(sim.balance(2, 'USDT')).toEqual({ free: u('800'), locked: u('100') });
      sim.engine.checkInvariants();
    });

    it('a MARKET BUY TRANSFER taker pays for the moved base without breaking its reservation', () => {
      const sim = new Sim();
      sim.createAccount(1, { BTC: '10' }, { tradeGroupId: 5 });
      sim.createAccount(2, { USDT: '1000' }, { tradeGroupId: 5 });
      sim.sell(1, '2', '100', { stp: 'TRANSFER' }); // 1
      // Expected like the LIMIT case: 1 BTC moves to account 2 for 100 USDT; the order then ends.
      const r = sim.marketBuy(2, '1', { stp: 'TRANSFER' });
      expect(r.prevented[0]).toMatchObject({ mode: 'TRANSFER', takerPreventedQuantity: qty('1') });
      expect(sim.balance(2, 'BTC')).toEqual({ free: qty('1'), locked: 0 });
      expect(sim.balance(2, 'USDT')).toEqual({ free: u('900'), locked: 0 });
      expect(sim.balance(1, 'USDT')).toEqual({ free: u('100'), locked: 0 });
      sim.engine.checkInvariants();
    });
  });

  describe('preventedMatches query', () => {
    it('lists the prevented matches an account took part in, as taker or maker', () => {
      const sim = new Sim();
      sim.createAccount(1, { USDT: '10000', BTC: '10' }, { tradeGroupId: 3 });
      sim.createAccount(2, { USDT: '10000', BTC: '10' }, { tradeGroupId: 3 });
      sim.createAccount(4, { USDT: '10000', BTC: '10' });
      sim.buy(1, '1', '100'); // 1
      const t = sim.now;
      sim.sell(2, '0.4', '99', { stp: 'DECREMENT' }); // 2
      const rows = sim.engine.preventedMatches(1, 'BTCUSDT');
      expect(rows).toEqual([
        {
          symbol: 'BTCUSDT',
          preventedMatchId: 0,
          takerOrderId: 2,
          makerSymbol: 'BTCUSDT',
          makerOrderId: 1,
          tradeGroupId: 3,
          selfTradePreventionMode: 'DECREMENT',
          price: px('100'),
          takerPreventedQuantity: qty('0.4'),
          makerPreventedQuantity: qty('0.4'),
          transactTime: t + 1,
        },
      ]);
      expect(sim.engine.preventedMatches(2, 'BTCUSDT')).toEqual(rows);
      expect(sim.engine.preventedMatches(4, 'BTCUSDT')).toEqual([]);
    });
  });

  it('preventedMatchIds are numbered per symbol from 0', () => {
    const sim = new Sim({ symbols: [symbolConfig(), symbolConfig({ symbol: 'ETHUSDT', baseAsset: 'ETH' })] });
    sim.createAccount(1, { USDT: '10000', BTC: '10', ETH: '10' });
    sim.sell(1, '1', '100');
    sim.sell(1, '1', '10', { symbol: 'ETHUSDT' });
    expect(sim.buy(1, '1', '100', { stp: 'EXPIRE_MAKER' }).prevented[0]?.preventedMatchId).toBe(0);
    expect(sim.buy(1, '1', '10', { stp: 'EXPIRE_MAKER', symbol: 'ETHUSDT' }).prevented[0]?.preventedMatchId).toBe(0);
    // The BUY above rested at 100 once its maker expired; a SELL against it prevents again.
    expect(sim.sell(1, '1', '100', { stp: 'EXPIRE_MAKER' }).prevented[0]?.preventedMatchId).toBe(1);
  });
});
