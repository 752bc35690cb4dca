/**
 * One symbol's windowed tape held in memory that worker threads share: its columns live in
 * SharedArrayBuffers, so posting it to a worker hands over a view, not a copy. A sweep loads
 * the data once in the main thread and every backtest replays the same bytes.
 */
import type { MarketData } from './market-folder.ts';
import type { ReadNotes } from './read-notes.ts';
import { sliceTrades, type TradeBatch } from './tape.ts';
import { windowedTape, type KlinePrints, type MarketSource, type SymbolTape } from './tape-sources.ts';

export interface SharedTape {
  readonly symbol: string;
  readonly source: MarketSource;
  /** SymbolTape.venueIds. */
  readonly venueIds: boolean;
  /** What loading the tape noticed (SymbolTape.notes), complete. */
  readonly notes: ReadNotes;
  readonly batch: TradeBatch;
}

/** Rows above which a sweep does not hold the tapes in memory (about 41 bytes a row) and lets each worker stream its own. */
export const SHARED_TAPE_MAX_ROWS = 20_000_000;

/** The windowed tapes of `symbols` in shared memory, or null when they hold more than `maxRows` rows. */
export async function loadSharedTapes(data: MarketData, symbols: readonly string[], from: number, to: number, maxRows = SHARED_TAPE_MAX_ROWS, klinePrints?: KlinePrints): Promise<SharedTape[] | null> {
  const tapes: SharedTape[] = [];
  let total = 0;
  for (const symbol of symbols) {
    const batches: TradeBatch[] = [];
    let rows = 0;
    const tape = await windowedTape(data, symbol, from, to, klinePrints);
    for await (const batch of tape.trades as AsyncIterable<TradeBatch>) {
      batches.push(batch);
      rows += batch.length;
      total += batch.length;
      if (total > maxRows) return null;
    }
    const column = (pick: (b: TradeBatch) => Float64Array) => {
      const out = new Float64Array(new SharedArrayBuffer(rows * 8));
      let at = 0;
      for (const b of batches) {
        out.set(pick(b).subarray(0, b.length), at);
        at += b.length;
      }
      return out;
    };
    const flags = new Uint8Array(new SharedArrayBuffer(rows));
    let at = 0;
    for (const b of batches) {
      flags.set(b.flags.subarray(0, b.length), at);
      at += b.length;
    }
    tapes.push({ symbol, source: tape.source, venueIds: tape.venueIds, notes: tape.notes, batch: { length: rows, id: column((b) => b.id), price: column((b) => b.price), qty: column((b) => b.qty), quoteQty: column((b) => b.quoteQty), time: column((b) => b.time), flags } });
  }
  return tapes;
}

/** A shared tape as the replay reads it: batches of the usual size, views over the shared columns. */
export function tapeFromShared(shared: SharedTape): SymbolTape {
  const { batch } = shared;
  const size = 65_536;
  const batches: TradeBatch[] = [];
  for (let lo = 0; lo < batch.length; lo += size) {
    batches.push(sliceTrades(batch, lo, Math.min(batch.length, lo + size)));
  }
  return { symbol: shared.symbol, trades: batches, source: shared.source, venueIds: shared.venueIds, notes: shared.notes };
}
