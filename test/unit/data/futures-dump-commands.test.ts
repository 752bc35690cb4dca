/**
 * `exsim data inspect` and `exsim data import` over a folder with spot and USDⓈ-M futures dumps
 * of the same names: inspect shows the futures series as such (market um, `futures/um trades` in
 * the table), and import keeps a futures dump under futures/um/ in the target (the folder is what
 * tells it from the spot file) without inferring spot rules from it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { inspectCommand } from '../../../src/cli/data-commands.ts';
import { importCommand } from '../../../src/cli/data-import.ts';
import { inspectDataFolder } from '../../../src/data/index.ts';
import { setTapeCache } from '../../../src/data/tape-cache.ts';
import { lines, tempDir, writeDump } from './helpers.ts';

const T = 1_704_067_200_000; // 2024-01-01 ms
const SPOT = lines(`1,42000.01,0.50000000,21000.00500000,${T},True,True`, `2,42000.02,0.25000000,10500.00500000,${T + 1000},False,True`);
const UM = lines('id,price,qty,quote_qty,time,is_buyer_maker', `7,42010.10,0.010,420.101,${T + 500},false`, `8,42010.20,1.500,63015.3,${T + 900},true`, `9,42010.30,0.002,84.0206,${T + 990},true`);

// Import builds the columnar cache; this test keeps it off the user's cache folder.
beforeEach(() => setTapeCache(null));
afterEach(() => setTapeCache(undefined));

async function mixedFolder(): Promise<string> {
  const dir = await tempDir();
  await writeDump(dir, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.zip', SPOT);
  await writeDump(dir, 'futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.zip', UM);
  return dir;
}

test('inspect: the spot and the futures/um series of one name apart, each read by its own columns', async () => {
  const dir = await mixedFolder();
  const report = await inspectDataFolder(dir);
  expect(report.series.map((s) => ({ symbol: s.symbol, kind: s.kind, market: s.market, rows: s.rows, problems: s.problems }))).toEqual([
    { symbol: 'BTCUSDT', kind: 'trades', market: undefined, rows: 2, problems: [] },
    { symbol: 'BTCUSDT', kind: 'trades', market: 'um', rows: 3, problems: [] },
  ]);
  const { output } = await inspectCommand(dir, { scan: true, json: false });
  expect(output).toContain('BTCUSDT  futures/um trades  1      2024-01-01..2024-01-01  3');
});

test('import: the futures dump lands under futures/um/<SYMBOL>/, the spot one under <SYMBOL>/; rules only for the spot symbol', async () => {
  const source = await mixedFolder();
  const out = await tempDir();
  const report = await importCommand([source], out, { onWarning: () => {} });
  expect(report.symbols).toEqual(['BTCUSDT']);
  expect(report.files.map((f) => f.slice(out.length + 1)).sort()).toEqual(['BTCUSDT/BTCUSDT-trades-2024-01-01.zip', 'futures/um/BTCUSDT/BTCUSDT-trades-2024-01-01.zip']);
  expect(existsSync(join(out, 'futures/um/BTCUSDT/BTCUSDT-trades-2024-01-01.zip'))).toBe(true);
  expect((JSON.parse(readFileSync(join(out, 'exsim-market.json'), 'utf8')) as { symbols: { symbol: string }[] }).symbols.map((s) => s.symbol)).toEqual(['BTCUSDT']);
});

test('inspect: fundingRate and markPriceKlines dumps under futures/um are named as what --futures reads, not as ignored files', async () => {
  const dir = await mixedFolder();
  await writeDump(dir, 'futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2024-01.zip', lines('calc_time,funding_interval_hours,last_funding_rate', `${T + 4},8,0.00010000`));
  await writeDump(dir, 'futures/um/daily/markPriceKlines/BTCUSDT/1m/BTCUSDT-1m-2024-01-01.zip', lines('open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore', `${T},42000,42010,41990,42005,0,${T + 59_999},0,60,0,0,0`));
  await writeDump(dir, 'notes/readme.csv', lines('a,b'));
  const report = await inspectDataFolder(dir);
  expect(report.futuresInputs).toEqual(['futures/um/daily/markPriceKlines/BTCUSDT/1m/BTCUSDT-1m-2024-01-01.zip', 'futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2024-01.zip']);
  expect(report.otherFiles).toEqual(['notes/readme.csv']);
  expect(report.series.map((s) => `${s.symbol} ${s.kind} ${s.market ?? 'spot'}`)).toEqual(['BTCUSDT trades spot', 'BTCUSDT trades um']);
  const { output } = await inspectCommand(dir, { scan: true, json: false });
  expect(output).toContain('USDⓈ-M funding and price klines (read by --futures; not scanned): futures/um/daily/markPriceKlines/BTCUSDT/1m/BTCUSDT-1m-2024-01-01.zip, futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2024-01.zip');
  expect(output).toContain('not data files (ignored): notes/readme.csv');
});
