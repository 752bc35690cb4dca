/**
 * Output of the matching-core bench: JSON result lines (machine-readable, one object per line)
 * and a human table. Field names of the JSON lines are a contract for whoever tracks the numbers
 * over time; add fields, do not rename them.
 */
import { BENCH_NAME } from './matching-core-bench.ts';
import type { MatchingCoreResult } from './matching-core-bench.ts';

/** DESIGN.md "Targets": >= 1,000,000 ops/s and >= 10x nodejs-order-book on the same stream. */
export const TARGET_OPS_PER_SEC = 1_000_000;
export const TARGET_RATIO = 10;

const round = (x: number, digits: number): number => Number(x.toFixed(digits));

export function jsonLines(r: MatchingCoreResult): string[] {
  const common = { ops: r.ops, seed: r.seed, runs: r.runs, node: process.version, nodeFlags: process.execArgv.filter((a) => a.startsWith('--max')) };
  const ratio = r.exsim.opsPerSec / r.peer.opsPerSec;
  const exsim = {
    name: BENCH_NAME,
    engine: 'exsim',
    opsPerSec: Math.round(r.exsim.opsPerSec),
    p50Us: round(r.exsim.p50Us, 3),
    p99Us: round(r.exsim.p99Us, 3),
    p999Us: round(r.exsim.p999Us, 3),
    maxUs: round(r.exsim.maxUs, 3),
    meanUs: round(r.exsim.meanUs, 3),
    retainedHeapMB: r.exsim.retainedHeapMB === null ? null : round(r.exsim.retainedHeapMB, 1),
    peerOpsPerSec: Math.round(r.peer.opsPerSec),
    ratio: round(ratio, 3),
    ...common,
    runsOpsPerSec: r.exsim.runsOpsPerSec.map(Math.round),
    rejected: r.exsim.rejected,
    rejectReasons: r.exsimRejectReasons,
    booksMatch: r.books.ok,
    restingOrders: r.books.exsim.bidOrders + r.books.exsim.askOrders,
    warmupOps: r.warmupOps,
    prefillOps: r.prefillOps,
    accounts: r.accounts,
    mix: mix(r),
    tradesPerOp: round(r.stream.tradesPerOp, 4),
    avgRestingOrders: Math.round(r.stream.avgRestingOrders),
    avgPriceLevels: Math.round(r.stream.avgPriceLevels),
    timerOverheadNs: r.timerOverheadNs,
    targetOpsPerSec: TARGET_OPS_PER_SEC,
    targetRatio: TARGET_RATIO,
  };
  const peer = {
    name: `${BENCH_NAME}/peer`,
    engine: 'nodejs-order-book',
    version: r.peerVersion,
    opsPerSec: Math.round(r.peer.opsPerSec),
    p50Us: round(r.peer.p50Us, 3),
    p99Us: round(r.peer.p99Us, 3),
    p999Us: round(r.peer.p999Us, 3),
    maxUs: round(r.peer.maxUs, 3),
    meanUs: round(r.peer.meanUs, 3),
    retainedHeapMB: r.peer.retainedHeapMB === null ? null : round(r.peer.retainedHeapMB, 1),
    ...common,
    runsOpsPerSec: r.peer.runsOpsPerSec.map(Math.round),
    rejected: r.peer.rejected,
    restingOrders: r.books.peer.bidOrders + r.books.peer.askOrders,
  };
  return [JSON.stringify(exsim), JSON.stringify(peer)];
}

function mix(r: MatchingCoreResult): { gtc: number; ioc: number; cancel: number; move: number } {
  const s = r.stream;
  const pct = (n: number): number => round((100 * n) / r.ops, 2);
  return { gtc: pct(s.gtcPlaces), ioc: pct(s.iocPlaces), cancel: pct(s.cancels), move: pct(s.moves) };
}

export function table(r: MatchingCoreResult): string {
  const int = (x: number): string => Math.round(x).toLocaleString('en-US');
  const us = (x: number): string => x.toFixed(2);
  const m = mix(r);
  const ratio = r.exsim.opsPerSec / r.peer.opsPerSec;
  const lines: string[] = [];
  const flags = process.execArgv.filter((a) => a.startsWith('--max')).join(' ');
  lines.push(`${BENCH_NAME}  node ${process.version}${flags ? ` (${flags})` : ''}, seed ${r.seed}, ${int(r.ops)} measured ops (+${int(r.warmupOps)} warm-up, ${int(r.prefillOps)} prefill), ${r.runs} throughput pass(es) per engine (median shown) + 1 latency pass`);
  lines.push(
    `stream: GTC ${m.gtc}%  IOC ${m.ioc}%  cancel ${m.cancel}%  move ${m.move}%  | ${r.stream.tradesPerOp.toFixed(3)} fills/op | ` +
      `resting orders avg ${int(r.stream.avgRestingOrders)} (${r.stream.minRestingOrders}..${r.stream.maxRestingOrders}) on avg ${int(r.stream.avgPriceLevels)} levels | ${r.accounts} accounts`,
  );
  lines.push('');
  const header = ['engine', 'ops/s', 'mean µs', 'p50 µs', 'p99 µs', 'p99.9 µs', 'max µs', 'rejected', 'heap MB', 'runs ops/s'];
  const rows = [r.exsim, r.peer].map((e) => [
    e.name,
    int(e.opsPerSec),
    us(e.meanUs),
    us(e.p50Us),
    us(e.p99Us),
    us(e.p999Us),
    us(e.maxUs),
    String(e.rejected),
    e.retainedHeapMB === null ? 'n/a' : e.retainedHeapMB.toFixed(0),
    e.runsOpsPerSec.map(int).join(' / '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const fmt = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  lines.push(fmt(header));
  lines.push(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) lines.push(fmt(row));
  lines.push('');
  lines.push(
    `ratio exsim/peer ops/s: ${ratio.toFixed(2)}x (target >= ${TARGET_RATIO}x: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'}); ` +
      `exsim ${int(r.exsim.opsPerSec)} ops/s (target >= ${int(TARGET_OPS_PER_SEC)}: ${r.exsim.opsPerSec >= TARGET_OPS_PER_SEC ? 'met' : 'NOT met'})`,
  );
  lines.push('heap MB: live heap the engine gained over the whole stream (after full GCs), last run');
  lines.push(`ops/s from passes with no clock read in the loop; latencies from a separate pass, each op carrying one timer read (~${r.timerOverheadNs} ns); a move is one op (exsim: cancel + place, peer: modify)`);
  const b = r.books;
  lines.push(
    `sanity: exsim rejected ${r.exsim.rejected} measured ops` +
      (Object.keys(r.exsimRejectReasons).length > 0 ? ` (whole stream: ${JSON.stringify(r.exsimRejectReasons)})` : '') +
      `; final books ${b.ok ? 'match' : 'DIFFER'} (model ${b.model.bidOrders}+${b.model.askOrders} orders on ${b.model.bidLevels}+${b.model.askLevels} levels, ` +
      `exsim ${b.exsim.bidOrders}+${b.exsim.askOrders} on ${b.exsim.bidLevels}+${b.exsim.askLevels}, peer ${b.peer.bidOrders}+${b.peer.askOrders} on ${b.peer.bidLevels}+${b.peer.askLevels}); ` +
      `exsim checkInvariants: ${b.exsimInvariants}`,
  );
  for (const d of b.differences) lines.push(`  difference: ${d}`);
  lines.push(`(${r.generateSeconds.toFixed(1)} s generating, ${r.totalSeconds.toFixed(1)} s total)`);
  return lines.join('\n');
}
