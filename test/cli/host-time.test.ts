/**
 * Host time inside a strategy run (issue 27.3, src/backtest/host-time-guard.ts): a host timer or a
 * Date.now read in the strategy's code fails the run, naming the call site and ctx.clock's
 * equivalent; `--allow-host-time` runs it with a warning. The runtime's own event-loop barrier and
 * the data readers are not the strategy's and pass (every other backtest test runs under the guard).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadStrategy, runBacktest } from '../../src/index.ts';

const EXSIM = resolve('bin/exsim.js');
const WINDOW = ['--data', resolve('data/sample'), '--from', '2024-01-01T00:00', '--to', '2024-01-01T00:20'];
const dir = mkdtempSync(join(tmpdir(), 'exsim-host-time-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const exsim = (...args: string[]) => spawnSync(process.execPath, [EXSIM, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });

function strategy(file: string, lines: string[]): string {
  writeFileSync(join(dir, file), lines.join('\n') + '\n');
  return `./${file}`;
}

const TIMEOUT = strategy('timeout.ts', [
  `import type { StrategyContext } from 'exsim';`,
  `export default async function timeout(ctx: StrategyContext): Promise<void> {`,
  `  await new Promise((resolve) => setTimeout(resolve, 1000));`,
  `  await ctx.client.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: '50' });`,
  `}`,
]);

describe('host time in a strategy', () => {
  test('setTimeout fails the run: where, why, and ctx.clock.sleep instead', () => {
    const run = exsim('backtest', TIMEOUT, ...WINDOW);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `exsim: strategy failed at 2024-01-01T00:00:00.000Z: setTimeout called by the strategy at ${dir}/timeout.ts:3:34: host timers run on the machine's clock: the replay does not wait for them; wait with \`await ctx.clock.sleep(ms)\` (or ctx.clock.sleepUntil(timeMs)) (--allow-host-time runs it anyway, not reproducibly)\n`,
    );
  });

  test('--allow-host-time runs it, with one warning', () => {
    const run = exsim('backtest', TIMEOUT, ...WINDOW, '--allow-host-time');
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(
      `exsim: warning: setTimeout called by the strategy at ${dir}/timeout.ts:3:34: host timers run on the machine's clock: the replay does not wait for them, so the run is not reproducible; wait with \`await ctx.clock.sleep(ms)\` (or ctx.clock.sleepUntil(timeMs)) (running anyway: --allow-host-time)\n`,
    );
  });

  test('Date.now in a trade listener, setInterval, setImmediate, and setTimeout from node:timers/promises', () => {
    const path = strategy('host.mjs', [
      `import { setTimeout as sleep } from 'node:timers/promises';`,
      `export const params = { use: 'now' };`,
      `export default async function host(ctx) {`,
      `  if (ctx.params.use === 'now') ctx.onTrade(() => Date.now());`,
      `  await ctx.clock.sleep(1000);`,
      `  if (ctx.params.use === 'interval') setInterval(() => {}, 10);`,
      `  if (ctx.params.use === 'immediate') await new Promise((resolve) => setImmediate(resolve));`,
      `  if (ctx.params.use === 'promises') await sleep(5);`,
      `}`,
    ]);
    const failure = (use: string) => exsim('backtest', path, ...WINDOW, '--param', `use=${use}`).stderr.replace(/ at 2024-[0-9T:.-]+Z/, '').replace(/:\d+:\d+: [^]*$/, '');
    expect(failure('now')).toBe(`exsim: strategy failed: Date.now() read by the strategy at ${dir}/host.mjs`);
    expect(failure('interval')).toBe(`exsim: strategy failed: setInterval called by the strategy at ${dir}/host.mjs`);
    expect(failure('immediate')).toBe(`exsim: strategy failed: setImmediate called by the strategy at ${dir}/host.mjs`);
    expect(failure('promises')).toBe(`exsim: strategy failed: node:timers/promises setTimeout called by the strategy at ${dir}/host.mjs`);
    expect(exsim('backtest', path, ...WINDOW, '--param', 'use=now').stderr).toContain('read the simulated time with `ctx.clock.now()`');
  });

  test('a strategy that catches the error still fails the run; the host functions are put back after it', async () => {
    const setTimeoutBefore = globalThis.setTimeout;
    const strategy = { ...(await loadStrategy('trend')), run: async () => {
      try {
        setTimeout(() => {}, 1);
      } catch {
        // swallowed: the run fails all the same
      }
    } };
    await expect(runBacktest({ strategy, from: Date.UTC(2024, 0, 1) * 1000, to: Date.UTC(2024, 0, 1, 0, 5) * 1000 })).rejects.toThrow(/^strategy failed at 2024-01-01T00:00:00.000Z: setTimeout called by the strategy at .*host-time.test.ts:\d+:\d+: /);
    expect(globalThis.setTimeout).toBe(setTimeoutBefore);
  });
});
