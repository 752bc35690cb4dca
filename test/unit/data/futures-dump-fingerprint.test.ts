/**
 * The data fingerprint a queued job carries: futures/um files beside the spot ones leave a spot
 * run's fingerprint what the spot-only folder gives, and count (named `futures/um/<name>`, never
 * the spot file's name) for the perpetuals a run trades.
 */
import { expect, test } from 'vitest';
import { fingerprintedPerpetuals } from '../../../src/backtest/queue/sweep-job.ts';
import { fingerprintData } from '../../../src/data/data-fingerprint.ts';
import { lines, tempDir, writeDump } from './helpers.ts';

const T = 1_704_067_200_000; // 2024-01-01 ms
const SPOT = lines(`1,42000.01,0.50000000,21000.00500000,${T},True,True`);
const UM = lines('id,price,qty,quote_qty,time,is_buyer_maker', `7,42010.10,0.010,420.101,${T + 500},false`);
const DAY = [T * 1000, (T + 86_400_000) * 1000] as const;

test("a spot run's fingerprint ignores the futures/um files; a futures run's names them apart", async () => {
  const spotOnly = await tempDir();
  await writeDump(spotOnly, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', SPOT);
  const mixed = await tempDir();
  await writeDump(mixed, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', SPOT);
  await writeDump(mixed, 'futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', UM);
  // The sample market's rules and the one spot file (name, size, SHA-256), as computed on the spot-only folder.
  const sha = '92d02206546dbf84672c63d324bcc07abf877f3dc331d277eae33aa252b9ebb8';
  expect((await fingerprintData(spotOnly, ['BTCUSDT'], ...DAY)).sha256).toBe(sha);
  expect((await fingerprintData(mixed, ['BTCUSDT'], ...DAY)).sha256).toBe(sha);
  expect((await fingerprintData(mixed, ['BTCUSDT'], ...DAY, ['BTCUSDT'])).files.map((f) => f.name)).toEqual(['BTCUSDT-trades-2024-01-01.csv', 'futures/um/BTCUSDT-trades-2024-01-01.csv']);
});

test("a queued job counts the futures/um files of every replayed symbol, so a strategy's own `futures` export is covered", async () => {
  const mixed = await tempDir();
  await writeDump(mixed, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', SPOT);
  await writeDump(mixed, 'futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', UM);
  // No --futures on the command line: the strategy module may still trade um:BTCUSDT.
  expect(fingerprintedPerpetuals({ symbols: ['BTCUSDT'], futures: undefined })).toEqual(['BTCUSDT']);
  expect(fingerprintedPerpetuals({ symbols: ['BTCUSDT', 'ETHBTC'], futures: ['BTCUSDT'] })).toEqual(['BTCUSDT', 'ETHBTC']);
  const run = { symbols: ['BTCUSDT'] };
  expect((await fingerprintData(mixed, run.symbols, ...DAY, fingerprintedPerpetuals(run))).files.map((f) => f.name)).toEqual(['BTCUSDT-trades-2024-01-01.csv', 'futures/um/BTCUSDT-trades-2024-01-01.csv']);
});

test('a perpetual\'s fundingRate dump counts too (its rates are settled), and an interval in a futures entry names the symbol', async () => {
  const dir = await tempDir();
  await writeDump(dir, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', SPOT);
  await writeDump(dir, 'futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2024-01.csv', lines('calc_time,funding_interval_hours,last_funding_rate', `${T},8,0.0001`));
  expect(fingerprintedPerpetuals({ symbols: ['BTCUSDT'], futures: ['BTCUSDT:4h'] })).toEqual(['BTCUSDT']);
  expect((await fingerprintData(dir, ['BTCUSDT'], ...DAY, ['BTCUSDT'])).files.map((f) => f.name)).toEqual(['BTCUSDT-trades-2024-01-01.csv', 'futures/um/BTCUSDT-fundingRate-2024-01.csv']);
  // A spot-only run does not read it.
  expect((await fingerprintData(dir, ['BTCUSDT'], ...DAY)).files.map((f) => f.name)).toEqual(['BTCUSDT-trades-2024-01-01.csv']);
});
