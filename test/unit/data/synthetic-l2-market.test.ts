/**
 * The generated order-book market (exsim data gen --l2): the same seed gives the same bytes (a
 * golden hash pins a small day), the files read back as exactly what the market published, and
 * the book and the trades agree: replayed with a naive book, every trade is at the touch of the
 * book before it, every message shows the liquidity the trades took, and no message leaves the
 * book crossed.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readDepth } from '../../../src/data/read-depth.ts';
import { readTrades } from '../../../src/data/read-trades.ts';
import { DEPTH_ASK, DEPTH_CLEAR, DEPTH_MESSAGE_START } from '../../../src/data/depth-tape.ts';
import { SyntheticL2Market, type L2Sink, type SyntheticL2Spec } from '../../../src/data/synthetic/synthetic-l2-market.ts';
import { writeSyntheticL2Days, type SyntheticL2DaysSpec } from '../../../src/data/synthetic/write-l2-days.ts';
import { collect, SCALE8, tempDir, tradesOf } from './helpers.ts';

const DAY1 = 1_704_067_200_000_000; // 2024-01-01 µs
const DAY = 86_400_000_000;

const SMALL_DAY: SyntheticL2DaysSpec = {
  symbol: 'BTCUSDT',
  seed: 'golden',
  scale: SCALE8,
  tickSize: 1_000_000, // 0.01
  stepSize: 1_000, // 0.00001
  startPrice: 4_200_000_000_000, // 42000
  startTime: DAY1,
  endTime: DAY1 + DAY,
  tradesPerDay: 5_000,
  depthRowsPerDay: 40_000,
  dailyVolatility: 0.025,
  medianQty: 80_000, // 0.0008
  firstTradeId: 1,
  levelsPerSide: 100,
};

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('determinism', () => {
  it('same seed, same bytes; the CSV of a small day is pinned by its SHA-256', async () => {
    const [a, b, plain] = [await tempDir(), await tempDir(), await tempDir()];
    const written = await writeSyntheticL2Days(a, SMALL_DAY);
    expect(written.map((p) => p.slice(a.length + 1))).toEqual(['binance_incremental_book_L2_2024-01-01_BTCUSDT.csv.gz', 'binance_trades_2024-01-01_BTCUSDT.csv.gz']);
    await writeSyntheticL2Days(b, SMALL_DAY);
    for (const name of written.map((p) => p.slice(a.length + 1))) expect(await readFile(join(b, name))).toEqual(await readFile(join(a, name)));
    // gzip bytes may differ between zlib builds; the text inside is what the seed fixes everywhere.
    await writeSyntheticL2Days(plain, SMALL_DAY, { extension: 'csv' });
    const l2 = await readFile(join(plain, 'binance_incremental_book_L2_2024-01-01_BTCUSDT.csv'));
    const trades = await readFile(join(plain, 'binance_trades_2024-01-01_BTCUSDT.csv'));
    expect([sha256(l2), sha256(trades)]).toEqual(['b6710de4663a2cbcfc6b30471a69d2aafad132b795dfab63eb5f381b150f5ca5', '883b129baa49178ba9a31003b634922957519bd06ca87e26e039c53307adac0a']);
    const other = await tempDir();
    await writeSyntheticL2Days(other, { ...SMALL_DAY, seed: 'other' }, { extension: 'csv' });
    expect(sha256(await readFile(join(other, 'binance_trades_2024-01-01_BTCUSDT.csv')))).not.toBe(sha256(trades));
  });

  it('the files read back as exactly what the market published, and hold about the rows and trades asked for', async () => {
    const dir = await tempDir();
    const spec = { ...SMALL_DAY, seed: 'read-back', endTime: DAY1 + 2 * DAY };
    await writeSyntheticL2Days(dir, spec);
    const published = new Collector();
    const market = new SyntheticL2Market(spec);
    for (const end of [DAY1 + DAY, DAY1 + 2 * DAY]) {
      market.snapshot(published);
      market.run(end, published, false);
    }
    const depth = readDepth(dir, { scale: SCALE8, kind: 'tardis:incremental_book_L2' });
    const rows = (await collect(depth)).flatMap((b) => Array.from({ length: b.length }, (_, i) => [b.time[i]!, b.price[i]!, b.qty[i]!, b.flags[i]!]));
    expect(depth.skippedUpdates).toBe(0);
    expect(rows).toEqual(published.rows);
    const trades = tradesOf(await collect(readTrades(dir, { scale: SCALE8 })));
    expect(trades.map((t) => [t.id, t.time, t.price, t.qty, t.isBuyerMaker])).toEqual(published.trades);
    expect(trades[0]!.id).toBe(1);
    // Two snapshots (one a day), then the steered counts: within a few percent of the targets.
    expect(rows.filter((r) => (r[3]! & DEPTH_CLEAR) !== 0)).toHaveLength(2);
    const updates = rows.filter((r) => r[0]! > DAY1 && r[0]! !== DAY1 + DAY).length;
    expect(updates / 2).toBeGreaterThan(spec.depthRowsPerDay * 0.95);
    expect(updates / 2).toBeLessThan(spec.depthRowsPerDay * 1.05);
    expect(trades.length / 2).toBeGreaterThan(spec.tradesPerDay * 0.9);
    expect(trades.length / 2).toBeLessThan(spec.tradesPerDay * 1.1);
  });
});

/** What the market published, as the readers would give it back: depth rows [time, price, qty, flags], trades [id, time, price, qty, sell]. */
class Collector implements L2Sink {
  readonly rows: number[][] = [];
  readonly trades: (number | boolean)[][] = [];

  depth(time: number, _local: number, snapshot: boolean, sides: Uint8Array, prices: Float64Array, qtys: Float64Array, count: number): void {
    for (let i = 0; i < count; i++) {
      const start = i === 0 ? DEPTH_MESSAGE_START | (snapshot ? DEPTH_CLEAR : 0) : 0;
      this.rows.push([time, prices[i]!, qtys[i]!, start | (sides[i] === 1 ? DEPTH_ASK : 0)]);
    }
  }

  trade(time: number, _local: number, id: number, sell: boolean, price: number, qty: number): void {
    this.trades.push([id, time, price, qty, sell]);
  }
}

/**
 * Replays the market's output with two naive books: `published`, the messages alone, and `traded`,
 * the messages with every trade taken out of the level it hit. Each trade must be at the best
 * price of `traded` on the maker's side (the touch of the book before it) and no larger than that
 * level; each message must bring the two books back together (it shows what the trades took); no
 * message may leave the book crossed; and the order is a replay's (trades before depth at one µs).
 */
class ConsistencyChecker implements L2Sink {
  private readonly published = { bids: new Map<number, number>(), asks: new Map<number, number>() };
  private readonly traded = { bids: new Map<number, number>(), asks: new Map<number, number>() };
  private lastDepth = -Infinity;
  private lastTrade = -Infinity;
  readonly problems: string[] = [];
  messages = 0;
  trades = 0;

  depth(time: number, _local: number, snapshot: boolean, sides: Uint8Array, prices: Float64Array, qtys: Float64Array, count: number): void {
    this.messages++;
    if (time < this.lastDepth || time < this.lastTrade) this.problems.push(`message at ${time} after depth at ${this.lastDepth} / a trade at ${this.lastTrade}`);
    this.lastDepth = time;
    for (const book of [this.published, this.traded]) {
      if (snapshot) {
        book.bids.clear();
        book.asks.clear();
      }
      for (let i = 0; i < count; i++) {
        const side = sides[i] === 1 ? book.asks : book.bids;
        if (qtys[i] === 0) side.delete(prices[i]!);
        else side.set(prices[i]!, qtys[i]!);
      }
    }
    for (const side of ['bids', 'asks'] as const) {
      const a = this.published[side];
      const b = this.traded[side];
      if (a.size !== b.size || [...a].some(([p, q]) => b.get(p) !== q)) this.problems.push(`after the message at ${time} the ${side} still differ from the book the trades left`);
    }
    const bestBid = Math.max(...this.published.bids.keys());
    const bestAsk = Math.min(...this.published.asks.keys());
    if (bestBid >= bestAsk) this.problems.push(`crossed after the message at ${time}: bid ${bestBid} >= ask ${bestAsk}`);
  }

  trade(time: number, _local: number, id: number, sell: boolean, price: number, qty: number): void {
    this.trades++;
    if (time <= this.lastDepth) this.problems.push(`trade ${id} at ${time} not after the message at ${this.lastDepth}`);
    this.lastTrade = Math.max(this.lastTrade, time);
    const side = sell ? this.traded.bids : this.traded.asks;
    const touch = sell ? Math.max(...side.keys()) : Math.min(...side.keys());
    if (price !== touch) this.problems.push(`trade ${id} at ${price}, the touch was ${touch}`);
    const size = side.get(price) ?? 0;
    if (qty > size) this.problems.push(`trade ${id} took ${qty} of a level of ${size}`);
    if (size - qty === 0) side.delete(price);
    else side.set(price, size - qty);
  }
}

describe('the book and the trades agree', () => {
  it('every trade at the touch before it, every message showing what the trades took, never crossed (property)', () => {
    const spec = fc.record({
      seed: fc.string({ maxLength: 8 }),
      depthRowsPerDay: fc.integer({ min: 1_000_000, max: 30_000_000 }),
      tradesPerDay: fc.integer({ min: 200_000, max: 4_000_000 }),
      levelsPerSide: fc.integer({ min: 10, max: 400 }),
      dailyVolatility: fc.double({ min: 0.005, max: 0.1, noNaN: true }),
      startTicks: fc.integer({ min: 400, max: 10_000_000 }),
    });
    fc.assert(
      fc.property(spec, (s) => {
        const market: SyntheticL2Spec = { ...SMALL_DAY, ...s, startPrice: s.startTicks * SMALL_DAY.tickSize };
        const checker = new ConsistencyChecker();
        const m = new SyntheticL2Market(market);
        m.snapshot(checker);
        m.run(DAY1 + 60_000_000, checker);
        expect(checker.problems.slice(0, 3)).toEqual([]);
        expect(checker.trades).toBeGreaterThan(0);
        expect(checker.messages).toBeGreaterThan(100);
      }),
      { numRuns: 12, seed: 23 },
    );
  });
});
