/**
 * USDⓈ-M market stream names (futures facts §7; Binance serves them on fstream.binance.com, we on
 * `/fstream/ws/<name>` and `/fstream/stream?streams=`): names there refer to the perpetual.
 *
 * - `<symbol>@markPrice` (3 s), `<symbol>@markPrice@1s`, `!markPrice@arr`, `!markPrice@arr@1s`:
 *   every USDⓈ-M perpetual of the futures model (a traded one shows the engine's mark);
 * - `<symbol>@forceOrder`, `!forceOrder@arr`: liquidations of the perpetuals the engine trades;
 * - `<symbol>@aggTrade`, `@trade` (undocumented by Binance, served by fstream), `@bookTicker`, `@ticker`, `@miniTicker` (2 s), `@depth[@100ms|@500ms]` (250 ms by default),
 *   `@depth<5|10|20>[@100ms|@500ms]`, `@kline_<interval>` (no 1s on futures): only perpetuals the
 *   engine trades (`um:<SYMBOL>`), from the margin symbol's book and prints; their specs name the
 *   engine symbol, so the feed serves them with the spot machinery and futures payloads.
 *
 * `@markPrice` and `@forceOrder` names cannot be spot streams, so /ws takes them too
 * (`isFuturesOnlyName`).
 */
import { KLINE_INTERVALS, type KlineInterval } from '../../data/index.ts';
import { futuresEngineSymbol } from '../../engine/index.ts';
import { periodOf, type StreamSpec } from './stream-name.ts';

/** What a futures name is checked against. */
export interface FuturesNames {
  /** /fapi names of the USDⓈ-M perpetuals with a mark (the futures model's). */
  readonly perpetuals: ReadonlySet<string>;
  /** /fapi names of the perpetuals the engine trades (`um:<SYMBOL>` margin symbols). */
  readonly traded: ReadonlySet<string>;
}

/** Futures klines push every 250 ms, tickers every 2 s (Binance's update speeds); the rest as spot's table. */
export function futuresPeriodOf(spec: StreamSpec): number {
  if (spec.kind === 'kline') return 250;
  if (spec.kind === 'ticker' || spec.kind === 'miniTicker') return 2000;
  return periodOf(spec);
}

const DEPTH_PERIODS: Readonly<Record<string, 100 | 250 | 500>> = { '': 250, '@100ms': 100, '@250ms': 250, '@500ms': 500 };

/** Parses a futures stream name; null when it is not one this market serves. */
export function parseFuturesStreamName(name: string, names: FuturesNames): StreamSpec | null {
  switch (name) {
    case '!markPrice@arr':
      return { kind: 'allMarkPrice', periodMs: 3000 };
    case '!markPrice@arr@1s':
      return { kind: 'allMarkPrice', periodMs: 1000 };
    case '!forceOrder@arr':
      return { kind: 'allForceOrder' };
  }
  const at = name.indexOf('@');
  if (at <= 0) return null;
  const lower = name.slice(0, at);
  const symbol = lower.toUpperCase();
  if (lower !== symbol.toLowerCase()) return null;
  const rest = name.slice(at + 1);
  if (rest === 'markPrice' || rest === 'markPrice@1s') return names.perpetuals.has(symbol) ? { kind: 'markPrice', symbol, periodMs: rest === 'markPrice' ? 3000 : 1000 } : null;
  if (!names.traded.has(symbol)) return null;
  const engineSymbol = futuresEngineSymbol(symbol);
  if (rest === 'forceOrder') return { kind: 'forceOrder', symbol };
  if (rest === 'trade' || rest === 'aggTrade' || rest === 'bookTicker' || rest === 'ticker' || rest === 'miniTicker') return { kind: rest, symbol: engineSymbol };
  const diff = /^depth(@\d+ms)?$/.exec(rest);
  if (diff !== null) {
    const periodMs = DEPTH_PERIODS[diff[1] ?? ''];
    return periodMs === undefined ? null : { kind: 'diffDepth', symbol: engineSymbol, periodMs };
  }
  const partial = /^depth(5|10|20)(@\d+ms)?$/.exec(rest);
  if (partial !== null) {
    const periodMs = DEPTH_PERIODS[partial[2] ?? ''];
    return periodMs === undefined ? null : { kind: 'partialDepth', symbol: engineSymbol, levels: Number(partial[1]) as 5 | 10 | 20, periodMs };
  }
  const kline = /^kline_(\w+)$/.exec(rest);
  if (kline !== null && kline[1] !== '1s' && (KLINE_INTERVALS as readonly string[]).includes(kline[1]!)) {
    return { kind: 'kline', symbol: engineSymbol, interval: kline[1] as KlineInterval, timeZone: null };
  }
  return null;
}

/** Names only the futures market has (`<symbol>@markPrice[@1s]`, `@forceOrder`, their `!…@arr`): /ws serves them too. */
export function isFuturesOnlyName(name: string): boolean {
  return /^(?:[a-z0-9]+@markPrice(?:@1s)?|[a-z0-9]+@forceOrder|!markPrice@arr(?:@1s)?|!forceOrder@arr)$/.test(name);
}
