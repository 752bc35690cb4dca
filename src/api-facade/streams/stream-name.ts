/**
 * Binance's market stream names (binance-facts.md §6.4), parsed: `<symbol>@trade`,
 * `<symbol>@aggTrade`, `<symbol>@kline_<interval>[@+08:00]`, `<symbol>@miniTicker`,
 * `!miniTicker@arr`, `<symbol>@ticker`, `<symbol>@ticker_<1h|4h|1d>`, `!ticker_<w>@arr`,
 * `<symbol>@bookTicker`, `<symbol>@avgPrice`, `<symbol>@depth<5|10|20>[@100ms]`,
 * `<symbol>@depth[@100ms]`. Symbols are lower case in names, as Binance writes them; a name
 * that is not one of these (or names a symbol the market does not have) is null.
 */
import { KLINE_INTERVALS, type KlineInterval } from '../../data/index.ts';

export type StreamSpec =
  | { readonly kind: 'trade' | 'aggTrade' | 'miniTicker' | 'ticker' | 'bookTicker' | 'avgPrice'; readonly symbol: string }
  | { readonly kind: 'kline'; readonly symbol: string; readonly interval: KlineInterval; readonly timeZone: string | null }
  | { readonly kind: 'windowTicker'; readonly symbol: string; readonly window: WindowName }
  | { readonly kind: 'partialDepth'; readonly symbol: string; readonly levels: 5 | 10 | 20; readonly periodMs: DepthPeriod }
  | { readonly kind: 'diffDepth'; readonly symbol: string; readonly periodMs: DepthPeriod }
  | { readonly kind: 'allMiniTickers' }
  | { readonly kind: 'allWindowTickers'; readonly window: WindowName }
  // USDⓈ-M only (futures-stream-name.ts): `symbol` is the /fapi name (BTCUSDT), not the engine's.
  | { readonly kind: 'markPrice'; readonly symbol: string; readonly periodMs: 1000 | 3000 }
  | { readonly kind: 'allMarkPrice'; readonly periodMs: 1000 | 3000 }
  | { readonly kind: 'forceOrder'; readonly symbol: string }
  | { readonly kind: 'allForceOrder' };

/** Depth push periods: spot 100 / 1000 ms, USDⓈ-M 100 / 250 / 500 ms. */
export type DepthPeriod = 100 | 250 | 500 | 1000;

export type WindowName = '1h' | '4h' | '1d';

const WINDOWS: readonly string[] = ['1h', '4h', '1d'];

/** Parses `name` against the market's symbols (upper case); null when it is not a stream. */
export function parseStreamName(name: string, symbols: ReadonlySet<string>): StreamSpec | null {
  if (name === '!miniTicker@arr') return { kind: 'allMiniTickers' };
  const all = /^!ticker_(1h|4h|1d)@arr$/.exec(name);
  if (all !== null) return { kind: 'allWindowTickers', window: all[1] as WindowName };
  const at = name.indexOf('@');
  if (at <= 0) return null;
  const lower = name.slice(0, at);
  const symbol = lower.toUpperCase();
  if (lower !== symbol.toLowerCase() || !symbols.has(symbol)) return null;
  const rest = name.slice(at + 1);
  switch (rest) {
    case 'trade':
    case 'aggTrade':
    case 'miniTicker':
    case 'ticker':
    case 'bookTicker':
    case 'avgPrice':
      return { kind: rest, symbol };
    case 'depth':
      return { kind: 'diffDepth', symbol, periodMs: 1000 };
    case 'depth@100ms':
      return { kind: 'diffDepth', symbol, periodMs: 100 };
  }
  const kline = /^kline_([0-9]+[smhdwM])(@([+-]\d{2}:\d{2}))?$/.exec(rest);
  if (kline !== null) {
    if (!(KLINE_INTERVALS as readonly string[]).includes(kline[1]!)) return null;
    return { kind: 'kline', symbol, interval: kline[1] as KlineInterval, timeZone: kline[3] ?? null };
  }
  const windowed = /^ticker_(\w+)$/.exec(rest);
  if (windowed !== null) return WINDOWS.includes(windowed[1]!) ? { kind: 'windowTicker', symbol, window: windowed[1] as WindowName } : null;
  const partial = /^depth(5|10|20)(@100ms)?$/.exec(rest);
  if (partial !== null) return { kind: 'partialDepth', symbol, levels: Number(partial[1]) as 5 | 10 | 20, periodMs: partial[2] === undefined ? 1000 : 100 };
  return null;
}

/** How often a stream pushes on simulated time (ms), or 0 for one that pushes as things happen. */
export function periodOf(spec: StreamSpec): number {
  switch (spec.kind) {
    case 'trade':
    case 'aggTrade':
    case 'bookTicker':
      return 0;
    case 'kline':
      return spec.interval === '1s' ? 1000 : 2000;
    case 'partialDepth':
    case 'diffDepth':
    case 'markPrice':
    case 'allMarkPrice':
      return spec.periodMs;
    default:
      return 1000;
  }
}
