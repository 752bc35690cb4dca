/**
 * What a served replay does when its tape runs out (`exsim serve --at-end`):
 * - `stop`: the market goes still; time keeps moving and accounts can still trade with each other.
 * - `loop`: the tape again, every time shifted forward by the data's span (whole days) and every
 *   trade id by the tape's id range, so a long-running bot never sees time or ids go back.
 * - `synthetic`: the seeded synthetic generator (synthetic-trades.ts), started at each tape's last
 *   price, time and id, sized from the tape it follows.
 * Each symbol's tape is wrapped on its own (the Replay merges them as before and does not know);
 * the shared `TapeEndState` says what happened, for logs and status answers.
 */
import { generateTradeBatches, type SyntheticTradesSpec, type TradeBatch } from '../data/index.ts';
import { formatUnits } from '../engine/index.ts';
import type { TapeInput } from './replay.ts';
import type { TapeSource } from './tape-cursor.ts';

export const TAPE_END_MODES = ['stop', 'loop', 'synthetic'] as const;
export type TapeEndMode = (typeof TAPE_END_MODES)[number];

/** Live view of the end of the tape (mutated as the replay reads on). */
export interface TapeEndState {
  readonly mode: TapeEndMode;
  /** True once every symbol's recorded tape has been replayed to its end (first pass). */
  ended: boolean;
  /** Time of the last recorded print (µs), once `ended`. */
  endedAt: number | null;
  /** Loops started (`loop`; 0 otherwise). */
  loops: number;
}

/** One symbol's recorded tape, reopenable (each loop reads it again), and its grid for the generator. */
export interface EndingTape {
  readonly symbol: string;
  readonly open: () => Promise<TapeSource> | TapeSource;
  readonly scale: SyntheticTradesSpec['scale'];
  /** Price tick and quantity step, in units. */
  readonly tickSize: number;
  readonly stepSize: number;
}

export interface TapeEndOptions {
  readonly mode: TapeEndMode;
  /** µs the loop shifts time by each pass: at least the data's span (the caller rounds it to days). */
  readonly span: number;
  /** Seeds the synthetic continuation (with the symbol). */
  readonly seed: string | number;
  /** One line per event (the end, each loop, each synthetic start). */
  readonly log: (line: string) => void;
}

/** Daily volatility of the synthetic continuation: a calm market (the generator's sample uses 0.015-0.025). */
const SYNTHETIC_DAILY_VOLATILITY = 0.02;
const DAY_US = 86_400_000_000;

const iso = (us: number): string => new Date(Math.floor(us / 1000)).toISOString();

/** The tapes wrapped for `options.mode`, and the state they update. */
export function tapesWithEnd(tapes: readonly EndingTape[], options: TapeEndOptions): { tapes: TapeInput[]; state: TapeEndState } {
  const state: TapeEndState = { mode: options.mode, ended: false, endedAt: null, loops: 0 };
  let running = tapes.length;
  let lastTime = -Infinity;
  const firstPassDone = (time: number): void => {
    lastTime = Math.max(lastTime, time);
    if (--running > 0) return;
    state.ended = true;
    state.endedAt = Number.isFinite(lastTime) ? lastTime : null;
    if (options.mode === 'stop') {
      options.log(`exsim: the tape ended at ${state.endedAt === null ? 'its start' : iso(state.endedAt)}; the market is still, orders and requests still work`);
    }
  };
  const loopStarted = (loop: number, symbol: string, time: number): void => {
    if (loop <= state.loops) return;
    state.loops = loop;
    options.log(`exsim: the tape ended (${symbol} at ${iso(time)}); loop ${loop}: replaying it again shifted by ${Math.round(((loop * options.span) / DAY_US) * 100) / 100} day(s), trade ids continuing`);
  };
  const wrapped = tapes.map((tape): TapeInput => ({ symbol: tape.symbol, trades: endingTape(tape, options, firstPassDone, loopStarted) }));
  return { tapes: wrapped, state };
}

async function* endingTape(
  tape: EndingTape,
  options: TapeEndOptions,
  firstPassDone: (time: number) => void,
  loopStarted: (loop: number, symbol: string, time: number) => void,
): AsyncGenerator<TradeBatch> {
  // What the first pass saw: the seam's time, price and id, and the size of the market.
  let firstId = NaN;
  let lastId = NaN;
  let lastTime = -Infinity;
  let lastPrice = 0;
  let count = 0;
  let logQtySum = 0;
  for await (const batch of await tape.open()) {
    if (batch.length === 0) continue;
    if (Number.isNaN(firstId)) firstId = batch.id[0]!;
    for (let i = 0; i < batch.length; i++) logQtySum += Math.log(batch.qty[i]!);
    count += batch.length;
    const last = batch.length - 1;
    lastId = batch.id[last]!;
    lastTime = batch.time[last]!;
    lastPrice = batch.price[last]!;
    yield batch;
  }
  firstPassDone(lastTime);
  if (count === 0 || options.mode === 'stop') return;

  if (options.mode === 'loop') {
    const idSpan = lastId - firstId + 1;
    for (let loop = 1; ; loop++) {
      loopStarted(loop, tape.symbol, lastTime + (loop - 1) * options.span);
      const timeShift = loop * options.span;
      const idShift = loop * idSpan;
      for await (const batch of await tape.open()) yield shifted(batch, timeShift, idShift);
    }
  }

  // synthetic: the tape's own pace and typical size (log-normal sizes: median = geometric mean).
  const days = Math.max(options.span / DAY_US, 1);
  const medianQty = Math.max(tape.stepSize, Math.round(Math.exp(logQtySum / count) / tape.stepSize) * tape.stepSize);
  const startPrice = Math.max(tape.tickSize, Math.round(lastPrice / tape.tickSize) * tape.tickSize);
  options.log(`exsim: the ${tape.symbol} tape ended at ${iso(lastTime)}; continuing with synthetic trades (seed ${String(options.seed)}) from price ${formatUnits(lastPrice, tape.scale.quotePrecision)}, trade id ${lastId + 1}`);
  yield* generateTradeBatches(
    {
      symbol: tape.symbol,
      seed: options.seed,
      scale: tape.scale,
      tickSize: tape.tickSize,
      stepSize: tape.stepSize,
      startPrice,
      startTime: lastTime + 1,
      endTime: Number.MAX_SAFE_INTEGER,
      tradesPerDay: Math.max(count / days, 1),
      dailyVolatility: SYNTHETIC_DAILY_VOLATILITY,
      medianQty,
      firstTradeId: lastId + 1,
      timeUnit: 'us',
    },
    // Small batches: the generator runs on the live server's thread between requests.
    4096,
  );
}

function shifted(batch: TradeBatch, timeShift: number, idShift: number): TradeBatch {
  const id = new Float64Array(batch.length);
  const time = new Float64Array(batch.length);
  for (let i = 0; i < batch.length; i++) {
    id[i] = batch.id[i]! + idShift;
    time[i] = batch.time[i]! + timeShift;
  }
  return { ...batch, id, time };
}
