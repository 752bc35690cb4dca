/**
 * Writes dump text to `name.csv`, or to `name.zip` holding `name.csv` as Binance ships them.
 * A zip is built in memory (a day of trades is tens of MB); a CSV is streamed piece by piece, so
 * generating a long tape as CSV keeps memory flat.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { once } from 'node:events';
import { zipSingleFile } from './zip-writer.ts';

/** `zipLevel`: zlib compression level for a zip (default 6). */
export async function writeDumpFile(path: string, pieces: Iterable<string>, zipLevel = 6): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  if (/\.zip$/i.test(path)) {
    const data = Buffer.concat(Array.from(pieces, (p) => Buffer.from(p, 'utf8')));
    await writeFile(path, zipSingleFile(basename(path).replace(/\.zip$/i, '.csv'), data, zipLevel));
    return;
  }
  const out = createWriteStream(path);
  try {
    for (const piece of pieces) {
      if (!out.write(piece)) await once(out, 'drain');
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
}
