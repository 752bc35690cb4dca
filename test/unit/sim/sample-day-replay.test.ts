import { describe, expect, it } from 'vitest';
import { loadSample, readTrades } from '../../../src/data/index.ts';
import type { OrderFilledByMarket } from '../../../src/engine/index.ts';
import { Journal } from '../../../src/engine/index.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../../src/sample/sample-market.ts';
import { JournalHasher, queuePosition, Replay, touch, tradeThrough, type FillModel, type JournalSink } from '../../../src/sim/index.ts';

const sample = loadSample('BTCUSDT');
const SAMPLE_ROWS = 62_374;
const MINUTE = 60_000_000;

interface Run {
  replay: Replay;
  fills: OrderFilledByMarket[];
  far: number;
  near: number;
}

/**
 * One day of the bundled BTCUSDT sample under `model`. Ten minutes in, the demo account rests a
 * BUY 0.01 at half the last price (never reachable) and a BUY 0.01 at `nearPrice`; a quoting
 * strategy (account 2) re-quotes a bid and an ask one tick around the last print every 500 prints.
 */
async function runSampleDay(model: FillModel, seed: string, journal: JournalSink, nearPrice: number): Promise<Run> {
  const replay = new Replay({
    engine: SAMPLE_CONFIG,
    tapes: [{ symbol: 'BTCUSDT', trades: readTrades(sample.trades, { scale: sample.scale }) }],
    fillModel: model,
    seed,
    startTime: sample.startTime,
    journal,
  });
  const fills: OrderFilledByMarket[] = [];
  for (const account of sampleAccounts(0)) {
    const { time: _time, ...command } = account;
    replay.apply(command);
  }
  await replay.runUntil(sample.startTime + 10 * MINUTE);
  const last = replay.history('BTCUSDT').lastTrade(replay.now)!.price;
  const tick = 1_000_000; // 0.01 USDT
  const place = (side: 'BUY' | 'SELL', price: number, accountId = 1): number => {
    const events = replay.apply({ type: 'PlaceOrder', accountId, symbol: 'BTCUSDT', side, orderType: 'LIMIT', timeInForce: 'GTC', price: price - (price % tick), quantity: 1_000_000 });
    const accepted = events.find((e) => e.type === 'OrderAccepted');
    if (accepted === undefined) throw new Error(JSON.stringify(events));
    return accepted.orderId;
  };
  const far = place('BUY', Math.round(last / 2));
  const near = place('BUY', nearPrice);
  let quotes: number[] = [];
  let count = 0;
  replay.onTrade((trade, r) => {
    if (++count % 500 !== 0) return;
    for (const orderId of quotes) r.apply({ type: 'CancelOrder', accountId: 2, symbol: 'BTCUSDT', orderId });
    quotes = [place('BUY', trade.price - tick, 2), place('SELL', trade.price + tick, 2)];
  });
  await replay.runToEnd();
  const all = journal instanceof Journal ? journal.entries.flatMap((e) => e.events).filter((e): e is OrderFilledByMarket => e.type === 'OrderFilledByMarket') : [];
  fills.push(...all);
  replay.engine.checkInvariants();
  return { replay, fills, far, near };
}

const firstFill = (run: Run, orderId: number) => run.fills.find((f) => f.orderId === orderId)?.time;

/**
 * Worked out from the tape itself (look-ahead is fine in a test): the first price P, among the
 * SELL-taker prints after the 10th minute below the price there, at which a print lands exactly
 * on P strictly before any print goes below P. A BUY at P fills at `touchAt` under touch and only
 * at `throughAt` under trade-through.
 */
async function nearOrderExpectation(): Promise<{ price: number; touchAt: number; throughAt: number }> {
  const rows: { time: number; price: number; sell: boolean }[] = [];
  for await (const batch of readTrades(sample.trades, { scale: sample.scale })) {
    for (let i = 0; i < batch.length; i++) rows.push({ time: batch.time[i]!, price: batch.price[i]!, sell: (batch.flags[i]! & 1) === 1 });
  }
  const start = sample.startTime + 10 * MINUTE;
  const last = rows.filter((r) => r.time <= start).at(-1)!.price;
  const after = rows.filter((r) => r.time > start && r.sell);
  for (const candidate of after) {
    if (candidate.price >= last) continue;
    const touchAt = after.find((r) => r.price <= candidate.price)!.time;
    const throughAt = after.find((r) => r.price < candidate.price)?.time;
    if (throughAt !== undefined && touchAt < throughAt) return { price: candidate.price, touchAt, throughAt };
  }
  throw new Error('no such price in the sample');
}

describe('replaying the bundled sample day', () => {
  it('replays every print; an order far from the market never fills; a near one fills under touch before trade-through', async () => {
    const expected = await nearOrderExpectation();
    const byTouch = await runSampleDay(touch(), 'day', new Journal(), expected.price);
    const byThrough = await runSampleDay(tradeThrough(), 'day', new Journal(), expected.price);
    for (const run of [byTouch, byThrough]) {
      expect(run.replay.stats.tapeTrades).toBe(SAMPLE_ROWS);
      expect(run.fills.some((f) => f.orderId === run.far)).toBe(false);
      expect(run.replay.engine.getOrder(1, 'BTCUSDT', { orderId: run.far })!.status).toBe('NEW');
    }
    const touchAt = firstFill(byTouch, byTouch.near)!;
    const throughAt = firstFill(byThrough, byThrough.near)!;
    expect(touchAt).toBe(expected.touchAt);
    expect(throughAt).toBe(expected.throughAt);
    const filled = (run: Run) => run.fills.reduce((sum, f) => sum + f.quantity, 0);
    expect(filled(byTouch)).toBeGreaterThan(filled(byThrough));
    // Fills and market prints form one tape: the history has every print (split or whole) plus the quoting fills.
    const history = byTouch.replay.history('BTCUSDT');
    const newest = history.recentTrades(byTouch.replay.now, 1)[0]!;
    expect(newest.time).toBe(history.newestTradeTime);
    expect(byTouch.replay.engine.lastTrade('BTCUSDT')!.id).toBe(newest.id);
  });

  it('is deterministic: same tape, seed and commands give the same journal hash (probabilistic queue)', async () => {
    const model = () => queuePosition({ variant: 'probabilistic' });
    const a = new JournalHasher();
    const b = new JournalHasher();
    const c = new JournalHasher();
    const near = 4_190_000_000_000;
    const runA = await runSampleDay(model(), 'seed-1', a, near);
    await runSampleDay(model(), 'seed-1', b, near);
    await runSampleDay(model(), 'seed-2', c, near);
    expect(b.hash()).toBe(a.hash());
    expect(runA.replay.stats.marketFills).toBeGreaterThan(0);
    expect(c.hash()).not.toBe(a.hash());
  });
});
