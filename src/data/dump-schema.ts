/**
 * The column layouts of Binance's dumps (binance-facts §10: the spot trades, aggTrades and klines,
 * the futures bookTicker) and how each column becomes a number in engine units. One table drives
 * both the fast byte scanner and the general path, so the two cannot disagree about what a column
 * is. Tardis.dev's layouts use the same table (tardis-schema.ts).
 */

import type { FieldScanner } from './field-scanner.ts';
import type { UnitScale } from './tape.ts';

/** What a Binance dump file holds. */
export type DumpKind = 'trades' | 'aggTrades' | 'klines' | 'bookTicker';

export const ColumnType = {
  /** Non-negative integer: ids, trade counts. */
  Integer: 0,
  /** Epoch time in the file's unit (ms or µs), converted to µs. */
  Time: 1,
  /** A kline close time: the last instant of the bar, so a ms value becomes its last µs. */
  CloseTime: 2,
  /** Decimal at the quote precision (prices, quote quantities), exact. */
  Quote: 3,
  /** Decimal at the base precision (quantities), exact. */
  Base: 4,
  /** A kline's summed quote volume: exact when it fits 2^53, else the nearest double. */
  QuoteTotal: 5,
  /** A kline's summed base volume: exact when it fits 2^53, else the nearest double. */
  BaseTotal: 6,
  /** True/False (also true/false), as 1/0. */
  Boolean: 7,
  /** Read and discarded (the klines' trailing "Ignore"); may be absent. */
  Ignored: 8,
  /**
   * Text that must be what the file's name says (Tardis's exchange and symbol columns), read as
   * 0; any text when the name says nothing (a file named outside the scheme).
   */
  Expected: 9,
  /** One of the column's `choices` (bid/ask, buy/sell, false/true), as its index. */
  Choice: 10,
  /** Quote decimal or an empty field (a level a snapshot does not have): ABSENT. */
  OptionalQuote: 11,
  /** Base decimal or an empty field: ABSENT. */
  OptionalBase: 12,
} as const;
export type ColumnType = (typeof ColumnType)[keyof typeof ColumnType];

export interface DumpColumn {
  /** The name used in error messages (the field name of the matching REST response, or the header's). */
  readonly name: string;
  readonly type: ColumnType;
  /** Choice columns: the words, the first read as 0. */
  readonly choices?: readonly string[];
}

export interface DumpSchema {
  /** What the file is, in messages ("trades", "tardis incremental_book_L2"). */
  readonly kind: string;
  readonly columns: readonly DumpColumn[];
  /** Columns a row must have; the rest (only an Ignored tail) may be missing. */
  readonly required: number;
  /** Column (0-based) whose time must not run backwards. */
  readonly timeColumn: number;
  /** Whether equal consecutive times are an error (klines: each bar opens after the last). */
  readonly strictlyIncreasingTime: boolean;
  /**
   * µs a row's time may fall behind the previous row's: such a row is restamped to the previous
   * time and counted (formats ordered by another clock than the one simulated: Tardis's). Default
   * 0: any step back is an error.
   */
  readonly maxStepBack?: number;
  /** Column (0-based) of an id that must strictly increase, or -1. */
  readonly idColumn: number;
  /** A header row, when present, must list exactly the column names (formats whose header is fixed). */
  readonly exactHeader?: boolean;
  /**
   * A scanner written out for this layout, used instead of the column loop (see tardis-l2-scan.ts):
   * true when the row at `scanner.pos` was canonical and is now in `values` (the scanner past its
   * line end); false sends the row to the general path.
   */
  readonly scan?: RowScanner;
}

/**
 * `expected`: per Expected column, the bytes the file's name says; `prefix`: when the row starts
 * with Expected columns that all have one, their bytes with the commas after them (the text every
 * row of the file starts with), else undefined.
 */
export type RowScanner = (scanner: FieldScanner, values: Float64Array, expected: readonly (Uint8Array | undefined)[], prefix: Uint8Array | undefined, scale: UnitScale) => boolean;

export const col = (name: string, type: ColumnType, choices?: readonly string[]): DumpColumn => (choices === undefined ? { name, type } : { name, type, choices });

export const TRADES_SCHEMA: DumpSchema = {
  kind: 'trades',
  columns: [
    col('id', ColumnType.Integer),
    col('price', ColumnType.Quote),
    col('qty', ColumnType.Base),
    col('quoteQty', ColumnType.Quote),
    col('time', ColumnType.Time),
    col('isBuyerMaker', ColumnType.Boolean),
    col('isBestMatch', ColumnType.Boolean),
  ],
  required: 7,
  timeColumn: 4,
  strictlyIncreasingTime: false,
  idColumn: 0,
};

export const AGG_TRADES_SCHEMA: DumpSchema = {
  kind: 'aggTrades',
  columns: [
    col('a', ColumnType.Integer),
    col('p', ColumnType.Quote),
    col('q', ColumnType.Base),
    col('f', ColumnType.Integer),
    col('l', ColumnType.Integer),
    col('T', ColumnType.Time),
    col('m', ColumnType.Boolean),
    col('M', ColumnType.Boolean),
  ],
  required: 8,
  timeColumn: 5,
  strictlyIncreasingTime: false,
  idColumn: 0,
};

export const KLINES_SCHEMA: DumpSchema = {
  kind: 'klines',
  columns: [
    col('openTime', ColumnType.Time),
    col('open', ColumnType.Quote),
    col('high', ColumnType.Quote),
    col('low', ColumnType.Quote),
    col('close', ColumnType.Quote),
    col('volume', ColumnType.BaseTotal),
    col('closeTime', ColumnType.CloseTime),
    col('quoteVolume', ColumnType.QuoteTotal),
    col('trades', ColumnType.Integer),
    col('takerBuyBaseVolume', ColumnType.BaseTotal),
    col('takerBuyQuoteVolume', ColumnType.QuoteTotal),
    col('ignore', ColumnType.Ignored),
  ],
  required: 11,
  timeColumn: 0,
  strictlyIncreasingTime: true,
  idColumn: -1,
};

/** Binance's USDⓈ-M futures bookTicker dumps: the best bid and ask after each change (an L1 book). */
export const BOOK_TICKER_SCHEMA: DumpSchema = {
  kind: 'bookTicker',
  columns: [
    col('update_id', ColumnType.Integer),
    col('best_bid_price', ColumnType.Quote),
    col('best_bid_qty', ColumnType.Base),
    col('best_ask_price', ColumnType.Quote),
    col('best_ask_qty', ColumnType.Base),
    col('transaction_time', ColumnType.Time),
    col('event_time', ColumnType.Time),
  ],
  required: 7,
  // The matching engine's time (the book's), not when the event was sent.
  timeColumn: 5,
  strictlyIncreasingTime: false,
  // Not checked: nothing says the dumps' update ids are contiguous or unique per row.
  idColumn: -1,
  exactHeader: true,
};

/**
 * Binance's USDⓈ-M futures trades dumps (`futures/um/.../BTCUSDT-trades-2024-01-01.zip`): a header
 * row (`id,price,qty,quote_qty,time,is_buyer_maker`) and six columns, no best-match flag (the
 * futures trades endpoints have none). Times are ms (spot's dumps moved to µs in 2025; the parser
 * tells the unit per file, so either reads).
 */
export const FUTURES_TRADES_SCHEMA: DumpSchema = {
  kind: 'futures/um trades',
  columns: TRADES_SCHEMA.columns.slice(0, 6),
  required: 6,
  timeColumn: 4,
  strictlyIncreasingTime: false,
  idColumn: 0,
};

/**
 * USDⓈ-M futures aggTrades dumps: a header row
 * (`agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker`) and
 * seven columns, no best-match flag.
 */
export const FUTURES_AGG_TRADES_SCHEMA: DumpSchema = {
  kind: 'futures/um aggTrades',
  columns: AGG_TRADES_SCHEMA.columns.slice(0, 7),
  required: 7,
  timeColumn: 5,
  strictlyIncreasingTime: false,
  idColumn: 0,
};

/** The layout of a dump kind in a market: USDⓈ-M trades and aggTrades lack spot's best-match column; klines and bookTicker are one layout. */
export function dumpSchema(kind: DumpKind, market: 'spot' | 'um'): DumpSchema {
  if (market === 'um' && kind === 'trades') return FUTURES_TRADES_SCHEMA;
  if (market === 'um' && kind === 'aggTrades') return FUTURES_AGG_TRADES_SCHEMA;
  return SCHEMAS[kind];
}

export const SCHEMAS: Readonly<Record<DumpKind, DumpSchema>> = {
  trades: TRADES_SCHEMA,
  aggTrades: AGG_TRADES_SCHEMA,
  klines: KLINES_SCHEMA,
  bookTicker: BOOK_TICKER_SCHEMA,
};
