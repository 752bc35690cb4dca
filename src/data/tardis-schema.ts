/**
 * The column layouts of Tardis.dev's CSV datasets (docs.tardis.dev, "Downloadable CSV files"):
 * every file starts `exchange,symbol,timestamp,local_timestamp` (times in µs; `timestamp` is the
 * exchange's, `local_timestamp` when Tardis received the message) and has a header row naming
 * the columns, which must match exactly (a trades file and an incremental_book_L2 file both have
 * eight columns: the header is what tells them apart). Simulated time is `timestamp`, which may
 * step back by up to TARDIS_MAX_STEP_BACK_US (restamped, counted).
 */
import { col, ColumnType, type DumpColumn, type DumpSchema } from './dump-schema.ts';
import { scanTardisL2Row } from './tardis-l2-scan.ts';

/** The Tardis data types exsim reads. */
export type TardisDataType = 'incremental_book_L2' | 'book_snapshot_25' | 'book_snapshot_5' | 'trades' | 'book_ticker';

export const TARDIS_DATA_TYPES: readonly TardisDataType[] = ['incremental_book_L2', 'book_snapshot_25', 'book_snapshot_5', 'trades', 'book_ticker'];

/** Column indexes shared by every layout. */
export const TARDIS_TIMESTAMP = 2;
export const TARDIS_LOCAL_TIMESTAMP = 3;

const COMMON: readonly DumpColumn[] = [
  col('exchange', ColumnType.Expected),
  col('symbol', ColumnType.Expected),
  col('timestamp', ColumnType.Time),
  col('local_timestamp', ColumnType.Time),
];

/**
 * How far `timestamp` may step back: Tardis writes rows in the order it received them
 * (`local_timestamp`), so an exchange message can carry a slightly earlier time than the one
 * before it (two connections, the venue's own jitter). Up to this, the row is restamped to the
 * previous time and counted; beyond it the file is out of order.
 */
export const TARDIS_MAX_STEP_BACK_US = 1_000_000;

function tardisSchema(dataType: TardisDataType, rest: readonly DumpColumn[], idColumn = -1): DumpSchema {
  const columns = [...COMMON, ...rest];
  return { kind: `tardis ${dataType}`, columns, required: columns.length, timeColumn: TARDIS_TIMESTAMP, strictlyIncreasingTime: false, maxStepBack: TARDIS_MAX_STEP_BACK_US, idColumn, exactHeader: true };
}

/** Choice indexes: `is_snapshot` false 0 / true 1, `side` bid 0 / ask 1, trade `side` buy 0 / sell 1. */
export const TARDIS_L2_SCHEMA: DumpSchema = {
  ...tardisSchema('incremental_book_L2', [
    col('is_snapshot', ColumnType.Choice, ['false', 'true']),
    col('side', ColumnType.Choice, ['bid', 'ask']),
    col('price', ColumnType.Quote),
    col('amount', ColumnType.Base),
  ]),
  scan: scanTardisL2Row,
};

export const TARDIS_TRADES_SCHEMA = tardisSchema(
  'trades',
  [col('id', ColumnType.Integer), col('side', ColumnType.Choice, ['buy', 'sell']), col('price', ColumnType.Quote), col('amount', ColumnType.Base)],
  4,
);

/** A side may be empty (no bid or no ask at that moment). */
export const TARDIS_BOOK_TICKER_SCHEMA = tardisSchema('book_ticker', [
  col('ask_amount', ColumnType.OptionalBase),
  col('ask_price', ColumnType.OptionalQuote),
  col('bid_price', ColumnType.OptionalQuote),
  col('bid_amount', ColumnType.OptionalBase),
]);

/** Level i's four columns start at 4 + 4i: ask price, ask amount, bid price, bid amount; a level the book lacks is empty. */
function snapshotSchema(dataType: 'book_snapshot_25' | 'book_snapshot_5', levels: number): DumpSchema {
  const rest: DumpColumn[] = [];
  for (let i = 0; i < levels; i++) {
    rest.push(
      col(`asks[${i}].price`, ColumnType.OptionalQuote),
      col(`asks[${i}].amount`, ColumnType.OptionalBase),
      col(`bids[${i}].price`, ColumnType.OptionalQuote),
      col(`bids[${i}].amount`, ColumnType.OptionalBase),
    );
  }
  return tardisSchema(dataType, rest);
}

export const TARDIS_SNAPSHOT_25_SCHEMA = snapshotSchema('book_snapshot_25', 25);
export const TARDIS_SNAPSHOT_5_SCHEMA = snapshotSchema('book_snapshot_5', 5);

export const TARDIS_SCHEMAS: Readonly<Record<TardisDataType, DumpSchema>> = {
  incremental_book_L2: TARDIS_L2_SCHEMA,
  book_snapshot_25: TARDIS_SNAPSHOT_25_SCHEMA,
  book_snapshot_5: TARDIS_SNAPSHOT_5_SCHEMA,
  trades: TARDIS_TRADES_SCHEMA,
  book_ticker: TARDIS_BOOK_TICKER_SCHEMA,
};
