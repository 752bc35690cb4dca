/**
 * The end-of-tape wrapper (src/sim/tape-end.ts) read directly: when the state says the tape
 * ended, what each pass of `loop` shifts, and that `synthetic` continues deterministically from
 * the last print.
 */
import { describe, expect, test } from 'vitest';
import type { TradeBatch } from '../../../src/data/tape.ts';
import { tapesWithEnd, type EndingTape, type TapeEndMode, type TapeInput } from '../../../src/sim/index.ts';
import { T0, tape, u } from './helpers.ts';

const SPAN = 86_400_000_000; // one day, µs
const SCALE = { quotePrecision: 8, basePrecision: 8 };

function ending(symbol: string, batches: TradeBatch[]): EndingTape {
  return { symbol, open: () => batches, scale: SCALE, tickSize: u('0.01'), stepSize: u('0.001') };
}

const btc = tape([{ taker: 'BUY', price: '100.00', qty: '1', at: 0 }, { taker: 'SELL', price: '100.50', qty: '2', at: 10 }], { firstId: 11, batchSize: 1 });
const eth = tape([{ taker: 'BUY', price: '10.00', qty: '3', at: 5 }, { taker: 'BUY', price: '10.20', qty: '1', at: 30 }], { firstId: 501 });

function wrap(mode: TapeEndMode, seed = 's') {
  const log: string[] = [];
  const wrapped = tapesWithEnd([ending('BTCUSDT', btc), ending('ETHUSDT', eth)], { mode, span: SPAN, seed, log: (line) => log.push(line) });
  return { ...wrapped, log };
}

/** The first `rows` rows of a wrapped tape as [id, time, price]. */
async function rowsOf(input: TapeInput, rows: number): Promise<[number, number, number][]> {
  const out: [number, number, number][] = [];
  for await (const batch of input.trades as AsyncIterable<TradeBatch>) {
    for (let i = 0; i < batch.length && out.length < rows; i++) out.push([batch.id[i]!, batch.time[i]!, batch.price[i]!]);
    if (out.length >= rows) break;
  }
  return out;
}

describe('tapesWithEnd', () => {
  test('stop: ended (at the last print of all tapes) only when every tape is done, one log line', async () => {
    const { tapes, state, log } = wrap('stop');
    expect(await rowsOf(tapes[0]!, 10)).toHaveLength(2);
    expect(state).toEqual({ mode: 'stop', ended: false, endedAt: null, loops: 0 });
    expect(await rowsOf(tapes[1]!, 10)).toHaveLength(2);
    expect(state).toEqual({ mode: 'stop', ended: true, endedAt: T0 + 30_000, loops: 0 });
    expect(log).toEqual([`exsim: the tape ended at ${new Date(Math.floor((T0 + 30_000) / 1000)).toISOString()}; the market is still, orders and requests still work`]);
  });

  test('loop: each pass shifted by the span, ids continuing after the last; one line per loop whichever symbol starts it', async () => {
    const { tapes, state, log } = wrap('loop');
    const rows = await rowsOf(tapes[0]!, 6);
    expect(rows.map(([id]) => id)).toEqual([11, 12, 13, 14, 15, 16]);
    expect(rows.map(([, time]) => time - T0)).toEqual([0, 10_000, SPAN, SPAN + 10_000, 2 * SPAN, 2 * SPAN + 10_000]);
    expect(rows.map(([, , price]) => price)).toEqual([u('100'), u('100.5'), u('100'), u('100.5'), u('100'), u('100.5')]);
    expect(state.loops).toBe(2);
    expect(state.ended).toBe(false); // ETHUSDT has not been read to its end yet
    const eth = await rowsOf(tapes[1]!, 4);
    expect(eth.map(([id, time]) => [id, time - T0])).toEqual([[501, 5_000], [502, 30_000], [503, SPAN + 5_000], [504, SPAN + 30_000]]);
    expect(state).toMatchObject({ mode: 'loop', ended: true, endedAt: T0 + 30_000, loops: 2 });
    expect(log).toHaveLength(2);
    expect(log[0]).toMatch(/^exsim: the tape ended \(BTCUSDT at \S+\); loop 1: replaying it again shifted by 1 day\(s\), trade ids continuing$/);
    expect(log[1]).toMatch(/loop 2: replaying it again shifted by 2 day\(s\)/);
  });

  test('synthetic: the generator from the last price, time and id, the same for the same seed', async () => {
    const first = wrap('synthetic', 'seed-a');
    const rows = await rowsOf(first.tapes[0]!, 40);
    const generated = rows.slice(2);
    expect(generated[0]![0]).toBe(13);
    expect(generated.every(([id], i) => id === 13 + i)).toBe(true);
    expect(generated.every(([, time], i) => time > T0 + 10_000 && (i === 0 || time >= generated[i - 1]![1]))).toBe(true);
    // At this tape's pace (two prints a day) the first generated print comes hours later: within 10%.
    expect(Math.abs(generated[0]![2] / u('100.5') - 1)).toBeLessThan(0.1);
    expect(generated.every(([, , price]) => price % u('0.01') === 0)).toBe(true);
    expect(first.log).toEqual([expect.stringMatching(/^exsim: the BTCUSDT tape ended at \S+; continuing with synthetic trades \(seed seed-a\) from price 100\.50000000, trade id 13$/)]);
    expect(await rowsOf(wrap('synthetic', 'seed-a').tapes[0]!, 40)).toEqual(rows);
    expect(await rowsOf(wrap('synthetic', 'seed-b').tapes[0]!, 40)).not.toEqual(rows);
  });
});
