import { describe, expect, it } from 'vitest';
import { formatDumpFileName, parseDumpFileName } from '../../../src/data/dump-file-name.ts';
import { civilFromDays, daysFromCivil, formatUtcMicros, parseUtcPeriod } from '../../../src/data/utc-date.ts';

describe('dump file names', () => {
  it('parses daily and monthly trades, aggTrades and klines of every interval', () => {
    expect(parseDumpFileName('BTCUSDT-trades-2024-01-01.zip')).toEqual({
      symbol: 'BTCUSDT',
      kind: 'trades',
      period: 'daily',
      date: '2024-01-01',
      start: Date.UTC(2024, 0, 1),
      end: Date.UTC(2024, 0, 2),
      extension: 'zip',
    });
    expect(parseDumpFileName('ETHBTC-aggTrades-2024-02.csv')).toMatchObject({ kind: 'aggTrades', period: 'monthly', start: Date.UTC(2024, 1, 1), end: Date.UTC(2024, 2, 1) });
    expect(parseDumpFileName('BTCUSDT-1s-2025-01-01.zip')).toMatchObject({ kind: 'klines', interval: '1s' });
    expect(parseDumpFileName('BTCUSDT-1mo-2024-12.zip')).toMatchObject({ kind: 'klines', interval: '1M', end: Date.UTC(2025, 0, 1) });
    expect(parseDumpFileName('BTCUSDT-1M-2024-12.zip')).toMatchObject({ interval: '1M' });
    expect(parseDumpFileName('BTCUSDT-1m-2024-12-31.zip')).toMatchObject({ interval: '1m' });
  });

  it('rejects other names and impossible dates', () => {
    for (const name of ['BTCUSDT-trades-2024-02-30.zip', 'BTCUSDT-7m-2024-01-01.zip', 'btcusdt-trades-2024-01-01.zip', 'BTCUSDT-trades-2024-01-01.zip.CHECKSUM', 'BTCUSDT-trades.zip']) {
      expect(parseDumpFileName(name), name).toBeNull();
    }
  });

  it('formats names that parse back', () => {
    expect(formatDumpFileName('BTCUSDT', 'klines', '2024-12', 'zip', '1M')).toBe('BTCUSDT-1mo-2024-12.zip');
    expect(formatDumpFileName('BTCUSDT', 'trades', '2024-01-01', 'csv')).toBe('BTCUSDT-trades-2024-01-01.csv');
    expect(() => formatDumpFileName('BTCUSDT', 'klines', '2024-01-01', 'csv')).toThrow('interval');
  });
});

describe('UTC calendar without Date objects', () => {
  it('converts days and civil dates both ways', () => {
    for (const [y, m, d] of [[1970, 1, 1], [2000, 2, 29], [2024, 12, 31], [2025, 1, 1], [1969, 12, 31]] as const) {
      expect(civilFromDays(daysFromCivil(y, m, d))).toEqual([y, m, d]);
    }
    expect(parseUtcPeriod('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(parseUtcPeriod('2023-02-29')).toBeNull();
    expect(formatUtcMicros(1_735_689_600_010_866)).toBe('2025-01-01T00:00:00.010866Z');
  });
});
