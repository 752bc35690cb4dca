/**
 * A futures trading test market: the sample market (BTCUSDT, ETHBTC spot) plus the USDⓈ-M
 * perpetual BTCUSDT as the engine's margin symbol `um:BTCUSDT` (contract-rules.ts defaults: tick
 * 0.10, step 0.001, MIN_NOTIONAL 100, BTCUSDT's first five brackets, maker 0.0002 / taker 0.0005), the futures
 * wallet asset `um:USDT` (precision 8), the demo key (account 1) and the market maker's (account 2).
 * `fund` moves spot USDT into the futures wallet through the API (POST /sapi/v1/asset/transfer);
 * `mark` sets the mark price as the replay's futures model would (SetMarkPrice, not an API call);
 * `quote` has the market maker rest futures orders around 50 000.
 */
import { ExchangeContext, type ClientTimeRule } from '../../../src/api-facade/context/exchange-context.ts';
import { InProcessClient } from '../../../src/api-facade/rest/in-process-client.ts';
import { EngineBackend } from '../../../src/api-facade/core/market-backend.ts';
import type { EngineCommand, EngineConfig, EngineEvent } from '../../../src/engine/index.ts';
import { BTCUSDT_LADDER, futuresSymbolConfig } from '../../../src/futures/trading/contract-rules.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../../src/sample/sample-market.ts';
import { DEMO_KEY, DEMO_SECRET, MM_KEY, MM_SECRET, T0 } from '../fixture.ts';

export { T0 };
export const T0_MS = T0 / 1000;

export const FUTURES_CONFIG: EngineConfig = {
  ...SAMPLE_CONFIG,
  assets: [...(SAMPLE_CONFIG.assets ?? []), { asset: 'um:USDT', precision: 8 }],
  // BTCUSDT's first five brackets (to 70 000 000): the engine cannot hold the later caps (1e8 and
  // more) as integers at 8 decimals (reported to the engine side).
  symbols: [...SAMPLE_CONFIG.symbols, futuresSymbolConfig('BTCUSDT', { ladder: BTCUSDT_LADDER.slice(0, 5) })],
};

/**
 * A bare engine that also applies commands of its own market, as a replay's futures model does
 * (marks, funding), reporting their events through `onMarketEvents` like a Replay.
 */
export class MarketEngineBackend extends EngineBackend {
  readonly #listeners: ((events: readonly EngineEvent[]) => void)[] = [];

  onMarketEvents(listener: (events: readonly EngineEvent[]) => void): void {
    this.#listeners.push(listener);
  }

  /** Applies a market command (SetMarkPrice, SettleFunding, ...) and reports its events. */
  market(command: EngineCommand): readonly EngineEvent[] {
    const events = this.applyRaw(command);
    for (const listener of this.#listeners) listener(events);
    return events;
  }
}

export interface FuturesTradingFixture {
  backend: MarketEngineBackend;
  ctx: ExchangeContext;
  demo: InProcessClient;
  maker: InProcessClient;
}

export function futuresTradingFixture(options: { clientTime?: ClientTimeRule } = {}): FuturesTradingFixture {
  const backend = new MarketEngineBackend(FUTURES_CONFIG, T0, sampleAccounts(T0));
  const ctx = new ExchangeContext({
    backend,
    apiKeys: [
      { apiKey: DEMO_KEY, keyType: 'HMAC', secretKey: DEMO_SECRET, accountId: 1 },
      { apiKey: MM_KEY, keyType: 'HMAC', secretKey: MM_SECRET, accountId: 2 },
    ],
    ...(options.clientTime === undefined ? {} : { clientTime: options.clientTime }),
  });
  return { backend, ctx, demo: new InProcessClient(ctx, { apiKey: DEMO_KEY, ip: '10.0.0.1' }), maker: new InProcessClient(ctx, { apiKey: MM_KEY, ip: '10.0.0.2' }) };
}

/** Moves `amount` USDT of the client's spot wallet to its futures wallet (asserting success). */
export function fund(client: InProcessClient, amount: string): number {
  const r = client.post('/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount });
  if (r.status !== 200) throw new Error(`transfer failed: ${r.body}`);
  return (r.json as { tranId: number }).tranId;
}

/** The mark price of um:BTCUSDT, as the futures model feeds it (price in USDT, e.g. '50000'). */
export function mark(f: FuturesTradingFixture, price: string): void {
  const units = Math.round(Number(price) * 1e8);
  f.backend.market({ type: 'SetMarkPrice', time: f.backend.now, symbol: 'um:BTCUSDT', markPrice: units, indexPrice: units });
}

/** The market maker funds 1 000 000 USDT and rests 1 BTC asks at 50 010 / 50 020 and bids at 49 990 / 49 980. */
export function quote(f: FuturesTradingFixture): void {
  fund(f.maker, '1000000');
  for (const [side, price] of [['SELL', '50010'], ['SELL', '50020'], ['BUY', '49990'], ['BUY', '49980']] as const) {
    const r = f.maker.post('/fapi/v1/order', { symbol: 'BTCUSDT', side, type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price });
    if (r.status !== 200) throw new Error(`quote failed: ${r.body}`);
  }
}
