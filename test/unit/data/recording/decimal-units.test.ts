/** Exact decimal text to units, and the one-line form of a recorded message. */
import { describe, expect, it } from 'vitest';
import { decimalUnits } from '../../../../src/data/recording/decimal-units.ts';
import { formatRecordingLine, snapshotMessage } from '../../../../src/data/index.ts';

describe('decimalUnits', () => {
  it('reads plain decimals exactly, trailing zeros past the precision included', () => {
    expect(decimalUnits('42000.01000000', 2)).toBe(4200001);
    expect(decimalUnits('0.00001000', 8)).toBe(1000);
    expect(decimalUnits('7', 3)).toBe(7000);
    expect(decimalUnits('0', 8)).toBe(0);
    expect(decimalUnits('90071992.54740991', 8)).toBe(9007199254740991);
  });

  it('hands exponents to the exact parser and refuses what is not a non-negative decimal at the precision', () => {
    expect(decimalUnits('1e2', 2)).toBe(10000);
    expect(decimalUnits('1.5E-2', 3)).toBe(15);
    for (const bad of ['1.001', '1.', '.5', '-1', '', 'abc', '1,5', '0x10', '90071992.54740992']) expect(decimalUnits(bad, bad === '1.001' ? 2 : 8), bad).toBeNull();
  });
});

describe('recording lines', () => {
  it('put the receive time before the message, on one line', () => {
    expect(formatRecordingLine(1704067200000123, '{"stream":"btcusdt@trade","data":{}}')).toBe('1704067200000123 {"stream":"btcusdt@trade","data":{}}\n');
    expect(formatRecordingLine(5, '{\r\n  "a": 1\n}')).toBe('5 {   "a": 1 }\n');
    expect(snapshotMessage('BTCUSDT', '{"lastUpdateId":7,"bids":[],"asks":[]}\n')).toBe('{"stream":"btcusdt@depthSnapshot","data":{"lastUpdateId":7,"bids":[],"asks":[]}}');
  });
});
