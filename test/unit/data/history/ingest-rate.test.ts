/**
 * Ingest rate: 2,000,000 synthetic trades (one every 50 ms, so 27.8 h and old chunks are
 * dropped; a random walk around 42,000 at 8 decimals, random sizes and sides) recorded one by
 * one through `record`, with the default retention. Prints trades/s; asserts only a floor far
 * below the measured rate (~10 M/s under vitest, ~15 M/s under plain Node), so a slow CI box
 * does not fail it, while a per-trade allocation or BigInt on the hot path would.
 */
import { describe, expect, it } from 'vitest';
import { MarketHistory } from '../../../../src/data/history/index.ts';
import type { TapeTrade } from '../../../../src/data/tape.ts';
import { T0 } from './helpers.ts';

const N = 2_000_000;

describe('ingest rate', () => {
  it('records 2M trades at well over a million trades a second', () => {
    // Columns first, so the timed loop measures the history and not the generator.
    const price = new Float64Array(N);
    const qty = new Float64Array(N);
    const maker = new Uint8Array(N);
    let seed = 12_345;
    let p = 4_200_000_000_000;
    for (let i = 0; i < N; i++) {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      p += (seed & 0xff) - 127;
      price[i] = p;
      qty[i] = (seed >>> 8) & 0xffff;
      maker[i] = (seed >>> 24) & 1;
    }
    const trade: TapeTrade = { id: 0, price: 0, qty: 0, quoteQty: 0, time: 0, isBuyerMaker: false, isBestMatch: true };
    let best = 0;
    let history = new MarketHistory({ basePrecision: 8 });
    for (let round = 0; round < 2; round++) {
      history = new MarketHistory({ basePrecision: 8 });
      const started = performance.now();
      for (let i = 0; i < N; i++) {
        trade.id = i;
        trade.price = price[i]!;
        trade.qty = qty[i]!;
        trade.quoteQty = Math.floor((price[i]! * qty[i]!) / 1e8);
        trade.time = T0 + i * 50_000;
        trade.isBuyerMaker = maker[i] === 1;
        history.record(trade);
      }
      best = Math.max(best, N / ((performance.now() - started) / 1000));
    }
    console.log(`MarketHistory ingest: ${(best / 1e6).toFixed(2)} M trades/s (${N} trades, best of 2)`);
    expect(best).toBeGreaterThan(1_000_000);
    expect(history.recentTrades(T0 + N * 50_000, 1)[0]!.id).toBe(N - 1);
    expect(history.ticker24hr(T0 + (N - 1) * 50_000).count).toBe(86_400 * 20 + 1);
  });
});
