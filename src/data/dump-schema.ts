/**
 * The column layouts of Binance's spot dumps (binance-facts §10) and how each column becomes a
 * number in engine units. One table drives both the fast byte scanner and the general path, so
 * the two cannot disagree about what a column is.
 */

/** What a dump file holds. */
export type DumpKind = 'trades' | 'aggTrades' | 'klines';

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
} as const;
export type ColumnType = (typeof ColumnType)[keyof typeof ColumnType];

export interface DumpColumn {
  /** The name used in error messages (the field name of the matching REST response). */
  readonly name: string;
  readonly type: ColumnType;
}

export interface DumpSchema {
  readonly kind: DumpKind;
  readonly columns: readonly DumpColumn[];
  /** Columns a row must have; the rest (only an Ignored tail) may be missing. */
  readonly required: number;
  /** Column (0-based) whose time must not run backwards. */
  readonly timeColumn: number;
  /** Whether equal consecutive times are an error (klines: each bar opens after the last). */
  readonly strictlyIncreasingTime: boolean;
  /** Column (0-based) of an id that must strictly increase, or -1. */
  readonly idColumn: number;
}

const col = (name: string, type: ColumnType): DumpColumn => ({ name, type });

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

export const SCHEMAS: Readonly<Record<DumpKind, DumpSchema>> = {
  trades: TRADES_SCHEMA,
  aggTrades: AGG_TRADES_SCHEMA,
  klines: KLINES_SCHEMA,
};
