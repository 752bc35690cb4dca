/**
 * The pieces of a queued sweep that need no Redis: the --queue URL, the data fingerprint and its
 * refusal reasons, the job id (the same run, the same id; any input changed, another), and the
 * strategy's content-addressed copy.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseTime } from '../../../../src/backtest/parse-time.ts';
import { dataDifference, fingerprintData } from '../../../../src/data/data-fingerprint.ts';
import { parseQueueUrl } from '../../../../src/backtest/queue/queue-connection.ts';
import { materializeStrategy, readStrategySource } from '../../../../src/backtest/queue/strategy-source.ts';
import { JOB_FORMAT, sweepJobId, type SweepJob } from '../../../../src/backtest/queue/sweep-job.ts';
import { SAMPLE_DIR } from '../../../../src/data/sample.ts';

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'exsim-queue-unit-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const FROM = parseTime('2024-01-01T00:00', 'from');
const TO = parseTime('2024-01-01T01:00', 'to');
const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

describe('--queue URL', () => {
  test.each(['redis://127.0.0.1:6379', 'redis://redis.internal:6380/2', 'rediss://user:pw@host:6380/0', 'redis://host'])('%s is taken as is', (url) => {
    expect(parseQueueUrl(url)).toBe(url);
  });
  test.each(['127.0.0.1:6379', 'http://host:6379', 'redis://:6379', 'redis://host:6379/db', 'redis://host:6379/0?x=1', ''])('%j is refused in one line', (url) => {
    expect(() => parseQueueUrl(url)).toThrow(`--queue must be redis://HOST:PORT[/DB], got "${url}"`);
  });
});

describe('data fingerprint', () => {
  test('every dump file of the symbol in the window, by name, size and SHA-256, and the market rules', async () => {
    const print = await fingerprintData('sample', ['BTCUSDT'], FROM, TO);
    expect(print.files.map((f) => f.name)).toEqual(['BTCUSDT-1m-2024-01-01.zip', 'BTCUSDT-aggTrades-2024-01-01.zip', 'BTCUSDT-trades-2024-01-01.zip']);
    const trades = readFileSync(join(SAMPLE_DIR, 'BTCUSDT-trades-2024-01-01.zip'));
    expect(print.files[2]).toEqual({ name: 'BTCUSDT-trades-2024-01-01.zip', size: trades.length, sha256: sha256(trades) });
    expect(print.sha256).toBe(sha256(JSON.stringify({ rules: print.rules, files: print.files })));
    // A window outside the data's days, or another symbol: other files.
    expect((await fingerprintData('sample', ['BTCUSDT'], FROM + 86_400_000_000, TO + 86_400_000_000)).files).toEqual([]);
    expect((await fingerprintData('sample', ['ETHBTC'], FROM, TO)).files.map((f) => f.name)).toEqual(['ETHBTC-1m-2024-01-01.zip', 'ETHBTC-aggTrades-2024-01-01.zip', 'ETHBTC-trades-2024-01-01.zip']);
  });

  test('a copy of the same files is the same data; a changed, missing or extra file is named in the reason', async () => {
    const expected = await fingerprintData('sample', ['BTCUSDT'], FROM, TO);
    const copy = tmp();
    cpSync(SAMPLE_DIR, copy, { recursive: true });
    const same = await fingerprintData(copy, ['BTCUSDT'], FROM, TO);
    expect(same.sha256).toBe(expected.sha256);
    expect(dataDifference(expected, same)).toBeNull();

    copyFileSync(join(SAMPLE_DIR, 'ETHBTC-1m-2024-01-01.zip'), join(copy, 'BTCUSDT-1m-2024-01-01.zip'));
    rmSync(join(copy, 'BTCUSDT-aggTrades-2024-01-01.zip'));
    copyFileSync(join(SAMPLE_DIR, 'BTCUSDT-trades-2024-01-01.zip'), join(copy, 'BTCUSDT-trades-2024-01-02.zip'));
    const changed = await fingerprintData(copy, ['BTCUSDT'], FROM, TO + 86_400_000_000);
    const kline = readFileSync(join(SAMPLE_DIR, 'ETHBTC-1m-2024-01-01.zip'));
    const original = expected.files[0]!;
    expect(dataDifference(expected, changed)).toBe(
      `BTCUSDT-1m-2024-01-01.zip is ${kline.length} bytes, sha256 ${sha256(kline).slice(0, 12)} here, ${original.size} bytes, sha256 ${original.sha256.slice(0, 12)} in the submitter's data; ` +
        'BTCUSDT-aggTrades-2024-01-01.zip is missing; BTCUSDT-trades-2024-01-02.zip is here but not in the submitter\'s data',
    );
  });

  test('other market rules (an exsim-market.json) are other data', async () => {
    const copy = tmp();
    cpSync(SAMPLE_DIR, copy, { recursive: true });
    const { SAMPLE_CONFIG } = await import('../../../../src/sample/sample-market.ts');
    // BTCUSDT without its MAX_NUM_ALGO_ORDERS filter. (A file that only left ETHBTC out would be the
    // same rules now: a data symbol the file lacks takes the sample market's rules.)
    const [btc] = SAMPLE_CONFIG.symbols;
    writeFileSync(join(copy, 'exsim-market.json'), JSON.stringify({ ...SAMPLE_CONFIG, symbols: [{ ...btc!, filters: btc!.filters!.filter((f) => f.filterType !== 'MAX_NUM_ALGO_ORDERS') }] }));
    const here = await fingerprintData(copy, ['BTCUSDT'], FROM, TO);
    expect(dataDifference(await fingerprintData('sample', ['BTCUSDT'], FROM, TO), here)).toBe('the market rules (exsim-market.json) differ');
  });
});

describe('job id', () => {
  const job = async (overrides: Partial<SweepJob['run']> = {}): Promise<SweepJob> => ({
    format: JOB_FORMAT,
    run: { data: 'sample', from: FROM, to: TO, symbols: ['BTCUSDT'], fillModel: 'queue', latency: 'none', seed: '1', params: { spread: '0.001', size: '0.01' }, ...overrides },
    strategy: await readStrategySource('grid'),
    data: await fingerprintData('sample', ['BTCUSDT'], FROM, TO),
  });

  test('the same run has the same id, whatever the order of its parameters or the data folder\'s name', async () => {
    const id = sweepJobId(await job());
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(sweepJobId(await job({ params: { size: '0.01', spread: '0.001' } }))).toBe(id);
    expect(sweepJobId(await job({ data: '/mnt/shared/sample' }))).toBe(id);
  });

  test('any input changed is another job', async () => {
    const id = sweepJobId(await job());
    const others = [
      await job({ params: { spread: '0.002', size: '0.01' } }),
      await job({ seed: '2' }),
      await job({ to: TO + 1 }),
      await job({ fillModel: 'touch' }),
      await job({ latency: '5ms' }),
      { ...(await job()), strategy: { ...(await job()).strategy, sha256: '0'.repeat(64) } },
      { ...(await job()), data: { ...(await job()).data, sha256: '0'.repeat(64) } },
    ];
    const ids = others.map(sweepJobId);
    expect(new Set([id, ...ids]).size).toBe(others.length + 1);
  });
});

describe('strategy source', () => {
  test('a bundled example travels as its text and hash, and a worker with the same bytes loads its own copy by name', async () => {
    const grid = await readStrategySource('grid');
    expect(grid.example).toBe('grid');
    expect(grid.fileName).toBe('grid-strategy.ts');
    expect(grid.sha256).toBe(sha256(grid.source));
    expect(await materializeStrategy(grid, tmp())).toBe('grid');
  });

  test('a strategy file is written to a content-addressed file with its own name; a changed text is refused', async () => {
    const source = await readStrategySource('test/fixtures/strategies/fails-when-asked.ts');
    expect(source.example).toBeNull();
    const cache = tmp();
    const path = await materializeStrategy(source, cache);
    expect(path).toBe(join(cache, source.sha256, 'fails-when-asked.ts'));
    expect(readFileSync(path, 'utf8')).toBe(source.source);
    expect(await materializeStrategy(source, cache)).toBe(path);
    await expect(materializeStrategy({ ...source, source: `${source.source}\n// changed` }, cache)).rejects.toThrow('does not match its sha256');
    // An example whose text differs from the worker's copy runs from the submitted text.
    const grid = await readStrategySource('grid');
    const edited = { ...grid, source: `${grid.source}\n`, sha256: sha256(`${grid.source}\n`) };
    expect(await materializeStrategy(edited, cache)).toBe(join(cache, edited.sha256, 'grid-strategy.ts'));
  });
});
