/**
 * Finds and imports a strategy module: a path to a .ts/.js/.mjs file, or the name of a bundled
 * example (`grid`, `trend`: examples/<name>-strategy.ts). TypeScript files load through tsx, which
 * compiled exsim (dist/) registers here, in the thread that loads one, only then: start-up and
 * JavaScript strategies never pay for it; from the source tree a TypeScript loader (tsx, vitest)
 * is already running. Everything a user can get wrong (no such file, a module that does not parse
 * or throws on import, no function exported) is an InputError.
 */
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { basename, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InputError } from './input-error.ts';
import { describeLoadFailure } from './strategy-load-error.ts';
import type { StrategyFunction, StrategyModule } from './strategy.ts';

export const EXAMPLES_DIR = fileURLToPath(new URL('../../examples/', import.meta.url));

/** Bundled examples by name. */
export const EXAMPLE_STRATEGIES: Readonly<Record<string, string>> = {
  grid: 'grid-strategy.ts',
  trend: 'trend-strategy.ts',
  book: 'book-strategy.ts',
  short: 'futures-short-strategy.ts',
};

export interface LoadedStrategy {
  readonly name: string;
  /** The module's file (absolute). */
  readonly path: string;
  readonly run: StrategyFunction;
  readonly params: Readonly<Record<string, string>>;
  readonly balances: Readonly<Record<string, string>> | undefined;
  readonly fees: StrategyModule['fees'];
  readonly bnbDiscount: boolean | undefined;
  readonly description: string;
  /** USDⓈ-M perpetuals the strategy trades (its `futures` export). */
  readonly futures?: readonly string[] | undefined;
}

export function resolveStrategyPath(spec: string): string {
  const example = EXAMPLE_STRATEGIES[spec];
  if (example !== undefined) return resolve(EXAMPLES_DIR, example);
  const path = resolve(spec);
  if (!existsSync(path)) {
    throw new InputError(`unknown strategy "${spec}": not a file, nor a bundled example (${Object.keys(EXAMPLE_STRATEGIES).join(', ')})`);
  }
  return path;
}

/** Compiled (dist/*.js): no TypeScript loader runs until one is needed. */
const COMPILED = import.meta.url.endsWith('.js');
/** What `import ... from 'exsim'` in a strategy is: this exsim's entry point, in the tree this module runs from. */
const SELF_ENTRY = new URL(COMPILED ? '../index.js' : '../index.ts', import.meta.url).href;
const TYPESCRIPT = /\.[cm]?tsx?$/;

// Module hooks are per thread (the main one, each sweep worker): so are these flags, module state.
let tsxRegistered = !COMPILED;
let hooksRegistered = false;
/** Registers tsx for a TypeScript strategy (compiled exsim only), then strategy-hooks.mjs in front of it. */
async function prepareLoader(path: string): Promise<void> {
  if (!tsxRegistered && TYPESCRIPT.test(path)) {
    tsxRegistered = true;
    const { register: registerTsx } = await import('tsx/esm/api');
    registerTsx();
    hooksRegistered = false; // hooks registered later run first: ours go in front of tsx's again
  }
  if (hooksRegistered) return;
  hooksRegistered = true;
  register(new URL('./strategy-hooks.mjs', import.meta.url), { data: { entry: SELF_ENTRY } });
}

export async function loadStrategy(spec: string): Promise<LoadedStrategy> {
  const path = resolveStrategyPath(spec);
  await prepareLoader(path);
  let module: StrategyModule;
  try {
    module = (await import(pathToFileURL(path).href)) as StrategyModule;
  } catch (error) {
    throw new InputError(`strategy ${spec} failed to load: ${describeLoadFailure(error, path)}`);
  }
  const run = module.default ?? module.strategy;
  if (typeof run !== 'function') throw new InputError(`strategy ${spec} exports no function (a default export or \`strategy\`)`);
  const params = module.params ?? {};
  for (const [key, value] of Object.entries(params)) {
    if (typeof value !== 'string') throw new InputError(`strategy ${spec}: params.${key} must be a string default, got ${typeof value}`);
  }
  const name = Object.entries(EXAMPLE_STRATEGIES).find(([, file]) => resolve(EXAMPLES_DIR, file) === path)?.[0] ?? basename(path).replace(/\.(m?[jt]s)$/, '');
  return { name, path, run, params, balances: module.balances, fees: module.fees, bnbDiscount: module.bnbDiscount, description: module.description ?? '', futures: module.futures };
}

/** `key=value,key=value` (the --param option) as a record. */
export function parseParams(text: string | undefined): Record<string, string> {
  const params: Record<string, string> = {};
  if (text === undefined || text === '') return params;
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new InputError(`--param must be key=value[,key=value...], got "${part}"`);
    params[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return params;
}
