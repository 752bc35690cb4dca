/**
 * Tardis book_snapshot_25 / book_snapshot_5 rows as depth messages: each row is the top of the
 * book at that moment, so it is one CLEAR message of its levels (asks best first, then bids best
 * first). A level the book did not have is empty in both its cells and is skipped; a level with
 * one cell empty, or levels out of order (a column mix-up), is an error of that row.
 */
import { decimalText } from './decimal-text.ts';
import { DEPTH_ASK, DEPTH_CLEAR, DEPTH_MESSAGE_START } from './depth-tape.ts';
import { DepthRowSink } from './depth-batch-builder.ts';
import { RowProblem } from './data-format-error.ts';
import { ABSENT } from './field-scanner.ts';
import type { UnitScale } from './tape.ts';
import { TARDIS_TIMESTAMP } from './tardis-schema.ts';

/** Level i's ask price column; its ask amount, bid price and bid amount follow. */
const levelColumn = (i: number): number => 4 + 4 * i;

export class SnapshotRows extends DepthRowSink {
  constructor(
    size: number,
    private readonly levels: number,
    private readonly scale: UnitScale,
  ) {
    super(size);
  }

  row(values: Float64Array): void {
    const time = values[TARDIS_TIMESTAMP]!;
    const before = this.out.pending;
    this.pushSide(values, time, 0, DEPTH_ASK, this.out.pending === before);
    this.pushSide(values, time, 2, 0, this.out.pending === before);
    if (this.out.pending === before) this.out.pushEmptyBook(time);
  }

  /** Pushes one side's levels (offset 0: asks, 2: bids), best first; the first row pushed starts the message when `first`. */
  private pushSide(values: Float64Array, time: number, offset: number, sideFlag: number, first: boolean): void {
    const isAsk = sideFlag === DEPTH_ASK;
    let previous = -1;
    let previousColumn = -1;
    let flags = first ? DEPTH_MESSAGE_START | DEPTH_CLEAR : 0;
    for (let i = 0; i < this.levels; i++) {
      const priceColumn = levelColumn(i) + offset;
      const price = values[priceColumn]!;
      const qty = values[priceColumn + 1]!;
      if ((price === ABSENT) !== (qty === ABSENT)) {
        const other = price === ABSENT ? `amount ${decimalText(qty, this.scale.basePrecision)}` : `price ${decimalText(price, this.scale.quotePrecision)}`;
        throw new RowProblem(price === ABSENT ? priceColumn : priceColumn + 1, `empty, but the level has a ${other}`);
      }
      if (price === ABSENT) continue;
      if (previous >= 0 && (isAsk ? price <= previous : price >= previous)) {
        const at = decimalText(previous, this.scale.quotePrecision);
        throw new RowProblem(priceColumn, `${decimalText(price, this.scale.quotePrecision)} is not ${isAsk ? 'above' : 'below'} ${at} in column ${previousColumn + 1}: levels must go away from the best`);
      }
      previous = price;
      previousColumn = priceColumn;
      // A zero size is no level: a CLEAR message needs no row to leave it out.
      if (qty === 0) continue;
      this.out.push(time, price, qty, flags | sideFlag);
      flags = 0;
    }
  }
}
