/**
 * A USDⓈ-M perpetual's prints derived from its spot tape, for a replay that trades the contract
 * (`um:<symbol>`) where the data folder holds no futures dumps: each spot print is a contract
 * print with the same id, time and side, at the contract's price (spot price × (1 + the futures
 * model's premium at that µs), futures-prints.ts `contractPrice`) on the contract's tick (half up),
 * and the spot quantity on the contract's step (half up, at least one step: a futures print is
 * never smaller than the contract's minimum, and futures volume is a multiple of spot's anyway).
 * summary.json states the derivation. The same spot tape and seed give the same prints.
 *
 * Units: spot prices and quantities are in the spot symbol's units, the contract's in the margin
 * symbol's (quote = margin asset); both scales are powers of ten, the contract's the finer.
 */
import type { SymbolSpec } from '../../engine/index.ts';
import type { SymbolTape, TradeBatch, TradeSource } from '../../data/index.ts';
import { contractPrice } from '../futures-prints.ts';
import type { FuturesContract } from '../contracts.ts';
import type { FuturesMarket } from '../futures-market.ts';
import { roundToTick } from '../price-math.ts';

export const DERIVED_FUTURES_SOURCE = 'derived from the spot tape: each spot print at spot price × (1 + premium) on the contract tick, its quantity on the contract step (at least one step)';

function scaleOf(to: number, from: number, what: string): number {
  if (to < from) throw new Error(`derived futures tape: the contract's ${what} precision (${to}) is coarser than spot's (${from})`);
  return 10 ** (to - from);
}

/**
 * `spot`'s prints as prints of the margin symbol `futuresSpec` (engine name `um:<symbol>`).
 * `market` is read when the first batch is (the futures model may be built after the replay).
 */
export function derivedFuturesTape(spot: SymbolTape, spotSpec: SymbolSpec, futuresSpec: SymbolSpec, fapiSymbol: string, market: () => FuturesMarket): SymbolTape {
  const priceScale = scaleOf(futuresSpec.quotePrecision, spotSpec.quotePrecision, 'price');
  const qtyScale = scaleOf(futuresSpec.basePrecision, spotSpec.basePrecision, 'quantity');
  const tick = futuresSpec.tickUnits;
  const step = futuresSpec.stepUnits;
  const baseUnit = 10n ** BigInt(futuresSpec.basePrecision);
  async function* prints(source: TradeSource): AsyncGenerator<TradeBatch> {
    let contract: FuturesContract | undefined;
    for await (const batch of source) {
      const n = batch.length;
      if (n === 0) continue;
      const futures = market();
      contract ??= futures.findContract('USD_M', fapiSymbol, batch.time[0]!);
      if (contract === undefined) throw new Error(`derived futures tape: the futures model has no USDⓈ-M perpetual ${fapiSymbol}`);
      const price = new Float64Array(n);
      const qty = new Float64Array(n);
      const quoteQty = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const p = roundToTick(contractPrice(futures, contract, batch.price[i]!, batch.time[i]!) * priceScale, tick);
        const q = Math.max(step, roundToTick(batch.qty[i]! * qtyScale, step));
        price[i] = p;
        qty[i] = q;
        // Exact: the product passes 2^53 (a 50 000 price at 8 decimals times 0.001 at 8 decimals).
        quoteQty[i] = Number((BigInt(p) * BigInt(q)) / baseUnit);
      }
      yield { length: n, id: batch.id, price, qty, quoteQty, time: batch.time, flags: batch.flags };
    }
  }
  return { symbol: futuresSpec.symbol, trades: prints(spot.trades), source: spot.source, venueIds: false, notes: spot.notes };
}
