/**
 * Memory over a long replay (DESIGN.md target: a 30-day replay under 1 GB RSS, flat in the
 * length of the tape). Workload: a seeded synthetic BTCUSDT tape of `days` days at
 * `tradesPerDay`, generated lazily batch by batch (never held whole), replayed with the quoting
 * strategy's absence (no resting order) and the journal off; RSS and the live heap (after a full
 * GC) are read at the end of day 1, at the middle and at the end. Flat means the last reading is
 * within a small margin of the day-1 reading: the market-data history keeps a bounded window
 * (25 h of trades, bounded bar retention), the engine a bounded trade ring.
 */
import { generateTradeBatches } from '../../src/data/index.ts';
import { SAMPLE_SPECS } from '../../src/data/synthetic/sample-spec.ts';
import { SAMPLE_CONFIG } from '../../src/sample/sample-market.ts';
import { queuePosition, Replay } from '../../src/sim/index.ts';
import { collectGarbage, liveHeapMB } from '../matching-core/measure.ts';

const DAY_US = 86_400_000_000;

export interface MemoryReading {
  day: number;
  trades: number;
  rssMB: number;
  heapMB: number | null;
}

export interface MemoryFlatnessResult {
  days: number;
  tradesPerDay: number;
  trades: number;
  seconds: number;
  readings: MemoryReading[];
  /** Heap growth from the end of day 1 to the end, MB (null when no GC could be forced). */
  heapGrowthMB: number | null;
  maxRssMB: number;
}

export async function runMemoryFlatness(days: number, tradesPerDay: number, seed: number): Promise<MemoryFlatnessResult> {
  const base = SAMPLE_SPECS[0]!;
  const spec = { ...base, seed: `memory-flatness-${seed}`, tradesPerDay, endTime: base.startTime + days * DAY_US };
  const replay = new Replay({ engine: SAMPLE_CONFIG, tapes: [{ symbol: 'BTCUSDT', trades: generateTradeBatches(spec) }], fillModel: queuePosition(), seed, startTime: spec.startTime, journal: null });
  const checkpoints = [1, Math.max(1, Math.round(days / 2)), days];
  const readings: MemoryReading[] = [];
  let maxRssMB = 0;
  const started = process.hrtime.bigint();
  for (const day of checkpoints) {
    if (readings.some((r) => r.day === day)) continue;
    await replay.runUntil(spec.startTime + day * DAY_US - 1);
    collectGarbage();
    const rssMB = process.memoryUsage().rss / 2 ** 20;
    maxRssMB = Math.max(maxRssMB, rssMB);
    readings.push({ day, trades: replay.stats.tapeTrades, rssMB, heapMB: liveHeapMB() });
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const first = readings[0]!;
  const last = readings[readings.length - 1]!;
  return {
    days,
    tradesPerDay,
    trades: last.trades,
    seconds,
    readings,
    heapGrowthMB: first.heapMB === null || last.heapMB === null ? null : last.heapMB - first.heapMB,
    maxRssMB,
  };
}
