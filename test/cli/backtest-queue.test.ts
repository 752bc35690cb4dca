/**
 * `exsim backtest --sweep --queue` and `exsim worker` end to end, on a real `redis-server`
 * (started on a free loopback port, stopped at the end) and real worker processes: the queued
 * sweep.json equals the local one byte for byte, with 2 workers, after a worker is killed
 * mid-job, and on resubmission (reused, nothing runs); a worker with other data refuses; a
 * failing strategy is reported once, not retried (as the local sweep reports it: a row with its
 * error); Ctrl-C takes the waiting jobs off the queue.
 * Short windows of the bundled sample keep it quick. Skipped (and says so) without redis-server.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import seedrandom from 'seedrandom';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { QUEUE_NAME, queueConnection } from '../../src/backtest/queue/queue-connection.ts';
import { SAMPLE_DIR } from '../../src/data/sample.ts';
import { REDIS_SERVER, startRedisServer, type RedisServer } from '../support/redis-server.ts';

if (REDIS_SERVER === null) console.log('test/cli/backtest-queue.test.ts: SKIPPED, no redis-server on PATH (apt-get install redis-server)');

const WINDOW = ['--from', '2024-01-01T00:00', '--to', '2024-01-01T00:30'];
const GRID = ['--sweep', 'spread=0.0005,0.001;size=0.01,0.02'];

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'exsim-queue-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
/** The processes' temp folder (workers keep their strategy copies there), removed with the rest. */
const processTmp = tmp();

interface Finished {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** An exsim process whose output is collected line by line as it runs. */
class Exsim {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  stderr = '';
  readonly finished: Promise<Finished>;
  #waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];

  constructor(args: string[]) {
    this.child = spawn(process.execPath, ['bin/exsim.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: processTmp } });
    let partial = '';
    let stdout = '';
    this.child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      partial += chunk.toString();
      const parts = partial.split('\n');
      partial = parts.pop()!;
      for (const line of parts) this.#hear(line);
    });
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
      for (const line of chunk.toString().split('\n')) if (line !== '') this.#hear(line);
    });
    this.finished = new Promise((resolve) => this.child.once('close', (status) => resolve({ status, stdout, stderr: this.stderr })));
  }

  #hear(line: string): void {
    this.lines.push(line);
    this.#waiters = this.#waiters.filter((w) => (w.pattern.test(line) ? (w.resolve(line), false) : true));
  }

  /** The first line (past or future) matching `pattern`. */
  waitFor(pattern: RegExp, timeoutMs = 60_000): Promise<string> {
    const seen = this.lines.find((l) => pattern.test(l));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} in:\n${this.lines.join('\n')}`)), timeoutMs);
      this.#waiters.push({ pattern, resolve: (line) => (clearTimeout(timer), resolve(line)) });
    });
  }

  /** Ids (12 hex) of the jobs this worker started. */
  started(): string[] {
    return this.lines.flatMap((l) => /^start ([0-9a-f]{12}) /.exec(l)?.[1] ?? []);
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    await this.finished;
  }
}

/** The local sweep of a strategy failing in one combination (run once, for both tests that need it). */
let localFailingRun: { status: number | null; stdout: string; stderr: string; json: string } | null = null;
const localFailingSweep = () => {
  if (localFailingRun === null) {
    const out = tmp();
    const run = spawnSync(process.execPath, ['bin/exsim.js', 'backtest', 'test/fixtures/strategies/fails-when-asked.ts', ...WINDOW, '--sweep', 'fail=no,yes', '--out', out], { encoding: 'utf8' });
    localFailingRun = { status: run.status, stdout: run.stdout, stderr: run.stderr, json: readFileSync(join(out, 'sweep.json'), 'utf8') };
  }
  return localFailingRun;
};

test('a local sweep with a failing combination writes its row with the error, runs the others and exits 1', () => {
  const run = localFailingSweep();
  expect(run.status).toBe(1);
  expect(run.stderr).toBe('exsim: 1 of 2 backtests failed; the first: strategy failed at 2024-01-01T00:00:00.000Z: asked to fail\n');
  const rows = JSON.parse(run.json) as { params: unknown; error?: string; journalSha256?: string }[];
  expect(rows.map((r) => r.params)).toEqual([{ fail: 'no' }, { fail: 'yes' }]);
  expect(rows[0]!.journalSha256).toMatch(/^[0-9a-f]{64}$/);
  expect(rows[1]).toEqual({ params: { fail: 'yes' }, error: 'strategy failed at 2024-01-01T00:00:00.000Z: asked to fail' });
  expect(run.stdout).toMatch(/^ yes  failed: strategy failed at 2024-01-01T00:00:00\.000Z: asked to fail$/m);
  expect(run.stdout).toMatch(/^  no  -?\d+\.\d{8}  /m);
}, 60_000);

test.each([
  [['worker', '--queue', 'redis://127.0.0.1:1'], 'exsim: cannot reach Redis at redis://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1'],
  [['backtest', 'grid', '--queue', 'redis://127.0.0.1:6379'], 'exsim: --queue runs a --sweep; give the grid with --sweep'],
  [['backtest', 'grid', '--sweep', 'spread=0.001', '--workers', '2', '--queue', 'redis://127.0.0.1:6379'], 'exsim: --workers sets local threads; over --queue, start `exsim worker --concurrency N` processes instead'],
])('%j is one line on stderr and exit 1 (no Redis needed)', (args, message) => {
  const run = spawnSync(process.execPath, ['bin/exsim.js', ...args], { encoding: 'utf8', timeout: 60_000 });
  expect(run.status).toBe(1);
  expect(run.stderr).toBe(`${message}\n`);
}, 60_000);

const running: Exsim[] = [];
const exsim = (...args: string[]): Exsim => {
  const p = new Exsim(args);
  running.push(p);
  return p;
};

describe.skipIf(REDIS_SERVER === null)('exsim backtest --sweep --queue, exsim worker (a real redis-server)', () => {
  let redis: RedisServer;
  let queue: Queue;
  let local: string;

  const worker = async (...extra: string[]): Promise<Exsim> => {
    const w = exsim('worker', '--queue', redis.url, ...extra);
    await w.waitFor(/^worker .* ready/);
    return w;
  };
  const submit = (out: string, ...args: string[]): Exsim => exsim('backtest', 'grid', ...WINDOW, ...GRID, '--queue', redis.url, '--out', out, ...args);

  beforeAll(async () => {
    redis = await startRedisServer();
    queue = new Queue(QUEUE_NAME, { connection: await queueConnection(redis.url) });
    // The local sweeps to compare with (worker threads, no Redis).
    const out = tmp();
    const run = spawnSync(process.execPath, ['bin/exsim.js', 'backtest', 'grid', ...WINDOW, ...GRID, '--out', out], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    local = readFileSync(join(out, 'sweep.json'), 'utf8');
  }, 120_000);

  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop('SIGKILL')));
    await queue.obliterate({ force: true });
  });

  afterAll(async () => {
    await queue?.close();
    await redis?.stop();
  });

  test('2 worker processes give the local sweep.json byte for byte; resubmitted, every result is reused and nothing runs', async () => {
    // One with V8's GC helper threads kept, one without (the default): GC settings change no result.
    const [a, b] = await Promise.all([worker('--parallel-gc'), worker()]);
    const out = tmp();
    const first = await submit(out).finished;
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/4 backtests over the queue redis:\/\/127\.0\.0\.1:\d+ \(0 finished before\)/);
    expect(first.stderr).toMatch(/^\[4\/4\] /m);
    expect(readFileSync(join(out, 'sweep.json'), 'utf8')).toBe(local);
    // Each job ran once, and both workers took some.
    expect(new Set([...a.started(), ...b.started()]).size).toBe(4);
    expect(a.started().length + b.started().length).toBe(4);
    expect(a.started().length).toBeGreaterThan(0);
    expect(b.started().length).toBeGreaterThan(0);

    // With no worker left, the same sweep again is answered from the queue.
    await Promise.all([a.stop(), b.stop()]);
    const again = tmp();
    const second = await submit(again).finished;
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/\(4 finished before\)/);
    expect(readFileSync(join(again, 'sweep.json'), 'utf8')).toBe(local);
  }, 120_000);

  test('a worker killed (SIGKILL) mid-job at a seeded point: another takes the job up and the result is the local one', async () => {
    const random = seedrandom('exsim-queue-kill');
    const delayMs = Math.floor(random() * 150); // into the job: a cold worker's first backtest takes over a second
    const a = await worker('--lock-duration', '2000');
    const out = tmp();
    const submitter = submit(out);
    const started = await a.waitFor(/^start /);
    const killedJob = /^start ([0-9a-f]{12})/.exec(started)![1]!;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    expect(a.lines.some((l) => l.startsWith(`done ${killedJob}`))).toBe(false);
    await a.stop('SIGKILL');
    const b = await worker('--lock-duration', '2000');
    const done = await submitter.finished;
    expect(done.status, done.stderr).toBe(0);
    expect(readFileSync(join(out, 'sweep.json'), 'utf8')).toBe(local);
    expect(b.started()).toContain(killedJob); // run again from the start on the other worker
  }, 120_000);

  test('a worker whose data differs refuses the job with the reason; resubmitted with a right worker, it runs', async () => {
    const other = tmp();
    cpSync(SAMPLE_DIR, other, { recursive: true });
    copyFileSync(join(SAMPLE_DIR, 'ETHBTC-1m-2024-01-01.zip'), join(other, 'BTCUSDT-1m-2024-01-01.zip'));
    const wrong = await worker('--data', other);
    const out = tmp();
    const refused = await exsim('backtest', 'grid', ...WINDOW, '--sweep', 'spread=0.001', '--queue', redis.url, '--out', out).finished;
    expect(refused.status).toBe(1);
    const rows = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as { params: unknown; error?: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.params).toEqual({ spread: '0.001' });
    expect(rows[0]!.error).toMatch(/^worker .+ refused the job: its data \(.+\) is not the submitter's: BTCUSDT-1m-2024-01-01\.zip is \d+ bytes, sha256 [0-9a-f]{12} here, \d+ bytes, sha256 [0-9a-f]{12} in the submitter's data$/);
    expect(refused.stderr).toMatch(/exsim: 1 of 1 backtests failed; the first: worker .+ refused the job/);
    expect(wrong.lines.some((l) => l.startsWith('refused '))).toBe(true);
    expect(wrong.started()).toEqual([]);

    await wrong.stop();
    await worker('--data', 'sample');
    const retried = await exsim('backtest', 'grid', ...WINDOW, '--sweep', 'spread=0.001', '--queue', redis.url, '--out', out).finished;
    expect(retried.status, retried.stderr).toBe(0);
    const localRow = (JSON.parse(local) as { params: { spread: string; size: string } }[]).find((r) => r.params.spread === '0.001' && r.params.size === '0.01');
    expect(JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8'))).toEqual([{ ...localRow, params: { spread: '0.001' } }]);
  }, 120_000);

  test('a strategy that throws: its row carries the error as in the local sweep, and the job ran once', async () => {
    const w = await worker('--lock-duration', '2000');
    const out = tmp();
    const run = await exsim('backtest', 'test/fixtures/strategies/fails-when-asked.ts', ...WINDOW, '--sweep', 'fail=no,yes', '--queue', redis.url, '--out', out).finished;
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/exsim: 1 of 2 backtests failed; the first: strategy failed at 2024-01-01T00:00:00\.000Z: asked to fail/);
    expect(readFileSync(join(out, 'sweep.json'), 'utf8')).toBe(localFailingSweep().json);
    expect(w.started()).toHaveLength(2);
    const jobs = await queue.getCompleted();
    expect(jobs).toHaveLength(2);
    for (const job of jobs) expect(job.attemptsStarted).toBe(1);
    expect(jobs.map((j) => (j.returnvalue as { error?: string }).error).filter((e) => e !== undefined)).toEqual(['strategy failed at 2024-01-01T00:00:00.000Z: asked to fail']);
  }, 120_000);

  test('Ctrl-C on the submitter takes the sweep\'s waiting jobs off the queue', async () => {
    const submitter = submit(tmp());
    await submitter.waitFor(/^queued 4 backtests/);
    expect(await queue.getWaitingCount()).toBe(4);
    submitter.child.kill('SIGINT');
    const done = await submitter.finished;
    expect(done.status).toBe(1);
    expect(done.stderr).toMatch(/exsim: interrupted: took 4 waiting backtests off the queue/);
    expect(await queue.getWaitingCount()).toBe(0);
  }, 120_000);
});
