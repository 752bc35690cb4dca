/**
 * The depth messages of a recording, checked and kept as read: a diff event
 * (`depthUpdate`: U, u, E, b, a) and a REST snapshot (lastUpdateId, bids, asks). Their levels
 * stay text until the book applies them (a stale event is dropped unconverted); `levelRows`
 * turns them into units then, naming file:line and the level on a bad value.
 */
import { DataFormatError } from '../data-format-error.ts';
import type { UnitScale } from '../tape.ts';
import { decimalUnits } from './decimal-units.ts';
import { venueMicros } from './venue-clock.ts';
import { wholeField, type Where } from './message-fields.ts';

/** [price, qty] pairs as the venue wrote them. */
type Levels = readonly (readonly unknown[])[];

export interface DiffEvent {
  /** First and last update id the event covers. */
  readonly U: number;
  readonly u: number;
  /** Event time, µs. */
  readonly time: number;
  readonly bids: Levels;
  readonly asks: Levels;
  readonly file: string;
  readonly line: number;
}

export interface DepthSnapshot {
  readonly lastUpdateId: number;
  readonly bids: Levels;
  readonly asks: Levels;
  readonly file: string;
  readonly line: number;
}

export function parseDiffEvent(data: Record<string, unknown>, where: Where): DiffEvent {
  return {
    U: wholeField(data, 'U', where, 'depthUpdate'),
    u: wholeField(data, 'u', where, 'depthUpdate'),
    time: venueMicros(wholeField(data, 'E', where, 'depthUpdate')),
    bids: levels(data, 'b', where),
    asks: levels(data, 'a', where),
    file: where.file,
    line: where.line,
  };
}

export function parseSnapshot(data: Record<string, unknown>, where: Where): DepthSnapshot {
  return { lastUpdateId: wholeField(data, 'lastUpdateId', where, 'snapshot'), bids: levels(data, 'bids', where), asks: levels(data, 'asks', where), file: where.file, line: where.line };
}

/**
 * Calls `row(price, qty)` (units) for each level; throws a DataFormatError naming the level when
 * a value is not a non-negative decimal with at most the scale's decimals.
 */
export function levelRows(levels: Levels, key: string, scale: UnitScale, where: Where, row: (price: number, qty: number) => void): void {
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i]!;
    const price = decimalUnits(level[0] as string, scale.quotePrecision);
    const qty = decimalUnits(level[1] as string, scale.basePrecision);
    if (price === null) throw badValue(where, key, i, 'price', level[0], scale.quotePrecision);
    if (qty === null) throw badValue(where, key, i, 'quantity', level[1], scale.basePrecision);
    row(price, qty);
  }
}

function badValue(where: Where, key: string, i: number, what: string, value: unknown, precision: number): DataFormatError {
  return new DataFormatError(where.file, where.line, undefined, `"${key}"[${i}]: ${what} ${JSON.stringify(value)} is not a decimal >= 0 with at most ${precision} decimals`);
}

function levels(data: Record<string, unknown>, key: string, where: Where): Levels {
  const value = data[key];
  if (!Array.isArray(value)) throw new DataFormatError(where.file, where.line, undefined, `"${key}" is ${value === undefined ? 'missing' : 'not a list of [price, quantity] levels'}`);
  for (let i = 0; i < value.length; i++) {
    const level: unknown = value[i];
    if (!Array.isArray(level) || level.length < 2 || typeof level[0] !== 'string' || typeof level[1] !== 'string') {
      throw new DataFormatError(where.file, where.line, undefined, `"${key}"[${i}] is ${JSON.stringify(level)}, not a ["price", "quantity"] pair`);
    }
  }
  return value as Levels;
}
