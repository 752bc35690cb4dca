import { describe, expect, it } from 'vitest';
import { inspectDataFolder } from '../../../src/data/inspect-data-folder.ts';
import { lines, tempDir, writeDump } from './helpers.ts';

const trade = (id: number, ms: number) => `${id},1.00000000,1.00000000,1.00000000,${ms},True,True`;
const bar = (ms: number) => `${ms},1,1,1,1,0,${ms + 59_999},0,0,0,0,0`;
const D1 = Date.UTC(2024, 0, 1);
const DAY = 86_400_000;

describe('inspectDataFolder', () => {
  it('reports series, covered and missing days, rows, time range and id gaps', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'BTCUSDT-trades-2024-01-01.zip', lines(trade(1, D1 + 5), trade(2, D1 + 6), trade(5, D1 + 7)));
    await writeDump(dir, 'BTCUSDT-trades-2024-01-02.csv', lines(trade(6, D1 + DAY)));
    await writeDump(dir, 'BTCUSDT-trades-2024-01-05.csv', lines(trade(9, D1 + 4 * DAY)));
    await writeDump(dir, 'sub/BTCUSDT-1m-2024-01-01.csv', lines(bar(D1), bar(D1 + 60_000), bar(D1 + 240_000)));
    await writeDump(dir, 'readme.csv', 'hello\n');
    const report = await inspectDataFolder(dir);
    expect(report.otherFiles).toEqual(['readme.csv']);
    expect(report.series.map((s) => [s.symbol, s.kind, s.interval])).toEqual([
      ['BTCUSDT', 'klines', '1m'],
      ['BTCUSDT', 'trades', undefined],
    ]);
    const [klines, trades] = report.series;
    expect(trades).toMatchObject({ firstDay: '2024-01-01', lastDay: '2024-01-05', missingDays: [{ from: '2024-01-03', to: '2024-01-04' }], rows: 5 });
    expect(trades!.firstTime).toBe((D1 + 5) * 1000);
    expect(trades!.lastTime).toBe((D1 + 4 * DAY) * 1000);
    expect(trades!.gapCount).toBe(2);
    expect(trades!.gaps.map((g) => [g.after, g.before, g.missing])).toEqual([
      [2, 5, 2],
      [6, 9, 2],
    ]);
    expect(trades!.files.map((f) => [f.path, f.rows, f.timeUnit])).toEqual([
      ['BTCUSDT-trades-2024-01-01.zip', 3, 'ms'],
      ['BTCUSDT-trades-2024-01-02.csv', 1, 'ms'],
      ['BTCUSDT-trades-2024-01-05.csv', 1, 'ms'],
    ]);
    expect(trades!.problems).toEqual([]);
    expect(klines!.files[0]!.path).toBe('sub/BTCUSDT-1m-2024-01-01.csv');
    expect(klines!.gaps).toEqual([{ after: D1 * 1000 + 60_000_000, before: D1 * 1000 + 240_000_000, afterTime: D1 * 1000 + 60_000_000, beforeTime: D1 * 1000 + 240_000_000, missing: 2 }]);
  });

  it('lists unreadable files, overlaps and mixed time units as problems instead of failing', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'ETHBTC-trades-2024-12-31.csv', lines(trade(1, Date.UTC(2025, 0, 1) + 10)));
    await writeDump(dir, 'ETHBTC-trades-2025-01-01.csv', lines(`2,1.00000000,1.00000000,1.00000000,${Date.UTC(2025, 0, 1)}000,True,True`));
    await writeDump(dir, 'ETHBTC-trades-2025-01-02.csv', lines('3,x,1,1,1735776000000000,True,True'));
    const [series] = (await inspectDataFolder(dir)).series;
    // ms before 2025-01-01 and µs from then on is Binance's own switch: not a problem.
    expect(series!.problems, JSON.stringify(series!.problems)).toHaveLength(2);
    expect(series!.problems[0]).toMatch(/overlaps the previous file/);
    expect(series!.problems[1]).toMatch(/ETHBTC-trades-2025-01-02\.csv:1: column 2 \(price\): "x" is not a decimal/);
    expect(series!.files[2]!.error).toBeDefined();
  });

  it('a µs file dated before 2025 among ms files is a mixed-units problem', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'ETHBTC-trades-2024-12-30.csv', lines(trade(1, Date.UTC(2024, 11, 30) + 10)));
    await writeDump(dir, 'ETHBTC-trades-2024-12-31.csv', lines(`2,1.00000000,1.00000000,1.00000000,${Date.UTC(2024, 11, 31)}000,True,True`));
    const [series] = (await inspectDataFolder(dir)).series;
    expect(series!.problems).toEqual(['the files mix millisecond and microsecond timestamps (Binance: ms before 2025-01-01, µs from then on)']);
  });

  it('counts missing monthly bars by the calendar', async () => {
    const dir = await tempDir();
    const month = (y: number, m: number) => `${Date.UTC(y, m, 1)},1,1,1,1,0,${Date.UTC(y, m + 1, 1) - 1},0,0,0,0,0`;
    await writeDump(dir, 'BTCUSDT-1mo-2024-01.csv', lines(month(2024, 0), month(2024, 3)));
    const [series] = (await inspectDataFolder(dir)).series;
    expect(series).toMatchObject({ interval: '1M', gapCount: 1 });
    expect(series!.gaps[0]!.missing).toBe(2);
  });

  it('looks at names only when asked not to scan', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'BTCUSDT-aggTrades-2024-01.zip', 'not even csv');
    const [series] = (await inspectDataFolder(dir, { scan: false })).series;
    expect(series).toMatchObject({ kind: 'aggTrades', firstDay: '2024-01-01', lastDay: '2024-01-31', rows: 0, problems: [] });
    expect(series!.files[0]).toEqual({ path: 'BTCUSDT-aggTrades-2024-01.zip', date: '2024-01', period: 'monthly' });
  });
});
