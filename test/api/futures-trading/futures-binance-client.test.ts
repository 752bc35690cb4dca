/**
 * The `binance` package (tiagosiebler) against the served exchange (an HTTP server on the futures
 * trading market): its USDMClient exactly as the README shows, only `baseUrl` pointed at the local
 * server (issue 28: real clients run unchanged). The fixture accepts the client's wall-clock
 * timestamps (the market sits at 2026-01-01 on simulated time); the client's own newClientOrderId
 * (`x-15PC4ZJy…`, random) is taken as Binance takes it.
 */
import { MainClient, USDMClient, WebsocketClient } from 'binance';
import { afterEach, expect, test } from 'vitest';
import { ExsimHttpServer } from '../../../src/api-facade/transport/http-server.ts';
import { DEMO_KEY, DEMO_SECRET } from '../fixture.ts';
import { futuresTradingFixture, fund, mark, quote, T0_MS } from './futures-fixture.ts';

const servers: ExsimHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function served(): Promise<USDMClient> {
  return new USDMClient({ api_key: DEMO_KEY, api_secret: DEMO_SECRET, baseUrl: await listen() });
}

async function listen(): Promise<string> {
  const f = futuresTradingFixture({ clientTime: (_timestamp, now) => now });
  mark(f, '50000');
  quote(f);
  fund(f.demo, '1000');
  const server = new ExsimHttpServer(f.ctx, {});
  servers.push(server);
  return server.listen(0);
}

test('USDMClient: exchange info, leverage, margin type, a short, a resting order canceled, the close', async () => {
  const client = await served();

  const info = await client.getExchangeInfo();
  expect(info.symbols.find((s) => s.symbol === 'BTCUSDT')).toMatchObject({ contractType: 'PERPETUAL', marginAsset: 'USDT', pricePrecision: 1, quantityPrecision: 3, status: 'TRADING' });

  expect(await client.setLeverage({ symbol: 'BTCUSDT', leverage: 10 })).toEqual({ leverage: 10, maxNotionalValue: '70000000.00000000', symbol: 'BTCUSDT' });
  expect(await client.setMarginType({ symbol: 'BTCUSDT', marginType: 'ISOLATED' })).toEqual({ code: 200, msg: 'success' });

  // MARKET SELL 0.01 opens a short against the maker's 49 990 bid.
  const short = await client.submitNewOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: 0.01, newOrderRespType: 'RESULT' });
  expect(short).toMatchObject({ orderId: 5, side: 'SELL', type: 'MARKET', status: 'FILLED', executedQty: '0.010', cumQuote: '499.90000000', avgPrice: '49990.0', reduceOnly: false, positionSide: 'BOTH', updateTime: T0_MS });
  expect(short.clientOrderId).toMatch(/^x-15PC4ZJy/);

  const limit = await client.submitNewOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: 0.01, price: 49000 });
  expect(limit).toMatchObject({ orderId: 6, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', status: 'NEW', price: '49000.0', origQty: '0.010', executedQty: '0.000' });
  expect(await client.getOrder({ symbol: 'BTCUSDT', orderId: 6 })).toMatchObject({ orderId: 6, status: 'NEW', clientOrderId: limit.clientOrderId, time: T0_MS });
  expect(await client.cancelOrder({ symbol: 'BTCUSDT', orderId: 6 })).toMatchObject({ orderId: 6, status: 'CANCELED', executedQty: '0.000' });

  expect(await client.getPositionsV3({ symbol: 'BTCUSDT' })).toEqual([
    {
      symbol: 'BTCUSDT', positionSide: 'BOTH', positionAmt: '-0.010', entryPrice: '49990.0', breakEvenPrice: '49940.03498200', markPrice: '50000.0',
      unRealizedProfit: '-0.10000000', liquidationPrice: '54769.92031800', isolatedMargin: '49.89000000', notional: '-500.00000000', marginAsset: 'USDT',
      isolatedWallet: '49.99000000', initialMargin: '50.00000000', maintMargin: '2.00000000', positionInitialMargin: '50.00000000', openOrderInitialMargin: '0.00000000',
      adl: 0, bidNotional: '0.00000000', askNotional: '0.00000000', updateTime: T0_MS,
    },
  ]);
  // v2 positionRisk carries the leverage and margin type.
  expect(await client.getPositions({ symbol: 'BTCUSDT' })).toMatchObject([{ positionAmt: '-0.010', leverage: '10', marginType: 'isolated', maxNotionalValue: '70000000.00000000' }]);

  // 1000 − taker commission 0.24995 (0.0005 × 499.90); 49.99 of it in the isolated wallet.
  expect(await client.getBalanceV3()).toMatchObject([{ asset: 'USDT', balance: '999.75005000', crossWalletBalance: '949.76005000', availableBalance: '949.76005000', marginAvailable: true }]);
  expect(await client.getAccountInformationV3()).toMatchObject({
    totalWalletBalance: '999.75005000', totalUnrealizedProfit: '-0.10000000', totalMarginBalance: '999.65005000', totalInitialMargin: '50.00000000', availableBalance: '949.76005000',
    positions: [{ symbol: 'BTCUSDT', positionSide: 'BOTH', positionAmt: '-0.010', notional: '-500.00000000' }],
  });
  expect(await client.getAccountCommissionRate({ symbol: 'BTCUSDT' })).toMatchObject({ symbol: 'BTCUSDT', makerCommissionRate: '0.0002', takerCommissionRate: '0.0005' });

  // Reduce-only buy against the 50 010 ask closes the short.
  const close = await client.submitNewOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: 0.01, reduceOnly: 'true', newOrderRespType: 'RESULT' });
  expect(close).toMatchObject({ orderId: 7, side: 'BUY', status: 'FILLED', executedQty: '0.010', avgPrice: '50010.0', reduceOnly: true });
  expect(await client.getPositionsV3({ symbol: 'BTCUSDT' })).toEqual([]);

  const income = await client.getIncomeHistory({ symbol: 'BTCUSDT' });
  expect(income.map((i) => [i.incomeType, i.income, i.tradeId])).toEqual([
    ['COMMISSION', '-0.24995000', '1'],
    ['REALIZED_PNL', '-0.20000000', '2'], // −0.01 × (50 010 − 49 990)
    ['COMMISSION', '-0.25005000', '2'],
  ]);
});

test('USDMClient: errors come back with Binance codes', async () => {
  const client = await served();
  await expect(client.cancelOrder({ symbol: 'BTCUSDT', orderId: 999 })).rejects.toMatchObject({ code: -2011, message: 'Unknown order sent.' });
  await expect(client.setLeverage({ symbol: 'BTCUSDT', leverage: 200 })).rejects.toMatchObject({ code: -4028 });
});

test('WebsocketClient: the USDⓈ-M user data stream (listenKey from POST /fapi/v1/listenKey) after a fill', async () => {
  const base = await listen();
  // As the README's WebsocketClient, pointed at the server: wsUrl for the socket, restOptions.baseUrl
  // for the listenKey. The client opens <wsUrl>/private/stream?listenKey=<key> (Binance's split URLs).
  const wsClient = new WebsocketClient({ api_key: DEMO_KEY, api_secret: DEMO_SECRET, beautify: true, wsUrl: base.replace('http:', 'ws:'), restOptions: { baseUrl: base } });
  const raw: any[] = [];
  const formatted: any[] = [];
  const opened: string[] = [];
  wsClient.on('message', (data) => raw.push(data));
  wsClient.on('formattedMessage', (data) => formatted.push(data));
  wsClient.on('open', (data) => opened.push(data.wsUrl));
  try {
    await wsClient.subscribeUsdFuturesUserDataStream();
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(/\/private\/stream\?listenKey=[0-9a-f]{64}$/);

    const rest = new USDMClient({ api_key: DEMO_KEY, api_secret: DEMO_SECRET, baseUrl: base });
    await rest.submitNewOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: 0.01 });
    for (let i = 0; i < 400 && raw.filter((m) => m.e === 'ORDER_TRADE_UPDATE').length < 2; i++) await new Promise((r) => setTimeout(r, 5));

    expect(raw.map((m) => (m.e === 'ORDER_TRADE_UPDATE' ? `${m.e} ${m.o.x}` : m.e))).toEqual(['ORDER_TRADE_UPDATE NEW', 'ACCOUNT_UPDATE', 'ORDER_TRADE_UPDATE TRADE', 'TRADE_LITE']);
    expect(raw[2]).toMatchObject({ e: 'ORDER_TRADE_UPDATE', E: T0_MS, o: { s: 'BTCUSDT', S: 'SELL', o: 'MARKET', X: 'FILLED', i: 5, z: '0.010', L: '49990.0', n: '0.24995000' } });
    expect(raw[1]).toMatchObject({ e: 'ACCOUNT_UPDATE', a: { m: 'ORDER', B: [{ a: 'USDT', wb: '999.75005000' }], P: [{ s: 'BTCUSDT', pa: '-0.010', ep: '49990.0' }] } });
    // The package's own beautifier reads Binance's fields.
    const fill = formatted.find((m) => m.eventType === 'ORDER_TRADE_UPDATE' && m.order.executionType === 'TRADE');
    expect(fill.order).toMatchObject({ symbol: 'BTCUSDT', orderSide: 'SELL', orderStatus: 'FILLED', orderFilledAccumulatedQuantity: 0.01, lastFilledPrice: 49990 });
    const account = formatted.find((m) => m.eventType === 'ACCOUNT_UPDATE');
    expect(account.updateData.updatedPositions).toMatchObject([{ symbol: 'BTCUSDT', positionAmount: -0.01, entryPrice: 49990 }]);
  } finally {
    wsClient.closeAll(true);
  }
});

test('MainClient: the universal transfer funds the futures wallet (POST/GET /sapi/v1/asset/transfer)', async () => {
  const base = await listen(); // the demo account has moved 1000 USDT already (tranId 2; the maker's was 1)
  const main = new MainClient({ api_key: DEMO_KEY, api_secret: DEMO_SECRET, baseUrl: base });
  // The package's type marks fromSymbol/toSymbol required (they matter only for isolated margin transfers).
  const transfer = { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: 250 } as Parameters<MainClient['submitUniversalTransfer']>[0];
  expect(await main.submitUniversalTransfer(transfer)).toEqual({ tranId: 3 });
  const history = await main.getUniversalTransferHistory({ type: 'MAIN_UMFUTURE' });
  expect(history.total).toBe(2);
  expect(history.rows.map((r: Record<string, unknown>) => [r.tranId, r.asset, r.amount, r.type, r.status])).toEqual([
    [3, 'USDT', '250.00000000', 'MAIN_UMFUTURE', 'CONFIRMED'],
    [2, 'USDT', '1000.00000000', 'MAIN_UMFUTURE', 'CONFIRMED'],
  ]);
  const usdm = new USDMClient({ api_key: DEMO_KEY, api_secret: DEMO_SECRET, baseUrl: base });
  expect(await usdm.getBalanceV3()).toMatchObject([{ asset: 'USDT', balance: '1250.00000000', availableBalance: '1250.00000000' }]);
});
