#!/usr/bin/env node
// Runs the compiled CLI (dist/: `npm run build`, which `npm install` runs in a clone through
// `prepare`; the published package ships it) under plain Node: no TypeScript loader at start-up,
// tsx is loaded only when a strategy written in TypeScript is (src/backtest/load-strategy.ts).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write(`exsim: the compiled code is missing (${fileURLToPath(new URL('../dist/', import.meta.url))}): run \`npm run build\` in ${fileURLToPath(new URL('..', import.meta.url))}\n`);
  process.exit(1);
}
await import(main.href);
