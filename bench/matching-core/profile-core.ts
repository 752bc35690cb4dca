/**
 * Profiling driver (not a bench row): the matching-core bench's exsim passes without the peer
 * and the reporting, so a CPU profile of the process is almost only the engine. Usage:
 *   node --max-semi-space-size=64 --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/matching-core/profile-core.ts [ops] [passes] [core|conditional]
 * Prints each timed pass's ops per wall second and per CPU second (CPU time is steadier on a
 * shared machine).
 */
import { readFileSync } from 'node:fs';
import type { BenchTarget } from './bench-target.ts';
import { ConditionalTarget, mergeStream } from './conditional-mix-bench.ts';
import { ExsimTarget } from './exsim-adapter.ts';
import { warmupOpsFor } from './matching-core-bench.ts';
import { collectGarbage, replay } from './measure.ts';
import { generateOpStream } from './op-stream.ts';

/** CPU time of this (the main) thread in ns, from the scheduler's own account; 0 where there is none. */
function threadCpuNs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
}

const ops = Number(process.argv[2] ?? 1_000_000);
const passes = Number(process.argv[3] ?? 3);
const workload = process.argv[4] ?? 'core';
const base = generateOpStream({ seed: 1, measuredOps: ops, warmupOps: warmupOpsFor(ops), targetOrders: 1_000, accounts: 1_000 });
const merged = workload === 'conditional' ? mergeStream(base, 1) : null;
const make = (): BenchTarget => (merged !== null ? new ConditionalTarget(merged) : new ExsimTarget(base));
const start = merged !== null ? merged.measuredStart : base.prefillOps + base.warmupOps;
const end = merged !== null ? merged.total : base.totalOps;
replay(make(), 0, end);
for (let p = 0; p < passes; p++) {
  const target = make();
  replay(target, 0, start);
  collectGarbage();
  const s0 = threadCpuNs();
  const c0 = process.cpuUsage(); // determinism-ok: bench timing
  const t0 = process.hrtime.bigint(); // determinism-ok: bench timing
  for (let i = start; i < end; i++) target.step(i);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9; // determinism-ok: bench timing
  const c = process.cpuUsage(c0); // determinism-ok: bench timing
  const thread = (threadCpuNs() - s0) / 1e9;
  const cpu = (c.user + c.system) / 1e6;
  const n = end - start;
  console.log(`${workload} pass ${p + 1}: ${Math.round(n / wall).toLocaleString('en-US')} ops/s wall, ${Math.round(n / cpu).toLocaleString('en-US')} ops/CPU-s, ${Math.round(n / thread).toLocaleString('en-US')} ops/main-thread-CPU-s, rejected ${target.rejected}`);
}
