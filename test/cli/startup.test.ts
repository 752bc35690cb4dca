/**
 * Start-up and packaging (issues 26.6, 27.5): bin/exsim.js runs the compiled JavaScript in dist/
 * (vitest's global setup builds it from the current sources), tsx is loaded only for a TypeScript
 * strategy, `--version` answers, a program importing 'exsim' runs under plain node, the types a
 * strategy outside the clone gets resolve from the compiled declarations, and `npm pack` ships
 * dist/ and what it reads at run time, not the sources.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DEFAULT_SNAPSHOT_EVERY } from '../../src/serve/index.ts';

const ROOT = resolve('.');
const EXSIM = join(ROOT, 'bin/exsim.js');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const WINDOW = ['--data', join(ROOT, 'data/sample'), '--from', '2024-01-01T00:00', '--to', '2024-01-01T00:05'];
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'exsim-startup-'));
  dirs.push(d);
  return d;
};
/** A folder where `import ... from 'exsim'` finds this clone, as `npm install <path>` leaves it. */
function withExsimInstalled(): string {
  const dir = tmp();
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules/exsim'), 'dir');
  return dir;
}

describe('the command line runs compiled', () => {
  test('--version prints the package version', () => {
    const run = spawnSync(process.execPath, [EXSIM, '--version'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${VERSION}\n`);
  });

  test('every module of exsim it loads is in dist/; tsx only for a TypeScript strategy', () => {
    const dir = tmp();
    // Records every URL the process resolves (registered first, so it sees what the others pass down).
    writeFileSync(join(dir, 'trace-hooks.mjs'), `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(process.env.TRACE_LOG, r.url + '\\n'); return r; }\n`);
    writeFileSync(join(dir, 'trace.mjs'), `import { register } from 'node:module';\nregister('./trace-hooks.mjs', import.meta.url);\n`);
    writeFileSync(join(dir, 'bot.mjs'), `export default async function bot(ctx) { await ctx.clock.sleep(1000); }\n`);
    writeFileSync(join(dir, 'bot.ts'), `import type { StrategyContext } from 'exsim';\nexport default async function bot(ctx: StrategyContext): Promise<void> { await ctx.clock.sleep(1000); }\n`);
    const loaded = (...args: string[]): string[] => {
      const log = join(dir, `trace-${args[0]}-${args[1] ?? ''}.log`.replace(/[^\w.-]/g, '_'));
      writeFileSync(log, '');
      const run = spawnSync(process.execPath, ['--import', join(dir, 'trace.mjs'), EXSIM, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, TRACE_LOG: log } });
      expect(run.status, run.stderr).toBe(0);
      return readFileSync(log, 'utf8').split('\n').filter((url) => url !== '');
    };
    const exsimModules = (urls: string[]) => urls.filter((url) => url.startsWith(`file://${ROOT}/`) && !url.includes('/node_modules/'));
    const tsx = (urls: string[]) => urls.some((url) => url.includes('/node_modules/tsx/'));
    for (const urls of [loaded('--version'), loaded('backtest', './bot.mjs', ...WINDOW), loaded('backtest', './bot.ts', ...WINDOW)]) {
      expect(exsimModules(urls).filter((url) => !/\/dist\/|\/bin\/exsim\.js$|\/examples\//.test(url))).toEqual([]);
    }
    const version = loaded('--version');
    // The command modules, and the layers under them, load in the actions.
    expect(exsimModules(version).filter((url) => /\/dist\/(engine|data|sim|futures|api-facade|serve|backtest|scenario|record)\//.test(url))).toEqual([]);
    expect(tsx(version)).toBe(false);
    expect(tsx(loaded('backtest', './bot.mjs', ...WINDOW))).toBe(false);
    expect(tsx(loaded('backtest', './bot.ts', ...WINDOW))).toBe(true);
  });

  test('serve --help says it replays --data, the sample market being the default without it', () => {
    const help = spawnSync(process.execPath, [EXSIM, 'serve', '--help'], { encoding: 'utf8' }).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('serve the simulated exchange (Binance-style spot REST API, WebSocket API and streams): a replay of --data on the paced clock, or without --data a static sample market');
    // The help states the journal's snapshot period serve applies when --snapshot-every is absent (not loaded for the help).
    expect(help).toContain(`every n commands (default ${DEFAULT_SNAPSHOT_EVERY})`);
  });
});

describe('the package', () => {
  test('a program importing exsim runs under plain node, a TypeScript strategy included', () => {
    const dir = withExsimInstalled();
    writeFileSync(
      join(dir, 'program.mjs'),
      [
        `import { formatUnits, loadStrategy, runBacktest } from 'exsim';`,
        `const strategy = await loadStrategy('trend');`,
        `const result = await runBacktest({ strategy, from: Date.UTC(2024, 0, 1) * 1000, to: Date.UTC(2024, 0, 1, 0, 5) * 1000 });`,
        `console.log(formatUnits(12345n, 2), result.strategyName, result.symbols.join(','));`,
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, ['program.mjs'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('123.45 trend BTCUSDT\n');
  });

  test('a strategy outside the clone type-checks against the compiled declarations, and a mistake is caught', () => {
    const dir = withExsimInstalled();
    writeFileSync(join(dir, 'package.json'), '{ "name": "my-bots", "private": true, "type": "module" }\n');
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: [] }, include: ['*.ts'] }));
    writeFileSync(
      join(dir, 'bot.ts'),
      [
        `import { RestCallError, type StrategyContext } from 'exsim';`,
        `export default async function bot(ctx: StrategyContext): Promise<void> {`,
        `  const now: number = ctx.clock.now();`,
        `  try { await ctx.client.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.001' }); }`,
        `  catch (error) { if (error instanceof RestCallError) ctx.log(\`\${error.code} at \${now}\`); }`,
        `  await ctx.clock.sleep('soon');`,
        `}`,
      ].join('\n'),
    );
    const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin/tsc');
    const run = spawnSync(process.execPath, [tsc, '-p', '.'], { cwd: dir, encoding: 'utf8' });
    // Only the deliberate mistake: everything else resolved to real types from dist/index.d.ts.
    expect(run.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^bot\.ts\(6,25\): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'\.$/)]);
  });

  test('npm pack ships bin, dist (JavaScript, declarations, the worker and hook .mjs files) and the run-time files, not the sources', () => {
    const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
    expect(pack.status, pack.stderr).toBe(0);
    const files = (JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    for (const path of ['bin/exsim.js', 'dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js', 'dist/backtest/sweep-worker.mjs', 'dist/backtest/strategy-hooks.mjs', 'dist/backtest/hash-worker.mjs', 'dist/data/threaded-depth-worker.mjs', 'data/sample/BTCUSDT-trades-2024-01-01.zip', 'examples/trend-strategy.ts', 'scenarios/schema.json', 'package.json', 'README.md']) {
      expect(files, path).toContain(path);
    }
    expect(files.filter((path) => /^(src|test|bench|node_modules)\//.test(path))).toEqual([]);
    // Every compiled module is shipped (dist/ as the build left it).
    const built = (readdirSync(join(ROOT, 'dist'), { recursive: true }) as string[]).filter((p) => p.endsWith('.js'));
    expect(built.filter((p) => !files.includes(`dist/${p}`))).toEqual([]);
  });
});
