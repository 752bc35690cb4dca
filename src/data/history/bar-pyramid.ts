/**
 * Bars of one symbol at five UTC resolutions (1s, 1m, 15m, 1h, 1d) over the retained tape, and
 * the one range query everything else is built on: `aggregate(from, to)` folds every trade with
 * time in [from, to) into one bar, exactly, from the coarsest pieces that fit.
 *
 * Ingest (the hot path) touches only the open 1s bar. When a trade opens a new second the old
 * second is stored and merged into the open 1m bar; a closing minute flows into 15m, and so on.
 * So a level holds every trade before its *frontier*, the open time of the level below's open
 * bar; the 1s level holds every trade recorded.
 *
 * A range [from, to) is cut, per level from the coarsest, into whole bars of that level that
 * lie inside the range and before the frontier, plus a left and a right remainder handed one
 * level down; below 1s the trades themselves are read. Only bars wholly inside [from, to) are
 * used, so with to <= asOf + 1 no query can see a trade stamped after asOf, whatever has been
 * recorded since. Cost: at most ~2 x (23 + 3 + 14 + 59) bars plus one second of trades at each
 * end, plus the whole days in between.
 *
 * Why 15m: every real time-zone offset is a multiple of 15 minutes, so klines in any zone tile
 * from bars kept for ever (15m, 1h, 1d); only the finer 1s and 1m levels have a retention.
 */
import {
  addTrade as importedAddTrade,
  CLOSE,
  COUNT,
  LAST_ID,
  LAST_QTY,
  LAST_TIME,
  mergeBar,
  newBar,
  OPEN_TIME,
} from './bar-row.ts';
import { BarStore } from './bar-store.ts';
import { DAY, HOUR, MINUTE, SECOND } from './kline-calendar.ts';
import type { TradeStore } from './trade-store.ts';

// Bound locally for the per-trade path: module runners (vitest, CJS loaders) turn an imported
// binding into a getter call on every use.
const addTrade = importedAddTrade;

/** Bar widths by level; level 0 is the trade tape itself. */
export const LEVEL_WIDTHS: readonly number[] = [0, SECOND, MINUTE, 15 * MINUTE, HOUR, DAY];
const TOP = LEVEL_WIDTHS.length - 1;

class BarLevel {
  store: BarStore;
  live = newBar();
  hasLive = false;
  liveOpen = -Infinity;

  constructor(
    readonly width: number,
    retention: number,
  ) {
    this.store = new BarStore(width, retention);
  }

  /** Folds the bars of this level opening in [from, to) into acc (the caller ensures they fit). */
  mergeRows(from: number, to: number, acc: Float64Array): void {
    const store = this.store;
    const n = store.length;
    for (let i = store.lowerBound(from); i < n; i++) {
      const chunk = store.chunkOf(i);
      const o = store.offsetOf(i);
      if (chunk[o + OPEN_TIME]! >= to) break;
      mergeBar(acc, 0, chunk, o);
    }
    if (this.hasLive && this.liveOpen >= from && this.liveOpen < to) mergeBar(acc, 0, this.live, 0);
  }

  /** Copies the last trade of the bars opening in [from, to) into out; false if none. */
  lastIn(from: number, to: number, out: Float64Array): boolean {
    if (this.hasLive && this.liveOpen >= from && this.liveOpen < to) {
      copyLast(out, this.live, 0);
      return true;
    }
    const i = this.store.lowerBound(to) - 1;
    if (i < 0 || this.store.openTime(i) < from) return false;
    copyLast(out, this.store.chunkOf(i), this.store.offsetOf(i));
    return true;
  }
}

function copyLast(out: Float64Array, src: Float64Array, s: number): void {
  out[CLOSE] = src[s + CLOSE]!;
  out[LAST_QTY] = src[s + LAST_QTY]!;
  out[LAST_TIME] = src[s + LAST_TIME]!;
  out[LAST_ID] = src[s + LAST_ID]!;
  out[COUNT] = 1;
}

export interface PyramidRetention {
  /** µs of 1s bars kept. */
  seconds: number;
  /** µs of 1m bars kept. */
  minutes: number;
}

export class BarPyramid {
  #trades: TradeStore;
  /** Index = level; index 0 unused (the tape). */
  #levels: BarLevel[];
  #second: BarLevel;
  /** The open 1s bar (the same array for ever: opening a second clears it in place). */
  #live: Float64Array;
  #secondEnd = -Infinity;

  constructor(trades: TradeStore, retention: PyramidRetention) {
    this.#trades = trades;
    const keep = [0, retention.seconds, retention.minutes, Infinity, Infinity, Infinity];
    this.#levels = LEVEL_WIDTHS.map((w, i) => new BarLevel(w, keep[i]!));
    this.#second = this.#levels[1]!;
    this.#live = this.#second.live;
  }

  /** Snapshot support (MarketHistory.exportFields): plain data and typed arrays only. */
  exportFields(): unknown[] {
    return [this.#levels.map((l) => [l.width, l.store.exportFields(), l.live, l.hasLive, l.liveOpen]), this.#secondEnd];
  }

  /** Reads exportFields back over `trades` (the history's own trade store). */
  static importFields(fields: unknown[], trades: TradeStore): BarPyramid {
    const pyramid = new BarPyramid(trades, { seconds: 0, minutes: 0 });
    const levels = fields[0] as [number, unknown[], Float64Array, boolean, number][];
    pyramid.#levels = levels.map(([width, store, live, hasLive, liveOpen]) => {
      const level = new BarLevel(width, 0);
      level.store = BarStore.importFields(store);
      level.live = live;
      level.hasLive = hasLive;
      level.liveOpen = liveOpen;
      return level;
    });
    pyramid.#second = pyramid.#levels[1]!;
    pyramid.#live = pyramid.#second.live;
    pyramid.#secondEnd = fields[1] as number;
    return pyramid;
  }

  /** Folds one trade in (time never decreases; the caller checks). */
  record(price: number, qty: number, quote: number, time: number, id: number, takerBuy: boolean): void {
    if (time >= this.#secondEnd) this.#openSecond(time);
    addTrade(this.#live, 0, price, qty, quote, time, id, takerBuy);
  }

  #openSecond(time: number): void {
    const level = this.#second;
    if (level.hasLive) {
      level.store.push(level.live, 0);
      this.#promote(2, level.live);
    }
    const open = time - (time % SECOND);
    level.live.fill(0);
    level.live[OPEN_TIME] = open;
    level.hasLive = true;
    level.liveOpen = open;
    this.#secondEnd = open + SECOND;
  }

  /** Merges a just-closed bar of level li-1 into level li, closing li's open bar if it ended. */
  #promote(li: number, closed: Float64Array): void {
    const level = this.#levels[li]!;
    const open = Math.floor(closed[OPEN_TIME]! / level.width) * level.width;
    if (level.hasLive && level.liveOpen !== open) {
      level.store.push(level.live, 0);
      if (li < TOP) this.#promote(li + 1, level.live);
      level.hasLive = false;
    }
    if (!level.hasLive) {
      level.live.fill(0);
      level.live[OPEN_TIME] = open;
      level.hasLive = true;
      level.liveOpen = open;
    }
    mergeBar(level.live, 0, closed, 0);
  }

  /** Level li holds every trade before this time. */
  #frontier(li: number): number {
    if (li === 1) return Infinity;
    const below = this.#levels[li - 1]!;
    return below.hasLive ? below.liveOpen : -Infinity;
  }

  /**
   * Earliest time from which level li (0 = trades) is complete; -Infinity if it dropped nothing.
   * Rounded up to the next level's boundary so that a range starting there leaves the dropped
   * part of level li out entirely: the last trade before it is found in the coarser bars.
   */
  horizon(li: number): number {
    const dropped = li === 0 ? this.#trades.horizon : this.#levels[li]!.store.horizon;
    const coarser = LEVEL_WIDTHS[Math.min(li + 1, TOP)]!;
    return Math.ceil(dropped / coarser) * coarser;
  }

  /** A fresh accumulator holding every trade with time in [from, to). */
  aggregate(from: number, to: number): Float64Array {
    const acc = newBar();
    this.#aggregate(TOP, from, to, acc);
    return acc;
  }

  #aggregate(li: number, from: number, to: number, acc: Float64Array): void {
    if (from >= to) return;
    if (li === 0) {
      this.#trades.mergeRange(from, to, acc);
      return;
    }
    const w = LEVEL_WIDTHS[li]!;
    const start = Math.ceil(from / w) * w;
    const end = Math.min(Math.floor(to / w) * w, Math.floor(this.#frontier(li) / w) * w);
    if (start >= end) {
      this.#aggregate(li - 1, from, to, acc);
      return;
    }
    this.#aggregate(li - 1, from, start, acc);
    this.#levels[li]!.mergeRows(start, end, acc);
    this.#aggregate(li - 1, end, to, acc);
  }

  /**
   * The last trade with time before `to` (price in CLOSE, then LAST_QTY, LAST_TIME, LAST_ID),
   * or null: the same cut as aggregate, searched from the right, one binary search per level.
   */
  lastBefore(to: number): Float64Array | null {
    const out = newBar();
    return this.#lastIn(TOP, -Infinity, to, out) ? out : null;
  }

  #lastIn(li: number, from: number, to: number, out: Float64Array): boolean {
    if (from >= to) return false;
    if (li === 0) return this.#trades.lastIn(from, to, out);
    const w = LEVEL_WIDTHS[li]!;
    const start = Math.ceil(from / w) * w;
    const end = Math.min(Math.floor(to / w) * w, Math.floor(this.#frontier(li) / w) * w);
    if (start >= end) return this.#lastIn(li - 1, from, to, out);
    return (
      this.#lastIn(li - 1, end, to, out) ||
      this.#levels[li]!.lastIn(start, end, out) ||
      this.#lastIn(li - 1, from, start, out)
    );
  }
}
