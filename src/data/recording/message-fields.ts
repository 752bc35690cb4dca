/**
 * The fields of a recorded message, checked: a wrong or missing one is a DataFormatError naming
 * file:line, the message kind and the key.
 */
import { DataFormatError } from '../data-format-error.ts';
import { decimalUnits } from './decimal-units.ts';

export interface Where {
  readonly file: string;
  readonly line: number;
}

/** A whole number >= 0 (an id, a time). */
export function wholeField(data: Record<string, unknown>, key: string, where: Where, what: string): number {
  const value = data[key];
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new DataFormatError(where.file, where.line, undefined, `${what} "${key}" is ${value === undefined ? 'missing' : `${JSON.stringify(value)}, not a whole number >= 0`}`);
}

/** A decimal string in units at `precision`. */
export function decimalField(data: Record<string, unknown>, key: string, precision: number, where: Where, what: string): number {
  const value = data[key];
  const units = typeof value === 'string' ? decimalUnits(value, precision) : null;
  if (units !== null) return units;
  throw new DataFormatError(where.file, where.line, undefined, `${what} "${key}" is ${value === undefined ? 'missing' : `${JSON.stringify(value)}, not a decimal >= 0 with at most ${precision} decimals`}`);
}
