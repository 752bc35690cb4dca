/**
 * Host time inside a strategy run (issue 27.3). A strategy that awaits a host timer
 * (`setTimeout`, `setInterval`, `setImmediate`, also from node:timers and node:timers/promises)
 * is not waited for: the replay runs on as fast as the CPU allows, and whatever the timer
 * triggers lands at some arbitrary later simulated time, differently on every machine. `Date.now()`
 * is the machine's time, not the backtest's. Both used to pass silently.
 *
 * While a strategy runs (StrategyRuntime.drive), those functions are replaced by wrappers that
 * look at their caller: the nearest stack frame that is neither Node's own (`node:`) nor in a
 * node_modules folder. A frame in exsim's own code (the folder this file sits in: src/ or dist/;
 * the runtime, the data readers) is the host's business and goes through untouched; any other file
 * is the strategy's (its module, its helpers, the bundled examples, a library it called on the way
 * there). Then, by policy, the call throws a HostTimeError and fails the run even if the strategy
 * catches it (`fail`), or runs after a warning on stderr, once per call site (`warn`,
 * `--allow-host-time`). Both name what to use instead: `ctx.clock`. A frame costs a stack capture,
 * only on these calls; the runtime's own event-loop barrier uses `hostSetImmediate`, never wrapped.
 *
 * Not seen: `new Date()` (replacing the Date constructor would break `instanceof Date` for every
 * library), `performance.now()`, and promises the host resolves (a file read).
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type HostTimePolicy = 'fail' | 'warn';

/** A strategy called a host timer or read the host's clock. */
export class HostTimeError extends Error {
  override readonly name = 'HostTimeError';
}

/** The host's setImmediate as it was when this module loaded (before any guard): the runtime's barrier. */
export const hostSetImmediate = globalThis.setImmediate;

const require = createRequire(import.meta.url);
/** Their CommonJS exports objects: what `import { setTimeout } from 'node:timers/promises'` reads, once synced. */
const TIMER_MODULES: readonly [string, Record<string, unknown>][] = [
  ['', globalThis as unknown as Record<string, unknown>],
  ['node:timers ', require('node:timers') as Record<string, unknown>],
  ['node:timers/promises ', require('node:timers/promises') as Record<string, unknown>],
];
const TIMERS = ['setTimeout', 'setInterval', 'setImmediate'] as const;

const INSTEAD: Readonly<Record<(typeof TIMERS)[number] | 'Date.now', string>> = {
  setTimeout: 'wait with `await ctx.clock.sleep(ms)` (or ctx.clock.sleepUntil(timeMs))',
  setInterval: 'repeat with `ctx.clock.every(ms, task)`',
  setImmediate: 'yield with `await ctx.clock.sleep(0)`',
  'Date.now': 'read the simulated time with `ctx.clock.now()`',
};

/** exsim's own code: the folder above this file's (src/ from the source tree, dist/ compiled). */
const EXSIM_CODE = new URL('../', import.meta.url).href;
/** `    at fn (file:///x.ts:3:9)` or `    at file:///x.ts:3:9` (also plain paths): the location. */
const FRAME = /^\s+at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/;

/**
 * Replaces the host's timers and Date.now until the returned function is called. `onViolation`
 * gets each HostTimeError under `fail` (the runtime fails the run with the first).
 */
export function guardHostTime(policy: HostTimePolicy, onViolation: (error: HostTimeError) => void): () => void {
  const restore: (() => void)[] = [];
  const warned = new Set<string>();
  const check = (name: keyof typeof INSTEAD, label: string, wrapper: (...args: never[]) => unknown): void => {
    const at = strategyCaller(wrapper);
    if (at === null) return;
    const what = `${label}${name === 'Date.now' ? ' read' : ' called'} by the strategy at ${at}`;
    const why = name === 'Date.now' ? "it is the machine's time, not the backtest's" : "host timers run on the machine's clock: the replay does not wait for them";
    if (policy === 'warn') {
      if (warned.has(what)) return;
      warned.add(what);
      process.stderr.write(`exsim: warning: ${what}: ${why}, so the run is not reproducible; ${INSTEAD[name]} (running anyway: --allow-host-time)\n`);
      return;
    }
    const error = new HostTimeError(`${what}: ${why}; ${INSTEAD[name]} (--allow-host-time runs it anyway, not reproducibly)`);
    onViolation(error);
    throw error;
  };
  const wrap = (target: Record<string, unknown>, key: string, name: keyof typeof INSTEAD, label: string): void => {
    const original = target[key] as (...args: unknown[]) => unknown;
    const wrapper = function (this: unknown, ...args: unknown[]): unknown {
      check(name, label, wrapper);
      return original.apply(this, args);
    };
    target[key] = wrapper;
    restore.push(() => {
      target[key] = original;
    });
  };
  for (const [prefix, target] of TIMER_MODULES) for (const name of TIMERS) wrap(target, name, name, `${prefix}${name}`);
  wrap(Date as unknown as Record<string, unknown>, 'now', 'Date.now', 'Date.now()');
  syncBuiltinESMExports(); // named imports of node:timers(/promises) see the wrappers
  return () => {
    for (const undo of restore.reverse()) undo();
    syncBuiltinESMExports();
  };
}

/** Where the strategy called from (path:line:column), or null when the caller is exsim itself or nothing but Node and libraries. */
function strategyCaller(wrapper: (...args: never[]) => unknown): string | null {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 30;
  Error.captureStackTrace(holder, wrapper);
  Error.stackTraceLimit = limit;
  for (const line of (holder.stack ?? '').split('\n').slice(1)) {
    const frame = FRAME.exec(line);
    if (frame === null) continue; // `new Promise (<anonymous>)`, `Promise.all (index 0)`
    const [, location, row, column] = frame;
    if (location!.startsWith('node:') || location!.includes('/node_modules/')) continue;
    const url = location!.startsWith('file:') ? location! : location!.startsWith('/') ? pathToFileURL(location!).href : null;
    if (url === null) continue;
    if (url.startsWith(EXSIM_CODE)) return null;
    return `${fileURLToPath(url)}:${row}:${column}`;
  }
  return null;
}
