/**
 * What a strategy that fails to load says: for a syntax error, where (file:line:column), what, and
 * the offending line with a caret under the column, as a compiler would. The two shapes it reads:
 * esbuild's (tsx compiles a TypeScript file with it; its message is "Transform failed with N
 * errors:" then one `file:line:column: ERROR: text` line per error, the column counted from 0) and
 * V8's. A JavaScript module that does not parse rejects its import with a SyntaxError that has no
 * location on Node 20 (the location lives in a private field Node prints only for an uncaught
 * error), so the strategy file is checked again with `node --check`, whose report opens with
 * `file:line`, the line and a caret; ES module by default, as strategy-hooks.mjs loads an untyped
 * .js. Anything else (a module that throws on import, a missing import, a syntax error in a file
 * the strategy imports) keeps its message.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ESBUILD_ERROR = /^(.+?):(\d+):(\d+): ERROR: (.*)$/gm;
const V8_HEADER = /^(file:\/\/\S+?|\/\S+?):(\d+)\n(.*)\n( *)\^/m;

/** `path`: the strategy file whose import failed. */
export function describeLoadFailure(error: unknown, path: string): string {
  if (!(error instanceof Error)) return String(error);
  const transform = [...error.message.matchAll(ESBUILD_ERROR)];
  if (transform.length > 0) {
    return transform.map(([, file, line, column, text]) => located(file!, Number(line), Number(column) + 1, text!)).join('\n');
  }
  const header = error.name === 'SyntaxError' ? V8_HEADER.exec(syntaxCheck(path)) : null;
  if (header !== null) {
    const [, where, line, lineText, indent] = header;
    const file = where!.startsWith('file:') ? fileURLToPath(where!) : where!;
    return located(file, Number(line), indent!.length + 1, `${error.message}${commonJsHint(error.message)}`, lineText);
  }
  return error.message.split('\n')[0]!;
}

/** What `node --check` says about the file (empty when it parses: the error is in a file it imports). */
function syntaxCheck(path: string): string {
  const check = spawnSync(process.execPath, ['--experimental-default-type=module', '--check', path], { encoding: 'utf8', timeout: 10_000 });
  return check.status === 0 ? '' : check.stderr;
}

/** `file:line:column: message`, then the line and a caret under the column (tabs kept, so it lines up). */
function located(file: string, line: number, column: number, message: string, lineText = sourceLine(file, line)): string {
  const head = `${file}:${line}:${column}: ${message}`;
  if (lineText === undefined) return head;
  const pad = lineText.slice(0, column - 1).replace(/[^\t]/g, ' ');
  return `${head}\n  ${lineText}\n  ${pad}^`;
}

function sourceLine(file: string, line: number): string | undefined {
  try {
    return readFileSync(file, 'utf8').split(/\r?\n/)[line - 1];
  } catch {
    return undefined; // the location still says where; the line is a courtesy
  }
}

/** ES syntax in a .js file Node reads as CommonJS (its package.json says `"type": "commonjs"`). */
function commonJsHint(message: string): string {
  if (!/Cannot use import statement outside a module|Unexpected token 'export'/.test(message)) return '';
  return ' (this .js file is CommonJS: its package.json says "type": "commonjs"; name it .mjs or .ts to write import/export)';
}
