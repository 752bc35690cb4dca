// Module resolution hooks for strategy files (registered by load-strategy.ts with
// `module.register`, after tsx when tsx is needed, so they run before tsx's own hooks). Plain
// JavaScript: the hooks thread loads this file before any TypeScript support is in place.
//
// 1. `import ... from 'exsim'` from anywhere on disk resolves to the exsim that is running the
//    strategy: its entry point in the tree it runs from (dist/index.js compiled, src/index.ts from
//    the source tree; `initialize` gets it), and `exsim/...` subpaths through the package's own
//    `exports` (Node's package self-reference). A strategy in ~/bots needs no node_modules, and the
//    types and values it imports are those of the running engine, whatever copy (if any) is
//    installed beside it.
// 2. A `.ts` file outside node_modules loads as an ES module whatever its package.json says:
//    TypeScript's import/export syntax is an ES module's, and npm 11's `npm init -y` writes
//    `"type": "commonjs"`, under which Node and tsx would compile it to CommonJS and its
//    `import ... from 'exsim'` then fails ("Cannot require() ES Module ... in a cycle"). `.cts`
//    stays CommonJS, `.mts` is ESM anyway. A `.js` file whose package scope names no `"type"` (no
//    package.json, or one without the field) loads as an ES module too (Node would take it for
//    CommonJS); an explicit `"type": "commonjs"` is respected for `.js`, as Node does.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SELF_PACKAGE_JSON = new URL('../../package.json', import.meta.url).href;
const SELF_ROOT = new URL('../../', import.meta.url).href;

/** The running exsim's entry point (a file URL); null: resolve 'exsim' through the package's exports. */
let selfEntry = null;

export function initialize(data) {
  selfEntry = data?.entry ?? null;
}

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'exsim' && selfEntry !== null) return nextResolve(selfEntry, context);
  if ((specifier === 'exsim' || specifier.startsWith('exsim/')) && !(context.parentURL ?? '').startsWith(SELF_ROOT)) {
    return nextResolve(specifier, { ...context, parentURL: SELF_PACKAGE_JSON });
  }
  const resolved = await nextResolve(specifier, context);
  if (isUserModuleScript(resolved)) return { ...resolved, format: 'module' };
  return resolved;
}

/** A user's .ts file (any package type) or an untyped package's .js file that Node would load as CommonJS. */
function isUserModuleScript(resolved) {
  if (resolved.format !== 'commonjs' && resolved.format !== 'commonjs-typescript' && resolved.format != null) return false;
  if (!resolved.url.startsWith('file:')) return false;
  const url = new URL(resolved.url);
  if (url.pathname.includes('/node_modules/')) return false;
  if (url.pathname.endsWith('.ts')) return true;
  return url.pathname.endsWith('.js') && packageType(dirname(fileURLToPath(url))) === undefined;
}

/** The `type` field of the package.json nearest to `dir` (undefined: none, or no field). */
const typeByDir = new Map();
function packageType(dir) {
  if (typeByDir.has(dir)) return typeByDir.get(dir);
  let type;
  let text = null;
  try {
    text = readFileSync(join(dir, 'package.json'), 'utf8');
  } catch {
    const parent = dirname(dir);
    type = parent === dir ? undefined : packageType(parent);
  }
  if (text !== null) {
    try {
      type = JSON.parse(text).type;
    } catch {
      type = undefined; // Node reports a broken package.json itself when it reads it
    }
  }
  typeByDir.set(dir, type);
  return type;
}
