/**
 * A symbol's order book: bids and asks. Matching never reads balances; it asks the book for the
 * best opposite level and walks its FIFO.
 */
import { BookSide } from './book-side.ts';

export class OrderBook {
  readonly bids = new BookSide(true);
  readonly asks = new BookSide(false);

  side(isBuy: boolean): BookSide {
    return isBuy ? this.bids : this.asks;
  }

  opposite(isBuy: boolean): BookSide {
    return isBuy ? this.asks : this.bids;
  }
}
