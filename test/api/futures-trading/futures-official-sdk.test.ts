/**
 * Binance's official USDⓈ-M SDK (@binance/derivatives-trading-usds-futures) against the served
 * exchange (an HTTP server on the futures trading market): its REST API as the README shows, only
 * `basePath` pointed at the local server (issue 28: real clients run unchanged). The fixture
 * accepts the client's wall-clock timestamps (the market sits at 2026-01-01 on simulated time).
 */
import { BadRequestError, DerivativesTradingUsdsFutures, DerivativesTradingUsdsFuturesRestAPI as R } from '@binance/derivatives-trading-usds-futures';
import { afterEach, expect, test } from 'vitest';
import { ExsimHttpServer } from '../../../src/api-facade/transport/http-server.ts';
import { DEMO_KEY, DEMO_SECRET } from '../fixture.ts';
import { futuresTradingFixture, fund, mark, quote, T0_MS } from './futures-fixture.ts';

const servers: ExsimHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

test('restAPI: leverage, margin type, a short, a resting order queried and canceled, position, account, income', async () => {
  const f = futuresTradingFixture({ clientTime: (_timestamp, now) => now });
  mark(f, '50000');
  quote(f);
  fund(f.demo, '1000');
  const server = new ExsimHttpServer(f.ctx, {});
  servers.push(server);
  const basePath = await server.listen(0);
  const rest = new DerivativesTradingUsdsFutures({ configurationRestAPI: { apiKey: DEMO_KEY, apiSecret: DEMO_SECRET, basePath } }).restAPI;

  const info = await (await rest.exchangeInformation()).data();
  expect(info.symbols?.find((s) => s.symbol === 'BTCUSDT')).toMatchObject({ contractType: 'PERPETUAL', pricePrecision: 1, quantityPrecision: 3 });

  expect(await (await rest.changeInitialLeverage({ symbol: 'BTCUSDT', leverage: 10 })).data()).toEqual({ leverage: 10, maxNotionalValue: '70000000.00000000', symbol: 'BTCUSDT' });
  expect(await (await rest.changeMarginType({ symbol: 'BTCUSDT', marginType: R.ChangeMarginTypeMarginTypeEnum.ISOLATED })).data()).toEqual({ code: 200, msg: 'success' });

  // MARKET SELL 0.01 against the maker's 49 990 bid opens a short.
  const short = await (await rest.newOrder({ symbol: 'BTCUSDT', side: R.NewOrderSideEnum.SELL, type: R.NewOrderTypeEnum.MARKET, quantity: 0.01, newOrderRespType: R.NewOrderNewOrderRespTypeEnum.RESULT })).data();
  expect(short).toMatchObject({ orderId: 5, clientOrderId: 'exsim2o5', side: 'SELL', type: 'MARKET', status: 'FILLED', executedQty: '0.010', cumQuote: '499.90000000', avgPrice: '49990.0', updateTime: T0_MS });

  const limit = await (await rest.newOrder({ symbol: 'BTCUSDT', side: R.NewOrderSideEnum.BUY, type: R.NewOrderTypeEnum.LIMIT, timeInForce: R.NewOrderTimeInForceEnum.GTC, quantity: 0.01, price: 49000 })).data();
  expect(limit).toMatchObject({ orderId: 6, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', status: 'NEW', price: '49000.0', origQty: '0.010', executedQty: '0.000' });
  expect(await (await rest.queryOrder({ symbol: 'BTCUSDT', orderId: 6 })).data()).toMatchObject({ orderId: 6, status: 'NEW', time: T0_MS, price: '49000.0' });
  expect(await (await rest.cancelOrder({ symbol: 'BTCUSDT', orderId: 6 })).data()).toMatchObject({ orderId: 6, status: 'CANCELED', executedQty: '0.000' });

  expect(await (await rest.positionInformationV3({ symbol: 'BTCUSDT' })).data()).toMatchObject([
    { symbol: 'BTCUSDT', positionSide: 'BOTH', positionAmt: '-0.010', entryPrice: '49990.0', markPrice: '50000.0', unRealizedProfit: '-0.10000000', isolatedMargin: '49.89000000', notional: '-500.00000000', initialMargin: '50.00000000' },
  ]);
  // 1000 − taker commission 0.24995 (0.0005 × 499.90).
  expect(await (await rest.accountInformationV3()).data()).toMatchObject({
    totalWalletBalance: '999.75005000', totalUnrealizedProfit: '-0.10000000', totalMarginBalance: '999.65005000', availableBalance: '949.76005000',
    assets: [{ asset: 'USDT', walletBalance: '999.75005000' }],
    positions: [{ symbol: 'BTCUSDT', positionAmt: '-0.010', isolatedWallet: '49.99000000' }],
  });
  expect(await (await rest.futuresAccountBalanceV3()).data()).toMatchObject([{ asset: 'USDT', balance: '999.75005000', availableBalance: '949.76005000' }]);
  expect(await (await rest.userCommissionRate({ symbol: 'BTCUSDT' })).data()).toMatchObject({ makerCommissionRate: '0.0002', takerCommissionRate: '0.0005' });

  const close = await (
    await rest.newOrder({ symbol: 'BTCUSDT', side: R.NewOrderSideEnum.BUY, type: R.NewOrderTypeEnum.MARKET, quantity: 0.01, reduceOnly: R.NewOrderReduceOnlyEnum.TRUE, newOrderRespType: R.NewOrderNewOrderRespTypeEnum.RESULT })
  ).data();
  expect(close).toMatchObject({ orderId: 7, status: 'FILLED', avgPrice: '50010.0', reduceOnly: true });
  expect(await (await rest.positionInformationV3({ symbol: 'BTCUSDT' })).data()).toEqual([]);

  const income = await (await rest.getIncomeHistory({ symbol: 'BTCUSDT' })).data();
  expect(income.map((i) => [i.incomeType, i.income, i.asset, i.time])).toEqual([
    ['COMMISSION', '-0.24995000', 'USDT', T0_MS],
    ['REALIZED_PNL', '-0.20000000', 'USDT', T0_MS], // −0.01 × (50 010 − 49 990)
    ['COMMISSION', '-0.25005000', 'USDT', T0_MS],
  ]);

  // The user data stream's key: POST answers the active key again, PUT extends it (futures facts §7).
  const { listenKey } = await (await rest.startUserDataStream()).data();
  expect(listenKey).toMatch(/^[0-9a-f]{64}$/);
  expect(await (await rest.startUserDataStream()).data()).toEqual({ listenKey });
  expect(await (await rest.keepaliveUserDataStream()).data()).toEqual({ listenKey });
  await rest.closeUserDataStream();

  // Binance's error body reaches the SDK's typed error.
  const unknown = rest.cancelOrder({ symbol: 'BTCUSDT', orderId: 999 });
  await expect(unknown).rejects.toBeInstanceOf(BadRequestError);
  await expect(unknown).rejects.toMatchObject({ code: -2011, message: 'Unknown order sent.' });
  await expect(rest.changeMarginType({ symbol: 'BTCUSDT', marginType: R.ChangeMarginTypeMarginTypeEnum.ISOLATED })).rejects.toMatchObject({ code: -4046, message: 'No need to change margin type.' });
});
