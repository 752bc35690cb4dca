/**
 * The general path for one dump row: csv-parse splits it (quotes, spaces and all) and each field
 * is converted with the exact decimal parser from the engine. It runs only for rows the fast
 * scanner declined, so it favours precise error messages over speed.
 */
import { Decimal } from 'decimal.js';
import { parse } from 'csv-parse/sync';
import { parseUnits } from '../engine/index.ts';
import type { UnitScale } from './tape.ts';
import { DataFormatError } from './data-format-error.ts';
import { ColumnType, type DumpColumn, type DumpSchema } from './dump-schema.ts';
import { ABSENT } from './field-scanner.ts';
import { fileNameSymbol } from './tardis-file-name.ts';

const DECIMAL_TEXT = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
const INTEGER_TEXT = /^\d+$/;

/** Splits one CSV line into trimmed fields, or throws naming the line. */
export function splitCsvLine(text: string, file: string, line: number): string[] {
  let records: string[][];
  try {
    records = parse(text, { trim: true, relax_column_count: true }) as string[][];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DataFormatError(file, line, undefined, `not a CSV row (${reason})`);
  }
  const [fields, ...rest] = records;
  if (fields === undefined || rest.length > 0) throw new DataFormatError(file, line, undefined, 'not a single CSV row');
  return fields;
}

/**
 * Converts the fields of `text` into `out` (one entry per schema column, raw file time units for
 * time columns), or throws a DataFormatError naming the first offending column. `expected` holds,
 * per Expected column, the text the file's name says it must be.
 */
export function parseRowText(text: string, schema: DumpSchema, scale: UnitScale, out: Float64Array, file: string, line: number, expected: readonly (string | undefined)[] = []): void {
  const fields = splitCsvLine(text, file, line);
  const { columns, required } = schema;
  if (fields.length < required) {
    const missing = columns[fields.length]!;
    throw new DataFormatError(
      file,
      line,
      fields.length + 1,
      `column ${fields.length + 1} (${missing.name}) is missing: the row has ${fields.length} columns, a ${schema.kind} row has ${required}`,
    );
  }
  if (fields.length > columns.length) {
    throw new DataFormatError(file, line, columns.length + 1, `the row has ${fields.length} columns, a ${schema.kind} row has ${columns.length}`);
  }
  for (let i = 0; i < fields.length; i++) {
    out[i] = parseField(fields[i]!, columns[i]!, i, scale, file, line, expected[i]);
  }
}

function parseField(text: string, column: DumpColumn, index: number, scale: UnitScale, file: string, line: number, expected: string | undefined): number {
  const where = `column ${index + 1} (${column.name})`;
  const fail = (problem: string): never => {
    throw new DataFormatError(file, line, index + 1, `${where}: ${problem}`);
  };
  if (column.type === ColumnType.Ignored) return 0;
  if (text === '' && (column.type === ColumnType.OptionalQuote || column.type === ColumnType.OptionalBase)) return ABSENT;
  if (text === '') throw new DataFormatError(file, line, index + 1, `${where} is empty`);
  switch (column.type) {
    case ColumnType.Expected:
      // A symbol such as XBT/USD is XBT-USD in its Tardis file's name.
      return expected === undefined || text === expected || fileNameSymbol(text) === expected ? 0 : fail(`"${text}" is not ${expected}, as the file name says`);
    case ColumnType.Choice: {
      const choices = column.choices ?? [];
      const index = choices.indexOf(text);
      return index >= 0 ? index : fail(`"${text}" is not ${choices.join(' or ')}`);
    }
    case ColumnType.Integer:
    case ColumnType.Time:
    case ColumnType.CloseTime: {
      if (!INTEGER_TEXT.test(text)) return fail(`"${text}" is not an integer`);
      const n = Number(text);
      return Number.isSafeInteger(n) ? n : fail(`"${text}" is too large`);
    }
    case ColumnType.Boolean:
      if (text === 'True' || text === 'true') return 1;
      if (text === 'False' || text === 'false') return 0;
      return fail(`"${text}" is not True or False`);
    case ColumnType.Quote:
    case ColumnType.QuoteTotal:
    case ColumnType.OptionalQuote:
    case ColumnType.Base:
    case ColumnType.BaseTotal:
    case ColumnType.OptionalBase: {
      const isQuote = column.type === ColumnType.Quote || column.type === ColumnType.QuoteTotal || column.type === ColumnType.OptionalQuote;
      const precision = isQuote ? scale.quotePrecision : scale.basePrecision;
      const units = parseUnits(text, precision);
      if (units !== null) return units >= 0 ? units : fail(`"${text}" is negative`);
      const problem = decimalProblem(text, precision);
      if (problem !== 'too large') return fail(`"${text}" ${problem}`);
      // Summed kline volumes of busy symbols can pass 2^53 units (a day of BTCUSDT quote volume
      // at 8 decimals is ~10^18): keep them as the nearest double rather than refuse real data.
      if (column.type === ColumnType.QuoteTotal || column.type === ColumnType.BaseTotal) {
        return new Decimal(text).mul(new Decimal(10).pow(precision)).toNumber();
      }
      return fail(`"${text}" is too large for ${precision} decimals (over 2^53 units)`);
    }
  }
  return fail('has an unknown column type');
}

/** Why parseUnits refused `text` at `precision`. */
function decimalProblem(text: string, precision: number): string {
  if (!DECIMAL_TEXT.test(text)) return 'is not a decimal';
  const value = new Decimal(text);
  if (value.isNegative() && !value.isZero()) return 'is negative';
  if (value.decimalPlaces() > precision) return `has more than ${precision} decimals`;
  return 'too large';
}
