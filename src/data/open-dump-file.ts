/**
 * Opens a data file (`.csv`; `.zip` holding one CSV as Binance publishes them; `.gz`, one gzipped
 * CSV as Tardis.dev publishes them) as a stream of byte chunks. A gzip is inflated by
 * node:zlib on libuv's thread pool, a few MiB ahead of the parser, so inflating and parsing
 * overlap; its CRC-32 and length trailer are zlib's to check, and a truncated or corrupt file
 * fails naming the file.
 *
 * A zip: yauzl reads the zip's structure (central directory, Zip64 sizes of month files,
 * entries with data descriptors, the local header) and says where the compressed bytes are; we
 * read and inflate them ourselves in 1 MiB pieces with a few MiB of read-ahead: yauzl's own
 * stream (small reads, 16 KiB inflate chunks) took 530 ms for a 76 MB trades CSV, this 120 ms,
 * and inflating on libuv's thread pool then overlaps with parsing on the main thread. The
 * entry's size and CRC-32 are checked at the end (yauzl leaves the CRC to the caller).
 */
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { DataFormatError } from './data-format-error.ts';

const CHUNK_BYTES = 1 << 20;
/** zlib.crc32 exists from Node 20.15; without it the size check alone guards the entry. */
const crc32: ((data: Uint8Array, value?: number) => number) | undefined = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

export interface OpenedDumpFile {
  /** The name used in messages: the path, or `archive.zip/entry.csv`. */
  readonly name: string;
  /** The file's bytes in order; closes the file when done or abandoned. */
  readonly chunks: AsyncGenerator<Buffer>;
}

export async function openDumpFile(path: string): Promise<OpenedDumpFile> {
  if (/\.gz$/i.test(path)) return { name: path, chunks: readGzip(path) };
  if (!/\.zip$/i.test(path)) return { name: path, chunks: readPlain(path) };
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true });
  } catch (error) {
    throw new DataFormatError(path, 0, undefined, `cannot open as a zip: ${message(error)}`);
  }
  let closed = false;
  const close = (): void => {
    if (!closed) zip.close();
    closed = true;
  };
  try {
    const files: yauzl.Entry[] = [];
    for await (const entry of zip.eachEntry()) {
      // Folders and macOS resource forks are not data.
      if (!entry.fileName.endsWith('/') && !entry.fileName.startsWith('__MACOSX/')) files.push(entry);
    }
    const [entry, ...others] = files;
    if (entry === undefined) throw new DataFormatError(path, 0, undefined, 'the zip holds no file; expected one CSV');
    if (others.length > 0) {
      throw new DataFormatError(path, 0, undefined, `the zip holds ${files.length} files (${files.map((f) => f.fileName).join(', ')}); expected one CSV`);
    }
    if (entry.isEncrypted()) throw new DataFormatError(path, 0, undefined, `${entry.fileName} is encrypted`);
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      throw new DataFormatError(path, 0, undefined, `${entry.fileName} uses compression method ${entry.compressionMethod}; only stored and deflated entries are read`);
    }
    const name = `${path}/${entry.fileName}`;
    const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
    close();
    if (entry.compressedSize === 0) return { name, chunks: nothing() };
    const raw = createReadStream(path, { start: fileDataStart, end: fileDataStart + entry.compressedSize - 1, highWaterMark: CHUNK_BYTES });
    return { name, chunks: readZipEntry(entry, raw, name) };
  } catch (error) {
    close();
    if (error instanceof DataFormatError) throw error;
    throw new DataFormatError(path, 0, undefined, `cannot read the zip: ${message(error)}`);
  }
}

async function* readPlain(path: string): AsyncGenerator<Buffer> {
  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (error) {
    throw new DataFormatError(path, 0, undefined, `cannot read: ${message(error)}`);
  } finally {
    stream.destroy();
  }
}

async function* readGzip(path: string): AsyncGenerator<Buffer> {
  const raw = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  // 8 MiB of output ready ahead of the parser keeps the thread pool busy while it works.
  const gunzip = zlib.createGunzip({ chunkSize: CHUNK_BYTES, readableHighWaterMark: 8 * CHUNK_BYTES } as zlib.ZlibOptions);
  pipeline(raw, gunzip, () => {
    // Errors surface through the iteration of `gunzip`.
  });
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    if (error instanceof DataFormatError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('Z_')) throw new DataFormatError(path, 0, undefined, `corrupt or truncated gzip: ${message(error)}`);
    throw new DataFormatError(path, 0, undefined, `cannot read: ${message(error)}`);
  } finally {
    gunzip.destroy();
    raw.destroy();
  }
}

async function* readZipEntry(entry: yauzl.Entry, raw: Readable, name: string): AsyncGenerator<Buffer> {
  let source: Readable = raw;
  if (entry.compressionMethod === 8) {
    const inflate = zlib.createInflateRaw({ chunkSize: CHUNK_BYTES, readableHighWaterMark: 4 * CHUNK_BYTES } as zlib.ZlibOptions);
    pipeline(raw, inflate, () => {
      // Errors surface through the iteration of `inflate`.
    });
    source = inflate;
  }
  let bytes = 0;
  let crc = 0;
  try {
    for await (const chunk of source) {
      const buf = chunk as Buffer;
      bytes += buf.length;
      if (crc32 !== undefined) crc = crc32(buf, crc);
      yield buf;
    }
  } catch (error) {
    if (error instanceof DataFormatError) throw error;
    throw new DataFormatError(name, 0, undefined, `corrupt zip entry: ${message(error)}`);
  } finally {
    source.destroy();
    raw.destroy();
  }
  if (bytes !== entry.uncompressedSize) {
    throw new DataFormatError(name, 0, undefined, `corrupt zip entry: ${bytes} bytes inflated, the zip says ${entry.uncompressedSize}`);
  }
  if (crc32 !== undefined && crc >>> 0 !== entry.crc32 >>> 0) {
    throw new DataFormatError(name, 0, undefined, 'corrupt zip entry: CRC-32 mismatch');
  }
}

/** An empty stored entry has no bytes to read. */
async function* nothing(): AsyncGenerator<Buffer> {}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
