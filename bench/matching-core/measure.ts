/**
 * Timing loops and statistics. Wall clock (process.hrtime.bigint) is fine here: the bench sits
 * outside the deterministic path and only observes it.
 *
 * Two kinds of pass. Throughput passes (`throughputRun`) replay the measured ops with no clock
 * read inside the loop: ops/s is the measured ops over the loop's wall time. A latency pass
 * (`timeRun`) reads the clock once per op boundary, so each op's duration is the difference of
 * consecutive reads; every op then carries one timer read (~50-70 ns, reported as
 * timerOverheadNs and not subtracted), which is why it does not feed ops/s. Latencies are service times
 * of back-to-back ops (no pacing, no queueing), so coordinated omission does not apply; the
 * percentiles are exact over all samples, not an HDR approximation.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { BenchTarget } from './bench-target.ts';

/** Replays ops [from, to) without timing (prefill and warm-up). */
export function replay(target: BenchTarget, from: number, to: number): void {
  for (let i = from; i < to; i++) target.step(i);
}

/** Replays ops [from, to) back to back with no clock read inside the loop; returns its wall time in ns. */
export function throughputRun(target: BenchTarget, from: number, to: number): number {
  const start = process.hrtime.bigint();
  for (let i = from; i < to; i++) target.step(i);
  return Number(process.hrtime.bigint() - start);
}

/**
 * Replays ops [from, to) back to back, writing each op's duration in ns to `out[i - from]`.
 * Returns the wall time of the whole loop in ns.
 */
export function timeRun(target: BenchTarget, from: number, to: number, out: Float64Array): number {
  if (out.length < to - from) throw new Error('latency buffer too small');
  const start = process.hrtime.bigint();
  let previous = start;
  for (let i = from; i < to; i++) {
    target.step(i);
    const now = process.hrtime.bigint();
    out[i - from] = Number(now - previous);
    previous = now;
  }
  return Number(previous - start);
}

export interface LatencySummary {
  p50Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
  meanUs: number;
}

/** Percentiles (nearest rank) of ns samples, in µs. Sorts `samplesNs` in place. */
export function summarizeLatency(samplesNs: Float64Array): LatencySummary {
  const n = samplesNs.length;
  if (n === 0) return { p50Us: 0, p99Us: 0, p999Us: 0, maxUs: 0, meanUs: 0 };
  samplesNs.sort(); // typed arrays sort numerically
  let sum = 0;
  for (let i = 0; i < n; i++) sum += samplesNs[i]!;
  const rank = (q: number): number => samplesNs[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))]! / 1000;
  return { p50Us: rank(0.5), p99Us: rank(0.99), p999Us: rank(0.999), maxUs: samplesNs[n - 1]! / 1000, meanUs: sum / n / 1000 };
}

/** Index of the median of `values` (the lower middle one for an even count). */
export function medianIndex(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const order = values.map((_, i) => i).sort((x, y) => values[x]! - values[y]!);
  return order[(values.length - 1) >> 1]!;
}

/** Median cost in ns of one timer read and sample store, as paid by every timed op. */
export function timerOverheadNs(): number {
  const samples = new Float64Array(100_000);
  let previous = process.hrtime.bigint();
  for (let i = 0; i < samples.length; i++) {
    const now = process.hrtime.bigint();
    samples[i] = Number(now - previous);
    previous = now;
  }
  samples.sort();
  return samples[samples.length >> 1]!;
}

let gc: (() => void) | null | undefined;

/**
 * Runs a full GC if one can be had, so garbage left by the previous pass (a whole engine) is
 * not collected inside the next timed loop. `npm run bench` runs tsx without --expose-gc, so
 * the flag is switched on at run time and gc fetched from a fresh context.
 */
export function collectGarbage(): boolean {
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const fn: unknown = runInNewContext('gc');
      gc = typeof fn === 'function' ? (fn as () => void) : null;
    } catch {
      gc = null;
    }
  }
  if (gc === null) return false;
  gc();
  return true;
}

/** Live heap in MB after a full GC, or null when no GC can be forced (the figure would be noise). */
export function liveHeapMB(): number | null {
  return collectGarbage() ? process.memoryUsage().heapUsed / 1e6 : null;
}
