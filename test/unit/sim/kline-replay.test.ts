import { describe, expect, it } from 'vitest';
import type { Kline } from '../../../src/data/tape.ts';
import { Engine, type OrderFilledByMarket } from '../../../src/engine/index.ts';
import { touch, tradeThrough, type FillModel } from '../../../src/sim/index.ts';
import { KlineTape, type KlineTapePath } from '../../../src/sim/kline-tape.ts';
import { CONFIG, harness, u } from './helpers.ts';

/** One minute-aligned 1m bar after the helpers' T0: O 100, H 102, L 97, C 99, 0.9 BTC. */
const T1 = 1_700_000_040_000_000;
const BAR: Kline = {
  openTime: T1,
  open: u('100'),
  high: u('102'),
  low: u('97'),
  close: u('99'),
  volume: u('0.9'),
  closeTime: T1 + 59_999_999,
  quoteVolume: 0,
  trades: 0,
  takerBuyBaseVolume: 0,
  takerBuyQuoteVolume: 0,
};

// The grid comes from the engine config the replay will use.
const GRID = new Engine(CONFIG).symbolSpec('BTCUSDT')!;

/**
 * The bar's paths, two points per leg, 0.09 BTC per print:
 *   OHLC 100, 100.67, 101.33, 102 | 100.33, 98.67, 97 | 97.67, 98.33, 99   (travel 9)
 *   OLHC 100, 99, 98, 97 | 98.67, 100.33, 102 | 101, 100, 99               (travel 11)
 */
async function run(path: KlineTapePath, model: FillModel, orders: readonly ['BUY' | 'SELL', string][]) {
  const tape = new KlineTape({ klines: [BAR], path, grid: GRID });
  const h = harness(model, [{ symbol: 'BTCUSDT', trades: tape }]);
  const ids = orders.map(([side, price]) => h.limit(side, price, '0.05'));
  await h.replay.runToEnd();
  const fills = h.journal.entries
    .flatMap((e) => e.events)
    .filter((e): e is OrderFilledByMarket => e.type === 'OrderFilledByMarket')
    .map((f) => {
      // How a user reads a fill's path: the reason names the tape trade; its id encodes the path.
      const origin = tape.pathOfReason(f.reason)!;
      return { order: ids.indexOf(f.orderId), price: f.price, qty: f.quantity, at: f.time - T1, tag: origin.tag, leg: origin.legName, print: origin.print };
    });
  return { h, fills, tape };
}

describe('KlineTape through Replay', () => {
  it('a resting BUY below the bar’s low never fills, under any path and model', async () => {
    for (const path of ['OHLC', 'OLHC', 'adaptive'] as const) {
      for (const model of [tradeThrough(), touch()]) {
        const { fills } = await run(path, model, [['BUY', '96.99']]);
        expect(fills).toEqual([]);
      }
    }
  });

  it('trade-through, OHLC: the SELL above the open fills on the way up, the BUY between low and open on the way down', async () => {
    const { fills } = await run('OHLC', tradeThrough(), [
      ['BUY', '98.50'],
      ['SELL', '101.50'],
    ]);
    expect(fills).toEqual([
      // 102 (the high, travel 2 of 9) goes through 101.50: floor(2 * 59,999,999 / 9).
      { order: 1, price: u('101.5'), qty: u('0.05'), at: 13_333_333, tag: 'OHLC', leg: 'O-H', print: 3 },
      // 98.67 is not through 98.50; 97 (the low, travel 7 of 9) is.
      { order: 0, price: u('98.5'), qty: u('0.05'), at: 46_666_665, tag: 'OHLC', leg: 'H-L', print: 6 },
    ]);
  });

  it('trade-through, OLHC: the same orders fill in the opposite order, at other times', async () => {
    const { fills } = await run('OLHC', tradeThrough(), [
      ['BUY', '98.50'],
      ['SELL', '101.50'],
    ]);
    expect(fills).toEqual([
      // 98 (travel 2 of 11) goes through 98.50.
      { order: 0, price: u('98.5'), qty: u('0.05'), at: 10_909_090, tag: 'OLHC', leg: 'O-L', print: 2 },
      // 102 (the high, travel 8 of 11).
      { order: 1, price: u('101.5'), qty: u('0.05'), at: 43_636_362, tag: 'OLHC', leg: 'L-H', print: 6 },
    ]);
  });

  it('touch fills at a print at the order’s price; trade-through waits for the next print beyond it', async () => {
    const touched = await run('OHLC', touch(), [['BUY', '98.67']]);
    expect(touched.fills).toEqual([{ order: 0, price: u('98.67'), qty: u('0.05'), at: 35_533_332, tag: 'OHLC', leg: 'H-L', print: 5 }]);
    const through = await run('OHLC', tradeThrough(), [['BUY', '98.67']]);
    expect(through.fills).toEqual([{ order: 0, price: u('98.67'), qty: u('0.05'), at: 46_666_665, tag: 'OHLC', leg: 'H-L', print: 6 }]);
  });

  it('adaptive picks OHLC here (the high is nearer the open) and tags the fill so', async () => {
    const { fills } = await run('adaptive', tradeThrough(), [['BUY', '98.50']]);
    expect(fills).toEqual([{ order: 0, price: u('98.5'), qty: u('0.05'), at: 46_666_665, tag: 'adaptive:OHLC', leg: 'H-L', print: 6 }]);
  });

  it('the replayed history rebuilds the bar: same open, high, low, close and volume', async () => {
    const { h } = await run('OLHC', tradeThrough(), [['BUY', '98.50']]);
    const [k] = h.replay.history('BTCUSDT').klines(h.replay.now, { interval: '1m', startTime: T1 });
    expect(k).toMatchObject({ openTime: T1, open: BAR.open, high: BAR.high, low: BAR.low, close: BAR.close, volume: BAR.volume });
    expect(h.replay.stats.tapeTrades).toBe(10);
  });

  it('is deterministic: the same bar and orders give the same journal hash', async () => {
    const a = await run('adaptive', touch(), [['BUY', '98.50'], ['SELL', '101.00']]);
    const b = await run('adaptive', touch(), [['BUY', '98.50'], ['SELL', '101.00']]);
    expect(a.h.journal.hash()).toBe(b.h.journal.hash());
    expect(a.fills).toHaveLength(2);
  });
});
