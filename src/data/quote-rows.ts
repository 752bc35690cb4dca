/**
 * Best bid and ask quotes (an L1 book) as depth messages: each quote is one CLEAR message of its
 * bid row and its ask row, so the book is exactly the quote until the next one. A side with no
 * price (an empty cell, or a zero size) has no row; a quote with neither side empties the book.
 * Two formats: Tardis's book_ticker and Binance's futures bookTicker dumps.
 */
import { decimalText } from './decimal-text.ts';
import { DEPTH_ASK, DEPTH_CLEAR, DEPTH_MESSAGE_START } from './depth-tape.ts';
import { DepthRowSink, type DepthBatchBuilder } from './depth-batch-builder.ts';
import { RowProblem } from './data-format-error.ts';
import { ABSENT } from './field-scanner.ts';
import type { UnitScale } from './tape.ts';
import { TARDIS_TIMESTAMP } from './tardis-schema.ts';

/** Where one side of a quote is in a row: the columns of its price and size. */
interface QuoteSide {
  readonly price: number;
  readonly qty: number;
}

/** Pushes the quote in `values` as one CLEAR message; throws a RowProblem for a side with a price but no size (or the reverse). */
function pushQuote(out: DepthBatchBuilder, time: number, values: Float64Array, bid: QuoteSide, ask: QuoteSide, scale: UnitScale): void {
  const pushed = pushSide(out, time, values, bid, 0, DEPTH_MESSAGE_START | DEPTH_CLEAR, scale);
  const pushedAsk = pushSide(out, time, values, ask, DEPTH_ASK, pushed ? 0 : DEPTH_MESSAGE_START | DEPTH_CLEAR, scale);
  if (!pushed && !pushedAsk) out.pushEmptyBook(time);
}

function pushSide(out: DepthBatchBuilder, time: number, values: Float64Array, side: QuoteSide, sideFlag: number, flags: number, scale: UnitScale): boolean {
  const price = values[side.price]!;
  const qty = values[side.qty]!;
  if ((price === ABSENT) !== (qty === ABSENT)) {
    const name = sideFlag === DEPTH_ASK ? 'ask' : 'bid';
    const other = price === ABSENT ? `size ${decimalText(qty, scale.basePrecision)}` : `price ${decimalText(price, scale.quotePrecision)}`;
    throw new RowProblem(price === ABSENT ? side.price : side.qty, `empty, but the ${name} has a ${other}`);
  }
  if (price === ABSENT || qty === 0) return false;
  out.push(time, price, qty, flags | sideFlag);
  return true;
}

/** Tardis book_ticker: `...,ask_amount,ask_price,bid_price,bid_amount`. */
export class TardisQuoteRows extends DepthRowSink {
  private static readonly BID: QuoteSide = { price: 6, qty: 7 };
  private static readonly ASK: QuoteSide = { price: 5, qty: 4 };

  constructor(
    size: number,
    private readonly scale: UnitScale,
  ) {
    super(size);
  }

  row(values: Float64Array): void {
    pushQuote(this.out, values[TARDIS_TIMESTAMP]!, values, TardisQuoteRows.BID, TardisQuoteRows.ASK, this.scale);
  }
}

/** Binance futures bookTicker: `update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,transaction_time,event_time`. */
export class BinanceQuoteRows extends DepthRowSink {
  private static readonly BID: QuoteSide = { price: 1, qty: 2 };
  private static readonly ASK: QuoteSide = { price: 3, qty: 4 };

  constructor(
    size: number,
    private readonly scale: UnitScale,
  ) {
    super(size);
  }

  row(values: Float64Array): void {
    pushQuote(this.out, values[5]!, values, BinanceQuoteRows.BID, BinanceQuoteRows.ASK, this.scale);
  }
}
