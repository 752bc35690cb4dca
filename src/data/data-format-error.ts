/**
 * The error for malformed dump data. The message leads with `file:line:` so an editor or a
 * terminal can jump to the row, then names the column (1-based, with its dump name) and what is
 * wrong with the value, e.g.
 *   BTCUSDT-trades-2024-01-01.csv:17: column 2 (price): "abc" is not a decimal
 * Files inside a zip are named `archive.zip/entry.csv`, as Python names modules in zip archives.
 */
export class DataFormatError extends Error {
  override readonly name = 'DataFormatError';

  constructor(
    /** The file as the caller named it (`dir/x.zip/x.csv` for a zip entry). */
    readonly file: string,
    /** 1-based physical line (a header row counts), or 0 for problems with the file as a whole. */
    readonly line: number,
    /** 1-based column, when one column is at fault. */
    readonly column: number | undefined,
    /** What is wrong, without the location. */
    readonly detail: string,
  ) {
    super(`${line > 0 ? `${file}:${line}` : file}: ${detail}`);
  }
}

/**
 * What a row sink throws about a row it cannot accept (a snapshot level with a price but no
 * amount, levels out of order): the parser, which knows the file and line, turns it into a
 * DataFormatError.
 */
export class RowProblem extends Error {
  override readonly name = 'RowProblem';

  constructor(
    /** 0-based column at fault. */
    readonly column: number,
    /** What is wrong, without the location or the column's name. */
    readonly detail: string,
  ) {
    super(detail);
  }
}
