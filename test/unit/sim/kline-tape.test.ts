import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { BUYER_MAKER, type Kline, type TradeBatch } from '../../../src/data/tape.ts';
import { collectKlineTape, KlineTape, type KlineTapeOptions } from '../../../src/sim/kline-tape.ts';
import { u } from './helpers.ts';

/** The helpers' BTCUSDT grid: tick 0.01, step 0.001, 8 decimals. */
const GRID = { tickUnits: u('0.01'), stepUnits: u('0.001'), basePrecision: 8 };
const MIN = 60_000_000;
/** A minute-aligned time after the helpers' T0. */
const T1 = 1_700_000_040_000_000;

function kline(openTime: number, o: string, h: string, l: string, c: string, volume: string, span = MIN, takerBuy = '0'): Kline {
  return {
    openTime,
    open: u(o),
    high: u(h),
    low: u(l),
    close: u(c),
    volume: u(volume),
    closeTime: openTime + span - 1,
    quoteVolume: 0,
    trades: 0,
    takerBuyBaseVolume: u(takerBuy),
    takerBuyQuoteVolume: 0,
  };
}

interface Row {
  id: number;
  time: number;
  price: number;
  qty: number;
  quoteQty: number;
  sell: boolean;
}

async function rows(options: Omit<KlineTapeOptions, 'grid'>): Promise<Row[]> {
  return flat(await collectKlineTape(new KlineTape({ grid: GRID, ...options })));
}

function flat(batches: readonly TradeBatch[]): Row[] {
  const out: Row[] = [];
  for (const b of batches) {
    for (let i = 0; i < b.length; i++) {
      out.push({ id: b.id[i]!, time: b.time[i]!, price: b.price[i]!, qty: b.qty[i]!, quoteQty: b.quoteQty[i]!, sell: (b.flags[i]! & BUYER_MAKER) !== 0 });
    }
  }
  return out;
}

const px = (r: readonly Row[]) => r.map((x) => (x.price / 1e8).toFixed(2));
const dt = (r: readonly Row[], t0: number) => r.map((x) => x.time - t0);

describe('KlineTape: one bar, hand-worked', () => {
  // O 100, H 103, L 97, C 101, 1.003 BTC over one minute (closeTime = openTime + 59,999,999 µs).
  const bar = kline(T1, '100', '103', '97', '101', '1.003');

  it('OHLC: prices, times at constant speed along the path, volume, taker sides, ids', async () => {
    const r = await rows({ klines: [bar], path: 'OHLC' });
    expect(px(r)).toEqual(['100.00', '101.00', '102.00', '103.00', '101.00', '99.00', '97.00', '98.33', '99.67', '101.00']);
    // travel 0, 1, 2, 3, 5, 7, 9, 10.33, 11.67, 13 of 13: t = floor(travel * 59,999,999 / 13).
    expect(dt(r, T1)).toEqual([0, 4615384, 9230769, 13846153, 23076922, 32307691, 41538460, 47676922, 53861537, 59999999]);
    // 1003 steps over 10 prints: 100 each, the 3 left over spread along the path (prints 3, 6, 9).
    expect(r.map((x) => x.qty / u('0.001'))).toEqual([100, 100, 100, 101, 100, 100, 101, 100, 100, 101]);
    // Up-leg prints are taker BUYs; the open takes the direction of the first move (up).
    expect(r.map((x) => (x.sell ? 'S' : 'B')).join('')).toBe('BBBBSSSBBB');
    expect(r.map((x) => x.id - 1_700_000_040_000_000)).toEqual([0, 1001, 1002, 1003, 2004, 2005, 2006, 3007, 3008, 3009]);
    // quoteQty = floor(price * qty / 1e8): 98.33 * 0.1 = 9.833 USDT.
    expect(r[7]!.quoteQty).toBe(u('9.833'));
  });

  it('OLHC: the low first, times follow its own (shorter) travel', async () => {
    const r = await rows({ klines: [bar], path: 'OLHC' });
    expect(px(r)).toEqual(['100.00', '99.00', '98.00', '97.00', '99.00', '101.00', '103.00', '102.33', '101.67', '101.00']);
    // travel 0, 1, 2, 3, 5, 7, 9, 9.67, 10.33, 11 of 11.
    expect(dt(r, T1)).toEqual([0, 5454545, 10909090, 16363636, 27272726, 38181817, 49090908, 52745453, 56345453, 59999999]);
    expect(r.map((x) => (x.sell ? 'S' : 'B')).join('')).toBe('SSSSBBBSSS');
    expect(r.map((x) => x.id - 1_700_000_040_000_000)).toEqual([10000, 11001, 11002, 11003, 12004, 12005, 12006, 13007, 13008, 13009]);
  });

  it('adaptive: picks per bar and says so in the ids (mode digit 1)', async () => {
    const near = kline(T1 + MIN, '100', '101', '97', '99', '0.004'); // high nearer: OHLC
    const r = await rows({ klines: [bar, near], path: 'adaptive', steps: { perLeg: 0 } });
    // bar ties (3 and 3), the close is nearer the high: OLHC; then OHLC.
    expect(px(r)).toEqual(['100.00', '97.00', '103.00', '101.00', '100.00', '101.00', '97.00', '99.00']);
    const tape = new KlineTape({ klines: [], path: 'adaptive' });
    expect(r.map((x) => tape.pathOf(x.id)!.tag)).toEqual([...Array(4).fill('adaptive:OLHC'), ...Array(4).fill('adaptive:OHLC')]);
  });

  it('a flat bar is one print at openTime, its side from the taker-buy volume; a bar without volume prints nothing', async () => {
    const r = await rows({
      klines: [kline(T1, '100', '100', '100', '100', '0.5', MIN, '0.2'), kline(T1 + MIN, '100', '100', '100', '100', '0'), kline(T1 + 2 * MIN, '100', '100', '100', '100', '0.5', MIN, '0.3')],
      path: 'OHLC',
    });
    expect(r.map((x) => [x.time - T1, x.qty, x.sell])).toEqual([
      [0, u('0.5'), true],
      [2 * MIN, u('0.5'), false],
    ]);
  });

  it('less volume than prints: extremes first, then the close; dust below one step goes to the last print', async () => {
    const r = await rows({ klines: [kline(T1, '100', '103', '97', '101', '0.00205')], path: 'OHLC' });
    // 2 steps for 10 points: the high (point 3) and the low (point 6); 0.00005 of dust on the low.
    expect(r.map((x) => [(x.price / 1e8).toFixed(2), x.qty])).toEqual([
      ['103.00', u('0.001')],
      ['97.00', u('0.00105')],
    ]);
    expect(r.map((x) => x.id % 1000)).toEqual([3, 6]);
    expect(r.map((x) => x.time - T1)).toEqual([13846153, 41538460]);
  });
});

describe('KlineTape: invariants over many bars', () => {
  it('conserves each bar’s volume exactly on the step grid, stays inside the bar, keeps time and ids increasing', async () => {
    const rng = seedrandom('kline-tape');
    const bars: Kline[] = [];
    let price = 30_000;
    for (let i = 0; i < 300; i++) {
      const ticks = (n: number) => Math.round(n * rng()) / 100;
      const open = price;
      const close = Math.max(1, open + ticks(4000) - 20);
      const high = Math.max(open, close) + ticks(1500);
      const low = Math.max(0.01, Math.min(open, close) - ticks(1500));
      const volume = (Math.floor(rng() * 50_000) / 1000 + (i % 7 === 0 ? 0.00003 : 0)).toFixed(5);
      bars.push(kline(T1 + i * MIN, open.toFixed(2), high.toFixed(2), low.toFixed(2), close.toFixed(2), volume));
      price = close;
    }
    for (const path of ['OHLC', 'OLHC', 'adaptive'] as const) {
      for (const steps of [{ perLeg: 0 }, { perLeg: 3 }, { everyTicks: 25 }]) {
        const tape = new KlineTape({ klines: [bars.slice(0, 100), bars.slice(100)], path, steps, grid: GRID, batchSize: 97 });
        const r = flat(await collectKlineTape(tape));
        expect(tape.stats).toMatchObject({ bars: 300, barsWalked: 300, prints: r.length });
        // Checked by hand-rolled comparisons (one expect per check over 30k prints is slow); failures listed.
        const bad: string[] = [];
        for (let i = 1; i < r.length; i++) {
          if (!(r[i]!.time > r[i - 1]!.time && r[i]!.id > r[i - 1]!.id)) bad.push(`order at print ${i}`);
        }
        let at = 0;
        for (const b of bars) {
          const mine: Row[] = [];
          while (at < r.length && r[at]!.time <= b.closeTime) mine.push(r[at++]!);
          const where = `${path} ${JSON.stringify(steps)} bar ${b.openTime}`;
          if (mine.reduce((s, x) => s + x.qty, 0) !== b.volume) bad.push(`${where}: volume`);
          const dust = b.volume % GRID.stepUnits;
          if (mine.some((x, j) => (x.qty - (j === mine.length - 1 ? dust : 0)) % GRID.stepUnits !== 0)) bad.push(`${where}: off the step grid`);
          const first = mine[0]!;
          const last = mine.at(-1)!;
          if (first.time !== b.openTime || first.price !== b.open) bad.push(`${where}: open`);
          if (last.time !== b.closeTime || last.price !== b.close) bad.push(`${where}: close`);
          if (Math.max(...mine.map((x) => x.price)) !== b.high || Math.min(...mine.map((x) => x.price)) !== b.low) bad.push(`${where}: extremes`);
          if (mine.some((x) => x.quoteQty !== Number((BigInt(x.price) * BigInt(x.qty)) / 10n ** 8n))) bad.push(`${where}: quoteQty`);
        }
        expect(bad).toEqual([]);
        expect(at).toBe(r.length);
      }
    }
  });

  it('adjacent bars: the close at closeTime, the next open 1 µs later; overlapping or inconsistent bars throw', async () => {
    const r = await rows({ klines: [kline(T1, '100', '101', '99', '100.5', '1'), kline(T1 + MIN, '100.5', '102', '100', '101', '1')], path: 'OHLC' });
    const split = r.findIndex((x) => x.time >= T1 + MIN);
    expect([r[split - 1]!.time, r[split]!.time]).toEqual([T1 + MIN - 1, T1 + MIN]);
    await expect(rows({ klines: [kline(T1, '100', '101', '99', '100', '1'), kline(T1 + MIN - 1_000_000, '100', '101', '99', '100', '1')], path: 'OHLC' })).rejects.toThrow('opens before the previous kline closed');
    await expect(rows({ klines: [kline(T1, '100', '101', '99', '102', '1')], path: 'OHLC' })).rejects.toThrow('outside low');
    expect(() => new KlineTape({ klines: [], path: 'finer' })).toThrow('needs `finer` klines');
  });
});

describe('KlineTape: finer klines inside coarser bars', () => {
  const HOUR = 60 * MIN;
  const H0 = 1_699_999_200_000_000; // hour-aligned, 1699999200 s
  const coarse = [kline(H0, '100', '105', '95', '101', '3', HOUR), kline(H0 + HOUR, '101', '103', '100', '102', '1', HOUR)];
  // Inside the first hour: minute 0 and minute 30 (the minutes between had no trades).
  const finer = [
    kline(H0 - MIN, '99', '99', '99', '99', '0.5'), // before the first coarse bar: skipped
    kline(H0, '100', '101', '95', '96', '2'),
    kline(H0 + 30 * MIN, '96', '105', '96', '101', '1'),
  ];

  it('walks the finer klines (each by finerPath) instead of the bar; a bar without finer data by the fallback', async () => {
    const tape = new KlineTape({ klines: coarse, finer: [finer], path: 'finer', finerPath: 'OHLC', fallback: 'OLHC', steps: { perLeg: 0 }, grid: GRID });
    const r = flat(await collectKlineTape(tape));
    expect(px(r)).toEqual([
      // minute 0, OHLC: 100 -> 101 -> 95 -> 96
      '100.00', '101.00', '95.00', '96.00',
      // minute 30, OHLC: 96 -> 105 -> 96 -> 101 (opening at its low, it still returns there after the high)
      '96.00', '105.00', '96.00', '101.00',
      // second hour, no finer klines: fallback OLHC: 101 -> 100 -> 103 -> 102
      '101.00', '100.00', '103.00', '102.00',
    ]);
    expect(dt(r, H0)).toEqual([
      0, 7_499_999, 52_499_999, 59_999_999, // 1 + 6 + 1 of 8
      30 * MIN, 30 * MIN + 23_478_260, 30 * MIN + 46_956_520, 30 * MIN + 59_999_999, // 9 + 9 + 5 of 23
      HOUR, HOUR + 719_999_999, HOUR + 2_879_999_999, HOUR + HOUR - 1, // 1 + 3 + 1 of 5 over the hour
    ]);
    expect(r.map((x) => tape.pathOf(x.id)!.tag)).toEqual([...Array(8).fill('finer:OHLC'), ...Array(4).fill('OLHC')]);
    expect(tape.pathOf(r[6]!.id)).toMatchObject({ klineOpenTime: H0 + 30 * MIN, finer: true, policy: 'OHLC', leg: 2, legName: 'H-L', print: 2 });
    // The finer klines' volume (2 + 1) is what prints; it matches the bar's 3.
    expect(r.slice(0, 8).reduce((s, x) => s + x.qty, 0)).toBe(u('3'));
    expect(tape.stats).toEqual({ bars: 2, barsWalked: 1, finerWalked: 2, finerSkipped: 1, finerVolumeMismatches: 0, prints: 12 });
  });

  it('counts bars whose finer volumes disagree, and refuses a "finer" kline longer than its bar', async () => {
    const tape = new KlineTape({ klines: coarse.slice(0, 1), finer: finer.slice(1, 2), path: 'finer', grid: GRID });
    await collectKlineTape(tape);
    expect(tape.stats.finerVolumeMismatches).toBe(1);
    const long = new KlineTape({ klines: [kline(H0, '100', '101', '99', '100', '1', HOUR)], finer: [kline(H0, '100', '101', '99', '100', '1', 2 * HOUR)], path: 'finer', grid: GRID });
    await expect(collectKlineTape(long)).rejects.toThrow('not finer');
  });

  it('reads async sources of kline arrays (as readKlines yields them)', async () => {
    async function* batches(list: Kline[]) {
      yield list.slice(0, 1);
      yield list.slice(1);
    }
    const tape = new KlineTape({ klines: batches(coarse), finer: batches(finer), path: 'finer', finerPath: 'OHLC', fallback: 'OLHC', steps: { perLeg: 0 }, grid: GRID });
    expect(flat(await collectKlineTape(tape))).toHaveLength(12);
  });
});
