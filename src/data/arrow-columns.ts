/**
 * Columns of numbers to and from Arrow IPC file bytes (apache-arrow): the on-disk form of the
 * columnar tape cache's parts. Arrow's IPC format stores each column as its raw little-endian
 * buffer behind a small flatbuffer header, so reading is a file read and typed-array views over
 * it: no text, no per-row work. Only the two types the cache needs: Float64 (every amount, id and
 * time, exact in engine units) and Uint8 (booleans and choices).
 */
import { Field, Float64, makeData, RecordBatch, RecordBatchFileWriter, Schema, Struct, tableFromIPC, Uint8 } from 'apache-arrow';

export type NumberColumn = Float64Array | Uint8Array;

/** One Arrow IPC file holding the columns as one record batch of `length` rows. */
export function encodeColumns(names: readonly string[], columns: readonly NumberColumn[], length: number): Uint8Array {
  const fields = names.map((name, i) => new Field(name, columns[i] instanceof Uint8Array ? new Uint8() : new Float64(), false));
  const children = columns.map((c) => {
    const data = c.length === length ? c : c.subarray(0, length);
    return data instanceof Uint8Array ? makeData({ type: new Uint8(), length, nullCount: 0, data }) : makeData({ type: new Float64(), length, nullCount: 0, data });
  });
  const batch = new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length, nullCount: 0, children }));
  return RecordBatchFileWriter.writeAll([batch]).toUint8Array(true);
}

/**
 * The columns `names` of an `encodeColumns` file, in that order, as views over `bytes` where Arrow
 * can (it copies a buffer that is not aligned for its type). Throws when the file is not such a
 * file: other columns, other types, nulls, several record batches.
 */
export function decodeColumns(bytes: Uint8Array, names: readonly string[]): { length: number; columns: NumberColumn[] } {
  const table = tableFromIPC(bytes);
  if (table.batches.length !== 1) throw new Error(`${table.batches.length} record batches, expected 1`);
  const batch = table.batches[0]!;
  const columns = names.map((name) => {
    const child = batch.getChild(name);
    if (child === null || child.data.length !== 1) throw new Error(`no column ${name}`);
    const data = child.data[0]!;
    if (data.nullCount !== 0) throw new Error(`column ${name} has nulls`);
    const values: unknown = data.values;
    if (!(values instanceof Float64Array || values instanceof Uint8Array) || values.length < batch.numRows) throw new Error(`column ${name} is not Float64 or Uint8`);
    return values.length === batch.numRows ? values : values.subarray(0, batch.numRows);
  });
  return { length: batch.numRows, columns };
}
