/**
 * The official modular client (@binance/spot, unchanged) against the HTTP server: its REST API
 * with an HMAC key, market data, account, order placement, query, test and cancel, and the newer
 * account endpoints. Like the connector test, simulated time follows the wall clock by hand,
 * because the client stamps `timestamp` with the host's clock.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Spot, SpotRestAPI } from '@binance/spot';
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { ExsimHttpServer } from '../../src/api-facade/transport/http-server.ts';
import { EngineBackend } from '../../src/api-facade/core/market-backend.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../src/sample/sample-market.ts';

const start = Date.now() * 1000;
const backend = new EngineBackend(SAMPLE_CONFIG, start, sampleAccounts(start));
const ctx = new ExchangeContext({ backend, apiKeys: [{ apiKey: 'exsim-demo-key', keyType: 'HMAC', secretKey: 'exsim-demo-secret', accountId: 1 }] });
const server = new ExsimHttpServer(ctx);
let rest: InstanceType<typeof Spot>['restAPI'];

function pace(): void {
  backend.advanceTo(Math.max(backend.now, Date.now() * 1000));
}

beforeAll(async () => {
  const basePath = await server.listen(0, '127.0.0.1');
  rest = new Spot({ configurationRestAPI: { apiKey: 'exsim-demo-key', apiSecret: 'exsim-demo-secret', basePath } }).restAPI;
});

afterAll(async () => {
  await server.close();
});

describe('@binance/spot against the HTTP server', () => {
  test('market data: exchangeInfo, depth', async () => {
    pace();
    const info = await (await rest.exchangeInfo({ symbol: 'BTCUSDT' })).data();
    expect(info.symbols?.[0]?.symbol).toBe('BTCUSDT');
    const depth = await (await rest.depth({ symbol: 'BTCUSDT', limit: 5 })).data();
    expect(depth).toMatchObject({ bids: [], asks: [] });
  });

  test('account, newOrder, getOrder, orderTest, accountCommission, deleteOrder', async () => {
    pace();
    const account = await (await rest.getAccount()).data();
    expect(account.balances?.find((b) => b.asset === 'BTC')).toEqual({ asset: 'BTC', free: '1.00000000', locked: '0.00000000' });
    pace();
    const placed = await (
      await rest.newOrder({ symbol: 'BTCUSDT', side: SpotRestAPI.NewOrderSideEnum.BUY, type: SpotRestAPI.NewOrderTypeEnum.LIMIT, timeInForce: SpotRestAPI.NewOrderTimeInForceEnum.GTC, price: 49000, quantity: 0.1 })
    ).data();
    expect(placed).toMatchObject({ symbol: 'BTCUSDT', status: 'NEW', price: '49000.00000000' });
    pace();
    expect(await (await rest.getOrder({ symbol: 'BTCUSDT', orderId: placed.orderId as number })).data()).toMatchObject({ status: 'NEW' });
    pace();
    expect(await (await rest.orderTest({ symbol: 'BTCUSDT', side: SpotRestAPI.OrderTestSideEnum.SELL, type: SpotRestAPI.OrderTestTypeEnum.LIMIT, timeInForce: SpotRestAPI.OrderTestTimeInForceEnum.GTC, price: 51000, quantity: 0.01 })).data()).toEqual({});
    pace();
    const commission = await (await rest.accountCommission({ symbol: 'BTCUSDT' })).data();
    expect(commission.standardCommission).toMatchObject({ maker: '0.00100000', taker: '0.00100000' });
    pace();
    expect(await (await rest.deleteOrder({ symbol: 'BTCUSDT', orderId: placed.orderId as number })).data()).toMatchObject({ status: 'CANCELED' });
  });

  test('an exchange error reaches the client as its typed error', async () => {
    pace();
    await expect(rest.getOrder({ symbol: 'BTCUSDT', orderId: 987654 })).rejects.toThrow(/Order does not exist/);
  });
});
