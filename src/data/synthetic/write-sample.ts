/**
 * Regenerates the bundled sample under data/sample/ (or the folder given as the first argument).
 * Deterministic: rerunning writes byte-identical files.
 *
 *   npx tsx src/data/synthetic/write-sample.ts [dir]
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stat } from 'node:fs/promises';
import { SAMPLE_DIR } from '../sample.ts';
import { SAMPLE_FIRST_AGG_TRADE_ID, SAMPLE_KLINE_INTERVALS, SAMPLE_SPECS, SAMPLE_ZIP_LEVEL } from './sample-spec.ts';
import { writeSyntheticDays } from './write-synthetic-days.ts';

/** Writes every sample file into `dir`; returns their paths. */
export async function writeSample(dir: string = SAMPLE_DIR): Promise<string[]> {
  const written: string[] = [];
  for (const spec of SAMPLE_SPECS) {
    const firstAggTradeId = SAMPLE_FIRST_AGG_TRADE_ID[spec.symbol];
    written.push(
      ...(await writeSyntheticDays(dir, spec, {
        klineIntervals: SAMPLE_KLINE_INTERVALS,
        zipLevel: SAMPLE_ZIP_LEVEL,
        ...(firstAggTradeId === undefined ? {} : { firstAggTradeId }),
      })),
    );
  }
  return written;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? SAMPLE_DIR);
  for (const path of await writeSample(dir)) {
    console.log(`${path} ${(await stat(path)).size} bytes`);
  }
}
