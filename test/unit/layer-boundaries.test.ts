/**
 * The architecture's rules that used to live in comments, checked mechanically (as
 * NautilusTrader checks its conventions): imports between layers go through each layer's
 * index.ts; inside the facade, imports between rooms go through each room's index.ts and never
 * climb (a room imports only rooms below it); endpoint rows reach the engine only through
 * `call.send` and do not import each other; and the deterministic path reads no wall clock,
 * draws no Math.random and starts no host timer except on lines marked `// determinism-ok: <why>`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** Path under src/, with forward slashes. */
const srcPath = (file: string): string => relative(SRC, file).split('\\').join('/');

/** Every relative import / re-export specifier of a file, resolved to a path under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?\bfrom\s+'(\.[^']+)'/g)) {
    out.push(srcPath(normalize(join(dirname(file), m[1]!))));
  }
  return out;
}

const layerOf = (path: string): string => path.split('/')[0]!;

/**
 * Known direct imports past another layer's index.ts, each waiting for an export the owner of
 * that layer adds (the engine and the replay are the lead's, issue 11):
 */
const KNOWN_DIRECT: Record<string, string> = {
  'api-facade/serialize/order-json.ts -> engine/types.ts': 'CONDITIONAL_TYPES is exported from engine/index.ts as a type only',
  'data/synthetic/synthetic-trades.ts -> engine/exact-math.ts': 'mulDivFloor is not exported from engine/index.ts',
  'data/tape-sources.ts -> engine/exact-math.ts': 'mulDivFloor is not exported from engine/index.ts (src/index.ts exports sim\'s own mulDivFloor beside engine/index.ts)',
  'data/tardis-trade-rows.ts -> engine/exact-math.ts': 'mulDivFloor is not exported from engine/index.ts (src/index.ts exports sim\'s own mulDivFloor beside engine/index.ts)',
  'data/synthetic/synthetic-trades.ts -> engine/units.ts': 'pow10 is not exported from engine/index.ts',
  'sim/kline-path.ts -> data/tape.ts': 'src/sim (the lead): switch to data/index.ts, which exports it',
  'sim/kline-tape.ts -> data/tape.ts': 'src/sim (the lead): switch to data/index.ts, which exports it',
  'sim/tape-cursor.ts -> data/tape.ts': 'src/sim (the lead): switch to data/index.ts, which exports it',
  'sim/replay.ts -> data/history/index.ts': 'src/sim (the lead): switch to data/index.ts, which exports it',
  'sim/replay.ts -> data/tape.ts': 'src/sim (the lead): switch to data/index.ts, which exports it',
  'sim/kline-path-prints.ts -> data/tape.ts': 'src/sim (the lead): switch to data/index.ts, which exports it',
};

describe('layer boundaries', () => {
  const files = sourceFiles(SRC);

  it('imports another layer only through its index.ts', () => {
    const offenders: string[] = [];
    const seen = new Set<string>();
    for (const file of files) {
      const from = srcPath(file);
      // The package's entry point (src/index.ts) picks the public surface from every layer.
      if (from === 'index.ts') continue;
      for (const target of importsOf(file)) {
        if (layerOf(target) === layerOf(from) || !target.includes('/')) continue;
        if (target === `${layerOf(target)}/index.ts`) continue;
        const edge = `${from} -> ${target}`;
        seen.add(edge);
        if (KNOWN_DIRECT[edge] === undefined) offenders.push(edge);
      }
    }
    expect(offenders).toEqual([]);
    // An allowance that is no longer needed is removed, so the list stays the list of what is left.
    expect(Object.keys(KNOWN_DIRECT).filter((edge) => !seen.has(edge))).toEqual([]);
  });

  it('endpoint rows send commands only through call.send and import no other row', () => {
    // The room's own files (the table, the row shape, common helpers) and each group's shared helpers.
    const SHARED = new Set([
      'spot/order-request.ts',
      'spot/order-answers.ts',
      'futures/futures-common.ts',
      // The /fapi trading rows' shared helpers (no rows in them): engine reads, wire formats, order JSON, parameters, refusals.
      'futures-trading/futures-engine.ts',
      'futures-trading/futures-wire.ts',
      'futures-trading/futures-order-json.ts',
      'futures-trading/futures-order-request.ts',
      'futures-trading/futures-refusals.ts',
      'futures/traded-perpetual.ts',
    ]);
    const ROOM = 'api-facade/endpoints/';
    const isRow = (path: string): boolean => path.startsWith(ROOM) && path.slice(ROOM.length).includes('/') && !SHARED.has(path.slice(ROOM.length));
    const offenders: string[] = [];
    for (const file of files.filter((f) => isRow(srcPath(f)))) {
      const from = srcPath(file);
      const text = readFileSync(file, 'utf8');
      if (/\bctx\.apply\(|\bbackend\.apply\(|beforeEngine/.test(text)) offenders.push(`${from}: reaches the engine outside call.send`);
      for (const target of importsOf(file)) if (isRow(target) && target !== from) offenders.push(`${from} imports the row file ${target}`);
    }
    expect(offenders).toEqual([]);
  });
});

describe('the facade in rooms', () => {
  /**
   * The rooms of src/api-facade from the ground up. A room imports only rooms of a lower rank,
   * and only through their index.ts; rooms of one rank know nothing of each other.
   */
  const RANK: Record<string, number> = {
    core: 0,
    params: 1,
    signing: 1,
    limits: 1,
    serialize: 1,
    'account-services': 2,
    streams: 2,
    context: 3,
    endpoints: 4,
    rest: 5,
    'ws-api': 6,
    transport: 7,
  };
  const FACADE = 'api-facade/';
  const roomOf = (path: string): string | null => {
    const rest = path.slice(FACADE.length);
    return path.startsWith(FACADE) && rest.includes('/') ? rest.split('/')[0]! : null;
  };
  const files = sourceFiles(join(SRC, 'api-facade')).map(srcPath);

  it('has a rank for every room and an index.ts in each', () => {
    const rooms = new Set(files.map(roomOf).filter((r): r is string => r !== null));
    expect([...rooms].sort()).toEqual(Object.keys(RANK).sort());
    for (const room of rooms) expect(files, room).toContain(`${FACADE}${room}/index.ts`);
    // Nothing but the facade's own index sits outside a room.
    expect(files.filter((f) => roomOf(f) === null)).toEqual([`${FACADE}index.ts`]);
  });

  it('imports another room only through its index.ts, and never a room above or beside it', () => {
    const offenders: string[] = [];
    for (const from of files) {
      const room = roomOf(from);
      if (room === null) continue;
      for (const target of importsOf(join(SRC, from))) {
        const to = roomOf(target);
        if (to === null || to === room) continue;
        if (target !== `${FACADE}${to}/index.ts`) offenders.push(`${from} -> ${target}: not through ${to}/index.ts`);
        if (RANK[to]! >= RANK[room]!) offenders.push(`${from} -> ${target}: ${room} (rank ${RANK[room]}) may not import ${to} (rank ${RANK[to]})`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('catches an import that climbs', () => {
    const climbs = (from: string, to: string): boolean => RANK[to]! >= RANK[from]!;
    expect(climbs('core', 'context')).toBe(true);
    expect(climbs('params', 'signing')).toBe(true);
    expect(climbs('transport', 'core')).toBe(false);
  });
});

describe('determinism markers', () => {
  /**
   * The deterministic path: engine, clock, data, sim, futures, the facade and the served exchange.
   * Every wall-clock read, random draw or host timer there is on a line marked determinism-ok
   * (in the served exchange: its wall clock, the replay pacer's tick, the write-ahead log's tick,
   * a snapshot's duration); the facade's transport/ room is the one named exception: socket I/O,
   * keepalive and the stream pump's tick on host time (its lines are marked all the same).
   */
  const DETERMINISTIC = ['engine/', 'clock/', 'data/', 'sim/', 'futures/', 'api-facade/', 'serve/'];
  /** The named wall-clock exception: the facade's socket adapters, keepalive and admission. */
  const TRANSPORT = 'api-facade/transport/';
  const FORBIDDEN = /\bDate\.now\s*\(|\bnew Date\(\s*\)|(?<!new )\bDate\(\s*\)|\bMath\.random\s*\(|\bperformance\.now\s*\(|\b(?:setTimeout|setInterval|setImmediate)\s*\(/;

  it('reads no wall clock, no Math.random and starts no host timer outside lines marked determinism-ok', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const path = srcPath(file);
      if (!DETERMINISTIC.some((d) => path.startsWith(d)) || path.startsWith(TRANSPORT)) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const code = line.trimStart();
          if (code.startsWith('*') || code.startsWith('//') || code.startsWith('/*')) return;
          if (!FORBIDDEN.test(line)) return;
          if (/\/\/ determinism-ok: \S/.test(line)) return;
          offenders.push(`${path}:${i + 1}: ${code}`);
        });
    }
    expect(offenders).toEqual([]);
  });

  it('catches what it is meant to catch', () => {
    for (const bad of ['const t = Date.now();', 'new Date()', 'Math.random()', 'performance.now()', 'setTimeout(f, 1)', 'setImmediate(f)', 'setInterval(f, 5)']) {
      expect(FORBIDDEN.test(bad), bad).toBe(true);
    }
    for (const ok of ['new Date(ms).toISOString()', 'type T = ReturnType<typeof setTimeout>', 'clock.now()']) expect(FORBIDDEN.test(ok), ok).toBe(false);
  });
});
