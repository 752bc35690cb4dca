/**
 * The official USDⓈ-M SDK's WebSocket streams (@binance/derivatives-trading-usds-futures
 * `websocketStreams`) against the served exchange with only `wsURL` set to the server's root: the
 * SDK opens `<wsURL>/market/stream?streams=`, `<wsURL>/public/stream?streams=` and
 * `<wsURL>/private/stream?streams=` together (Binance's 2026 category split of fstream), then
 * SUBSCRIBEs each stream on its category's connection, the listen key on /private. The backend
 * has no scheduler: the stream endpoint's host tick pumps the feed after the test moves time.
 */
import { DerivativesTradingUsdsFutures, DerivativesTradingUsdsFuturesWebsocketStreams as S } from '@binance/derivatives-trading-usds-futures';
import { afterEach, expect, test } from 'vitest';
import WebSocket from 'ws';
import { ExsimHttpServer } from '../../../src/api-facade/transport/http-server.ts';
import { futuresTradingFixture, fund, mark, quote, T0_MS } from './futures-fixture.ts';

const servers: ExsimHttpServer[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

test('markPrice@1s, aggTrade and the user data stream through the SDK, only wsURL set', async () => {
  const f = futuresTradingFixture();
  mark(f, '50000');
  quote(f);
  fund(f.demo, '1000');
  const server = new ExsimHttpServer(f.ctx, {});
  servers.push(server);
  const wsURL = (await server.listen(0)).replace('http:', 'ws:');
  const listenKey = (f.demo.post('/fapi/v1/listenKey', {}).json as { listenKey: string }).listenKey;

  const client = new DerivativesTradingUsdsFutures({ configurationWebsocketStreams: { wsURL } });
  const connection = await client.websocketStreams!.connect();
  cleanups.push(() => connection.disconnect());
  // The SDK's three category connections.
  expect(server.streamConnections).toBe(3);

  const marks: any[] = [];
  const trades: any[] = [];
  const user: any[] = [];
  connection.markPriceStream({ symbol: 'btcusdt', updateSpeed: S.MarkPriceStreamUpdateSpeedEnum.UPDATE_SPEED_1s }).on('message', (m) => void marks.push(m));
  connection.aggregateTradeStreams({ symbol: 'btcusdt' }).on('message', (m) => void trades.push(m));
  connection.userData(listenKey).on('message', (m) => void user.push(m));
  // The SUBSCRIBEs answered (each connection lists what it took) before time moves.
  await new Promise((r) => setTimeout(r, 100));

  f.backend.advanceTo(f.backend.now + 50_000);
  f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.012' });
  f.backend.advanceTo(f.backend.now + 950_000);
  await until(() => marks.length > 0 && trades.length > 0 && user.length >= 3);

  expect(marks[0]).toEqual({ e: 'markPriceUpdate', E: T0_MS + 1000, s: 'BTCUSDT', p: '50000.00000000', i: '50000.00000000', P: '0.00000000', r: '0.00010000', T: T0_MS + 8 * 3_600_000, st: 1 });
  expect(trades).toEqual([{ e: 'aggTrade', E: T0_MS + 50, s: 'BTCUSDT', a: 0, p: '50010.0', q: '0.012', f: 1, l: 1, T: T0_MS + 50, m: false }]);
  // The demo's taker buy: its ORDER_TRADE_UPDATEs (NEW, then the fill), TRADE_LITE, ACCOUNT_UPDATE.
  expect(user.map((e) => e.e).sort()).toEqual(['ACCOUNT_UPDATE', 'ORDER_TRADE_UPDATE', 'ORDER_TRADE_UPDATE', 'TRADE_LITE'].sort());
  expect(user.find((e) => e.e === 'TRADE_LITE')).toMatchObject({ s: 'BTCUSDT', q: '0.012', p: '0', L: '50010.0', S: 'BUY', m: false });
});

test('the root category paths carry the perpetual; spot keeps /stream at the root', async () => {
  const f = futuresTradingFixture();
  mark(f, '50000');
  fund(f.maker, '1000000');
  const server = new ExsimHttpServer(f.ctx, {});
  servers.push(server);
  const wsBase = (await server.listen(0)).replace('http:', 'ws:');
  const open = async (path: string): Promise<any[]> => {
    const ws = new WebSocket(`${wsBase}${path}`);
    cleanups.push(() => ws.close());
    await new Promise((resolve, reject) => (ws.on('open', resolve), ws.on('error', reject)));
    const frames: any[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(String(d))));
    ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: ['btcusdt@bookTicker'], id: 1 }));
    await until(() => frames.length >= 1);
    return frames;
  };
  const market = await open('/market/stream?streams=');
  const publicPath = await open('/public/stream?streams=');
  const spot = await open('/stream?streams=');

  // A futures bid moves um:BTCUSDT's book only: the category paths see it in the futures shape, spot's /stream does not.
  f.maker.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '49990' });
  await until(() => market.length >= 2 && publicPath.length >= 2);
  await new Promise((r) => setTimeout(r, 100));
  const futuresTicker = { stream: 'btcusdt@bookTicker', data: expect.objectContaining({ e: 'bookTicker', s: 'BTCUSDT', b: '49990.0', B: '1.000' }) };
  expect(market).toEqual([{ result: null, id: 1 }, futuresTicker]);
  expect(publicPath).toEqual([{ result: null, id: 1 }, futuresTicker]);
  expect(spot).toEqual([{ result: null, id: 1 }]);
});
