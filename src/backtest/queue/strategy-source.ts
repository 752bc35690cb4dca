/**
 * A strategy as a queued job carries it: its source text and SHA-256, so a worker runs exactly
 * what was submitted whatever is on its disk. The worker writes the text to a content-addressed
 * file (tmp/exsim-strategies/<sha256>/<the submitter's file name>, so the strategy keeps its name)
 * and loads it with the ordinary loader. A bundled example whose bytes on the worker are the same
 * is loaded from where it is (the same bytes, and its short name). A strategy must be one ES
 * module file: imports of types are fine, relative imports of other code are not carried.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { loadStrategy } from '../load-strategy.ts';

export interface StrategySource {
  /** The bundled example's name when the submitter named one (`grid`), else null. */
  readonly example: string | null;
  /** The submitter's file name (its base name is the strategy's name). */
  readonly fileName: string;
  readonly source: string;
  readonly sha256: string;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Reads the strategy `spec` (a path or an example name) as the submitter has it; loads it first, so a broken one fails here. */
export async function readStrategySource(spec: string): Promise<StrategySource> {
  const loaded = await loadStrategy(spec);
  const source = readFileSync(loaded.path, 'utf8');
  return { example: loaded.path === resolve(spec) ? null : spec, fileName: basename(loaded.path), source, sha256: sha256(source) };
}

/** Where the worker's copy of the strategy is, as a spec for `loadStrategy`; written on first use. */
export async function materializeStrategy(strategy: StrategySource, cacheDir = join(tmpdir(), 'exsim-strategies')): Promise<string> {
  if (sha256(strategy.source) !== strategy.sha256) throw new Error(`the strategy ${strategy.fileName} does not match its sha256 ${strategy.sha256}`);
  if (strategy.example !== null) {
    const local = await loadStrategy(strategy.example).catch(() => null);
    if (local !== null && sha256(readFileSync(local.path, 'utf8')) === strategy.sha256) return strategy.example;
  }
  if (!/^[0-9a-f]{64}$/.test(strategy.sha256) || basename(strategy.fileName) !== strategy.fileName || !/\.[cm]?[jt]s$/.test(strategy.fileName)) throw new Error(`bad strategy file name ${strategy.fileName}`);
  const dir = join(cacheDir, strategy.sha256);
  const path = join(dir, strategy.fileName);
  mkdirSync(dir, { recursive: true });
  // The file is read as an ES module, as exsim's own package reads its examples and a user's
  // strategies beside it (a .ts or .js in a folder with no package.json would not load as one).
  const packageJson = join(dir, 'package.json');
  if (!existsSync(packageJson)) writeAtomically(packageJson, '{ "type": "module" }\n');
  if (!(existsSync(path) && sha256(readFileSync(path, 'utf8')) === strategy.sha256)) writeAtomically(path, strategy.source);
  return path;
}

/** Written beside and renamed: a concurrent worker never reads half a file. */
function writeAtomically(path: string, text: string): void {
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, path);
}
