import { describe, expect, it } from 'vitest';
import { futuresPeriodOf, isFuturesOnlyName, parseFuturesStreamName } from '../../../../src/api-facade/streams/futures-stream-name.ts';
import { isWellFormedStreamName } from '../../../../src/api-facade/streams/stream-control.ts';

// BTCUSDT is traded (um:BTCUSDT in the engine); ETHUSDT only has the model's mark.
const NAMES = { perpetuals: new Set(['BTCUSDT', 'ETHUSDT']), traded: new Set(['BTCUSDT']) };

describe('USDⓈ-M stream names', () => {
  it('parses every futures stream served, with its cadence (ms)', () => {
    const cases: [string, unknown, number][] = [
      ['btcusdt@markPrice', { kind: 'markPrice', symbol: 'BTCUSDT', periodMs: 3000 }, 3000],
      ['ethusdt@markPrice@1s', { kind: 'markPrice', symbol: 'ETHUSDT', periodMs: 1000 }, 1000],
      ['!markPrice@arr', { kind: 'allMarkPrice', periodMs: 3000 }, 3000],
      ['!markPrice@arr@1s', { kind: 'allMarkPrice', periodMs: 1000 }, 1000],
      ['btcusdt@forceOrder', { kind: 'forceOrder', symbol: 'BTCUSDT' }, 1000],
      ['!forceOrder@arr', { kind: 'allForceOrder' }, 1000],
      ['btcusdt@trade', { kind: 'trade', symbol: 'um:BTCUSDT' }, 0],
      ['btcusdt@aggTrade', { kind: 'aggTrade', symbol: 'um:BTCUSDT' }, 0],
      ['btcusdt@bookTicker', { kind: 'bookTicker', symbol: 'um:BTCUSDT' }, 0],
      ['btcusdt@ticker', { kind: 'ticker', symbol: 'um:BTCUSDT' }, 2000],
      ['btcusdt@miniTicker', { kind: 'miniTicker', symbol: 'um:BTCUSDT' }, 2000],
      ['btcusdt@depth', { kind: 'diffDepth', symbol: 'um:BTCUSDT', periodMs: 250 }, 250],
      ['btcusdt@depth@100ms', { kind: 'diffDepth', symbol: 'um:BTCUSDT', periodMs: 100 }, 100],
      ['btcusdt@depth@500ms', { kind: 'diffDepth', symbol: 'um:BTCUSDT', periodMs: 500 }, 500],
      ['btcusdt@depth10', { kind: 'partialDepth', symbol: 'um:BTCUSDT', levels: 10, periodMs: 250 }, 250],
      ['btcusdt@depth20@100ms', { kind: 'partialDepth', symbol: 'um:BTCUSDT', levels: 20, periodMs: 100 }, 100],
      ['btcusdt@kline_1m', { kind: 'kline', symbol: 'um:BTCUSDT', interval: '1m', timeZone: null }, 250],
    ];
    for (const [name, spec, period] of cases) {
      expect(parseFuturesStreamName(name, NAMES), name).toEqual(spec);
      expect(futuresPeriodOf(parseFuturesStreamName(name, NAMES)!), name).toBe(period);
      expect(isWellFormedStreamName(name), name).toBe(true);
    }
  });

  it('refuses what the futures market lacks', () => {
    for (const name of ['ethusdt@aggTrade', 'ethusdt@forceOrder', 'solusdt@markPrice', 'btcusdt@kline_1s', 'btcusdt@depth@1000ms', 'btcusdt@depth5@1000ms', 'btcusdt@avgPrice', 'btcusdt@ticker_1h', 'BTCUSDT@markPrice', '!miniTicker@arr', 'btcusdt@markPrice@3s']) {
      expect(parseFuturesStreamName(name, NAMES), name).toBeNull();
    }
  });

  it('names only futures has may go to /ws', () => {
    expect(['btcusdt@markPrice', 'btcusdt@markPrice@1s', 'btcusdt@forceOrder', '!markPrice@arr', '!markPrice@arr@1s', '!forceOrder@arr'].map(isFuturesOnlyName)).toEqual([true, true, true, true, true, true]);
    expect(['btcusdt@aggTrade', 'btcusdt@depth', '!miniTicker@arr'].map(isFuturesOnlyName)).toEqual([false, false, false]);
  });
});
