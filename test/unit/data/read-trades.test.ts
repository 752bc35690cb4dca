import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readTrades } from '../../../src/data/read-trades.ts';
import { collect, lines, SCALE8, tempDir, tradesOf, writeDump } from './helpers.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/data/', import.meta.url));

const ROWS_MS = [
  '1001,42000.01000000,0.00100000,42.00001000,1704067200123,True,True',
  '1002,42000.02000000,0.50000000,21000.01000000,1704067200456,False,True',
  '1003,41999.99000000,1.00000000,41999.99000000,1704067201000,True,False',
];
/** The same trades as engine units with µs times. */
const EXPECTED = [
  { id: 1001, price: 4_200_001_000_000, qty: 100_000, quoteQty: 4_200_001_000, time: 1_704_067_200_123_000, isBuyerMaker: true, isBestMatch: true },
  { id: 1002, price: 4_200_002_000_000, qty: 50_000_000, quoteQty: 2_100_001_000_000, time: 1_704_067_200_456_000, isBuyerMaker: false, isBestMatch: true },
  { id: 1003, price: 4_199_999_000_000, qty: 100_000_000, quoteQty: 4_199_999_000_000, time: 1_704_067_201_000_000, isBuyerMaker: true, isBestMatch: false },
];

async function load(source: string | string[], batchSize?: number) {
  return tradesOf(await collect(readTrades(source, { scale: SCALE8, ...(batchSize === undefined ? {} : { batchSize }) })));
}

describe('readTrades: format variants', () => {
  it('reads a headerless ms CSV into exact units and µs', async () => {
    const dir = await tempDir();
    expect(await load(await writeDump(dir, 'BTCUSDT-trades-2024-01-01.csv', lines(...ROWS_MS)))).toEqual(EXPECTED);
  });

  it('detects and skips a header row', async () => {
    const dir = await tempDir();
    const path = await writeDump(dir, 'BTCUSDT-trades-2024-01-01.csv', lines('id,price,qty,quote_qty,time,is_buyer_maker,is_best_match', ...ROWS_MS));
    expect(await load(path)).toEqual(EXPECTED);
  });

  it('reads µs timestamps (16 digits) as they are', async () => {
    const dir = await tempDir();
    const rows = ROWS_MS.map((r) => r.replace(/,(\d{13}),/, (_, ms: string) => `,${ms}000,`));
    rows[0] = rows[0]!.replace('1704067200123000', '1704067200123456');
    const trades = await load(await writeDump(dir, 'BTCUSDT-trades-2025-01-01.csv', lines(...rows)));
    expect(trades.map((t) => t.time)).toEqual([1_704_067_200_123_456, 1_704_067_200_456_000, 1_704_067_201_000_000]);
  });

  it('reads the same rows from a zip as from the CSV', async () => {
    const dir = await tempDir();
    expect(await load(await writeDump(dir, 'BTCUSDT-trades-2024-01-01.zip', lines(...ROWS_MS)))).toEqual(EXPECTED);
  });

  it('reads zips made by other tools: streamed Zip64, stored Zip64, data descriptor', async () => {
    for (const name of ['infozip-streamed.zip', 'infozip-stored-zip64.zip', 'python-data-descriptor.zip']) {
      expect(await load(join(FIXTURES, name)), name).toEqual(EXPECTED);
    }
  });

  it('accepts lowercase booleans, CRLF line ends, a byte order mark, blank lines and no final line feed', async () => {
    const dir = await tempDir();
    const text = `\uFEFF${ROWS_MS[0]!.replace('True,True', 'true,true')}\r\n\r\n${ROWS_MS[1]!.replace('False', 'false')}\r\n${ROWS_MS[2]}`;
    expect(await load(await writeDump(dir, 'BTCUSDT-trades-2024-01-01.csv', text))).toEqual(EXPECTED);
  });

  it('takes rows the fast path declines (exponents, quotes, spaces) through csv-parse, exactly', async () => {
    const dir = await tempDir();
    const text = lines('1001,"42000.01", 1e-3 ,42.00001,1704067200123,True,True', ...ROWS_MS.slice(1));
    expect(await load(await writeDump(dir, 'BTCUSDT-trades-2024-01-01.csv', text))).toEqual(EXPECTED);
  });

  it('converts amounts at the precisions given, exactly', async () => {
    const dir = await tempDir();
    const path = await writeDump(dir, 'ETHBTC-trades-2024-01-01.csv', lines('7,0.05512000,0.01230000,0.00068000,1704067200000,False,True'));
    const [trade] = tradesOf(await collect(readTrades(path, { scale: { quotePrecision: 5, basePrecision: 4 } })));
    expect(trade).toMatchObject({ price: 5512, qty: 123, quoteQty: 68 });
  });

  it('splits into batches of the requested size, the last one trimmed', async () => {
    const dir = await tempDir();
    const path = await writeDump(dir, 'BTCUSDT-trades-2024-01-01.csv', lines(...ROWS_MS));
    const batches = await collect(readTrades(path, { scale: SCALE8, batchSize: 2 }));
    expect(batches.map((b) => b.length)).toEqual([2, 1]);
    expect(batches[1]!.price.length).toBe(1);
    expect(tradesOf(batches)).toEqual(EXPECTED);
  });

  it('handles rows split across read chunks (a 3 MB file)', async () => {
    const dir = await tempDir();
    const rows: string[] = [];
    for (let i = 0; i < 40_000; i++) rows.push(`${i + 1},${100 + (i % 50)}.${String(i % 100).padStart(2, '0')}000000,0.00100000,0.10000000,${1_704_067_200_000 + i},${i % 2 === 0 ? 'True' : 'False'},True`);
    const trades = await load(await writeDump(dir, 'BTCUSDT-trades-2024-01-01.csv', lines(...rows)));
    expect(trades).toHaveLength(40_000);
    expect(trades[39_999]).toMatchObject({ id: 40_000, price: (100 + (39_999 % 50)) * 1e8 + 99e6, time: (1_704_067_200_000 + 39_999) * 1000 });
  });
});

describe('readTrades: several files', () => {
  it('reads a folder of daily files in date order, mixing csv and zip and ms and µs', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'BTCUSDT-trades-2025-01-01.zip', lines('3,1.00000000,1.00000000,1.00000000,1735689600010866,True,True'));
    await writeDump(dir, 'BTCUSDT-trades-2024-12-31.csv', lines('1,1.00000000,1.00000000,1.00000000,1735603200000,True,True', '2,1.00000000,1.00000000,1.00000000,1735689599999,False,True'));
    await writeDump(dir, 'notes.csv', 'not a dump\n');
    const trades = await load(dir);
    expect(trades.map((t) => [t.id, t.time])).toEqual([
      [1, 1_735_603_200_000_000],
      [2, 1_735_689_599_999_000],
      [3, 1_735_689_600_010_866],
    ]);
  });

  it('reads an explicit list of files, sorted by the dates in their names', async () => {
    const dir = await tempDir();
    const b = await writeDump(dir, 'BTCUSDT-trades-2024-01-02.csv', lines('2,1,1,1,1704153600000,True,True'));
    const a = await writeDump(dir, 'BTCUSDT-trades-2024-01-01.csv', lines('1,1,1,1,1704067200000,True,True'));
    expect((await load([b, a])).map((t) => t.id)).toEqual([1, 2]);
  });

  it('reads the zip and ignores its unpacked copy beside it', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'BTCUSDT-trades-2024-01-01.zip', lines(...ROWS_MS));
    await writeDump(dir, 'BTCUSDT-trades-2024-01-01.csv', lines(...ROWS_MS));
    expect(await load(dir)).toEqual(EXPECTED);
  });

  it('finds files in nested folders (the layout of data.binance.vision) and picks one symbol', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.zip', lines(...ROWS_MS));
    await writeDump(dir, 'spot/daily/trades/ETHBTC/ETHBTC-trades-2024-01-01.zip', lines('9,0.05500000,1.00000000,0.05500000,1704067200000,True,True'));
    const eth = tradesOf(await collect(readTrades(dir, { scale: SCALE8, symbol: 'ETHBTC' })));
    expect(eth.map((t) => t.id)).toEqual([9]);
    await expect(load(dir)).rejects.toThrow('several symbols (BTCUSDT, ETHBTC)');
  });
});
