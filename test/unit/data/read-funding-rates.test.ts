/**
 * The USDⓈ-M fundingRate dumps (`futures/um/monthly/fundingRate/<S>/<S>-fundingRate-YYYY-MM.zip`,
 * header calc_time,funding_interval_hours,last_funding_rate): found by name under a futures/um
 * folder pair for the months overlapping a window, read into µs times, hours and 1e-8 rates;
 * a bad row names its file, line and column.
 */
import { describe, expect, test } from 'vitest';
import { parseFundingRateFileName, readFundingRates } from '../../../src/data/read-funding-rates.ts';
import { lines, tempDir, writeDump } from './helpers.ts';

const JAN = Date.UTC(2024, 0, 1);
const FEB = Date.UTC(2024, 1, 1);
const H = 3_600_000;

describe('file names', () => {
  test('symbol and month; other names are not fundingRate dumps', () => {
    expect(parseFundingRateFileName('BTCUSDT-fundingRate-2024-01.zip')).toEqual({ symbol: 'BTCUSDT', date: '2024-01', start: JAN, end: FEB });
    expect(parseFundingRateFileName('BTCUSDT-fundingRate-2024-01-01.zip')).toBeNull();
    expect(parseFundingRateFileName('BTCUSDT-trades-2024-01.zip')).toBeNull();
  });
});

describe('reading a folder', () => {
  test('rows of the months overlapping the window, oldest first; spot-folder and other symbols\' files ignored', async () => {
    const dir = await tempDir();
    const header = 'calc_time,funding_interval_hours,last_funding_rate';
    await writeDump(dir, 'futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2024-02.zip', lines(header, `${FEB},4,-0.00002500`));
    await writeDump(dir, 'futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2024-01.zip', lines(header, `${JAN},8,0.00037409`, `${JAN + 8 * H + 1},8,0.0001000000123`));
    // Not USDⓈ-M (no futures/um pair), another symbol, another month.
    await writeDump(dir, 'spot/BTCUSDT-fundingRate-2024-01.csv', lines(header, `${JAN},8,0.5`));
    await writeDump(dir, 'futures/um/monthly/fundingRate/ETHUSDT/ETHUSDT-fundingRate-2024-01.zip', lines(header, `${JAN},8,0.5`));
    await writeDump(dir, 'futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2023-12.zip', lines(header, `${JAN - 8 * H},8,0.5`));
    const read = await readFundingRates(dir, 'BTCUSDT', JAN * 1000, (FEB + H) * 1000);
    expect(read?.files.map((f) => f.slice(dir.length))).toEqual(['/futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2024-01.zip', '/futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2024-02.zip']);
    // µs times; rates at 1e-8 (0.0001000000123 rounds to 10 000).
    expect(read?.rows).toEqual([
      { time: JAN * 1000, intervalHours: 8, rate: 37_409 },
      { time: (JAN + 8 * H + 1) * 1000, intervalHours: 8, rate: 10_000 },
      { time: FEB * 1000, intervalHours: 4, rate: -2_500 },
    ]);
    expect(await readFundingRates(dir, 'BTCUSDT', (FEB + 30 * 24 * H) * 1000, (FEB + 31 * 24 * H) * 1000)).toBeNull();
  });

  test('a file without the header and with µs times reads the same', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'futures/um/BTCUSDT-fundingRate-2024-01.csv', lines(`${JAN * 1000},8,0.0001`));
    expect((await readFundingRates(dir, 'BTCUSDT', JAN * 1000, FEB * 1000))?.rows).toEqual([{ time: JAN * 1000, intervalHours: 8, rate: 10_000 }]);
  });

  test('a bad row names file, line and column', async () => {
    const dir = await tempDir();
    const path = await writeDump(dir, 'futures/um/BTCUSDT-fundingRate-2024-01.csv', lines('calc_time,funding_interval_hours,last_funding_rate', `${JAN},8,0.0001`, `${JAN + 8 * H},eight,0.0001`));
    await expect(readFundingRates(dir, 'BTCUSDT', JAN * 1000, FEB * 1000)).rejects.toThrow(`${path}:3: column 2 (funding_interval_hours): "eight" is not a whole number of hours`);
  });
});
