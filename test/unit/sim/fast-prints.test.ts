/**
 * The replay's print fast path (`ReplayConfig.fastPrints`, `Engine.recordPrint`) against the full
 * path: the same seeded tape and the same strategy actions, once with the fast path (the default)
 * and once with every print applied as a RecordMarketTrade command. Journal lines (commands,
 * events, decisions), the engine's state hash, each symbol's market history and what the trade
 * listeners saw must be identical. The strategy keeps own orders, waiting stops (plain and
 * trailing) and OCO lists near the price, so prints take both paths and switch between them.
 */
import { describe, expect, it } from 'vitest';
import { journalLine, printJournalLine, type EngineEvent } from '../../../src/engine/index.ts';
import { JournalFile } from '../../../src/backtest/journal-file.ts';
import { BEST_MATCH, BUYER_MAKER, type TradeBatch } from '../../../src/data/tape.ts';
import { JournalHasher, printEntry, queuePosition, Replay, ReplayJournal, SyntheticBook, touch, type FillModel } from '../../../src/sim/index.ts';
import { CONFIG, T0, u } from './helpers.ts';

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random walk of `n` prints around 100 (tick 0.01, step 0.001), a few per ms, one with a zero quantity (refused). */
function walkTape(n: number, seed: number, firstId: number): TradeBatch[] {
  const random = rng(seed);
  const batches: TradeBatch[] = [];
  let ticks = 10_000;
  let time = T0;
  for (let start = 0; start < n; start += 700) {
    const rows = Math.min(700, n - start);
    const batch = { length: rows, id: new Float64Array(rows), price: new Float64Array(rows), qty: new Float64Array(rows), quoteQty: new Float64Array(rows), time: new Float64Array(rows), flags: new Uint8Array(rows) };
    for (let i = 0; i < rows; i++) {
      ticks += Math.round((random() - 0.5) * 6);
      if (random() < 0.6) time += Math.floor(random() * 400_000);
      const qty = start + i === 777 ? 0 : (1 + Math.floor(random() * 2_000)) * u('0.001');
      batch.id[i] = firstId + start + i;
      batch.price[i] = ticks * u('0.01');
      batch.qty[i] = qty;
      batch.quoteQty[i] = Math.floor((batch.price[i]! * qty) / 1e8);
      batch.time[i] = time;
      batch.flags[i] = (random() < 0.5 ? BUYER_MAKER : 0) | BEST_MATCH;
    }
    batches.push(batch);
  }
  return batches;
}

/** The first place two plain-data trees differ (Object.is on leaves, typed arrays element by element), or null. */
function firstDifference(a: unknown, b: unknown, path: string): string | null {
  if (Object.is(a, b)) return null;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return `${path}: ${String(a)} vs ${String(b)}`;
  if (ArrayBuffer.isView(a) && ArrayBuffer.isView(b)) {
    const x = a as unknown as ArrayLike<unknown>;
    const y = b as unknown as ArrayLike<unknown>;
    if (x.length !== y.length || a.byteLength !== b.byteLength || a.constructor !== b.constructor) return `${path}: views ${a.constructor.name} ${x.length}/${a.buffer.byteLength} vs ${b.constructor.name} ${y.length}/${b.buffer.byteLength}`;
    for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return `${path}[${i}]: ${String(x[i])} vs ${String(y[i])}`;
    if (a.buffer.byteLength !== b.buffer.byteLength) return `${path}: buffer ${a.buffer.byteLength} vs ${b.buffer.byteLength}`;
    return null;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join() !== kb.join()) return `${path}: keys ${ka.join()} vs ${kb.join()}`;
  for (const k of ka) {
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    if (d !== null) return d;
  }
  return null;
}

interface Run {
  lines: string;
  stateHash: string;
  history: unknown;
  seen: string[];
  fastPrints: number;
}

async function run(fastPrints: boolean, model: () => FillModel, keepTradeIds: boolean, book: boolean): Promise<Run> {
  const journal = new ReplayJournal();
  const replay = new Replay({
    engine: CONFIG,
    tapes: [
      { symbol: 'BTCUSDT', trades: walkTape(3_000, 7, 5_000), keepTradeIds },
      { symbol: 'ETHUSDT', trades: walkTape(1_000, 8, 90_000) },
    ],
    fillModel: model(),
    seed: 'fast',
    startTime: T0 - 1_000_000,
    journal,
    fastPrints,
  });
  for (const accountId of [1, 2]) replay.apply({ type: 'CreateAccount', accountId, balances: { USDT: u('10000000'), BTC: u('10000'), ETH: u('10000') } });
  if (book) await SyntheticBook.attach(replay, { symbols: { BTCUSDT: { levels: 5, spreadTicks: [1, 1], gapTicks: 3, baseQty: u('0.5'), growth: 2, jitter: 0, flow: { rate: 20, stepMicros: 100_000 } } } });
  const random = rng(99);
  const seen: string[] = [];
  const marketEvents: EngineEvent[] = [];
  replay.onMarketEvents((events) => marketEvents.push(...events));
  let count = 0;
  replay.onTrade((trade) => {
    seen.push(`${trade.symbol} ${trade.tapeId} ${trade.time} ${trade.price} ${trade.qty} ${trade.isBuyerMaker} ${trade.filled} ${replay.engine.sequence}`);
    if (++count % 53 !== 0 || trade.symbol !== 'BTCUSDT') return;
    const price = trade.price;
    const tick = u('0.01');
    const near = (k: number) => price + Math.round((random() - 0.5) * k) * tick;
    const qty = (1 + Math.floor(random() * 500)) * u('0.001');
    const r = random();
    const accountId = random() < 0.8 ? 1 : 2;
    if (r < 0.3) {
      const side = random() < 0.5 ? 'BUY' : 'SELL';
      replay.apply({ type: 'PlaceOrder', accountId, symbol: 'BTCUSDT', side, orderType: 'LIMIT', timeInForce: 'GTC', price: side === 'BUY' ? near(8) - 2 * tick : near(8) + 2 * tick, quantity: qty });
    } else if (r < 0.45) {
      replay.apply({ type: 'PlaceOrder', accountId, symbol: 'BTCUSDT', side: 'SELL', orderType: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', quantity: qty, stopPrice: price - 4 * tick, price: price - 6 * tick });
    } else if (r < 0.55) {
      replay.apply({ type: 'PlaceOrder', accountId, symbol: 'BTCUSDT', side: 'BUY', orderType: 'STOP_LOSS', quantity: qty, stopPrice: price + 5 * tick });
    } else if (r < 0.6) {
      replay.apply({ type: 'PlaceOrder', accountId, symbol: 'BTCUSDT', side: 'SELL', orderType: 'STOP_LOSS', quantity: qty, trailingDelta: 20 });
    } else if (r < 0.75) {
      replay.apply({
        type: 'PlaceOrderList',
        accountId,
        symbol: 'BTCUSDT',
        kind: 'OCO',
        legs: [
          { side: 'SELL', orderType: 'LIMIT_MAKER', price: price + 15 * tick, quantity: qty },
          { side: 'SELL', orderType: 'STOP_LOSS_LIMIT', stopPrice: price - 15 * tick, price: price - 17 * tick, quantity: qty, timeInForce: 'GTC' },
        ],
      });
    } else if (r < 0.9) {
      replay.apply({ type: 'CancelAllOrders', accountId, symbol: 'BTCUSDT' });
    }
  });
  let calls = 0;
  const engine = replay.engine;
  const recordPrint = engine.recordPrint.bind(engine);
  engine.recordPrint = (...args) => {
    const id = recordPrint(...args);
    if (id >= 0) calls++;
    return id;
  };
  await replay.runToEnd();
  replay.engine.checkInvariants();
  const history = Object.fromEntries(
    ['BTCUSDT', 'ETHUSDT'].map((s) => {
      const h = replay.history(s);
      const asOf = replay.now;
      return [s, { fields: h.exportFields(), trades: h.historicalTrades(asOf, { limit: 1000 }), klines: h.klines(asOf, { interval: '1m', limit: 1000 }), avg: h.avgPrice(asOf), ticker: h.ticker24hr(asOf) }];
    }),
  );
  expect(marketEvents.length).toBeGreaterThan(0);
  return { lines: journal.toExplainedJsonLines(), stateHash: replay.engine.stateHash(), history, seen, fastPrints: calls };
}

describe('the print fast path gives what the full path gives', () => {
  const cases: [string, () => FillModel, boolean, boolean][] = [
    ['queue model, engine ids, order-flow book', () => queuePosition(), false, true],
    ['touch model, venue ids, no book', () => touch(), true, false],
  ];
  for (const [name, model, keepIds, book] of cases) {
    it(name, async () => {
      const fast = await run(true, model, keepIds, book);
      const full = await run(false, model, keepIds, book);
      expect(full.fastPrints).toBe(0);
      // Most prints take the fast path, and some do not (own orders reached, stops, trailing stops, the refused print).
      expect(fast.fastPrints).toBeGreaterThan(500);
      expect(fast.fastPrints).toBeLessThan(3_999);
      expect(fast.lines.length).toBeGreaterThan(0);
      expect(fast.stateHash).toBe(full.stateHash);
      expect(fast.seen).toEqual(full.seen);
      // Walked by hand: vitest's deep equality over the histories' typed arrays takes seconds.
      expect(firstDifference(fast.history, full.history, 'history')).toBeNull();
      expect(fast.lines === full.lines).toBe(true);
    });
  }
});

describe("a fast-path print's journal line", () => {
  it('is the line of the objects the full path makes, or null where JSON would escape', () => {
    const cases: [number, string, number, number, boolean, number | undefined, number, number][] = [
      [1_700_000_000_123_456, 'BTCUSDT', 4_200_012_345_678, 123_000, true, undefined, 17, 5_166_015],
      [0, 'ETH-USDT_1.x', 1, 1, false, 9_007_199_254_740_991, 1, 0],
      [5, 'BTCUSDT', 2, 3, false, 40, 41, -0],
    ];
    for (const [time, symbol, price, quantity, isBuyerMaker, venueId, tradeId, quote] of cases) {
      const entry = printEntry(time, symbol, price, quantity, isBuyerMaker, venueId, tradeId, quote);
      expect(printJournalLine(7, time, symbol, price, quantity, isBuyerMaker, venueId, tradeId, quote)).toBe(journalLine(7, entry.command, entry.events));
    }
    expect(printJournalLine(1, 0, 'BTC"USDT', 1, 1, true, undefined, 1, 1)).toBeNull();
    expect(printJournalLine(1, 0, 'BTCUSDT', Number.NaN, 1, true, undefined, 1, 1)).toBeNull();
  });

  it('JournalHasher and JournalFile give the same hash through recordPrint as through record', () => {
    const prints: [number, string, number, number, boolean, number | undefined, number, number][] = [
      [10, 'BTCUSDT', 100, 2, true, undefined, 1, 200],
      [11, 'BTC"X', 100, 2, false, 5, 2, 200],
      [12, 'BTCUSDT', 101, 3, false, 6, 3, 303],
    ];
    const viaRecord = new JournalHasher();
    const viaPrint = new JournalHasher();
    const fileRecord = new JournalFile(null);
    const filePrint = new JournalFile(null);
    for (const p of prints) {
      const entry = printEntry(...p);
      viaRecord.record(entry.command, entry.events);
      fileRecord.record(entry.command, entry.events);
      viaPrint.recordPrint(...p);
      filePrint.recordPrint(...p);
    }
    expect(viaPrint.hash()).toBe(viaRecord.hash());
    expect(filePrint.hash()).toBe(fileRecord.hash());
    expect(filePrint.hash()).toBe(viaRecord.hash());
    expect(filePrint.entries).toBe(3);
  });
});
