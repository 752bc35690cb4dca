/**
 * `exsim backtest` end to end: the real binary on the bundled sample (three hours of it, to keep
 * the suite short), each example strategy, the report folder byte-identical between two runs,
 * a sweep whose rows match single runs, and the mistakes a user can make as one-line errors.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';

const exsim = (...args: string[]) => spawnSync(process.execPath, ['bin/exsim.js', ...args], { encoding: 'utf8', timeout: 120_000 });
const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'exsim-backtest-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const WINDOW = ['--from', '2024-01-01T00:00', '--to', '2024-01-01T03:00'];
const hashOf = (stdout: string) => /sha256 ([0-9a-f]{64})/.exec(stdout)?.[1];

describe('exsim backtest', () => {
  test('the grid example twice: the same report folder byte for byte, and the journal hash printed', () => {
    const a = tmp();
    const b = tmp();
    const first = exsim('backtest', 'grid', ...WINDOW, '--out', a);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const second = exsim('backtest', 'grid', ...WINDOW, '--out', b);
    expect(second.status).toBe(0);
    expect(hashOf(first.stdout)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOf(second.stdout)).toBe(hashOf(first.stdout));
    const files = readdirSync(a).sort();
    expect(files).toEqual(['equity.csv', 'fills.csv', 'log.txt', 'orders.csv', 'report.html', 'strategy-commands.jsonl.gz', 'summary.json', 'trades.csv']);
    for (const name of files) expect(readFileSync(join(b, name)).equals(readFileSync(join(a, name))), name).toBe(true);

    const summary = JSON.parse(readFileSync(join(a, 'summary.json'), 'utf8'));
    expect(summary.market).toMatchObject({ data: 'sample', symbols: ['BTCUSDT'], from: '2024-01-01T00:00:00.000000Z', to: '2024-01-01T03:00:00.000000Z', fillModel: 'queue', seed: '1' });
    expect(summary.journal.sha256).toBe(hashOf(first.stdout));
    const m = summary.metrics;
    for (const money of [m.pnl, m.startEquity, m.endEquity, m.fees.valued, m.maxDrawdown.amount, m.turnover.volume]) expect(money).toMatch(/^-?\d+\.\d{8}$/);
    expect(m.makerTaker.makerFills).toBeGreaterThan(0); // the grid rests LIMIT_MAKER quotes: every fill is a maker fill
    expect(m.makerTaker.takerFills).toBe(0);
    expect(m.markouts.map((k: { horizonSeconds: number }) => k.horizonSeconds)).toEqual([1, 5, 30, 60, 300]);
    // PnL is end minus start equity, exactly.
    expect(Number(m.endEquity) - Number(m.startEquity)).toBeCloseTo(Number(m.pnl), 6);

    // No full journal by default: the compact hash, the tape's fingerprint and the strategy's commands.
    expect(summary.journal).toMatchObject({ file: null, fileSha256: null });
    expect(summary.journal.tapeSha256).toMatch(/^[0-9a-f]{64}$/);
    const commands = gunzipSync(readFileSync(join(a, 'strategy-commands.jsonl.gz'))).toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(commands).toHaveLength(summary.journal.strategyCommands);
    expect(commands[0]).toMatchObject({ type: 'CreateAccount', accountId: 1 });
    expect(commands.filter((c: { type: string }) => c.type === 'PlaceOrder')).toHaveLength(m.orders.accepted);
    const fills = readFileSync(join(a, 'fills.csv'), 'utf8').trim().split('\n');
    expect(fills[0]).toBe('time,symbol,tradeId,orderId,side,price,qty,quoteQty,commission,commissionAsset,maker,print,rule');
    expect(fills.length - 1).toBe(m.makerTaker.makerFills);
    // orders.csv: the orders that traded or are still open (untouched canceled quotes are only counted).
    const orders = readFileSync(join(a, 'orders.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const filledIds = new Set(fills.slice(1).map((l) => l.split(',')[3]));
    expect(new Set(orders.filter((o) => Number(o[8]) > 0).map((o) => o[0]))).toEqual(filledIds);
    for (const o of orders) expect(Number(o[8]) > 0 || o[10] === 'NEW').toBe(true);
    expect(orders.length).toBeLessThan(m.orders.accepted);
    const equity = readFileSync(join(a, 'equity.csv'), 'utf8').trim().split('\n');
    expect(equity.length - 1).toBe(181); // every minute of 3 hours, and the end
    // The drawdown named with its unit: the quote amount below the running peak, and that as a fraction of the peak.
    expect(equity[0]).toBe('time,equity_USDT,drawdown_USDT,drawdown_fraction');
    let peak = 0;
    for (const line of equity.slice(1)) {
      const [, value, amount, fraction] = line.split(',').map(Number) as [number, number, number, number];
      peak = Math.max(peak, value);
      expect(amount).toBeCloseTo(peak - value, 8);
      expect(fraction).toBeCloseTo((peak - value) / peak, 8);
    }
  });

  test('--journal writes every command and its events; the run (and its hash) is the same as without it', () => {
    const out = tmp();
    const run = exsim('backtest', 'grid', '--from', '2024-01-01T00:00', '--to', '2024-01-01T00:30', '--journal', '--out', out);
    expect(run.stderr).toBe('');
    const plain = exsim('backtest', 'grid', '--from', '2024-01-01T00:00', '--to', '2024-01-01T00:30');
    expect(hashOf(run.stdout)).toBe(hashOf(plain.stdout));
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.journal.file).toBe('journal.jsonl.gz');
    // The journal file is the JSON lines its SHA-256 covers: gunzipped, the same digest.
    const lines = gunzipSync(readFileSync(join(out, 'journal.jsonl.gz')));
    expect(createHash('sha256').update(lines).digest('hex')).toBe(summary.journal.fileSha256);
    const entries = lines.toString('utf8').trim().split('\n');
    expect(entries).toHaveLength(summary.journal.entries);
    expect(JSON.parse(entries[0]!)).toMatchObject({ seq: 1, command: { type: 'CreateAccount', accountId: 1 } });
    expect(run.stdout).toContain('journal.jsonl.gz');
  });

  test('the trend example takes liquidity and exits by stop-loss, take-profit or crossover', () => {
    const out = tmp();
    const run = exsim('backtest', 'trend', '--from', '2024-01-01', '--to', '2024-01-01T08:00', '--param', 'fast=3,slow=8,stopLoss=0.001,takeProfit=0.001', '--out', out);
    expect(run.status).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.strategy.params).toMatchObject({ fast: '3', slow: '8' });
    expect(summary.metrics.makerTaker.takerFills).toBeGreaterThan(0);
    const log = readFileSync(join(out, 'log.txt'), 'utf8');
    expect(log).toMatch(/long 0\.04995 at/);
    expect(log).toMatch(/(stop-loss|take-profit) at \d+\.\d+/);
    // Measured against the benchmarks, with the annualisation stated.
    const m = summary.metrics;
    expect(m.benchmarks.cash).toEqual({ pnl: '0.00000000', return: 0 });
    expect(Number(m.pnl) - Number(m.benchmarks.hold.pnl)).toBeCloseTo(Number(m.pnlVsHold), 6);
    expect(m.excessReturn.vsHold).toBeCloseTo(m.return - m.benchmarks.hold.return, 7);
    expect(m.ratios).toMatchObject({ sampleSeconds: 60, periodsPerYear: 525_600, samples: 480 });
    expect(m.trades.roundTrips).toBeGreaterThan(0);
    expect(m.trades.wins + m.trades.losses).toBeLessThanOrEqual(m.trades.roundTrips);
    expect(m.trades.exposure).toBeGreaterThan(0);
    expect(Object.keys(m.fees.byAsset).sort()).toEqual(['BTC', 'USDT']); // buys pay in BTC, sells in USDT
    expect(run.stdout).toMatch(/Sharpe -?[\d.]+ \/ Sortino -?[\d.]+ \(annualised from 60 s returns\)/);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('against holding the opening balances');
    const chart = JSON.parse(/<script type="application\/json" id="chart-data">([\s\S]*?)<\/script>/.exec(html)![1]!);
    expect(chart.holdEquity).toHaveLength(chart.equity.length);
    expect(chart.holdEquity.at(-1)).toBeCloseTo(Number(m.startEquity) + Number(m.benchmarks.hold.pnl), 4);
  });

  test('--balances, --fees TIER and --bnb-discount set the account: the summary shows them and every commission is the discounted rate', () => {
    const out = tmp();
    const run = exsim('backtest', 'trend', '--from', '2024-01-01', '--to', '2024-01-01T08:00', '--param', 'fast=3,slow=8,stopLoss=0.001,takeProfit=0.001,size=0.01', '--balances', 'BTC=0,USDT=10000', '--fees', 'VIP3', '--bnb-discount', '--out', out);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('account 10000.00000000 USDT (command line), fees VIP3 maker 0.00031500, taker 0.00045000 (BNB discount: 25% off 0.00042/0.0006) (command line)');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.balances.start).toEqual({ USDT: '10000.00000000' });
    expect(summary.account).toEqual({
      balancesSource: 'command line',
      unfunded: [],
      fees: { tier: 'VIP3', maker: '0.00042', taker: '0.0006', bnbDiscount: true, effectiveMaker: '0.00031500', effectiveTaker: '0.00045000', source: 'command line' },
    });
    const fills = readFileSync(join(out, 'fills.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    expect(fills.length).toBeGreaterThan(0);
    for (const [, , , , side, , qty, quoteQty, commission, asset, maker] of fills) {
      // Taken from what was received (BTC on a buy, USDT on a sell), rounded up to the asset's unit.
      const rate = maker === 'true' ? 31_500n : 45_000n; // × 1e-8
      const received = side === 'BUY' ? BigInt(qty!.replace('.', '')) : BigInt(quoteQty!.replace('.', ''));
      expect(asset).toBe(side === 'BUY' ? 'BTC' : 'USDT');
      expect(BigInt(commission!.replace('.', ''))).toBe((received * rate + 99_999_999n) / 100_000_000n);
    }
  });

  test('without --balances the default account is what the run can value (no ETH on BTCUSDT alone); the module export is used otherwise', () => {
    const out = tmp();
    const run = exsim('backtest', 'grid', '--from', '2024-01-01T00:00', '--to', '2024-01-01T00:10', '--out', out);
    expect(run.stderr).toBe('');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.balances.start).toEqual({ BTC: '1.00000000', USDT: '100000.00000000' });
    expect(summary.account).toMatchObject({ balancesSource: 'default', unfunded: ['ETH'], fees: { tier: 'VIP0', effectiveMaker: '0.00100000', source: 'default' } });
    const both = exsim('backtest', 'grid', '--from', '2024-01-01T00:00', '--to', '2024-01-01T00:10', '--symbols', 'BTCUSDT,ETHBTC', '--json');
    expect(JSON.parse(both.stdout).balances.start).toEqual({ BTC: '1.00000000', ETH: '10.00000000', USDT: '100000.00000000' });
  });

  test('a window with a day missing in the data: a warning on stderr and the gap in summary.json', () => {
    const data = tmp();
    expect(exsim('data', 'gen', '--out', data, '--days', '3', '--trades-per-day', '2000', '--klines', '').status).toBe(0);
    rmSync(join(data, 'BTCUSDT-trades-2024-01-02.zip'));
    const out = tmp();
    writeFileSync(join(out, 'idle.mjs'), 'export default async function idle() {}\n');
    const run = exsim('backtest', join(out, 'idle.mjs'), '--data', data, '--from', '2024-01-01T23:00', '--to', '2024-01-03T01:00', '--out', out);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('warning: no BTCUSDT data from 2024-01-02T00:00:00.000000Z to 2024-01-03T00:00:00.000000Z (1.0 days): the replay jumps over it\n');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.market.gaps).toEqual([{ symbol: 'BTCUSDT', from: '2024-01-02T00:00:00.000000Z', to: '2024-01-03T00:00:00.000000Z' }]);
  });

  test('--latency and --fill-model change the run (and the hash), the same options reproduce it', () => {
    const base = exsim('backtest', 'grid', ...WINDOW);
    const slow = exsim('backtest', 'grid', ...WINDOW, '--latency', 'lognormal:20ms,0.5', '--fill-model', 'trade-through');
    const again = exsim('backtest', 'grid', ...WINDOW, '--latency', 'lognormal:20ms,0.5', '--fill-model', 'trade-through');
    expect(slow.status).toBe(0);
    expect(hashOf(slow.stdout)).not.toBe(hashOf(base.stdout));
    expect(hashOf(again.stdout)).toBe(hashOf(slow.stdout));
  });

  test('--sweep runs the grid on worker threads; each row matches a single run of its parameters', () => {
    const out = tmp();
    const run = exsim('backtest', 'grid', ...WINDOW, '--sweep', 'spread=0.0005,0.001;size=0.01', '--workers', '2', '--out', out);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/2 backtests on 2 worker threads/);
    const rows = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8'));
    expect(rows.map((r: { params: unknown }) => r.params)).toEqual([{ spread: '0.0005', size: '0.01' }, { spread: '0.001', size: '0.01' }]);
    const single = exsim('backtest', 'grid', ...WINDOW, '--param', 'spread=0.001,size=0.01');
    expect(rows[1].journalSha256).toBe(hashOf(single.stdout));
    expect(run.stdout).toMatch(/vs hold +excess return/);
    expect(rows[1].vsHold).toBe(JSON.parse(exsim('backtest', 'grid', ...WINDOW, '--param', 'spread=0.001,size=0.01', '--json').stdout).metrics.pnlVsHold);
  });

  test.each([
    [['backtest', 'nope'], 'unknown strategy "nope"'],
    [['backtest', 'grid', '--from', '2024-13-01'], '--from must be a UTC time'],
    [['backtest', 'grid', '--symbols', 'DOGEUSDT'], 'unknown symbol DOGEUSDT'],
    [['backtest', 'grid', '--data', '/no/such/folder'], 'no such data folder: /no/such/folder'],
    [['backtest', 'grid', '--fill-model', 'magic'], '--fill-model must be one of'],
    [['backtest', 'grid', '--param', 'nosuch=1'], 'has no parameter "nosuch"'],
    [['backtest', 'grid', '--latency', 'fast'], '--latency'],
    [['backtest', 'grid', '--latency', '5'], '--latency: "5" needs a unit: 5ms, 5us or 5s'],
    [['backtest', 'grid', '--sweep', 'spread'], '--sweep must be name=v1,v2'],
    [['backtest', 'grid', '--journal'], '--journal needs --out'],
    [['backtest', 'grid', '--balances', 'BTC'], '--balances must be ASSET=amount'],
    [['backtest', 'grid', '--balances', 'BNB=1', ...WINDOW], '--balances: BNB cannot be valued on this run'],
    [['backtest', 'grid', '--fees', 'VIP12'], '--fees must be maker=RATE,taker=RATE or a tier'],
    [['backtest', 'grid', '--fees', 'maker=1,taker=0.001'], '--fees maker must be a fraction 0..0.1'],
    [['backtest', 'test/fixtures/strategies/throws.ts', ...WINDOW], 'strategy failed at 2024-01-01T00:00:00.000Z: no exchangeInfo for you'],
  ])('%j is one line on stderr and exit 1', (args, message) => {
    const run = exsim(...args);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
