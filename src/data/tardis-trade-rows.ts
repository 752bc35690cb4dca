/**
 * Tardis trades rows (`...,id,side,price,amount`) as TradeBatch rows: `side` is the taker's, so a
 * sell taker means the buyer was the maker; `id` is the venue's trade id and stays the id. The
 * file has no quote quantity: it is price × amount floored to the quote's units, as Binance's
 * dumps print it and as the aggTrades prints compute it. Every trade is a best-price match (all
 * of Binance's are today).
 */
import { mulDivFloor } from '../engine/exact-math.ts';
import type { TradeBatch, UnitScale } from './tape.ts';
import { TradeBatchBuilder } from './read-trades.ts';
import type { BatchBuilder } from './read-dump.ts';
import { TARDIS_TIMESTAMP } from './tardis-schema.ts';

const ID = 4;
const SIDE = 5;
const PRICE = 6;
const AMOUNT = 7;

export class TardisTradeRows implements BatchBuilder<TradeBatch> {
  private readonly trades: TradeBatchBuilder;
  /** The row in the order TradeBatchBuilder reads Binance's columns. */
  private readonly binance = new Float64Array(7);
  private readonly baseUnit: number;

  constructor(size: number, scale: UnitScale) {
    this.trades = new TradeBatchBuilder(size);
    this.baseUnit = 10 ** scale.basePrecision;
  }

  row(values: Float64Array): void {
    const out = this.binance;
    const price = values[PRICE]!;
    const qty = values[AMOUNT]!;
    out[0] = values[ID]!;
    out[1] = price;
    out[2] = qty;
    out[3] = mulDivFloor(price, qty, this.baseUnit);
    out[4] = values[TARDIS_TIMESTAMP]!;
    out[5] = values[SIDE]!; // sell (1): the buyer made the market
    out[6] = 1;
    this.trades.row(out);
  }

  takeReady(): TradeBatch[] {
    return this.trades.takeReady();
  }

  flush(): TradeBatch | undefined {
    return this.trades.flush();
  }
}
