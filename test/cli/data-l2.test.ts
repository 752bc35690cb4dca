/**
 * The data commands on Tardis folders: `exsim data gen --l2` writes one, `data inspect` reports
 * its series (and what is wrong with a broken one), `data import` reads every file through its
 * reader and infers the rules of a symbol the market does not know from its trades and book,
 * into another folder or in place.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { genCommand, inspectCommand, type GenOptions } from '../../src/cli/data-commands.ts';
import { InputError } from '../../src/data/index.ts';
import { importCommand } from '../../src/cli/data-import.ts';
import { chooseSymbols, openMarketData, windowedDepth } from '../../src/data/index.ts';

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'exsim-l2-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const GEN: GenOptions = {
  out: '',
  symbol: 'SOLUSDT',
  from: '2024-03-01',
  days: '2',
  seed: '5',
  price: '100',
  tradesPerDay: '3000',
  depthPerDay: '30000',
  volatility: '0.03',
  tick: '0.01',
  step: '0.001',
  medianQty: '0.5',
  csv: false,
  l2: true,
};

let generated = '';
/** The generated data files (without the exsim-market.json `data gen` writes for a symbol it made up). */
const dataFiles = (): string[] => readdirSync(generated).filter((name) => name !== 'exsim-market.json').sort();
beforeAll(async () => {
  generated = tmp();
  await genCommand({ ...GEN, out: generated });
}, 60_000);

describe('exsim data gen --l2', () => {
  test('writes one incremental_book_L2 and one trades file a day, named as Tardis names them, and the rules of the symbol it made up', () => {
    expect(readdirSync(generated).sort()).toEqual([
      'binance_incremental_book_L2_2024-03-01_SOLUSDT.csv.gz',
      'binance_incremental_book_L2_2024-03-02_SOLUSDT.csv.gz',
      'binance_trades_2024-03-01_SOLUSDT.csv.gz',
      'binance_trades_2024-03-02_SOLUSDT.csv.gz',
      'exsim-market.json',
    ]);
  });

  test('refuses the Binance dump options and --depth-per-day without --l2', async () => {
    const out = tmp();
    await expect(genCommand({ ...GEN, out, klines: '1m', aggTrades: true })).rejects.toThrow(new InputError('--klines, --agg-trades: Binance dump options; --l2 writes Tardis incremental_book_L2 and trades files'));
    await expect(genCommand({ ...GEN, out, l2: false })).rejects.toThrow('--depth-per-day sets the depth of an --l2 market');
    await expect(genCommand({ ...GEN, out, price: '0.03' })).rejects.toThrow('--price must be at least 4 ticks with --l2, got "0.03"');
  });
});

describe('exsim data inspect on Tardis files', () => {
  test('one series per kind, their rows and times, no problems', async () => {
    const { output, problems } = await inspectCommand(generated, { scan: true, json: true });
    expect(problems).toBe(0);
    const report = JSON.parse(output) as { series: { symbol: string; kind: string; exchanges: string[]; rows: number; firstDay: string; lastDay: string; firstTime: number; files: { skippedUpdates?: number }[] }[] };
    expect(report.series.map((s) => [s.symbol, s.kind, s.exchanges, s.firstDay, s.lastDay])).toEqual([
      ['SOLUSDT', 'tardis:incremental_book_L2', ['binance'], '2024-03-01', '2024-03-02'],
      ['SOLUSDT', 'tardis:trades', ['binance'], '2024-03-01', '2024-03-02'],
    ]);
    const [l2, trades] = report.series;
    expect(l2!.firstTime).toBe(Date.UTC(2024, 2, 1) * 1000);
    expect(l2!.files.map((f) => f.skippedUpdates)).toEqual([0, 0]);
    expect(l2!.rows).toBeGreaterThan(55_000);
    expect(trades!.rows).toBeGreaterThan(5_000);
  });

  test('a truncated gzip, a file with no snapshot, another exchange in the series: problems, and a non-zero exit', async () => {
    const dir = tmp();
    const header = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount\n';
    const gz = gzipSync(`${header}${'binance,SOLUSDT,1709251200000000,1709251200000100,true,bid,100,1\n'.repeat(200)}`);
    writeFileSync(join(dir, 'binance_incremental_book_L2_2024-03-01_SOLUSDT.csv.gz'), gz.subarray(0, gz.length - 30));
    writeFileSync(join(dir, 'binance_incremental_book_L2_2024-03-02_SOLUSDT.csv'), `${header}binance,SOLUSDT,1709337600000000,1709337600000100,false,bid,100,1\n`);
    writeFileSync(join(dir, 'binance-futures_incremental_book_L2_2024-03-03_SOLUSDT.csv'), `${header}binance-futures,SOLUSDT,1709424000000000,1709424000000100,true,bid,100,1\n`);
    const { output, problems } = await inspectCommand(dir, { scan: true, json: false });
    expect(problems).toBe(3);
    expect(output.split('\n').filter((l) => l.startsWith('problem') || l.startsWith('skipped'))).toEqual([
      'problem SOLUSDT tardis:incremental_book_L2: the files are of several exchanges (binance, binance-futures): keep one market\'s files in the folder',
      `problem SOLUSDT tardis:incremental_book_L2: ${join(dir, 'binance_incremental_book_L2_2024-03-01_SOLUSDT.csv.gz')}: corrupt or truncated gzip: unexpected end of file`,
      'problem SOLUSDT tardis:incremental_book_L2: binance_incremental_book_L2_2024-03-02_SOLUSDT.csv: no snapshot: its 1 updates have no book to apply to',
      "skipped SOLUSDT tardis:incremental_book_L2: 1 updates before their file's first snapshot (no book to apply them to)",
    ]);
  });
});

describe('exsim data import of Tardis files', () => {
  test('copies them under the symbol and infers tick and step from the recorded trades and levels', async () => {
    const out = tmp();
    const report = await importCommand([generated], out);
    expect(report).toMatchObject({ symbols: ['SOLUSDT'], inferred: ['SOLUSDT'] });
    expect(readdirSync(join(out, 'SOLUSDT')).sort()).toEqual(dataFiles());
    const market = JSON.parse(readFileSync(join(out, 'exsim-market.json'), 'utf8'));
    const sol = market.symbols.find((s: { symbol: string }) => s.symbol === 'SOLUSDT');
    expect(sol).toMatchObject({ baseAsset: 'SOL', quoteAsset: 'USDT' });
    expect(sol.filters[0]).toMatchObject({ filterType: 'PRICE_FILTER', tickSize: '0.01000000' });
    expect(sol.filters[1]).toMatchObject({ filterType: 'LOT_SIZE', stepSize: '0.00100000' });
    const data = openMarketData(out);
    expect(chooseSymbols(data, undefined)).toEqual(['SOLUSDT']);
    const from = Date.UTC(2024, 2, 1, 12) * 1000;
    const depth = await windowedDepth(data, 'SOLUSDT', from, from + 60_000_000);
    expect(depth?.info.label).toBe('recorded L2 (tardis incremental_book_L2)');
  });

  test('a folder read directly asks for the import; importing it in place leaves its files and writes the rules', async () => {
    const dir = tmp();
    // The data files alone, as downloaded from Tardis (not the rules `data gen` wrote beside them).
    for (const name of dataFiles()) writeFileSync(join(dir, name), readFileSync(join(generated, name)));
    expect(() => chooseSymbols(openMarketData(dir), ['SOLUSDT'])).toThrow(`\`exsim data import ${dir} --out ${dir}\` to infer them`);
    const report = await importCommand([dir], dir);
    expect(report.files.map((f) => f.slice(dir.length + 1)).sort()).toEqual(dataFiles());
    expect(readdirSync(dir).sort()).toEqual([...dataFiles(), 'exsim-market.json'].sort());
    expect(chooseSymbols(openMarketData(dir), ['SOLUSDT'])).toEqual(['SOLUSDT']);
  });
});
