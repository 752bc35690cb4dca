/**
 * An HTTP server (REST + streams) over a replay of a few scripted prints on the sample market,
 * whose clock the test moves with `replay.runUntil`: every stream message's simulated time is
 * then exact. A synthetic book quotes around the prints; account 1 signs as key 'k'.
 */
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { ExsimHttpServer, type HttpServerOptions } from '../../src/api-facade/transport/http-server.ts';
import { InProcessClient } from '../../src/api-facade/rest/in-process-client.ts';
import { Replay, SyntheticBook, tradeThrough } from '../../src/sim/index.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../src/sample/sample-market.ts';
import { T0, tape } from '../unit/sim/helpers.ts';

export type ScriptedPrints = Parameters<typeof tape>[0];

export async function startReplayServer(prints: ScriptedPrints, options: HttpServerOptions = {}) {
  const replay = new Replay({ engine: SAMPLE_CONFIG, tapes: [{ symbol: 'BTCUSDT', trades: tape(prints) }], fillModel: tradeThrough(), seed: 1, startTime: T0, journal: null });
  for (const { time: _t, ...account } of sampleAccounts(T0)) replay.apply(account);
  await SyntheticBook.attach(replay, { symbols: { BTCUSDT: { levels: 5, spreadTicks: [1, 3], baseQty: 100_000, jitter: 0.3 } } });
  const ctx = new ExchangeContext({ backend: replay, apiKeys: [{ apiKey: 'k', keyType: 'HMAC', secretKey: 's', accountId: 1 }] });
  const server = new ExsimHttpServer(ctx, options);
  const base = await server.listen(0, '127.0.0.1');
  const rest = new InProcessClient(ctx, { apiKey: 'k', ip: 'test' });
  return { replay, ctx, server, base, wsBase: base.replace('http:', 'ws:'), rest };
}
