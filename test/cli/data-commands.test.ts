import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { genCommand, inspectCommand, type GenOptions } from '../../src/cli/data-commands.ts';
import { InputError } from '../../src/data/index.ts';

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'exsim-data-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const GEN: Omit<GenOptions, 'out'> = {
  symbol: 'BTCUSDT',
  from: '2024-03-01',
  days: '2',
  seed: '7',
  price: '42000',
  tradesPerDay: '2000',
  volatility: '0.02',
  tick: '0.01',
  step: '0.00001',
  medianQty: '0.0008',
  klines: '1m,1h',
  aggTrades: true,
  csv: true,
};

describe('exsim data gen', () => {
  test('writes trades, klines and aggTrades per day, byte-identical for the same seed', async () => {
    const a = tmp();
    const b = tmp();
    const written = await genCommand({ ...GEN, out: a });
    await genCommand({ ...GEN, out: b });
    expect(readdirSync(a).sort()).toEqual([
      'BTCUSDT-1h-2024-03-01.csv', 'BTCUSDT-1h-2024-03-02.csv', 'BTCUSDT-1m-2024-03-01.csv', 'BTCUSDT-1m-2024-03-02.csv',
      'BTCUSDT-aggTrades-2024-03-01.csv', 'BTCUSDT-aggTrades-2024-03-02.csv', 'BTCUSDT-trades-2024-03-01.csv', 'BTCUSDT-trades-2024-03-02.csv',
    ]);
    expect(written).toHaveLength(8);
    for (const name of readdirSync(a)) expect(readFileSync(join(b, name))).toEqual(readFileSync(join(a, name)));
    const other = tmp();
    await genCommand({ ...GEN, seed: '8', out: other });
    expect(readFileSync(join(other, 'BTCUSDT-trades-2024-03-01.csv'))).not.toEqual(readFileSync(join(a, 'BTCUSDT-trades-2024-03-01.csv')));
  });

  test.each([
    [{ from: '2024-02-30' }, '--from must be a date YYYY-MM-DD, got "2024-02-30"'],
    [{ days: '0' }, '--days must be an integer 1..366, got "0"'],
    [{ price: '-1' }, '--price must be a positive decimal with at most 8 places, got "-1"'],
    [{ klines: '1m,7m' }, '--klines: unknown interval "7m"'],
    [{ klines: '1w' }, '--klines: daily files hold klines up to 1d, not 1w'],
    [{ symbol: 'btc' }, '--symbol must be upper-case letters and digits, got "btc"'],
    [{ volatility: '2' }, '--volatility must be a daily fraction between 0 and 1, got "2"'],
  ])('refuses %j with one clear line', async (bad, message) => {
    const out = tmp();
    await expect(genCommand({ ...GEN, ...bad, out })).rejects.toThrow(InputError);
    await expect(genCommand({ ...GEN, ...bad, out })).rejects.toThrow(message);
    expect(readdirSync(out)).toEqual([]);
  });
});

describe('exsim data inspect', () => {
  test('reports each series of a generated folder with its rows, days and no gaps', async () => {
    const dir = tmp();
    await genCommand({ ...GEN, out: dir });
    const report = JSON.parse((await inspectCommand(dir, { scan: true, json: true })).output);
    const byKey = new Map<string, any>(report.series.map((s: any) => [`${s.kind}${s.interval ?? ''}`, s]));
    expect([...byKey.keys()].sort()).toEqual(['aggTrades', 'klines1h', 'klines1m', 'trades']);
    expect(byKey.get('klines1m')).toMatchObject({ firstDay: '2024-03-01', lastDay: '2024-03-02', rows: 2 * 1440, gapCount: 0, missingDays: [] });
    expect(byKey.get('trades').rows).toBeGreaterThan(1000);
    const table = (await inspectCommand(dir, { scan: true, json: false })).output;
    expect(table.split('\n')[0]).toBe(`${dir}: 4 series`);
    expect(table).toMatch(/^BTCUSDT\s+klines 1m\s+2\s+2024-03-01\.\.2024-03-02\s+2,880\s+2024-03-01T00:00:00\.000000Z/m);
  });

  test('the bundled sample holds both symbols', async () => {
    const report = JSON.parse((await inspectCommand('data/sample', { scan: false, json: true })).output);
    expect([...new Set(report.series.map((s: any) => s.symbol))].sort()).toEqual(['BTCUSDT', 'ETHBTC']);
  });

  test('counts the problem lines it prints (the command exits 1 when there are any)', async () => {
    const dir = tmp();
    await genCommand({ ...GEN, days: '1', out: dir });
    expect((await inspectCommand(dir, { scan: true, json: false })).problems).toBe(0);
    writeFileSync(join(dir, 'BTCUSDT-trades-2024-03-02.csv'), '1,abc,1,1,1709337600000,True,True\n');
    const { output, problems } = await inspectCommand(dir, { scan: true, json: false });
    expect(problems).toBe(1);
    expect(output).toMatch(/^problem BTCUSDT trades: .*BTCUSDT-trades-2024-03-02\.csv:1: column 2 \(price\): "abc" is not a decimal$/m);
    const cli = spawnSync(process.execPath, ['bin/exsim.js', 'data', 'inspect', dir], { encoding: 'utf8', timeout: 30_000 });
    expect(cli.status).toBe(1);
    expect(cli.stdout).toContain('problem BTCUSDT trades');
  }, 30_000);

  test('a missing folder is a usage error', async () => {
    await expect(inspectCommand(join(tmpdir(), 'exsim-no-such-folder'), { scan: true, json: false })).rejects.toThrow(InputError);
  });
});
