/**
 * The exchange both facade benches serve, and the requests they send.
 *
 * Market: the sample BTCUSDT/ETHBTC configuration (src/sample), one print at 50,000.00 (so
 * PERCENT_PRICE_BY_SIDE and NOTIONAL have an average price) and a market maker (account 1)
 * resting 100 bids (49,990.00 down by 10.00) and 100 asks (50,010.00 up by 10.00) of 0.1 BTC.
 *
 * Traders: `traders` accounts (odd, >= 3), each with its own HMAC key and a balance that cannot
 * run out over any bench length (10 BTC and 50,000 USDT against orders of 0.001 BTC; the engine bounds each asset's total supply to 2^53 units).
 *
 * Order stream: request k is a LIMIT GTC order of 0.00100 BTC at 50,000.00 (inside the spread,
 * so the maker's ladder is never touched) from trader k mod traders, BUY when k is even, SELL
 * when odd. Each SELL therefore fills the BUY just placed by another trader (STP does not apply):
 * half the requests rest (answer NEW), half take (answer FILLED with one fill), the book never
 * grows, and as `traders` is odd each trader alternates BUY and SELL from one round to the next,
 * so balances drift only by fees. Default newOrderRespType (FULL), as most clients send.
 *
 * Futures order stream (issue 28, the in-process bench only): the same, on the USDⓈ-M perpetual
 * BTCUSDT (engine `um:BTCUSDT`, contract-rules defaults) through POST /fapi/v1/order: LIMIT GTC
 * 0.002 at 50,000.0 (MIN_NOTIONAL 100), the mark at 50,000 and 50,000 USDT in each trader's
 * futures wallet, so each SELL fills the BUY before it and positions swing between -0.002 and
 * +0.002 (default newOrderRespType ACK, as Binance's default is for /fapi).
 */
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import type { ApiRequest } from '../../src/api-facade/rest/handle-request.ts';
import type { MarketBackend } from '../../src/api-facade/core/market-backend.ts';
import { EngineBackend } from '../../src/api-facade/core/market-backend.ts';
import { BINANCE_RATE_LIMITS, type RateLimit } from '../../src/api-facade/limits/rate-limit-config.ts';
import type { ApiKeyConfig } from '../../src/api-facade/signing/api-key-registry.ts';
import { signHmacSha256 } from '../../src/api-facade/signing/hmac-sha256.ts';
import { API_KEY_HEADER } from '../../src/api-facade/signing/verify-request.ts';
import type { EngineCommand } from '../../src/engine/commands.ts';
import { SAMPLE_CONFIG } from '../../src/sample/sample-market.ts';
import type { EngineConfig } from '../../src/engine/index.ts';
import { BTCUSDT_LADDER, futuresSymbolConfig } from '../../src/futures/trading/contract-rules.ts';

/** 2026-01-01T00:00:00Z in µs: where an in-process bench's simulated clock starts. */
export const BENCH_T0_US = 1_767_225_600_000_000;
export const SYMBOL = 'BTCUSDT';
export const ORDER_PATH = '/api/v3/order';
export const DEPTH_PATH = '/api/v3/depth';
export const BOOK_TICKER_PATH = '/api/v3/ticker/bookTicker';
/** The depth request: 20 levels a side (weight 5). */
export const DEPTH_QUERY = `symbol=${SYMBOL}&limit=20`;
export const BOOK_TICKER_QUERY = `symbol=${SYMBOL}`;
export const DEFAULT_TRADERS = 1001;
export const FUTURES_ORDER_PATH = '/fapi/v1/order';

/** The sample market with the perpetual BTCUSDT (its first five brackets: later caps pass the engine's integers). */
export const BENCH_FUTURES_CONFIG: EngineConfig = {
  ...SAMPLE_CONFIG,
  assets: [...(SAMPLE_CONFIG.assets ?? []), { asset: 'um:USDT', precision: 8 }],
  symbols: [...SAMPLE_CONFIG.symbols, futuresSymbolConfig(SYMBOL, { ladder: BTCUSDT_LADDER.slice(0, 5) })],
};

const MAKER_ID = 1;
const FIRST_TRADER_ID = 100;
const LADDER_LEVELS = 100;
const MID = 5_000_000_000_000; // 50,000.00 in the engine's price units (1e-8)
const LADDER_STEP = 1_000_000_000; // 10.00
const units = (n: number): number => Math.round(n * 1e8);

/** Every limit of Binance's list with its window kept and its count raised out of reach. */
export function raisedRateLimits(): RateLimit[] {
  return BINANCE_RATE_LIMITS.map((l) => ({ ...l, limit: 1_000_000_000 }));
}

export interface Trader {
  readonly accountId: number;
  readonly apiKey: string;
  readonly secret: string;
  /** Its own client IP, so the per-IP weight is spread as over a fleet of bots. */
  readonly ip: string;
}

export function makeTraders(count: number): Trader[] {
  if (!Number.isSafeInteger(count) || count < 3 || count % 2 === 0) throw new RangeError(`traders must be an odd integer >= 3, got ${count}`);
  return Array.from({ length: count }, (_, i) => ({
    accountId: FIRST_TRADER_ID + i,
    apiKey: `bench-key-${i}`,
    secret: `bench-secret-${i}`,
    ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  }));
}

/** Accounts, the opening print and the maker's ladder, all at `time`. */
export function setupCommands(traders: readonly Trader[], time: number): EngineCommand[] {
  const commands: EngineCommand[] = [
    { type: 'CreateAccount', time, accountId: MAKER_ID, balances: { BTC: units(100), USDT: units(1_000_000) } },
    ...traders.map((t): EngineCommand => ({ type: 'CreateAccount', time, accountId: t.accountId, balances: { BTC: units(10), USDT: units(50_000) } })),
    { type: 'RecordMarketTrade', time, symbol: SYMBOL, price: MID, quantity: units(0.1), isBuyerMaker: false },
  ];
  for (let level = 1; level <= LADDER_LEVELS; level++) {
    for (const side of ['BUY', 'SELL'] as const) {
      const price = side === 'BUY' ? MID - level * LADDER_STEP : MID + level * LADDER_STEP;
      commands.push({ type: 'PlaceOrder', time, accountId: MAKER_ID, symbol: SYMBOL, side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: units(0.1) });
    }
  }
  return commands;
}

/** setupCommands, plus each trader's futures wallet and the perpetual's mark (BENCH_FUTURES_CONFIG only). */
export function futuresSetupCommands(traders: readonly Trader[], time: number): EngineCommand[] {
  return [
    ...setupCommands(traders, time).map((c): EngineCommand => (c.type === 'CreateAccount' && c.accountId !== MAKER_ID ? { ...c, balances: { ...c.balances, 'um:USDT': units(50_000) } } : c)),
    { type: 'SetMarkPrice', time, symbol: `um:${SYMBOL}`, markPrice: MID, indexPrice: MID },
  ];
}

export function apiKeys(traders: readonly Trader[]): ApiKeyConfig[] {
  return traders.map((t) => ({ apiKey: t.apiKey, keyType: 'HMAC', secretKey: t.secret, accountId: t.accountId }));
}

/** The in-process exchange: a bare engine backend at BENCH_T0_US, Binance's own rate limits. */
export function makeInProcessExchange(traders: readonly Trader[]): { backend: EngineBackend; ctx: ExchangeContext } {
  const backend = new EngineBackend(BENCH_FUTURES_CONFIG, BENCH_T0_US, futuresSetupCommands(traders, BENCH_T0_US));
  return { backend, ctx: new ExchangeContext({ backend, apiKeys: apiKeys(traders) }) };
}

/** A context over any backend (the HTTP target's paced one), optionally with other limits. */
export function makeContext(backend: MarketBackend, traders: readonly Trader[], rateLimits?: readonly RateLimit[]): ExchangeContext {
  return new ExchangeContext({ backend, apiKeys: apiKeys(traders), ...(rateLimits === undefined ? {} : { rateLimits }) });
}

/** Request k of the order stream: who sends it and its parameters without timestamp/signature. */
export function orderOf(k: number, traders: readonly Trader[]): { trader: Trader; params: Record<string, string> } {
  const trader = traders[k % traders.length]!;
  return { trader, params: k % 2 === 0 ? BUY_PARAMS : SELL_PARAMS };
}

const orderParams = (side: 'BUY' | 'SELL'): Record<string, string> =>
  Object.freeze({ symbol: SYMBOL, side, type: 'LIMIT', timeInForce: 'GTC', quantity: '0.00100', price: '50000.00' }) as Record<string, string>;
const BUY_PARAMS = orderParams('BUY');
const SELL_PARAMS = orderParams('SELL');
const futuresOrderParams = (side: 'BUY' | 'SELL'): Record<string, string> =>
  Object.freeze({ symbol: SYMBOL, side, type: 'LIMIT', timeInForce: 'GTC', quantity: '0.002', price: '50000.0' }) as Record<string, string>;
const FUTURES_BUY_PARAMS = futuresOrderParams('BUY');
const FUTURES_SELL_PARAMS = futuresOrderParams('SELL');

/** Request k of the futures order stream (see the header). */
export function futuresOrderOf(k: number, traders: readonly Trader[]): { trader: Trader; params: Record<string, string> } {
  const trader = traders[k % traders.length]!;
  return { trader, params: k % 2 === 0 ? FUTURES_BUY_PARAMS : FUTURES_SELL_PARAMS };
}

/**
 * Request k of the order stream as a client puts it on the wire: a form body signed with the
 * trader's secret, `timestamp` in ms (and `recvWindow` when given) before the signature.
 */
export function signedOrderRequest(k: number, traders: readonly Trader[], timestampMs: number, recvWindowMs?: number, venue: 'spot' | 'futures' = 'spot'): ApiRequest {
  const { trader, params } = venue === 'spot' ? orderOf(k, traders) : futuresOrderOf(k, traders);
  let body = new URLSearchParams(params).toString();
  if (recvWindowMs !== undefined) body += `&recvWindow=${recvWindowMs}`;
  body += `&timestamp=${timestampMs}`;
  body += `&signature=${signHmacSha256(trader.secret, body)}`;
  return {
    method: 'POST',
    path: venue === 'spot' ? ORDER_PATH : FUTURES_ORDER_PATH,
    rawQuery: '',
    rawBody: body,
    headers: { [API_KEY_HEADER]: trader.apiKey, 'content-type': 'application/x-www-form-urlencoded' },
    ip: trader.ip,
  };
}
