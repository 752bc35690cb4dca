/**
 * vitest's global setup: compiles src/ into dist/ (tsconfig.build.json, what `npm run build` and
 * `prepare` run) before any test, so the tests that run `bin/exsim.js` as a process run the
 * current sources, compiled as users get them. The tests themselves import src/ directly.
 * Types are left to `tsc --noEmit` (the first half of `npm test`): this only emits.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export default function buildDist(): void {
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck'], { cwd: join(import.meta.dirname, '../..'), stdio: 'inherit' });
}
