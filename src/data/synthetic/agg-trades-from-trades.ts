/**
 * aggTrades derived from a trade tape: consecutive trades with the same time, price and taker
 * side form one aggregate, which is what the exchange aggregates (one taker order at one price)
 * as far as a tape without order ids can tell.
 */
import { BEST_MATCH, BUYER_MAKER, type AggTrade, type TradeBatch } from '../tape.ts';

export function* aggTradesFromTrades(batches: Iterable<TradeBatch>, firstAggTradeId: number): Generator<AggTrade> {
  let current: AggTrade | undefined;
  let nextId = firstAggTradeId;
  for (const batch of batches) {
    for (let i = 0; i < batch.length; i++) {
      const time = batch.time[i]!;
      const price = batch.price[i]!;
      const flags = batch.flags[i]!;
      const buyerMaker = (flags & BUYER_MAKER) !== 0;
      if (current !== undefined && current.T === time && current.p === price && current.m === buyerMaker) {
        current.q += batch.qty[i]!;
        current.l = batch.id[i]!;
        continue;
      }
      if (current !== undefined) yield current;
      current = { a: nextId++, p: price, q: batch.qty[i]!, f: batch.id[i]!, l: batch.id[i]!, T: time, m: buyerMaker, M: (flags & BEST_MATCH) !== 0 };
    }
  }
  if (current !== undefined) yield current;
}
