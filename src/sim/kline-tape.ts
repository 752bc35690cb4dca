/**
 * A tape made from klines: each bar becomes synthetic prints along an explicit intra-bar path
 * (kline-path.ts, kline-path-prints.ts), streamed as `TradeBatch`es that `Replay` consumes like
 * a dump's trades, so resting orders fill by the same fill models in a kline-only backtest.
 *
 *   const tape = new KlineTape({ klines: readKlines(dir, { scale, interval: '1h' }), path: 'adaptive', grid });
 *   const replay = new Replay({ ..., tapes: [{ symbol: 'BTCUSDT', trades: tape }] });
 *
 * Paths: `OHLC`, `OLHC`, `adaptive` (nearer extreme first), or `finer`: the bars of `finer`
 * (e.g. 1m klines) that lie inside a coarse bar (e.g. 1h) are walked instead of it, each by
 * `finerPath`; a coarse bar with no finer kline inside is walked by `fallback`. The finer
 * klines are the better evidence: their prints (and volumes) replace the coarse bar's.
 *
 * Which assumption made a fill: every print's trade id encodes it (kline-path-id.ts). An engine
 * fill's `reason` contains `tapeTrade=<id>`; `tape.pathOfReason(fill.reason)` (or the free
 * `klineOriginOfReason`) returns { klineOpenTime, policy, path, leg, legName, finer, tag }.
 *
 * Klines must be in time order, open on whole seconds, and not overlap (each walked kline opens
 * after the previous one closed), so time never runs backwards along the tape. Sources are read
 * lazily: one batch of prints and the klines of one coarse bar are alive at a time.
 */
import { BEST_MATCH, BUYER_MAKER, type Kline, type TradeBatch } from '../data/tape.ts';
import { decodeKlineTradeId, klineOriginOfReason, type KlinePrintOrigin } from './kline-path-id.ts';
import { checkBar, checkLegSteps, chooseVertexOrder, DEFAULT_LEG_STEPS, type BarPath, type LegSteps } from './kline-path.ts';
import { walkKline, type KlineGrid } from './kline-path-prints.ts';

/** Klines one at a time or in arrays (as `readKlines` yields them), sync or async. */
export type KlineSource = AsyncIterable<Kline | readonly Kline[]> | Iterable<Kline | readonly Kline[]>;

export type KlineTapePath = BarPath | 'finer';

export interface KlineTapeOptions {
  readonly klines: KlineSource;
  readonly path: KlineTapePath;
  /** Finer klines (any finer interval, e.g. 1s or 1m), required by path `finer`. */
  readonly finer?: KlineSource;
  /** Path `finer`: how a coarse bar without finer klines is walked. Default `adaptive`. */
  readonly fallback?: BarPath;
  /** Path `finer`: how each finer kline is walked. Default `adaptive`. */
  readonly finerPath?: BarPath;
  /** The symbol's tick and step grid. Default: 1 unit each, basePrecision 8. */
  readonly grid?: KlineGrid;
  /** Intermediate prints along each leg. Default `{ perLeg: 2 }`. */
  readonly steps?: LegSteps;
  /** Prints per TradeBatch. Default 4096. */
  readonly batchSize?: number;
}

export interface KlineTapeStats {
  /** Bars of `klines` read. */
  bars: number;
  /** Bars walked by their own path (all of them unless path `finer`). */
  barsWalked: number;
  /** Finer klines walked inside coarse bars. */
  finerWalked: number;
  /** Finer klines outside every coarse bar (before the first, or in a gap), skipped. */
  finerSkipped: number;
  /** Coarse bars whose finer klines' volumes do not add up to the bar's volume. */
  finerVolumeMismatches: number;
  prints: number;
}

const DEFAULT_GRID: KlineGrid = { tickUnits: 1, stepUnits: 1, basePrecision: 8 };

export class KlineTape implements AsyncIterable<TradeBatch> {
  readonly stats: KlineTapeStats = { bars: 0, barsWalked: 0, finerWalked: 0, finerSkipped: 0, finerVolumeMismatches: 0, prints: 0 };
  readonly #options: KlineTapeOptions;
  readonly #grid: KlineGrid;
  readonly #steps: LegSteps;
  readonly #batchSize: number;

  constructor(options: KlineTapeOptions) {
    if (options.path === 'finer' && options.finer === undefined) throw new RangeError('kline tape: path "finer" needs `finer` klines');
    if (options.path !== 'finer' && options.finer !== undefined) throw new RangeError(`kline tape: finer klines given but path is "${options.path}" (use path "finer")`);
    this.#grid = options.grid ?? DEFAULT_GRID;
    for (const key of ['tickUnits', 'stepUnits'] as const) {
      const v = this.#grid[key];
      if (!(Number.isSafeInteger(v) && v >= 1)) throw new RangeError(`kline tape: grid.${key} must be an integer >= 1, got ${v}`);
    }
    this.#steps = options.steps ?? DEFAULT_LEG_STEPS;
    checkLegSteps(this.#steps);
    this.#batchSize = options.batchSize ?? 4096;
    if (!(Number.isSafeInteger(this.#batchSize) && this.#batchSize >= 1)) throw new RangeError(`kline tape: batchSize must be an integer >= 1`);
    this.#options = options;
  }

  /** Where the print with this trade id came from (undefined when no kline tape made it). */
  pathOf(tradeId: number): KlinePrintOrigin | undefined {
    return decodeKlineTradeId(tradeId) ?? undefined;
  }

  /** The path origin of an engine fill, from its `reason` (`... tapeTrade=<id> ...`). */
  pathOfReason(reason: string): KlinePrintOrigin | undefined {
    return klineOriginOfReason(reason) ?? undefined;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<TradeBatch> {
    const options = this.#options;
    const out = new BatchWriter(this.#batchSize);
    const finer = options.finer === undefined ? null : new Lookahead(flatten(options.finer));
    let lastClose = -Infinity;
    for await (const bar of flatten(options.klines)) {
      checkBar(bar);
      if (bar.openTime <= lastClose) throw new RangeError(`kline at ${bar.openTime} µs: opens before the previous kline closed (${lastClose} µs)`);
      lastClose = bar.closeTime;
      this.stats.bars++;
      const inside = finer === null ? [] : await this.#finerInside(bar, finer);
      if (inside.length === 0) {
        this.#walk(bar, options.path === 'finer' ? (options.fallback ?? 'adaptive') : options.path, false, out);
        this.stats.barsWalked++;
      } else {
        let previousClose = -Infinity;
        let volume = 0;
        for (const k of inside) {
          if (k.openTime <= previousClose) throw new RangeError(`finer kline at ${k.openTime} µs: opens before the previous one closed (${previousClose} µs)`);
          previousClose = k.closeTime;
          volume += k.volume;
          this.#walk(k, options.finerPath ?? 'adaptive', true, out);
          this.stats.finerWalked++;
        }
        if (volume !== bar.volume) this.stats.finerVolumeMismatches++;
      }
      yield* out.full();
    }
    const last = out.flush();
    if (last !== null) yield last;
  }

  /** Consumes the finer klines opening inside `bar`; skips those before it. */
  async #finerInside(bar: Kline, finer: Lookahead): Promise<Kline[]> {
    const inside: Kline[] = [];
    for (;;) {
      const k = await finer.peek();
      if (k === null || k.openTime > bar.closeTime) return inside;
      finer.take();
      if (k.openTime < bar.openTime) {
        this.stats.finerSkipped++;
        continue;
      }
      checkBar(k);
      if (k.closeTime > bar.closeTime) throw new RangeError(`finer kline at ${k.openTime} µs closes after its bar (${bar.openTime} µs) closes: not finer`);
      inside.push(k);
    }
  }

  #walk(k: Kline, policy: BarPath, finer: boolean, out: BatchWriter): void {
    const prints = walkKline(k, { order: chooseVertexOrder(k, policy), policy, finer, steps: this.#steps, grid: this.#grid });
    for (const p of prints) out.push(p.id, p.time, p.price, p.qty, p.quoteQty, p.isBuyerMaker);
    this.stats.prints += prints.length;
  }
}

/** Every kline of the tape in one array of prints' batches (tests, small inputs). */
export async function collectKlineTape(tape: AsyncIterable<TradeBatch>): Promise<TradeBatch[]> {
  const batches: TradeBatch[] = [];
  for await (const batch of tape) batches.push(batch);
  return batches;
}

async function* flatten(source: KlineSource): AsyncGenerator<Kline> {
  for await (const item of source) {
    if (Array.isArray(item)) yield* item as readonly Kline[];
    else yield item as Kline;
  }
}

/** One-kline lookahead over an async stream. */
class Lookahead {
  #next: Kline | null = null;
  #done = false;
  constructor(readonly iterator: AsyncIterator<Kline>) {}

  async peek(): Promise<Kline | null> {
    if (this.#next === null && !this.#done) {
      const r = await this.iterator.next();
      if (r.done === true) this.#done = true;
      else this.#next = r.value;
    }
    return this.#next;
  }

  take(): void {
    this.#next = null;
  }
}

/** Fills columnar batches of a fixed size. */
class BatchWriter {
  #batch: MutableBatch;
  #ready: TradeBatch[] = [];

  constructor(readonly size: number) {
    this.#batch = newBatch(size);
  }

  push(id: number, time: number, price: number, qty: number, quoteQty: number, isBuyerMaker: boolean): void {
    const b = this.#batch;
    const i = b.length;
    b.id[i] = id;
    b.time[i] = time;
    b.price[i] = price;
    b.qty[i] = qty;
    b.quoteQty[i] = quoteQty;
    b.flags[i] = (isBuyerMaker ? BUYER_MAKER : 0) | BEST_MATCH;
    b.length = i + 1;
    if (b.length === this.size) {
      this.#ready.push(b);
      this.#batch = newBatch(this.size);
    }
  }

  /** Batches filled since the last call. */
  *full(): Generator<TradeBatch> {
    while (this.#ready.length > 0) yield this.#ready.shift()!;
  }

  /** The partly filled batch (trimmed), or null when empty. */
  flush(): TradeBatch | null {
    const b = this.#batch;
    if (b.length === 0) return null;
    const n = b.length;
    return { length: n, id: b.id.slice(0, n), time: b.time.slice(0, n), price: b.price.slice(0, n), qty: b.qty.slice(0, n), quoteQty: b.quoteQty.slice(0, n), flags: b.flags.slice(0, n) };
  }
}

interface MutableBatch {
  length: number;
  readonly id: Float64Array;
  readonly price: Float64Array;
  readonly qty: Float64Array;
  readonly quoteQty: Float64Array;
  readonly time: Float64Array;
  readonly flags: Uint8Array;
}

function newBatch(size: number): MutableBatch {
  return { length: 0, id: new Float64Array(size), price: new Float64Array(size), qty: new Float64Array(size), quoteQty: new Float64Array(size), time: new Float64Array(size), flags: new Uint8Array(size) };
}
