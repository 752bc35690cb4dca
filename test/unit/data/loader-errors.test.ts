import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DataFormatError } from '../../../src/data/data-format-error.ts';
import { loadKlines } from '../../../src/data/read-klines.ts';
import { readTrades } from '../../../src/data/read-trades.ts';
import { zipSingleFile } from '../../../src/data/synthetic/zip-writer.ts';
import type { UnitScale } from '../../../src/data/tape.ts';
import { collect, lines, rejection, SCALE8, tempDir, writeDump } from './helpers.ts';

const GOOD = '1001,42000.01000000,0.00100000,42.00001000,1704067200123,True,True';
const row = (id: number, time: number) => `${id},1.00000000,1.00000000,1.00000000,${time},True,True`;

/** Loads a trades CSV whose second data line is `bad`; returns the error. */
async function errorFor(bad: string, scale: UnitScale = SCALE8, first = GOOD): Promise<DataFormatError> {
  const dir = await tempDir();
  const path = await writeDump(dir, 'BTCUSDT-trades-2024-01-01.csv', lines(first, bad));
  const error = await rejection(collect(readTrades(path, { scale })));
  expect(error).toBeInstanceOf(DataFormatError);
  return error as DataFormatError;
}

describe('malformed rows: the error names file, line and column', () => {
  it('a value that is not a decimal', async () => {
    const error = await errorFor('1002,abc,0.001,42,1704067200124,True,True');
    expect(error.message).toMatch(/BTCUSDT-trades-2024-01-01\.csv:2: column 2 \(price\): "abc" is not a decimal$/);
    expect([error.line, error.column]).toEqual([2, 2]);
  });

  it('a missing column', async () => {
    const error = await errorFor('1002,42000.01,0.001,42,1704067200124');
    expect(error.message).toMatch(/\.csv:2: column 6 \(isBuyerMaker\) is missing: the row has 5 columns, a trades row has 7$/);
  });

  it('too many columns', async () => {
    const error = await errorFor(`${GOOD.replace('1001', '1002')},extra`);
    expect(error.message).toMatch(/\.csv:2: the row has 8 columns, a trades row has 7$/);
  });

  it('an empty field', async () => {
    expect((await errorFor('1002,42000.01,,42,1704067200124,True,True')).message).toMatch(/column 3 \(qty\) is empty$/);
  });

  it('more decimals than the precision', async () => {
    const error = await errorFor('1002,42000.01,0.123456789,42,1704067200124,True,True');
    expect(error.message).toMatch(/\.csv:2: column 3 \(qty\): "0\.123456789" has more than 8 decimals$/);
    const coarse = await errorFor('1002,42000.015,1,42,1704067200124,True,True', { quotePrecision: 2, basePrecision: 8 }, '1001,42000.01,1,42,1704067200123,True,True');
    expect(coarse.message).toMatch(/column 2 \(price\): "42000\.015" has more than 2 decimals$/);
  });

  it('amounts beyond 2^53 units, negative amounts, bad booleans, fractional ids', async () => {
    expect((await errorFor('1002,90071992.54740992,1,42,1704067200124,True,True')).message).toMatch(/column 2 \(price\): "90071992\.54740992" is too large for 8 decimals/);
    expect((await errorFor('1002,-1,1,42,1704067200124,True,True')).message).toMatch(/column 2 \(price\): "-1" is negative$/);
    expect((await errorFor('1002,1,1,42,1704067200124,yes,True')).message).toMatch(/column 6 \(isBuyerMaker\): "yes" is not True or False$/);
    expect((await errorFor('1002.5,1,1,42,1704067200124,True,True')).message).toMatch(/column 1 \(id\): "1002\.5" is not an integer$/);
  });

  it('counts the header and blank lines in line numbers', async () => {
    const dir = await tempDir();
    const path = await writeDump(dir, 'x.csv', lines('id,price,qty,quoteQty,time,isBuyerMaker,isBestMatch', GOOD, '', 'oops'));
    expect((await rejection(collect(readTrades(path, { scale: SCALE8 })))).message).toMatch(/x\.csv:4: /);
  });

  it('names the entry inside a zip', async () => {
    const dir = await tempDir();
    const path = await writeDump(dir, 'BTCUSDT-trades-2024-01-01.zip', lines(GOOD, '1002,1,1,1,1704067200124,True,maybe'));
    const error = await rejection(collect(readTrades(path, { scale: SCALE8 })));
    expect(error.message).toMatch(/BTCUSDT-trades-2024-01-01\.zip\/BTCUSDT-trades-2024-01-01\.csv:2: column 7 \(isBestMatch\)/);
  });
});

describe('order and units across rows and files', () => {
  it('time running backwards inside a file', async () => {
    const error = await errorFor(row(1002, 1704067200122));
    expect(error.message).toMatch(/\.csv:2: column 5 \(time\): 2024-01-01T00:00:00\.122000Z is before 2024-01-01T00:00:00\.123000Z of the previous row/);
  });

  it('time running backwards across files, naming the previous file', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'BTCUSDT-trades-2024-01-01.csv', lines(row(1, 1704153600500)));
    await writeDump(dir, 'BTCUSDT-trades-2024-01-02.csv', lines(row(2, 1704153600000)));
    const error = await rejection(collect(readTrades(dir, { scale: SCALE8 })));
    expect(error.message).toMatch(/BTCUSDT-trades-2024-01-02\.csv:1: column 5 \(time\): .* of the last row of .*BTCUSDT-trades-2024-01-01\.csv: time must not run backwards/);
  });

  it('ids that do not increase', async () => {
    expect((await errorFor(row(1001, 1704067200124))).message).toMatch(/column 1 \(id\): id 1001 is not after id 1001 of the previous row$/);
  });

  it('a file switching from ms to µs', async () => {
    expect((await errorFor(row(1002, 1704067200124000))).message).toMatch(/column 5 \(time\): 1704067200124000 is in microseconds but this file's first row is in milliseconds$/);
  });

  it('klines whose open time does not advance', async () => {
    const dir = await tempDir();
    const bar = '1704067200000,1,1,1,1,0,1704067259999,0,0,0,0,0';
    const path = await writeDump(dir, 'BTCUSDT-1m-2024-01-01.csv', lines(bar, bar));
    expect((await rejection(loadKlines(path, { scale: SCALE8 }))).message).toMatch(/\.csv:2: column 1 \(openTime\): .* is not after /);
  });

  it('a header of the wrong width (an aggTrades file read as trades)', async () => {
    const dir = await tempDir();
    const path = await writeDump(dir, 'x.csv', lines('a,p,q,f,l,T,m,M', '0,1,1,1,1,1704067200000,True,True'));
    expect((await rejection(collect(readTrades(path, { scale: SCALE8 })))).message).toMatch(/x\.csv:1: header has 8 columns \(a,p,q,f,l,T,m,M\), a trades file has 7$/);
  });
});

describe('files that cannot be read', () => {
  it('a file of another kind, by its name', async () => {
    const dir = await tempDir();
    const path = await writeDump(dir, 'BTCUSDT-aggTrades-2024-01-01.csv', lines(GOOD));
    expect((await rejection(collect(readTrades(path, { scale: SCALE8 })))).message).toMatch(/is a aggTrades file, not trades$/);
  });

  it('a zip holding two files, a truncated zip, a missing path, a folder without matches', async () => {
    const dir = await tempDir();
    const twoFiles = fileURLToPath(new URL('../../fixtures/data/two-files.zip', import.meta.url));
    expect((await rejection(collect(readTrades(twoFiles, { scale: SCALE8 })))).message).toMatch(/two-files\.zip: the zip holds 2 files \(a\.csv, b\.csv\); expected one CSV$/);
    const zip = zipSingleFile('a.csv', Buffer.from(lines(GOOD)));
    const truncated = join(dir, 'truncated.zip');
    await writeFile(truncated, zip.subarray(0, zip.length - 30));
    expect((await rejection(collect(readTrades(truncated, { scale: SCALE8 })))).message).toMatch(/truncated\.zip: cannot open as a zip/);
    expect((await rejection(collect(readTrades(join(dir, 'nope.csv'), { scale: SCALE8 })))).message).toMatch(/nope\.csv: no such file or folder/);
    expect((await rejection(collect(readTrades(dir, { scale: SCALE8, symbol: 'BTCUSDT' })))).message).toMatch(/no BTCUSDT trades files in/);
  });

  it('a zip entry whose data does not match its CRC', async () => {
    const dir = await tempDir();
    const zip = zipSingleFile('BTCUSDT-trades-2024-01-01.csv', Buffer.from(lines(GOOD)));
    zip.writeUInt32LE((zip.readUInt32LE(14) ^ 1) >>> 0, 14);
    const centralCrc = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 16;
    zip.writeUInt32LE((zip.readUInt32LE(centralCrc) ^ 1) >>> 0, centralCrc);
    const path = join(dir, 'BTCUSDT-trades-2024-01-01.zip');
    await writeFile(path, zip);
    expect((await rejection(collect(readTrades(path, { scale: SCALE8 })))).message).toMatch(/CRC-32 mismatch/);
  });
});
