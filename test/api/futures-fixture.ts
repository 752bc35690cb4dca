/**
 * A futures test market: the sample market (fixture.ts) with a seeded spot tape on BTCUSDT
 * recorded through the engine (one print a minute for `minutes` minutes from T0, prices and
 * quantities on the spot grid, alternating sides), simulated now at the last print unless told.
 */
import seedrandom from 'seedrandom';
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { InProcessClient } from '../../src/api-facade/rest/in-process-client.ts';
import { EngineBackend } from '../../src/api-facade/core/market-backend.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../src/sample/sample-market.ts';
import type { FundingSetup } from '../../src/futures/index.ts';
import { DEMO_KEY, DEMO_SECRET, MM_KEY, MM_SECRET, T0 } from './fixture.ts';

export const MINUTE = 60_000_000;
export const HOUR = 60 * MINUTE;

export interface FuturesFixture {
  backend: EngineBackend;
  ctx: ExchangeContext;
  client: InProcessClient;
  /** The spot prints recorded, in order (price units, µs). */
  prints: { time: number; price: number; qty: number }[];
}

export interface TapeOptions {
  /** Number of one-minute prints (default 3 days). */
  minutes?: number;
  /** Simulated now (default: the last print). */
  now?: number;
  /** Only prints at or before this time are recorded (a truncated tape). */
  recordUntil?: number;
  futuresSeed?: string;
  /** Funding of USDⓈ-M perpetuals (interval, recorded fundings), as a backtest passes it. */
  futuresFunding?: Readonly<Record<string, FundingSetup>>;
  tapeSeed?: string;
  start?: number;
}

export function futuresFixture(options: TapeOptions = {}): FuturesFixture {
  const minutes = options.minutes ?? 3 * 24 * 60;
  const start = options.start ?? T0;
  const backend = new EngineBackend(SAMPLE_CONFIG, start, sampleAccounts(start));
  const rng = seedrandom.alea(options.tapeSeed ?? 'tape');
  const prints: FuturesFixture['prints'] = [];
  let price = 5_000_000_000_000; // 50,000.00 USDT
  for (let i = 0; i < minutes; i++) {
    const time = start + i * MINUTE + 1;
    price += Math.round((rng() - 0.5) * 4000) * 1_000_000; // ±20 USDT, on the 0.01 tick
    const qty = (1 + Math.floor(rng() * 500)) * 1000; // 0.00001 .. 0.005 BTC, on the step
    if (options.recordUntil !== undefined && time > options.recordUntil) break;
    backend.applyRaw({ type: 'RecordMarketTrade', time, symbol: 'BTCUSDT', price, quantity: qty, isBuyerMaker: i % 3 === 0 });
    prints.push({ time, price, qty });
  }
  backend.advanceTo(options.now ?? prints[prints.length - 1]!.time);
  const ctx = new ExchangeContext({
    backend,
    apiKeys: [
      { apiKey: DEMO_KEY, keyType: 'HMAC', secretKey: DEMO_SECRET, accountId: 1 },
      { apiKey: MM_KEY, keyType: 'HMAC', secretKey: MM_SECRET, accountId: 2 },
    ],
    ...(options.futuresSeed === undefined ? {} : { futuresSeed: options.futuresSeed }),
    ...(options.futuresFunding === undefined ? {} : { futuresFunding: options.futuresFunding }),
  });
  return { backend, ctx, client: new InProcessClient(ctx, { apiKey: DEMO_KEY, ip: '10.0.0.1' }), prints };
}

/** GET through the client, asserting 200, returning the parsed body. */
export function ok(f: FuturesFixture, path: string, params: Record<string, string | number> = {}): any {
  const r = f.client.get(path, params);
  if (r.status !== 200) throw new Error(`${path} ${JSON.stringify(params)} → ${r.status} ${r.body}`);
  return r.json;
}

/** Decimal string → scaled BigInt at `decimals`. */
export function units(text: string, decimals = 8): bigint {
  const negative = text.startsWith('-');
  const [int, frac = ''] = (negative ? text.slice(1) : text).split('.');
  const v = BigInt(int! + frac.padEnd(decimals, '0').slice(0, decimals));
  return negative ? -v : v;
}

let ipCounter = 0;

/** The IP weight one request costs: sent alone from a fresh IP (the 1-minute header). */
export function weightOf(f: FuturesFixture, path: string, params: Record<string, string | number> = {}): number {
  const client = new InProcessClient(f.ctx, { apiKey: DEMO_KEY, ip: `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });
  return Number(client.get(path, params).headers['X-MBX-USED-WEIGHT-1M']);
}
