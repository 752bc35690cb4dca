/**
 * A strategy that does not parse says where and what (issue 27.2: it used to say "Transform failed
 * with 1 error:" and nothing more): file:line:column, the message, the line and a caret under the
 * column, for TypeScript (esbuild through tsx) and JavaScript (V8) alike.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const EXSIM = resolve('bin/exsim.js');
const exsim = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [EXSIM, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'exsim-load-errors-'));
  dirs.push(d);
  return d;
};

test('TypeScript: file:line:column, esbuild\'s message, the line and a caret (a tab in the line kept, so it lines up)', () => {
  const dir = tmp();
  writeFileSync(join(dir, 'syntax.ts'), `import type { StrategyContext } from 'exsim';\nexport default async function s(ctx: StrategyContext) {\n\tconst x: number = 1 2;\n}\n`);
  const run = exsim(dir, 'backtest', './syntax.ts');
  expect(run.status).toBe(1);
  expect(run.stderr).toBe(`exsim: strategy ./syntax.ts failed to load: ${dir}/syntax.ts:3:22: Expected ";" but found "2"\n  \tconst x: number = 1 2;\n  \t                    ^\n`);
});

test('JavaScript: the same from V8\'s parser', () => {
  const dir = tmp();
  writeFileSync(join(dir, 'syntax.mjs'), `export default async function s(ctx) {\n  const x = 1 +;\n}\n`);
  const run = exsim(dir, 'backtest', './syntax.mjs');
  expect(run.status).toBe(1);
  expect(run.stderr).toBe(`exsim: strategy ./syntax.mjs failed to load: ${dir}/syntax.mjs:2:16: Unexpected token ';'\n    const x = 1 +;\n                 ^\n`);
});

test('import/export in a .js file of a CommonJS package: where, and why', () => {
  const dir = tmp();
  writeFileSync(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
  writeFileSync(join(dir, 'bot.js'), `export default async function s(ctx) {}\n`);
  const run = exsim(dir, 'backtest', './bot.js');
  expect(run.status).toBe(1);
  expect(run.stderr).toContain(
    `exsim: strategy ./bot.js failed to load: ${dir}/bot.js:1:1: Unexpected token 'export' (this .js file is CommonJS: its package.json says "type": "commonjs"; name it .mjs or .ts to write import/export)\n  export default async function s(ctx) {}\n  ^\n`,
  );
});

test('an error thrown while the module loads keeps its message', () => {
  const dir = tmp();
  writeFileSync(join(dir, 'throws.mjs'), `throw new Error('no config for this bot');\n`);
  const run = exsim(dir, 'backtest', './throws.mjs');
  expect(run.status).toBe(1);
  expect(run.stderr).toBe('exsim: strategy ./throws.mjs failed to load: no config for this bot\n');
});
