import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src/engine/index.ts';
import { BurstRegime, LatencyModel, LatencySampler, randomStream, touch, type Ack, type LatencyRecord } from '../../../src/sim/index.ts';
import { harness, T0, u } from './helpers.ts';

const buy = (price: string, qty: string) =>
  ({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: u(price), quantity: u(qty) }) as const;

describe('latency distributions', () => {
  const stats = (xs: number[]) => {
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length);
    const sorted = [...xs].sort((a, b) => a - b);
    return { mean, sd, median: sorted[sorted.length >> 1]!, min: sorted[0]!, max: sorted[sorted.length - 1]! };
  };
  const draws = (sampler: LatencySampler, n: number, step = 0) => Array.from({ length: n }, (_, i) => sampler.draw(i * step).micros);

  it('constant is constant; every draw is a whole, non-negative µs', () => {
    expect(draws(new LatencySampler({ kind: 'constant', micros: 250 }, randomStream('s', 'x')), 10)).toEqual(Array(10).fill(250));
    const xs = draws(new LatencySampler({ kind: 'normal', mean: 100, stdDev: 80 }, randomStream('s', 'n')), 5000);
    expect(xs.every((x) => Number.isInteger(x) && x >= 0)).toBe(true);
  });

  it('normal: mean and spread as configured far from 0; truncated (redrawn) near 0', () => {
    const far = stats(draws(new LatencySampler({ kind: 'normal', mean: 1000, stdDev: 100 }, randomStream('s', 'n')), 20_000));
    expect(far.mean).toBeGreaterThan(995);
    expect(far.mean).toBeLessThan(1005);
    expect(far.sd).toBeGreaterThan(97);
    expect(far.sd).toBeLessThan(103);
    // N(0, 100) truncated at 0 is the half-normal: mean 100·sqrt(2/π) ≈ 79.8 (a clamp would give ≈ 39.9).
    const half = stats(draws(new LatencySampler({ kind: 'normal', mean: 0, stdDev: 100 }, randomStream('s', 'h')), 20_000));
    expect(half.min).toBe(0);
    expect(half.mean).toBeGreaterThan(77);
    expect(half.mean).toBeLessThan(82.5);
  });

  it('lognormal: median as configured, right-skewed tail', () => {
    const s = stats(draws(new LatencySampler({ kind: 'lognormal', median: 2000, sigma: 0.5 }, randomStream('s', 'l')), 20_000));
    expect(s.median).toBeGreaterThan(1950);
    expect(s.median).toBeLessThan(2050);
    // mean = median·exp(σ²/2) ≈ 2266
    expect(s.mean).toBeGreaterThan(2220);
    expect(s.mean).toBeLessThan(2310);
    expect(s.max).toBeGreaterThan(3 * s.median);
  });

  it('lognormal with bursts: bursts cover about meanBurst/(meanCalm+meanBurst) of the time and multiply the latency', () => {
    const d = { kind: 'lognormal-bursts', median: 1000, sigma: 0.2, multiplier: 10, meanCalmMicros: 900_000, meanBurstMicros: 100_000 } as const;
    const sampler = new LatencySampler(d, randomStream('s', 'b'), { random: randomStream('s', 'b/regime'), origin: 0 });
    const samples = Array.from({ length: 50_000 }, (_, i) => sampler.draw(i * 10_000)); // 500 s of sends
    const burst = samples.filter((x) => x.burst);
    expect(burst.length / samples.length).toBeGreaterThan(0.05);
    expect(burst.length / samples.length).toBeLessThan(0.15);
    const calmMedian = stats(samples.filter((x) => !x.burst).map((x) => x.micros)).median;
    const burstMedian = stats(burst.map((x) => x.micros)).median;
    expect(burstMedian / calmMedian).toBeGreaterThan(9);
    expect(burstMedian / calmMedian).toBeLessThan(11);
    // Bursts come in runs (clustered), not as isolated draws.
    let runs = 0;
    samples.forEach((x, i) => {
      if (x.burst && !samples[i - 1]?.burst) runs++;
    });
    expect(burst.length / runs).toBeGreaterThan(5);
  });

  it('the burst timeline depends on time only, not on how often it is asked', () => {
    const a = new BurstRegime(randomStream('s', 'r'), 0, 1000, 200);
    const b = new BurstRegime(randomStream('s', 'r'), 0, 1000, 200);
    const sparse = [5000, 20_000, 77_777].map((t) => a.inBurst(t));
    const dense: boolean[] = [];
    for (let t = 0; t <= 77_777; t++) {
      const x = b.inBurst(t);
      if (t === 5000 || t === 20_000 || t === 77_777) dense.push(x);
    }
    expect(dense).toEqual(sparse);
  });

  it('rejects nonsense parameters', () => {
    const r = randomStream('s', 'x');
    expect(() => new LatencySampler({ kind: 'constant', micros: -1 }, r)).toThrow('micros');
    expect(() => new LatencySampler({ kind: 'constant', micros: 1.5 }, r)).toThrow('micros');
    expect(() => new LatencySampler({ kind: 'normal', mean: 1, stdDev: -1 }, r)).toThrow('stdDev');
    expect(() => new LatencySampler({ kind: 'lognormal-bursts', median: 1, sigma: 1, multiplier: 0.5, meanCalmMicros: 1, meanBurstMicros: 1 }, r)).toThrow('multiplier');
  });

  it('legs draw from separate seeded streams: the same seed gives the same numbers, another seed others', () => {
    const cfg = { entry: { kind: 'lognormal', median: 500, sigma: 0.7 }, cancel: { kind: 'normal', mean: 300, stdDev: 50 }, ack: { kind: 'lognormal', median: 400, sigma: 0.3 } } as const;
    const seq = (seed: string, legs: readonly ('entry' | 'cancel' | 'ack')[]) => {
      const m = new LatencyModel(cfg, seed, 0);
      return legs.map((leg, i) => [leg, m.draw(leg, i).micros] as const);
    };
    expect(seq('a', ['entry', 'ack', 'entry', 'cancel'])).toEqual(seq('a', ['entry', 'ack', 'entry', 'cancel']));
    expect(seq('a', ['entry', 'entry'])).not.toEqual(seq('b', ['entry', 'entry']));
    // Cancels in between do not shift the entry stream.
    const entries = (legs: readonly ('entry' | 'cancel')[]) => seq('a', legs).filter(([l]) => l === 'entry').map(([, x]) => x);
    expect(entries(['entry', 'cancel', 'cancel', 'entry'])).toEqual(entries(['entry', 'entry']));
  });
});

describe('Replay.submit', () => {
  const constant = (entry: number, cancel: number, ack: number) =>
    ({ entry: { kind: 'constant', micros: entry }, cancel: { kind: 'constant', micros: cancel }, ack: { kind: 'constant', micros: ack } }) as const;

  it('an order sent before a print lands after it: the print is replayed first and the order, arriving late, misses it (hand-computed timeline)', async () => {
    const records: LatencyRecord[] = [];
    // Prints at T0 (100.00) and T0+1 ms (SELL 99.00, which would fill a resting bid at 99.50 by touch), T0+3 ms (SELL 99.40).
    const h = harness(
      touch(),
      [
        { taker: 'BUY', price: '100', qty: '1', at: 0 },
        { taker: 'SELL', price: '99', qty: '0.5', at: 1 },
        { taker: 'SELL', price: '99.4', qty: '0.2', at: 3 },
      ],
      { latency: constant(1500, 700, 400), onLatency: (r) => records.push(r) },
    );
    let ack: { events: readonly EngineEvent[]; ack: Ack; now: number } | undefined;
    h.replay.onTrade((trade, replay) => {
      if (trade.tapeId === 1001) {
        const ticket = replay.submit(buy('99.5', '1'), (events, a) => {
          ack = { events, ack: a, now: replay.now };
        });
        expect(ticket).toMatchObject({ id: 1, leg: 'entry', sentAt: T0, arrivesAt: T0 + 1500 });
      }
    });
    await h.replay.runToEnd();
    const place = h.journal.entries.find((e) => e.command.type === 'PlaceOrder')!;
    expect(place.command.time).toBe(T0 + 1500);
    const order = h.journal.entries.map((e) => `${e.command.type}@${(e.command.time - T0) / 1000}`).slice(2);
    expect(order).toEqual(['RecordMarketTrade@0', 'RecordMarketTrade@1', 'PlaceOrder@1.5', 'FillFromMarket@3']);
    // The print at 1 ms (99.00) would have filled it; it arrived at 1.5 ms and only the 0.2 at 3 ms fills it.
    expect(h.fills()).toEqual([expect.objectContaining({ quantity: u('0.2'), price: u('99.5') })]);
    expect(ack!.now).toBe(T0 + 1900);
    expect(ack!.ack).toEqual({ id: 1, sentAt: T0, appliedAt: T0 + 1500, receivedAt: T0 + 1900 });
    expect(ack!.events[0]).toMatchObject({ type: 'OrderAccepted', time: T0 + 1500 });
    expect(records).toEqual([
      { submitId: 1, leg: 'entry', command: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', time: T0, latency: 1500, burst: false },
      { submitId: 1, leg: 'ack', command: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', time: T0 + 1500, latency: 400, burst: false },
    ]);
  });

  it('cancels use the cancel leg: a cancel sent before a print that fills the order arrives too late', async () => {
    const h = harness(
      touch(),
      [
        { taker: 'BUY', price: '100', qty: '1', at: 0 },
        { taker: 'SELL', price: '99', qty: '0.3', at: 2 },
      ],
      { latency: constant(0, 2500, 0) },
    );
    const orderId = h.limit('BUY', '99.5', '1');
    h.replay.onTrade((trade, replay) => {
      if (trade.tapeId === 1001) replay.submit({ type: 'CancelOrder', accountId: 1, symbol: 'BTCUSDT', orderId });
    });
    await h.replay.runUntil(T0 + 5000);
    const lines = h.journal.entries.map((e) => `${e.command.type}@${(e.command.time - T0) / 1000}`).slice(3);
    expect(lines).toEqual(['RecordMarketTrade@0', 'FillFromMarket@2', 'CancelOrder@2.5']);
    expect(h.fills()).toEqual([expect.objectContaining({ orderId, quantity: u('0.3') })]);
    expect(h.replay.engine.getOrder(1, 'BTCUSDT', { orderId })).toMatchObject({ status: 'CANCELED', executedQty: u('0.3') });
  });

  it('zero latency still goes through the scheduler: the command lands at the next advance, before later prints at the same µs', async () => {
    const h = harness(touch(), [
      { taker: 'BUY', price: '100', qty: '1', at: 0 },
      { taker: 'SELL', price: '99', qty: '0.4', at: 0 },
    ]);
    let landed = 0;
    h.replay.onTrade((trade, replay) => {
      if (trade.tapeId === 1001) {
        replay.submit(buy('99.5', '1'), () => landed++);
        expect(replay.engine.openOrders(1)).toHaveLength(0);
      }
    });
    await h.replay.runToEnd();
    expect(landed).toBe(1);
    expect(h.fills()).toEqual([expect.objectContaining({ quantity: u('0.4') })]);
  });

  it('is deterministic under the seed: the same lognormal-with-bursts run twice gives the same journal; another seed another one', async () => {
    const run = async (seed: string) => {
      const prints = Array.from({ length: 400 }, (_, i) => ({ taker: i % 3 === 0 ? 'SELL' : 'BUY', price: (100 + Math.sin(i / 7)).toFixed(2), qty: '0.05', at: i }) as const);
      const records: LatencyRecord[] = [];
      const h = harness(touch(), prints, {
        seed,
        latency: {
          entry: { kind: 'lognormal-bursts', median: 800, sigma: 0.6, multiplier: 8, meanCalmMicros: 50_000, meanBurstMicros: 10_000 },
          cancel: { kind: 'normal', mean: 500, stdDev: 300 },
          ack: { kind: 'lognormal', median: 300, sigma: 0.4 },
        },
        onLatency: (r) => records.push(r),
      });
      h.replay.onTrade((trade, replay) => {
        if (trade.tapeId % 10 === 0) {
          replay.submit({ type: 'CancelAllOrders', accountId: 1, symbol: 'BTCUSDT' });
          replay.submit(buy((trade.price / 1e8 - 0.3).toFixed(2), '0.1'));
        }
      });
      await h.replay.runToEnd();
      return { hash: h.journal.hash(), records };
    };
    const a = await run('one');
    const b = await run('one');
    const c = await run('two');
    expect(b.hash).toBe(a.hash);
    expect(b.records).toEqual(a.records);
    expect(c.hash).not.toBe(a.hash);
    expect(a.records.length).toBeGreaterThan(100);
    expect(a.records.some((r) => r.burst)).toBe(true);
  });
});
