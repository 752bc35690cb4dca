/**
 * Turns the bytes of one or more dump files (fed chunk by chunk, in order) into rows of numbers
 * in engine units, checking what a replay relies on: every row well-formed, one time unit per
 * file, time never running backwards (beyond a schema's allowance, restamped and counted) and ids
 * strictly increasing, across file boundaries too.
 *
 * Lines are found once per chunk (the last line feed); inside that region the FieldScanner walks
 * field by field with no per-line search or allocation. A row the scanner declines is re-read on
 * the general path. Only a partial last line is carried over to the next chunk, so memory is one
 * chunk plus one line whatever the length of the data.
 */
import type { UnitScale } from './tape.ts';
import { DataFormatError, RowProblem } from './data-format-error.ts';
import { ColumnType, type DumpSchema, type RowScanner } from './dump-schema.ts';
import { FAILED, FieldScanner, MAX_PRECISION } from './field-scanner.ts';
import { parseRowText, splitCsvLine } from './general-row.ts';
import { formatUtcMicros } from './utc-date.ts';

/**
 * Receives each accepted row; `values` is reused for the next row, copy what you keep. A row the
 * sink cannot accept is a RowProblem it throws, which the parser turns into file:line.
 */
export interface RowSink {
  row(values: Float64Array): void;
  /**
   * Optional: rows [from, to) at once, as columns indexed like `values` (a cache entry's replay,
   * tape-cache.ts): the same effect as `row` for each, without assembling each row.
   */
  rows?(columns: readonly (Float64Array | Uint8Array | undefined)[], from: number, to: number): void;
}

/** What the parser let through with a correction, for the reader's caller to report. */
export interface ParseCounts {
  /** Rows whose time fell behind the previous row's by at most the schema's `maxStepBack`, moved to that time. */
  restampedRows: number;
}

/** Where the ordering checks stand after a row: its time, id and file (the next row is checked against them). */
export interface ParseOrdering {
  readonly time: number;
  readonly id: number;
  readonly file: string;
}

/** The unit of a file's timestamps, detected from its first row. */
export type TimeUnit = 'ms' | 'us';

/** Epoch values from here up are µs: 10^14 ms is the year 5138, 10^14 µs is 1973. */
const MICROS_THRESHOLD = 1e14;
/** A line longer than this is not a dump row; stop before buffering a whole broken file. */
const MAX_LINE_BYTES = 1 << 20;
const LF = 10;
const CR = 13;

export class DumpParser {
  /** The values of the current row, one per schema column. */
  private readonly values: Float64Array;
  private readonly types: Uint8Array;
  private readonly scanner = new FieldScanner();
  private readonly timeColumns: Int32Array;
  private readonly fastScan: RowScanner | undefined;
  /** Per Choice column, its words as bytes. */
  private readonly choiceBytes: (Uint8Array[] | undefined)[];
  /** Per Expected column, the text the current file's name says (bytes for the scanner, text for messages). */
  private expectedBytes: (Uint8Array | undefined)[] = [];
  private expectedText: readonly (string | undefined)[] = [];
  /** The Expected columns leading every row, with their commas (RowScanner's `prefix`). */
  private expectedPrefix: Uint8Array | undefined;

  private file = '';
  private line = 0;
  private unit: TimeUnit | undefined;
  private atFileStart = true;
  private headerChecked = false;
  private carry: Buffer = Buffer.alloc(0);
  private rowsInFile = 0;
  private minTimeInFile = Infinity;

  private previousTime = -Infinity;
  private previousId = -Infinity;
  /** The file that supplied previousTime, named in errors at a file boundary. */
  private previousFile = '';

  constructor(
    private readonly schema: DumpSchema,
    private readonly scale: UnitScale,
    private readonly sink: RowSink,
    /** Where rows restamped under `schema.maxStepBack` are counted. */
    private readonly counts: ParseCounts = { restampedRows: 0 },
  ) {
    for (const p of [scale.quotePrecision, scale.basePrecision]) {
      if (!Number.isInteger(p) || p < 0 || p > MAX_PRECISION) throw new RangeError(`precision must be an integer 0..${MAX_PRECISION}, got ${p}`);
    }
    this.values = new Float64Array(schema.columns.length);
    this.types = Uint8Array.from(schema.columns, (c) => c.type);
    this.timeColumns = Int32Array.from(schema.columns.flatMap((c, i) => (c.type === ColumnType.Time || c.type === ColumnType.CloseTime ? [i] : [])));
    this.fastScan = schema.scan;
    this.choiceBytes = schema.columns.map((c) => c.choices?.map((word) => Buffer.from(word)));
  }

  /** The time unit of the current file, once its first row has been read. */
  get timeUnit(): TimeUnit | undefined {
    return this.unit;
  }

  get rowsInCurrentFile(): number {
    return this.rowsInFile;
  }

  /**
   * The earliest time (µs, before any restamping) of the current file's rows: when it is not
   * before the previous file's last time, nothing in this file was judged against that file, so
   * its rows are what the file gives read on its own (the columnar cache keeps only such files).
   */
  get minTimeInCurrentFile(): number {
    return this.minTimeInFile;
  }

  /** Where the ordering checks stand: what the next row (of this file or the next) must follow. */
  get ordering(): ParseOrdering {
    return { time: this.previousTime, id: this.previousId, file: this.previousFile };
  }

  /** Continues the ordering checks after rows that did not pass through this parser (a cached file's). */
  continueAfter(ordering: ParseOrdering): void {
    this.previousTime = ordering.time;
    this.previousId = ordering.id;
    this.previousFile = ordering.file;
  }

  /**
   * Starts a new file; ordering checks carry over from the previous one. `expected` holds, per
   * Expected column (by index), what the file's name says it holds.
   */
  beginFile(name: string, expected: readonly (string | undefined)[] = []): void {
    this.expectedText = expected;
    this.expectedBytes = this.schema.columns.map((_, i) => (expected[i] === undefined ? undefined : Buffer.from(expected[i]!)));
    const leading = this.schema.columns.findIndex((c, i) => c.type !== ColumnType.Expected || expected[i] === undefined);
    this.expectedPrefix = leading > 0 ? Buffer.from(expected.slice(0, leading).map((text) => `${text!},`).join('')) : undefined;
    this.file = name;
    this.line = 0;
    this.unit = undefined;
    this.atFileStart = true;
    this.headerChecked = false;
    this.carry = Buffer.alloc(0);
    this.rowsInFile = 0;
    this.minTimeInFile = Infinity;
  }

  feed(chunk: Buffer): void {
    let start = 0;
    if (this.atFileStart && chunk.length > 0) {
      this.atFileStart = false;
      // A UTF-8 byte order mark, as spreadsheet exports write.
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) start = 3;
    }
    if (this.carry.length > 0) {
      const lf = chunk.indexOf(LF, start);
      if (lf < 0) {
        this.carry = Buffer.concat([this.carry, chunk.subarray(start)]);
        this.checkCarry();
        return;
      }
      const joined = Buffer.concat([this.carry, chunk.subarray(start, lf + 1)]);
      this.carry = Buffer.alloc(0);
      this.parseRegion(joined, 0, joined.length);
      start = lf + 1;
    }
    const last = chunk.lastIndexOf(LF);
    if (last < start) {
      this.carry = Buffer.from(chunk.subarray(start));
      this.checkCarry();
      return;
    }
    this.parseRegion(chunk, start, last + 1);
    // Copy the tail so the (large) chunk it came from can be collected.
    if (last + 1 < chunk.length) this.carry = Buffer.from(chunk.subarray(last + 1));
  }

  /** Ends the current file: a last line without a line feed is still a row. */
  endFile(): void {
    if (this.carry.length > 0) {
      const tail = Buffer.concat([this.carry, Buffer.of(LF)]);
      this.carry = Buffer.alloc(0);
      this.parseRegion(tail, 0, tail.length);
    }
  }

  private checkCarry(): void {
    if (this.carry.length > MAX_LINE_BYTES) {
      throw new DataFormatError(this.file, this.line + 1, undefined, `line longer than ${MAX_LINE_BYTES} bytes: not a ${this.schema.kind} dump`);
    }
  }

  /** Parses the complete lines in buf[start, end); buf[end - 1] is a line feed. */
  private parseRegion(buf: Buffer, start: number, end: number): void {
    const scanner = this.scanner;
    const values = this.values;
    scanner.buf = buf;
    scanner.pos = start;
    while (scanner.pos < end) {
      const lineStart = scanner.pos;
      this.line++;
      const first = buf[lineStart];
      if (first === LF || (first === CR && buf[lineStart + 1] === LF)) {
        scanner.pos = lineStart + (first === LF ? 1 : 2);
        continue;
      }
      if (!this.headerChecked) {
        this.headerChecked = true;
        const lineEnd = buf.indexOf(LF, lineStart);
        if (this.isHeader(lineText(buf, lineStart, lineEnd))) {
          scanner.pos = lineEnd + 1;
          continue;
        }
      }
      if (!this.scanRow()) {
        const lineEnd = buf.indexOf(LF, lineStart);
        parseRowText(lineText(buf, lineStart, lineEnd), this.schema, this.scale, values, this.file, this.line, this.expectedText);
        scanner.pos = lineEnd + 1;
      }
      this.accept(values);
    }
  }

  /** The fast path: true when the whole row was canonical and is now in `values`. */
  private scanRow(): boolean {
    const scanner = this.scanner;
    if (this.fastScan !== undefined) return this.fastScan(scanner, this.values, this.expectedBytes, this.expectedPrefix, this.scale);
    const types = this.types;
    const values = this.values;
    const quote = this.scale.quotePrecision;
    const base = this.scale.basePrecision;
    for (let i = 0; i < types.length; i++) {
      if (i > 0 && !scanner.more) return i >= this.schema.required;
      let v: number;
      switch (types[i]) {
        case ColumnType.Quote:
        case ColumnType.QuoteTotal:
          v = scanner.decimal(quote);
          break;
        case ColumnType.Base:
        case ColumnType.BaseTotal:
          v = scanner.decimal(base);
          break;
        case ColumnType.Boolean:
          v = scanner.boolean();
          break;
        case ColumnType.Ignored:
          v = scanner.skipLast();
          break;
        case ColumnType.Expected: {
          const expected = this.expectedBytes[i];
          v = expected === undefined ? scanner.skipField() : scanner.literal(expected);
          break;
        }
        case ColumnType.Choice:
          v = scanner.choice(this.choiceBytes[i]!);
          break;
        case ColumnType.OptionalQuote:
          v = scanner.optionalDecimal(quote);
          break;
        case ColumnType.OptionalBase:
          v = scanner.optionalDecimal(base);
          break;
        default:
          v = scanner.integer();
      }
      if (v === FAILED) return false;
      values[i] = v;
    }
    return !scanner.more;
  }

  /**
   * A header is a first line none of whose fields starts like a number; its width must fit the
   * kind, which catches the common mistake of loading one kind of dump as another.
   */
  private isHeader(text: string): boolean {
    const fields = splitCsvLine(text, this.file, this.line);
    if (fields.some((f) => f === '' || /^[-+.\d]/.test(f))) return false;
    const { columns, required, kind } = this.schema;
    if (fields.length < required || fields.length > columns.length) {
      throw new DataFormatError(this.file, this.line, undefined, `header has ${fields.length} columns (${fields.join(',')}), a ${kind} file has ${required === columns.length ? required : `${required} or ${columns.length}`}`);
    }
    if (this.schema.exactHeader === true) {
      const at = fields.findIndex((f, i) => f !== columns[i]!.name);
      if (at >= 0) throw new DataFormatError(this.file, this.line, at + 1, `header column ${at + 1} is "${fields[at]}" where a ${kind} file has "${columns[at]!.name}"`);
    }
    return true;
  }

  /** Converts times to µs, checks the unit and ordering, and hands the row to the sink. */
  private accept(values: Float64Array): void {
    const schema = this.schema;
    const timeColumns = this.timeColumns;
    for (let k = 0; k < timeColumns.length; k++) {
      const i = timeColumns[k]!;
      const raw = values[i]!;
      if (this.unit === undefined) this.unit = raw >= MICROS_THRESHOLD ? 'us' : 'ms';
      if (this.unit === 'ms') {
        if (raw >= MICROS_THRESHOLD) this.fail(i, `${raw} is in microseconds but this file's first row is in milliseconds`);
        // A ms close time means the end of that millisecond: its last µs (openTime + interval - 1 µs).
        values[i] = schema.columns[i]!.type === ColumnType.CloseTime ? raw * 1000 + 999 : raw * 1000;
      } else if (raw < MICROS_THRESHOLD) {
        this.fail(i, `${raw} is in milliseconds but this file's first row is in microseconds`);
      }
    }
    let time = values[schema.timeColumn]!;
    if (time < this.minTimeInFile) this.minTimeInFile = time;
    if (time < this.previousTime && this.previousTime - time <= (schema.maxStepBack ?? 0)) {
      values[schema.timeColumn] = time = this.previousTime;
      this.counts.restampedRows++;
    }
    if (time < this.previousTime || (schema.strictlyIncreasingTime && time === this.previousTime)) {
      const where = this.rowsInFile === 0 && this.previousFile !== this.file ? `the last row of ${this.previousFile}` : 'the previous row';
      const allowed = schema.maxStepBack === undefined ? '' : ` by more than ${schema.maxStepBack / 1e6} s`;
      this.fail(schema.timeColumn, `${formatUtcMicros(time)} is ${time === this.previousTime ? 'not after' : 'before'} ${formatUtcMicros(this.previousTime)} of ${where}: time must not run backwards${allowed} (are the files in order?)`);
    }
    if (schema.idColumn >= 0) {
      const id = values[schema.idColumn]!;
      if (id <= this.previousId) {
        const where = this.rowsInFile === 0 && this.previousFile !== this.file ? `the last row of ${this.previousFile}` : 'the previous row';
        this.fail(schema.idColumn, `id ${id} is not after id ${this.previousId} of ${where}`);
      }
      this.previousId = id;
    }
    this.previousTime = time;
    this.previousFile = this.file;
    this.rowsInFile++;
    try {
      this.sink.row(values);
    } catch (error) {
      if (error instanceof RowProblem) this.fail(error.column, error.detail);
      throw error;
    }
  }

  private fail(column: number, problem: string): never {
    const name = this.schema.columns[column]!.name;
    throw new DataFormatError(this.file, this.line, column + 1, `column ${column + 1} (${name}): ${problem}`);
  }
}

function lineText(buf: Buffer, start: number, lf: number): string {
  const end = lf > start && buf[lf - 1] === CR ? lf - 1 : lf;
  return buf.toString('utf8', start, end);
}
