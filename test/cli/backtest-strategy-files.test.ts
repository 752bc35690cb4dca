/**
 * A strategy file anywhere on disk loads: `.ts`, `.mts`, `.js`, `.mjs`, in a folder with no
 * package.json or one that names no module type, importing `exsim` by its package name (types and
 * values) and its own helpers by relative path; a sweep's worker threads load it the same way.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const EXSIM = resolve('bin/exsim.js');
const SAMPLE = resolve('data/sample');
const exsim = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [EXSIM, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'exsim-strategy-files-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const WINDOW = ['--data', SAMPLE, '--from', '2024-01-01T00:00', '--to', '2024-01-01T00:20'];

/** A strategy using values and types from 'exsim' and a helper beside it; `ts` false: plain JavaScript. */
function writeStrategy(dir: string, file: string, helper: string, ts: boolean): void {
  const typed = (code: string, plain: string) => (ts ? code : plain);
  writeFileSync(
    join(dir, helper),
    `export const twice = (x${typed(': number', '')})${typed(': number', '')} => 2 * x;\n`,
  );
  writeFileSync(
    join(dir, file),
    [
      typed(`import type { StrategyContext } from 'exsim';`, ''),
      `import { formatUnits, RestCallError } from 'exsim';`,
      `import { twice } from './${helper}';`,
      `export const params = { quote: '50' };`,
      `export default async function buyOnce(ctx${typed(': StrategyContext', '')})${typed(': Promise<void>', '')} {`,
      `  ctx.log(\`helpers: \${formatUnits(12345n, 2)} \${typeof RestCallError} \${twice(21)}\`);`,
      `  await ctx.clock.sleep(60_000);`,
      `  await ctx.client.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: ctx.params.quote });`,
      `}`,
      ``,
    ].join('\n'),
  );
}

describe('strategy files outside the repository', () => {
  test.each([
    ['my-strategy.ts', 'helper.ts', true],
    ['my-strategy.js', 'helper.js', false],
    ['my-strategy.mts', 'helper.mts', true],
    ['my-strategy.mjs', 'helper.mjs', false],
  ])('%s with no package.json: loads, imports exsim and its helper, trades', (file, helper, ts) => {
    const dir = tmp();
    writeStrategy(dir, file, helper, ts);
    const run = exsim(dir, 'backtest', `./${file}`, ...WINDOW, '--out', 'report');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(readFileSync(join(dir, 'report/log.txt'), 'utf8')).toContain('helpers: 123.45 function 42');
    expect(JSON.parse(readFileSync(join(dir, 'report/summary.json'), 'utf8')).metrics.makerTaker.takerFills).toBe(1);
  });

  test('a package.json without "type" around it, and a sweep on worker threads', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'package.json'), '{ "name": "my-bots", "private": true }\n');
    writeStrategy(dir, 'bot.ts', 'helper.ts', true);
    const run = exsim(dir, 'backtest', 'bot.ts', ...WINDOW, '--sweep', 'quote=50,100', '--workers', '2');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/2 backtests on 2 worker threads/);
  });

  test('the bundled examples copied to a bare folder run as they do in place', () => {
    const dir = tmp();
    mkdirSync(join(dir, 'examples'));
    copyFileSync('examples/trend-strategy.ts', join(dir, 'examples/trend-strategy.ts'));
    const copied = exsim(dir, 'backtest', 'examples/trend-strategy.ts', ...WINDOW);
    expect(copied.stderr).toBe('');
    const bundled = exsim(dir, 'backtest', 'trend', ...WINDOW);
    const hash = (out: string) => /sha256 ([0-9a-f]{64})/.exec(out)?.[1];
    expect(hash(copied.stdout)).toMatch(/^[0-9a-f]{64}$/);
    expect(hash(copied.stdout)).toBe(hash(bundled.stdout));
  });
});
