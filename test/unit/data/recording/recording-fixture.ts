/**
 * Hand-written recordings for the reader tests: message makers in Binance's shapes and a writer
 * of gzipped recording files (one member, as the recorder writes them).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DEPTH_ASK, DEPTH_CLEAR, DEPTH_MESSAGE_START, type DepthBatch } from '../../../../src/data/depth-tape.ts';

/** 2024-01-01T00:00:00Z in ms. */
export const B = Date.UTC(2024, 0, 1);
/** Prices with 2 decimals, sizes with 3: "42000.01" = 4200001, "0.5" = 500. */
export const SCALE = { quotePrecision: 2, basePrecision: 3 };
/** Receive times in these recordings run 5 ms behind the exchange's event times. */
export const LATENCY_US = 5_000;

type Levels = [string, string][];

export const diff = (E: number, U: number, u: number, b: Levels, a: Levels = []) =>
  `{"stream":"btcusdt@depth@100ms","data":{"e":"depthUpdate","E":${E},"s":"BTCUSDT","U":${U},"u":${u},"b":${JSON.stringify(b)},"a":${JSON.stringify(a)}}}`;
export const snapshot = (lastUpdateId: number, bids: Levels, asks: Levels) =>
  `{"stream":"btcusdt@depthSnapshot","data":${JSON.stringify({ lastUpdateId, bids, asks })}}`;
export const trade = (E: number, t: number, p: string, q: string, m: boolean) =>
  `{"stream":"btcusdt@trade","data":{"e":"trade","E":${E},"s":"BTCUSDT","t":${t},"p":"${p}","q":"${q}","T":${E},"m":${m},"M":true}}`;
export const bookTicker = (u: number, b: string, B: string, a: string, A: string) =>
  `{"stream":"btcusdt@bookTicker","data":${JSON.stringify({ u, s: 'BTCUSDT', b, B, a, A })}}`;
export const note = (stream: string, data: Record<string, unknown>) => JSON.stringify({ stream, data });

/** A line received `LATENCY_US` after exchange time `E` (ms). */
export const at = (E: number, message: string) => `${E * 1000 + LATENCY_US} ${message}`;

/** Writes `lines` as a gzipped recording file named for BTCUSDT on 2024-01-01 (or `name`) in a fresh folder; returns its path. */
export function recordingFile(lines: readonly string[], name = 'exsim_recording_2024-01-01_BTCUSDT.gz', dir = mkdtempSync(join(tmpdir(), 'exsim-recording-'))): string {
  const path = join(dir, name);
  writeFileSync(path, gzipSync(lines.map((l) => `${l}\n`).join('')));
  return path;
}

export async function collect<T>(batches: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const b of batches) out.push(b);
  return out;
}

/** A depth message, readable: its time, whether it clears the book, and its rows as [side, price, qty] in units. */
export interface Message {
  time: number;
  clear: boolean;
  rows: ['bid' | 'ask', number, number][];
}

export function messages(batches: readonly DepthBatch[]): Message[] {
  const out: Message[] = [];
  for (const b of batches) {
    for (let i = 0; i < b.length; i++) {
      const flags = b.flags[i]!;
      if ((flags & DEPTH_MESSAGE_START) !== 0) out.push({ time: b.time[i]!, clear: (flags & DEPTH_CLEAR) !== 0, rows: [] });
      out[out.length - 1]!.rows.push([(flags & DEPTH_ASK) !== 0 ? 'ask' : 'bid', b.price[i]!, b.qty[i]!]);
    }
  }
  return out;
}
