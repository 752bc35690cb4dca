import { describe, expect, it } from 'vitest';
import { parseStreamName, periodOf } from '../../../../src/api-facade/streams/stream-name.ts';

const SYMBOLS = new Set(['BTCUSDT', 'ETHBTC']);

describe('market stream names', () => {
  it('parses every stream Binance serves, with its cadence', () => {
    const cases: [string, unknown, number][] = [
      ['btcusdt@trade', { kind: 'trade', symbol: 'BTCUSDT' }, 0],
      ['btcusdt@aggTrade', { kind: 'aggTrade', symbol: 'BTCUSDT' }, 0],
      ['btcusdt@kline_1m', { kind: 'kline', symbol: 'BTCUSDT', interval: '1m', timeZone: null }, 2000],
      ['btcusdt@kline_1s', { kind: 'kline', symbol: 'BTCUSDT', interval: '1s', timeZone: null }, 1000],
      ['btcusdt@kline_1h@+08:00', { kind: 'kline', symbol: 'BTCUSDT', interval: '1h', timeZone: '+08:00' }, 2000],
      ['btcusdt@miniTicker', { kind: 'miniTicker', symbol: 'BTCUSDT' }, 1000],
      ['btcusdt@ticker', { kind: 'ticker', symbol: 'BTCUSDT' }, 1000],
      ['ethbtc@ticker_4h', { kind: 'windowTicker', symbol: 'ETHBTC', window: '4h' }, 1000],
      ['btcusdt@bookTicker', { kind: 'bookTicker', symbol: 'BTCUSDT' }, 0],
      ['btcusdt@avgPrice', { kind: 'avgPrice', symbol: 'BTCUSDT' }, 1000],
      ['btcusdt@depth5', { kind: 'partialDepth', symbol: 'BTCUSDT', levels: 5, periodMs: 1000 }, 1000],
      ['btcusdt@depth20@100ms', { kind: 'partialDepth', symbol: 'BTCUSDT', levels: 20, periodMs: 100 }, 100],
      ['btcusdt@depth', { kind: 'diffDepth', symbol: 'BTCUSDT', periodMs: 1000 }, 1000],
      ['btcusdt@depth@100ms', { kind: 'diffDepth', symbol: 'BTCUSDT', periodMs: 100 }, 100],
      ['!miniTicker@arr', { kind: 'allMiniTickers' }, 1000],
      ['!ticker_1d@arr', { kind: 'allWindowTickers', window: '1d' }, 1000],
    ];
    for (const [name, spec, period] of cases) {
      const parsed = parseStreamName(name, SYMBOLS);
      expect(parsed, name).toEqual(spec);
      expect(periodOf(parsed!), name).toBe(period);
    }
  });

  it('refuses what is not a stream of this market', () => {
    for (const name of ['BTCUSDT@trade', 'xrpusdt@trade', 'btcusdt@depth7', 'btcusdt@kline_7m', 'btcusdt@ticker_2h', 'btcusdt', '@trade', 'btcusdt@depth@250ms', '!ticker@arr2']) {
      expect(parseStreamName(name, SYMBOLS), name).toBeNull();
    }
  });
});
