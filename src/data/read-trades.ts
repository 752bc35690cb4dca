/**
 * Streams trades as columnar TradeBatch objects in engine units: Binance spot trades dumps, or
 * Tardis.dev trades files (told apart by their names; one format per read).
 *
 *   for await (const batch of readTrades('data/BTCUSDT', { scale })) { ... }
 *
 * Each batch is freshly allocated (a consumer may keep it); the last one's columns are trimmed
 * to its length.
 */
import { BEST_MATCH, BUYER_MAKER, type TradeBatch, type UnitScale } from './tape.ts';
import { dumpSchema } from './dump-schema.ts';
import type { DataMarket } from './data-file-name.ts';
import { checkBatchSize, DEFAULT_BATCH_ROWS, readDump, type BatchBuilder } from './read-dump.ts';
import { resolveDumpFiles, type DumpSource } from './dump-sources.ts';
import { TARDIS_TRADES_SCHEMA } from './tardis-schema.ts';
import { TardisTradeRows } from './tardis-trade-rows.ts';
import type { ReadNotes } from './read-notes.ts';

export interface ReadTradesOptions {
  readonly scale: UnitScale;
  /** Which symbol, when a folder holds several. */
  readonly symbol?: string;
  readonly batchSize?: number;
  /** Where the read counts what it corrected (Tardis rows restamped); filled as it goes. */
  readonly notes?: ReadNotes;
  /** Spot or USDⓈ-M futures files, when a folder holds both (each file's path says its own). */
  readonly market?: DataMarket;
}

export async function* readTrades(source: DumpSource, options: ReadTradesOptions): AsyncGenerator<TradeBatch> {
  const size = checkBatchSize(options.batchSize ?? DEFAULT_BATCH_ROWS);
  const files = await resolveDumpFiles(source, { kind: ['trades', 'tardis:trades'], what: 'trades', symbol: options.symbol, market: options.market });
  if (files[0]!.parsed?.kind === 'tardis:trades') yield* readDump(files, TARDIS_TRADES_SCHEMA, options.scale, new TardisTradeRows(size, options.scale), options.notes);
  // A USDⓈ-M dump's six columns (no best-match flag) fill the same batches, the flag left clear.
  else yield* readDump(files, dumpSchema('trades', files[0]!.market), options.scale, new TradeBatchBuilder(size), options.notes);
}

/** Fills fixed-size column arrays row by row. */
export class TradeBatchBuilder implements BatchBuilder<TradeBatch> {
  private ready: TradeBatch[] = [];
  private id!: Float64Array;
  private price!: Float64Array;
  private qty!: Float64Array;
  private quoteQty!: Float64Array;
  private time!: Float64Array;
  private flags!: Uint8Array;
  private n = 0;

  constructor(private readonly size: number) {
    this.allocate();
  }

  row(values: Float64Array): void {
    const i = this.n;
    this.id[i] = values[0]!;
    this.price[i] = values[1]!;
    this.qty[i] = values[2]!;
    this.quoteQty[i] = values[3]!;
    this.time[i] = values[4]!;
    this.flags[i] = (values[5]! === 1 ? BUYER_MAKER : 0) | (values[6]! === 1 ? BEST_MATCH : 0);
    this.n = i + 1;
    if (this.n === this.size) {
      this.ready.push(this.batch(this.size));
      this.allocate();
    }
  }

  /** Rows of the trades schema's columns at once (a cache entry's replay): copied column by column, batches cut where `row` would cut them. */
  rows(columns: readonly (Float64Array | Uint8Array | undefined)[], from: number, to: number): void {
    const [id, price, qty, quoteQty, time, maker, best] = columns as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Uint8Array, Uint8Array | undefined];
    while (from < to) {
      const n = this.n;
      const take = Math.min(this.size - n, to - from);
      const end = from + take;
      this.id.set(id.subarray(from, end), n);
      this.price.set(price.subarray(from, end), n);
      this.qty.set(qty.subarray(from, end), n);
      this.quoteQty.set(quoteQty.subarray(from, end), n);
      this.time.set(time.subarray(from, end), n);
      const flags = this.flags;
      // A USDⓈ-M futures entry has no best-match column.
      if (best === undefined) for (let i = 0; i < take; i++) flags[n + i] = maker[from + i] === 1 ? BUYER_MAKER : 0;
      else for (let i = 0; i < take; i++) flags[n + i] = (maker[from + i] === 1 ? BUYER_MAKER : 0) | (best[from + i] === 1 ? BEST_MATCH : 0);
      this.n = n + take;
      from = end;
      if (this.n === this.size) {
        this.ready.push(this.batch(this.size));
        this.allocate();
      }
    }
  }

  takeReady(): TradeBatch[] {
    const out = this.ready;
    if (out.length > 0) this.ready = [];
    return out;
  }

  flush(): TradeBatch | undefined {
    if (this.n === 0) return undefined;
    const batch = this.batch(this.n);
    this.allocate();
    return batch;
  }

  private batch(length: number): TradeBatch {
    const cut = <T extends Float64Array | Uint8Array>(a: T): T => (length === a.length ? a : (a.subarray(0, length) as T));
    return {
      length,
      id: cut(this.id),
      price: cut(this.price),
      qty: cut(this.qty),
      quoteQty: cut(this.quoteQty),
      time: cut(this.time),
      flags: cut(this.flags),
    };
  }

  private allocate(): void {
    this.id = new Float64Array(this.size);
    this.price = new Float64Array(this.size);
    this.qty = new Float64Array(this.size);
    this.quoteQty = new Float64Array(this.size);
    this.time = new Float64Array(this.size);
    this.flags = new Uint8Array(this.size);
    this.n = 0;
  }
}
