/**
 * A market with both USDⓈ-M margin assets: the sample market plus spot BTCUSDC (BTCUSDT's rules
 * quoted in USDC), the perpetuals um:BTCUSDT (margin um:USDT) and um:BTCUSDC (margin um:USDC:
 * contract-rules.ts picks USDC by the name's suffix; tick 0.10, step 0.001, MIN_NOTIONAL 5,
 * BTCUSDT's first five brackets), both marks at 50 000. Each account also holds spot USDC (demo
 * 100 000, market maker 10 000 000). The market maker funds both futures wallets and quotes both
 * perpetuals (1 BTC at 50 010 ask, 49 990 bid).
 */
import { ExchangeContext } from '../../../src/api-facade/context/exchange-context.ts';
import { InProcessClient } from '../../../src/api-facade/rest/in-process-client.ts';
import type { EngineConfig } from '../../../src/engine/index.ts';
import { BTCUSDT_LADDER, futuresSymbolConfig } from '../../../src/futures/trading/contract-rules.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../../src/sample/sample-market.ts';
import { DEMO_KEY, DEMO_SECRET, MM_KEY, MM_SECRET, T0 } from '../fixture.ts';
import { MarketEngineBackend, type FuturesTradingFixture } from './futures-fixture.ts';

const SPOT_BTCUSDT = SAMPLE_CONFIG.symbols.find((s) => s.symbol === 'BTCUSDT')!;

export const USDC_CONFIG: EngineConfig = {
  ...SAMPLE_CONFIG,
  assets: [...(SAMPLE_CONFIG.assets ?? []), { asset: 'USDC', precision: 8 }, { asset: 'um:USDT', precision: 8 }, { asset: 'um:USDC', precision: 8 }],
  symbols: [
    ...SAMPLE_CONFIG.symbols,
    { ...SPOT_BTCUSDT, symbol: 'BTCUSDC', quoteAsset: 'USDC' },
    futuresSymbolConfig('BTCUSDT', { ladder: BTCUSDT_LADDER.slice(0, 5) }),
    futuresSymbolConfig('BTCUSDC', { ladder: BTCUSDT_LADDER.slice(0, 5), tickSize: '0.10', minNotional: '5' }),
  ],
};

/** Sets a perpetual's mark (and index) price, as the replay's futures model does. */
export function markOf(f: FuturesTradingFixture, fapiSymbol: string, price: number): void {
  f.backend.market({ type: 'SetMarkPrice', time: f.backend.now, symbol: `um:${fapiSymbol}`, markPrice: price * 1e8, indexPrice: price * 1e8 });
}

export function usdcFixture(): FuturesTradingFixture {
  const usdc = (accountId: number): number => (accountId === 1 ? 100_000 : 10_000_000) * 1e8;
  const accounts = sampleAccounts(T0).map((a) => ({ ...a, balances: { ...a.balances, USDC: usdc(a.accountId) } }));
  const backend = new MarketEngineBackend(USDC_CONFIG, T0, accounts);
  const ctx = new ExchangeContext({
    backend,
    apiKeys: [
      { apiKey: DEMO_KEY, keyType: 'HMAC', secretKey: DEMO_SECRET, accountId: 1 },
      { apiKey: MM_KEY, keyType: 'HMAC', secretKey: MM_SECRET, accountId: 2 },
    ],
  });
  const f: FuturesTradingFixture = {
    backend,
    ctx,
    demo: new InProcessClient(ctx, { apiKey: DEMO_KEY, ip: '10.0.0.1' }),
    maker: new InProcessClient(ctx, { apiKey: MM_KEY, ip: '10.0.0.2' }),
  };
  markOf(f, 'BTCUSDT', 50_000);
  markOf(f, 'BTCUSDC', 50_000);
  for (const asset of ['USDC', 'USDT']) {
    const r = f.maker.post('/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset, amount: '1000000' });
    if (r.status !== 200) throw new Error(`maker transfer failed: ${r.body}`);
  }
  for (const symbol of ['BTCUSDC', 'BTCUSDT']) {
    for (const [side, price] of [['SELL', '50010'], ['BUY', '49990']] as const) {
      const r = f.maker.post('/fapi/v1/order', { symbol, side, type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price });
      if (r.status !== 200) throw new Error(`quote failed: ${r.body}`);
    }
  }
  return f;
}
