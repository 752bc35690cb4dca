/**
 * A traded perpetual's prints (`um:<symbol>`) from the data folder's own USDⓈ-M futures data when
 * it has any for the window: Binance's dumps under `futures/um/...` (the same file names as
 * spot's, told apart by the folder) or Tardis.dev's `binance-futures` trades files, the finest
 * kind first as for spot (trades, then aggTrades, then klines walked along an intra-bar path).
 * Without them the caller derives the prints from the spot tape (derived-futures-tape.ts).
 * summary.json's `futures.prints` says which (futuresPrintsText).
 *
 * The files are read at the contract's precisions. A print off the contract's grid (old data, from
 * before a tick change, under today's rules) is put on it: its price to the nearest tick (half
 * up), its quantity to the nearest step (at least one step), its quote quantity recomputed; the
 * count is stated in the prints text, so such a run says its prints are not the venue's as printed.
 */
import { Decimal } from 'decimal.js';
import type { SymbolSpec } from '../../engine/index.ts';
import { findSourceFiles, windowedTape, type KlinePrints, type MarketData, type SymbolTape, type TradeBatch, type TradeSource } from '../../data/index.ts';
import { roundToTick } from '../price-math.ts';
import { DERIVED_FUTURES_SOURCE } from './derived-futures-tape.ts';

export interface FuturesDumpTape {
  readonly tape: SymbolTape;
  /** How the prints were made, for summary.json (`futures/um trades dumps: 3 files`), with the prints put on the grid so far. */
  describe(): string;
}

/**
 * The perpetual `fapiSymbol`'s prints over [from, to) µs from the folder's USDⓈ-M futures files,
 * as the margin symbol `futuresSpec` trades them; null when the folder has none overlapping the window.
 */
export async function futuresDumpTape(data: MarketData, fapiSymbol: string, futuresSpec: SymbolSpec, from: number, to: number, klinePrints?: KlinePrints): Promise<FuturesDumpTape | null> {
  const found = await findSourceFiles(data, fapiSymbol, from, to, 'um');
  if (found === null) return null;
  const read = await windowedTape(data, fapiSymbol, from, to, klinePrints, futuresSpec);
  const stats = { rounded: 0 };
  const n = found.files.length;
  const what = found.kind === 'tardis:trades' ? 'Tardis binance-futures trades files' : `futures/um ${found.source.replace(':', ' ')} dumps`;
  const text = `${what}: ${n} file${n === 1 ? '' : 's'}`;
  return {
    tape: { ...read, trades: onContractGrid(read.trades, futuresSpec, stats) },
    describe: () => (stats.rounded === 0 ? text : `${text}; ${stats.rounded} prints put on the contract grid (tick ${unitsText(futuresSpec.tickUnits, futuresSpec.quotePrecision)}, step ${unitsText(futuresSpec.stepUnits, futuresSpec.basePrecision)})`),
  };
}

/** summary.json's `futures.prints`: each perpetual's source (just the text when one perpetual, or when all are derived). */
export function futuresPrintsText(sources: readonly { readonly symbol: string; readonly text: string }[]): string {
  if (sources.every((s) => s.text === DERIVED_FUTURES_SOURCE)) return DERIVED_FUTURES_SOURCE;
  if (sources.length === 1) return sources[0]!.text;
  return sources.map((s) => `${s.symbol}: ${s.text}`).join('; ');
}

async function* onContractGrid(source: TradeSource, spec: SymbolSpec, stats: { rounded: number }): AsyncGenerator<TradeBatch> {
  const tick = spec.tickUnits;
  const step = spec.stepUnits;
  const baseUnit = 10n ** BigInt(spec.basePrecision);
  for await (const batch of source) {
    let copy: TradeBatch | null = null;
    for (let i = 0; i < batch.length; i++) {
      const p = batch.price[i]!;
      const q = batch.qty[i]!;
      if (p % tick === 0 && q % step === 0) continue;
      // The batch may be a cache entry's or shared: change a copy.
      copy ??= { ...batch, price: batch.price.slice(), qty: batch.qty.slice(), quoteQty: batch.quoteQty.slice() };
      const price = roundToTick(p, tick);
      const qty = Math.max(step, roundToTick(q, step));
      copy.price[i] = price;
      copy.qty[i] = qty;
      // Exact: the product passes 2^53.
      copy.quoteQty[i] = Number((BigInt(price) * BigInt(qty)) / baseUnit);
      stats.rounded += 1;
    }
    yield copy ?? batch;
  }
}

/** Units at `precision` decimals as a decimal text ("0.1", "0.001"). */
const unitsText = (units: number, precision: number): string => new Decimal(units).div(new Decimal(10).pow(precision)).toString();
