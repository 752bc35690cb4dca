/**
 * Writes a generated order-book market (synthetic-l2-market.ts) as Tardis.dev files, one UTC day
 * per file as Tardis's downloader names them: `binance_incremental_book_L2_<date>_<SYMBOL>.csv.gz`
 * (a snapshot of the whole book at 00:00, then the day's update messages) and
 * `binance_trades_<date>_<SYMBOL>.csv.gz`. Rows are written as bytes (ascii-writer.ts) and
 * compressed at gzip level 1 on libuv's thread pool while the next minute is generated, so a
 * 20M-row day takes seconds, not minutes. The market runs once over the whole range: book,
 * price and trade ids continue across days.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import zlib from 'node:zlib';
import { formatTardisFileName } from '../tardis-file-name.ts';
import { formatUtcDay, MS_PER_DAY } from '../utc-date.ts';
import { AsciiWriter } from './ascii-writer.ts';
import { SyntheticL2Market, type L2Sink, type SyntheticL2Spec } from './synthetic-l2-market.ts';

export interface SyntheticL2DaysSpec extends SyntheticL2Spec {
  /** µs, exclusive; with startTime, whole UTC days. */
  readonly endTime: number;
}

export interface SyntheticL2DaysOptions {
  /** `csv.gz` (default) or plain `csv`. */
  readonly extension?: 'csv.gz' | 'csv';
  /** gzip level (default 1: fast, ~7x smaller than the text). */
  readonly gzipLevel?: number;
}

/** The exchange the files name: the market is Binance-like (its symbol rules, its 100 ms depth messages). */
const EXCHANGE = 'binance';
const DAY_US = MS_PER_DAY * 1000;
/** Generated between two writes: a minute is ~15k messages, ~1 MB of text per file. */
const CHUNK_US = 60_000_000;
const L2_HEADER = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount\n';
const TRADES_HEADER = 'exchange,symbol,timestamp,local_timestamp,id,side,price,amount\n';

/** Returns the paths written, in order (per day: the L2 file, then the trades file). */
export async function writeSyntheticL2Days(dir: string, spec: SyntheticL2DaysSpec, options: SyntheticL2DaysOptions = {}): Promise<string[]> {
  if (spec.startTime % DAY_US !== 0 || spec.endTime % DAY_US !== 0 || spec.endTime <= spec.startTime) throw new RangeError('a synthetic L2 market covers whole UTC days');
  const extension = options.extension ?? 'csv.gz';
  await mkdir(dir, { recursive: true });
  const market = new SyntheticL2Market(spec);
  const sink = new TardisRowsSink(spec);
  const written: string[] = [];
  for (let day = spec.startTime; day < spec.endTime; day += DAY_US) {
    const date = formatUtcDay(day / 1000);
    const l2Path = join(dir, formatTardisFileName(EXCHANGE, 'incremental_book_L2', date, spec.symbol, extension));
    const tradesPath = join(dir, formatTardisFileName(EXCHANGE, 'trades', date, spec.symbol, extension));
    const l2 = new OutputFile(l2Path, options.gzipLevel);
    const trades = new OutputFile(tradesPath, options.gzipLevel);
    await l2.write([Buffer.from(L2_HEADER)]);
    await trades.write([Buffer.from(TRADES_HEADER)]);
    market.snapshot(sink);
    const end = day + DAY_US;
    while (market.time < end) {
      const until = Math.min(end, market.time + CHUNK_US);
      // The changes of the day's last window are in the next day's snapshot.
      market.run(until, sink, until < end);
      await l2.write(sink.depthText.take());
      await trades.write(sink.tradesText.take());
    }
    await l2.close();
    await trades.close();
    written.push(l2Path, tradesPath);
  }
  return written;
}

/** Formats the market's output as Tardis incremental_book_L2 and trades rows. */
class TardisRowsSink implements L2Sink {
  readonly depthText = new AsciiWriter();
  readonly tradesText = new AsciiWriter();
  private readonly prefix: Uint8Array;
  private readonly quotePrecision: number;
  private readonly quoteScale: number;
  private readonly basePrecision: number;
  private readonly baseScale: number;

  constructor(spec: SyntheticL2Spec) {
    this.prefix = Buffer.from(`${EXCHANGE},${spec.symbol},`);
    this.quotePrecision = spec.scale.quotePrecision;
    this.quoteScale = 10 ** spec.scale.quotePrecision;
    this.basePrecision = spec.scale.basePrecision;
    this.baseScale = 10 ** spec.scale.basePrecision;
  }

  /** The message's rows share everything up to the side: written once, copied into the rest. */
  private readonly rowStart = new Uint8Array(128);

  depth(time: number, local: number, snapshot: boolean, sides: Uint8Array, prices: Float64Array, qtys: Float64Array, count: number): void {
    const w = this.depthText;
    let startLength = 0;
    for (let i = 0; i < count; i++) {
      w.row();
      if (i === 0) {
        const from = w.position;
        w.bytes(this.prefix);
        w.int(time);
        w.byte(44);
        w.int(local);
        w.bytes(snapshot ? TRUE : FALSE);
        startLength = w.copy(from, this.rowStart);
      } else {
        w.bytes(this.rowStart, startLength);
      }
      w.bytes(sides[i] === 1 ? ASK : BID);
      w.decimal(prices[i]!, this.quotePrecision, this.quoteScale);
      w.byte(44);
      w.decimal(qtys[i]!, this.basePrecision, this.baseScale);
      w.byte(10);
    }
  }

  trade(time: number, local: number, id: number, sell: boolean, price: number, qty: number): void {
    const w = this.tradesText;
    w.row();
    w.bytes(this.prefix);
    w.int(time);
    w.byte(44);
    w.int(local);
    w.byte(44);
    w.int(id);
    w.bytes(sell ? SELL : BUY);
    w.decimal(price, this.quotePrecision, this.quoteScale);
    w.byte(44);
    w.decimal(qty, this.basePrecision, this.baseScale);
    w.byte(10);
  }
}

const TRUE = Buffer.from(',true,');
const FALSE = Buffer.from(',false,');
const ASK = Buffer.from('ask,');
const BID = Buffer.from('bid,');
const SELL = Buffer.from(',sell,');
const BUY = Buffer.from(',buy,');

/** A file written chunk by chunk, through gzip for a `.gz` name, waiting when the stream is full. */
class OutputFile {
  private readonly file: WriteStream;
  private readonly input: NodeJS.WritableStream & { write(chunk: Buffer): boolean };

  constructor(path: string, gzipLevel = 1) {
    this.file = createWriteStream(path);
    if (path.endsWith('.gz')) {
      const gzip = zlib.createGzip({ level: gzipLevel, chunkSize: 1 << 20 });
      gzip.pipe(this.file);
      this.input = gzip;
    } else {
      this.input = this.file;
    }
  }

  async write(chunks: readonly Buffer[]): Promise<void> {
    for (const chunk of chunks) {
      if (!this.input.write(chunk)) await once(this.input, 'drain');
    }
  }

  async close(): Promise<void> {
    this.input.end();
    await finished(this.file);
  }
}
