/**
 * A short strategy through /fapi, in process: transfer 1000 USDT to futures, leverage 10, SELL
 * MARKET 0.01 BTCUSDT (a short), positionRisk, close with BUY reduceOnly, income. Expected
 * values worked by hand from the book (asks 50 010 / 50 020, bids 49 990 / 49 980), mark 50 000,
 * taker rate 0.0005, BTCUSDT bracket 1 (mmr 0.004, cum 0):
 * - open: fills 0.01 at 49 990 → quote 499.90, commission 0.24995;
 * - uPnL = -0.01 × (50 000 − 49 990) = -0.1; notional -500; IM = 500 / 10 = 50; MM = 500 × 0.004 = 2;
 * - liquidation (short, cross): (WB + Q·EP) / (Q·(1 + mmr)) = (999.75005 + 499.9) / 0.01004
 *   = 149 367.53486…; break-even 49 990 × (1 − 0.0005) / (1 + 0.0005) = 49 940.034982…;
 * - close: fills 0.01 at 50 010 → realized (49 990 − 50 010) × 0.01 = -0.2, commission 0.25005;
 * - wallet 1000 − 0.24995 − 0.2 − 0.25005 = 999.3.
 */
import { describe, expect, test } from 'vitest';
import { futuresTradingFixture, fund, mark, quote, T0_MS } from './futures-fixture.ts';

describe('a short through /fapi', () => {
  test('transfer, leverage, short, positionRisk, close reduce-only, income', () => {
    const f = futuresTradingFixture();
    mark(f, '50000');
    quote(f);
    expect(fund(f.demo, '1000')).toBe(2);
    expect(f.demo.post('/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 10 }).json).toEqual({ leverage: 10, maxNotionalValue: '70000000.00000000', symbol: 'BTCUSDT' });

    const open = f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.01', newOrderRespType: 'RESULT' });
    expect(open.status).toBe(200);
    expect(open.json).toEqual({
      clientOrderId: 'exsim2o5',
      cumQty: '0.010',
      cumQuote: '499.90000000',
      executedQty: '0.010',
      orderId: 5,
      avgPrice: '49990.0',
      origQty: '0.010',
      price: '0',
      reduceOnly: false,
      side: 'SELL',
      positionSide: 'BOTH',
      status: 'FILLED',
      stopPrice: '0',
      closePosition: false,
      symbol: 'BTCUSDT',
      timeInForce: 'GTC',
      type: 'MARKET',
      origType: 'MARKET',
      updateTime: T0_MS,
      workingType: 'CONTRACT_PRICE',
      priceProtect: false,
      priceMatch: 'NONE',
      selfTradePreventionMode: 'NONE',
      goodTillDate: 0,
    });
    // Field order as documented.
    expect(Object.keys(open.json as object).slice(0, 6)).toEqual(['clientOrderId', 'cumQty', 'cumQuote', 'executedQty', 'orderId', 'avgPrice']);

    const risk = f.demo.get('/fapi/v3/positionRisk', { symbol: 'BTCUSDT' });
    expect(risk.json).toEqual([
      {
        symbol: 'BTCUSDT',
        positionSide: 'BOTH',
        positionAmt: '-0.010',
        entryPrice: '49990.0',
        breakEvenPrice: '49940.03498200',
        markPrice: '50000.0',
        unRealizedProfit: '-0.10000000',
        liquidationPrice: '149367.53486000',
        isolatedMargin: '0.00000000',
        notional: '-500.00000000',
        marginAsset: 'USDT',
        isolatedWallet: '0.00000000',
        initialMargin: '50.00000000',
        maintMargin: '2.00000000',
        positionInitialMargin: '50.00000000',
        openOrderInitialMargin: '0.00000000',
        adl: 0,
        bidNotional: '0.00000000',
        askNotional: '0.00000000',
        updateTime: T0_MS,
      },
    ]);
    const v2 = f.demo.get('/fapi/v2/positionRisk', { symbol: 'BTCUSDT' }).json as Record<string, unknown>[];
    expect(v2[0]).toMatchObject({ marginType: 'cross', isAutoAddMargin: 'false', leverage: '10', positionAmt: '-0.010', entryPrice: '49990.0', maxNotionalValue: '70000000.00000000' });

    const close = f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01', reduceOnly: 'true', newOrderRespType: 'RESULT' });
    expect(close.json).toMatchObject({ status: 'FILLED', avgPrice: '50010.0', cumQuote: '500.10000000', reduceOnly: true, side: 'BUY' });
    expect(f.demo.get('/fapi/v3/positionRisk').json).toEqual([]);

    const income = f.demo.get('/fapi/v1/income').json as Record<string, unknown>[];
    expect(income.map((r) => [r['incomeType'], r['income'], r['symbol'], r['tradeId']])).toEqual([
      ['TRANSFER', '1000.00000000', '', ''],
      ['COMMISSION', '-0.24995000', 'BTCUSDT', '1'],
      ['REALIZED_PNL', '-0.20000000', 'BTCUSDT', '2'],
      ['COMMISSION', '-0.25005000', 'BTCUSDT', '2'],
    ]);
    expect(Object.keys(income[0]!)).toEqual(['symbol', 'incomeType', 'income', 'asset', 'info', 'time', 'tranId', 'tradeId']);
    expect((f.demo.get('/fapi/v1/income', { incomeType: 'REALIZED_PNL' }).json as unknown[]).length).toBe(1);

    const account = f.demo.get('/fapi/v3/account').json as Record<string, unknown>;
    expect(account['totalWalletBalance']).toBe('999.30000000');
    expect(account['availableBalance']).toBe('999.30000000');
    expect(account['positions']).toEqual([]);
    expect(f.demo.get('/fapi/v2/balance').json).toEqual([
      {
        accountAlias: 'SgsR1',
        asset: 'USDT',
        balance: '999.30000000',
        crossWalletBalance: '999.30000000',
        crossUnPnl: '0.00000000',
        availableBalance: '999.30000000',
        maxWithdrawAmount: '999.30000000',
        marginAvailable: true,
        updateTime: T0_MS,
      },
    ]);

    const trades = f.demo.get('/fapi/v1/userTrades', { symbol: 'BTCUSDT' }).json as Record<string, unknown>[];
    expect(trades.map((t) => [t['side'], t['price'], t['qty'], t['commission'], t['realizedPnl'], t['maker']])).toEqual([
      ['SELL', '49990.0', '0.010', '0.24995000', '0.00000000', false],
      ['BUY', '50010.0', '0.010', '0.25005000', '-0.20000000', false],
    ]);

    // Spot never shows the futures wallet: 100 000 − 1000 USDT, and no um: asset.
    const spot = f.demo.get('/api/v3/account').json as { balances: { asset: string; free: string }[] };
    expect(spot.balances.map((b) => b.asset)).toEqual(['BTC', 'ETH', 'USDT', 'BNB']);
    expect(spot.balances.find((b) => b.asset === 'USDT')!.free).toBe('99000.00000000');
    const coins = f.demo.get('/sapi/v1/capital/config/getall').json as { coin: string }[];
    expect(coins.map((c) => c.coin)).not.toContain('um:USDT');
    const spotInfo = f.demo.get('/api/v3/exchangeInfo').json as { symbols: { symbol: string }[] };
    expect(spotInfo.symbols.map((s) => s.symbol)).toEqual(['BTCUSDT', 'ETHBTC']);
  });

  test('the transfer back to spot and the history', () => {
    const f = futuresTradingFixture();
    fund(f.demo, '1000');
    expect(f.demo.post('/sapi/v1/futures/transfer', { asset: 'USDT', amount: '250', type: 2 }).json).toEqual({ tranId: 2 });
    expect(f.demo.get('/sapi/v1/asset/transfer', { type: 'UMFUTURE_MAIN' }).json).toEqual({
      total: 1,
      rows: [{ asset: 'USDT', amount: '250.00000000', type: 'UMFUTURE_MAIN', status: 'CONFIRMED', tranId: 2, timestamp: T0_MS }],
    });
    // More than the futures wallet can give: -5013, nothing moves.
    const over = f.demo.post('/sapi/v1/asset/transfer', { type: 'UMFUTURE_MAIN', asset: 'USDT', amount: '750.00000001' });
    expect(over.status).toBe(400);
    expect(over.json).toEqual({ code: -5013, msg: 'Asset transfer failed: insufficient balance' });
    expect((f.demo.get('/fapi/v2/balance').json as { balance: string }[])[0]!.balance).toBe('750.00000000');
    // Other wallets are not here.
    expect(f.demo.post('/sapi/v1/asset/transfer', { type: 'MAIN_MARGIN', asset: 'USDT', amount: '1' }).json).toEqual({ code: -1130, msg: "Data sent for parameter 'type' is not valid." });
    expect(f.demo.post('/sapi/v1/futures/transfer', { asset: 'USDT', amount: '1', type: 3 }).json).toEqual({ code: -1130, msg: "Data sent for parameter 'type' is not valid." });
    // More spot USDT than the account has.
    expect(f.demo.post('/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '1000000' }).json).toEqual({ code: -5013, msg: 'Asset transfer failed: insufficient balance' });
  });
});

describe('time unit', () => {
  test('X-MBX-TIME-UNIT: MICROSECOND gives µs in order, position, income and transfer times', async () => {
    const { InProcessClient } = await import('../../../src/api-facade/rest/in-process-client.ts');
    const f = futuresTradingFixture();
    mark(f, '50000');
    quote(f);
    fund(f.demo, '1000');
    const us = new InProcessClient(f.ctx, { apiKey: 'exsim-demo-key', ip: '10.0.0.1', microseconds: true });
    const T0_US = T0_MS * 1000;
    expect(us.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.01' }).json).toMatchObject({ updateTime: T0_US });
    expect((us.get('/fapi/v3/positionRisk').json as { updateTime: number }[])[0]!.updateTime).toBe(T0_US);
    expect((us.get('/fapi/v1/income').json as { time: number }[])[0]!.time).toBe(T0_US);
    expect((us.get('/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE' }).json as { rows: { timestamp: number }[] }).rows[0]!.timestamp).toBe(T0_US);
    expect((us.get('/fapi/v1/allOrders', { symbol: 'BTCUSDT' }).json as { time: number }[])[0]!.time).toBe(T0_US);
  });
});
