/**
 * Data folders are user input: an empty dump file is an error (not a quiet day), and a `.csv`
 * link that points out of the folder is neither read nor named.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFormatError } from '../../../src/data/data-format-error.ts';
import { listDataFiles } from '../../../src/data/dump-sources.ts';
import { inspectDataFolder } from '../../../src/data/inspect-data-folder.ts';
import { readTrades } from '../../../src/data/read-trades.ts';
import { collect, lines, rejection, SCALE8, tempDir, writeDump } from './helpers.ts';

const GOOD = '1001,42000.01000000,0.00100000,42.00001000,1704067200123,True,True';

describe('an empty trades file', () => {
  it('is a DataFormatError naming the file when read', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'BTCUSDT-trades-2024-01-01.csv', '');
    const error = await rejection(collect(readTrades(dir, { scale: SCALE8 })));
    expect(error).toBeInstanceOf(DataFormatError);
    expect(error.message).toBe(`${join(dir, 'BTCUSDT-trades-2024-01-01.csv')}: no rows: an empty trades file`);
  });

  it('is a problem in the folder report', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'BTCUSDT-trades-2024-01-01.csv', lines(GOOD));
    await writeDump(dir, 'BTCUSDT-trades-2024-01-02.csv', '');
    const report = await inspectDataFolder(dir, { scan: true });
    expect(report.series[0]!.problems).toEqual(['BTCUSDT-trades-2024-01-02.csv: no rows: an empty trades file']);
  });
});

describe('symbolic links in a data folder', () => {
  it('a .csv link out of the folder is not listed, read or echoed; a link inside it is', async () => {
    const outside = await tempDir();
    const secret = await writeDump(outside, 'secret.csv', 'root:x:0:0:SECRET-LINE\n');
    const dir = await tempDir();
    await symlink(secret, join(dir, 'BTCUSDT-trades-2024-01-01.csv'));
    await mkdir(join(dir, 'real'));
    const inside = await writeDump(join(dir, 'real'), 'day.txt', lines(GOOD));
    await symlink(inside, join(dir, 'BTCUSDT-trades-2024-01-02.csv'));
    expect(await listDataFiles(dir)).toEqual([join(dir, 'BTCUSDT-trades-2024-01-02.csv')]);
    const trades = await collect(readTrades(dir, { scale: SCALE8 }));
    expect(trades.reduce((n, b) => n + b.length, 0)).toBe(1);
    const report = JSON.stringify(await inspectDataFolder(dir, { scan: true }));
    expect(report).not.toContain('SECRET-LINE');
    expect(report).not.toContain('2024-01-01');
  });

  it('a folder holding only a link out of it has no trades files', async () => {
    const outside = await tempDir();
    await writeFile(join(outside, 'x.csv'), 'SECRET-LINE\n');
    const dir = await tempDir();
    await symlink(join(outside, 'x.csv'), join(dir, 'BTCUSDT-trades-2024-01-01.csv'));
    const error = await rejection(collect(readTrades(dir, { scale: SCALE8 })));
    expect(error.message).not.toContain('SECRET-LINE');
    expect(error.message).toBe(`no trades files in ${dir}`);
  });
});
