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

/** Where a format's quote is in its row. */
export interface QuoteLayout {
  readonly time: number;
  readonly bid: QuoteSide;
  readonly ask: QuoteSide;
}

/** Tardis book_ticker: `exchange,symbol,timestamp,local_timestamp,ask_amount,ask_price,bid_price,bid_amount`. */
export const TARDIS_QUOTES: QuoteLayout = { time: TARDIS_TIMESTAMP, bid: { price: 6, qty: 7 }, ask: { price: 5, qty: 4 } };
/** Binance futures bookTicker: `update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,transaction_time,event_time`. */
export const BINANCE_QUOTES: QuoteLayout = { time: 5, bid: { price: 1, qty: 2 }, ask: { price: 3, qty: 4 } };

export class QuoteRows extends DepthRowSink {
  constructor(
    size: number,
    private readonly scale: UnitScale,
    private readonly layout: QuoteLayout,
  ) {
    super(size);
  }

  row(values: Float64Array): void {
    const { time, bid, ask } = this.layout;
    pushQuote(this.out, values[time]!, values, bid, ask, this.scale);
  }
}
