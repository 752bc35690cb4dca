/**
 * A strategy loads from whatever package it sits in (issue 27.1): an ES module package, a CommonJS
 * one as npm 11's `npm init -y` writes it (`"type": "commonjs"`: a .ts file there used to fail with
 * "Cannot require() ES Module ... in a cycle"), a CommonJS .js strategy, and a package that has
 * exsim installed beside it, linked from a path (`npm install <path>`) or copied (`npm install
 * exsim`). In every case `import ... from 'exsim'` is the exsim that runs the strategy: a refused
 * order's error is an instance of the RestCallError it imports. No package at all: see
 * backtest-strategy-files.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const ROOT = resolve('.');
const EXSIM = join(ROOT, 'bin/exsim.js');
const exsim = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [EXSIM, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
const WINDOW = ['--data', join(ROOT, 'data/sample'), '--from', '2024-01-01T00:00', '--to', '2024-01-01T00:20'];
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** What `npm init -y` writes with npm 11 (the `type` line is the one that matters). */
const NPM_INIT_PACKAGE = {
  name: 'my-bots',
  version: '1.0.0',
  description: '',
  main: 'index.js',
  scripts: { test: 'echo "Error: no test specified" && exit 1' },
  keywords: [],
  author: '',
  license: 'ISC',
  type: 'commonjs',
};

function project(packageJson: object | null): string {
  const dir = mkdtempSync(join(tmpdir(), 'exsim-strategy-package-'));
  dirs.push(dir);
  if (packageJson !== null) writeFileSync(join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  return dir;
}

/** A TypeScript strategy: exsim's types and values, a helper imported without an extension, a refused then a filled order. */
function writeTsStrategy(dir: string): void {
  writeFileSync(join(dir, 'helper.ts'), 'export const half = (x: number): number => x / 2;\n');
  writeFileSync(
    join(dir, 'bot.ts'),
    [
      `import { RestCallError, formatUnits, type StrategyContext } from 'exsim';`,
      `import { half } from './helper';`,
      `export const params = { quote: '50' };`,
      `export default async function bot(ctx: StrategyContext): Promise<void> {`,
      `  await ctx.clock.sleep(60_000);`,
      `  try {`,
      `    await ctx.client.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0' });`,
      `  } catch (error) {`,
      `    ctx.log(\`refused: same RestCallError \${error instanceof RestCallError}, \${formatUnits(12345n, 2)}, \${half(84)}\`);`,
      `  }`,
      `  await ctx.client.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: ctx.params.quote });`,
      `}`,
      ``,
    ].join('\n'),
  );
}

function expectTraded(dir: string, run: ReturnType<typeof exsim>): void {
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(readFileSync(join(dir, 'report/log.txt'), 'utf8')).toContain('refused: same RestCallError true, 123.45, 42');
  expect(JSON.parse(readFileSync(join(dir, 'report/summary.json'), 'utf8')).metrics.makerTaker.takerFills).toBe(1);
}

describe('a strategy in a package', () => {
  test('an ES module package ("type": "module")', () => {
    const dir = project({ name: 'my-bots', private: true, type: 'module' });
    writeTsStrategy(dir);
    expectTraded(dir, exsim(dir, 'backtest', 'bot.ts', ...WINDOW, '--out', 'report'));
  });

  test('a CommonJS package as `npm init -y` writes it: a .ts strategy loads as the ES module it is written as', () => {
    const dir = project(NPM_INIT_PACKAGE);
    writeTsStrategy(dir);
    expectTraded(dir, exsim(dir, 'backtest', 'bot.ts', ...WINDOW, '--out', 'report'));
  });

  test('a CommonJS package: a copy of the trend example gives the bundled example\'s hash; a sweep on worker threads loads it too', () => {
    const dir = project(NPM_INIT_PACKAGE);
    copyFileSync(join(ROOT, 'examples/trend-strategy.ts'), join(dir, 'trend-strategy.ts'));
    const copied = exsim(dir, 'backtest', 'trend-strategy.ts', ...WINDOW);
    expect(copied.stderr).toBe('');
    const hash = (out: string) => /sha256 ([0-9a-f]{64})/.exec(out)?.[1];
    expect(hash(copied.stdout)).toMatch(/^[0-9a-f]{64}$/);
    expect(hash(copied.stdout)).toBe(hash(exsim(dir, 'backtest', 'trend', ...WINDOW).stdout));
    const sweep = exsim(dir, 'backtest', 'trend-strategy.ts', ...WINDOW, '--sweep', 'fast=3,5', '--workers', '2');
    expect(sweep.stderr).toBe('');
    expect(sweep.stdout).toMatch(/2 backtests on 2 worker threads/);
  });

  test('a CommonJS package: a .js strategy written as CommonJS (module.exports) loads as CommonJS', () => {
    const dir = project(NPM_INIT_PACKAGE);
    writeFileSync(
      join(dir, 'bot.js'),
      [
        `const { twice } = require('./helper.js');`,
        `module.exports = async function bot(ctx) {`,
        `  ctx.log(\`commonjs: \${typeof module} \${twice(21)}\`);`,
        `  await ctx.client.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: '50' });`,
        `};`,
        ``,
      ].join('\n'),
    );
    writeFileSync(join(dir, 'helper.js'), 'exports.twice = (x) => 2 * x;\n');
    const run = exsim(dir, 'backtest', 'bot.js', ...WINDOW, '--out', 'report');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(readFileSync(join(dir, 'report/log.txt'), 'utf8')).toContain('commonjs: object 42');
  });

  test.each([
    ['linked from a path (npm install <path>)', (modules: string) => symlinkSync(ROOT, join(modules, 'exsim'), 'dir')],
    [
      'copied as npm installs a package (its own dependencies not installed)',
      (modules: string) => {
        mkdirSync(join(modules, 'exsim'));
        copyFileSync(join(ROOT, 'package.json'), join(modules, 'exsim/package.json'));
        cpSync(join(ROOT, 'dist'), join(modules, 'exsim/dist'), { recursive: true });
      },
    ],
  ])('a CommonJS package with exsim installed beside it, %s: the running exsim is the one imported', (_how, install) => {
    const dir = project({ ...NPM_INIT_PACKAGE, devDependencies: { exsim: '^0.1.0' } });
    mkdirSync(join(dir, 'node_modules'));
    install(join(dir, 'node_modules'));
    writeTsStrategy(dir);
    expectTraded(dir, exsim(dir, 'backtest', 'bot.ts', ...WINDOW, '--out', 'report'));
  });
});
