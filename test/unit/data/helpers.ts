/** Shared helpers for the data-layer tests: temp folders, small dump files, flattened results. */
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { BEST_MATCH, BUYER_MAKER, type TapeTrade, type TradeBatch, type UnitScale } from '../../../src/data/tape.ts';
import { zipSingleFile } from '../../../src/data/synthetic/zip-writer.ts';

export const SCALE8: UnitScale = { quotePrecision: 8, basePrecision: 8 };

const tempDirs: string[] = [];
// Registered once, when a test file imports this module: an afterAll registered from inside a
// running test (where tempDir is called) never runs, and the folders were left behind.
afterAll(() => Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true }))));

/** A fresh folder under the OS temp dir, removed after the test file. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'exsim-data-'));
  tempDirs.push(dir);
  return dir;
}

/** Writes `text` to dir/name; a `.zip` name gets a zip holding `name.csv`, a `.gz` name the gzipped text. */
export async function writeDump(dir: string, name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await mkdir(dirname(path), { recursive: true });
  if (name.endsWith('.zip')) {
    const entry = name.slice(name.lastIndexOf('/') + 1).replace(/\.zip$/, '.csv');
    await writeFile(path, zipSingleFile(entry, Buffer.from(text)));
  } else if (name.endsWith('.gz')) {
    await writeFile(path, gzipSync(text));
  } else {
    await writeFile(path, text);
  }
  return path;
}

/** Joins lines with \n and ends with one. */
export const lines = (...rows: string[]): string => rows.map((r) => `${r}\n`).join('');

export function tradesOf(batches: readonly TradeBatch[]): TapeTrade[] {
  const out: TapeTrade[] = [];
  for (const b of batches) {
    for (let i = 0; i < b.length; i++) {
      out.push({
        id: b.id[i]!,
        price: b.price[i]!,
        qty: b.qty[i]!,
        quoteQty: b.quoteQty[i]!,
        time: b.time[i]!,
        isBuyerMaker: (b.flags[i]! & BUYER_MAKER) !== 0,
        isBestMatch: (b.flags[i]! & BEST_MATCH) !== 0,
      });
    }
  }
  return out;
}

export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error: ${String(error)}`);
  }
  throw new Error('expected a rejection');
}
