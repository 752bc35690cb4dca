/**
 * Reads recording files (recording-format.ts) line by line, in the order given: gunzip, split,
 * the receive time and the stream name taken off each line; the message itself is parsed only
 * by the reader that wants it (`messageData`), so a trades read does not parse depth JSON.
 *
 * A file that was still being written when it was copied or when its recorder was killed ends in
 * a torn gzip member: the complete lines are read, the torn last one is dropped, `onWarning` says
 * so, and a `torn` line marks the place (the data after it is missing, which the readers treat
 * like a lost connection). Between two files that do not continue each other (the second is not
 * the next UTC day's first part: a day missing, or a later run of the same day), an `unrecorded`
 * line marks the stretch nothing was recorded, which the readers treat the same way: without it a
 * book built before a missing day would be shown as good until the next snapshot. Any other
 * problem is a DataFormatError naming file and line.
 */
import { basename } from 'node:path';
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { DataFormatError } from '../data-format-error.ts';
import { parseRecordingFileName } from './recording-file-name.ts';
import { SNAPSHOT_STREAM_SUFFIX } from './recording-format.ts';

export type RecordingLineKind =
  /** `<symbol>@trade` */
  | 'trade'
  /** `<symbol>@depth@100ms` or `<symbol>@depth` (diff depth) */
  | 'depth'
  | 'bookTicker'
  /** `<symbol>@depthSnapshot`: a REST depth snapshot */
  | 'snapshot'
  /** `exsim@...`: the recorder's notes */
  | 'note'
  /** another stream of the symbol (not read) */
  | 'other'
  /** not a line of the file: where a torn file's data ends (`received` is its last line's) */
  | 'torn'
  /** not a line of the file: the end of a file the next one does not continue (`text` says which; `received` is its last line's) */
  | 'unrecorded';

export interface RecordingLine {
  readonly file: string;
  /** 1-based line number in the (uncompressed) file. */
  readonly line: number;
  /** Local receive time, µs since the epoch. */
  readonly received: number;
  readonly kind: RecordingLineKind;
  /** The stream name as written (`btcusdt@trade`, `exsim@disconnected`, ...). */
  readonly stream: string;
  /** The whole message (the combined-stream envelope); for an `unrecorded` mark, what was not recorded. */
  readonly text: string;
}

export interface RecordingLinesOptions {
  /** The symbol the files hold (upper case); default: the first stream line's. Lines of another symbol are an error. */
  readonly symbol?: string | undefined;
  /** Problems read past (a torn file). */
  readonly onWarning: (message: string) => void;
}

const ENVELOPE_START = '{"stream":"';
const TIME_TEXT = /^\d{1,17}$/;

/** Every line of `files`, in order (files as given, lines as written). */
export async function* readRecordingLines(files: readonly string[], options: RecordingLinesOptions): AsyncGenerator<RecordingLine> {
  let symbol = options.symbol?.toLowerCase();
  let lastReceived = 0;
  let previous: { file: string; lines: number } | null = null;
  for (const file of files) {
    if (previous !== null && !continues(previous.file, file)) {
      yield { file: previous.file, line: previous.lines + 1, received: lastReceived, kind: 'unrecorded', stream: '', text: `nothing recorded between ${basename(previous.file)} and ${basename(file)}` };
    }
    let lastLine = 0;
    const lines = fileLines(file);
    for (;;) {
      const next = await lines.next();
      if (next.done === true) {
        const { torn, partial } = next.value;
        if (torn) {
          const dropped = partial === '' ? '' : `, dropped a torn last line (${partial.length} characters)`;
          options.onWarning(`${file}: the gzip data ends early (a file still being written, or a killed recorder): read ${lastLine} complete lines${dropped}`);
          yield { file, line: lastLine + 1, received: lastReceived, kind: 'torn', stream: '', text: '' };
        }
        break;
      }
      const [text, line] = next.value;
      lastLine = line;
      if (text === '') continue;
      const parsed = parseLine(text, file, line);
      if (parsed.kind !== 'note') {
        const at = parsed.stream.indexOf('@');
        const of = parsed.stream.slice(0, at);
        symbol ??= of;
        if (of !== symbol) throw new DataFormatError(file, line, undefined, `a recording file holds one symbol's streams: "${parsed.stream}" is not ${symbol.toUpperCase()}'s`);
      }
      lastReceived = parsed.received;
      yield parsed;
    }
    previous = { file, lines: lastLine };
  }
}

/**
 * Whether `next` continues `file`: a running recorder's next file is the next UTC day's first
 * part. A later part is a later run (the one before it stopped or was killed), another day a day
 * not recorded. Files named outside the scheme are taken to continue (nothing says otherwise).
 */
function continues(file: string, next: string): boolean {
  const a = parseRecordingFileName(basename(file));
  const b = parseRecordingFileName(basename(next));
  return a === null || b === null || (b.start === a.end && b.part === 1);
}

/** The `data` of a line's message, parsed; an object, else a DataFormatError naming the line. */
export function messageData(line: RecordingLine): Record<string, unknown> {
  let message: unknown;
  try {
    message = JSON.parse(line.text);
  } catch (error) {
    throw new DataFormatError(line.file, line.line, undefined, `the message is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const data = (message as { data?: unknown }).data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new DataFormatError(line.file, line.line, undefined, `${line.stream}: "data" is not an object`);
  return data as Record<string, unknown>;
}

function parseLine(text: string, file: string, line: number): RecordingLine {
  const space = text.indexOf(' ');
  const time = space < 0 ? text : text.slice(0, space);
  if (!TIME_TEXT.test(time)) throw new DataFormatError(file, line, undefined, `expected "<receive time, µs> <message>", the line starts "${text.slice(0, 24)}"`);
  const message = text.slice(space + 1);
  const stream = streamOf(message, file, line);
  return { file, line, received: Number(time), kind: kindOf(stream), stream, text: message };
}

/** The envelope's stream name: read off the front when the venue wrote it first (always, for Binance), else parsed. */
function streamOf(message: string, file: string, line: number): string {
  if (message.startsWith(ENVELOPE_START)) {
    const end = message.indexOf('"', ENVELOPE_START.length);
    const name = end < 0 ? '' : message.slice(ENVELOPE_START.length, end);
    if (name.includes('@') && !name.includes('\\')) return name;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch (error) {
    throw new DataFormatError(file, line, undefined, `the message is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const stream = (parsed as { stream?: unknown } | null)?.stream;
  if (typeof stream !== 'string' || !stream.includes('@')) throw new DataFormatError(file, line, undefined, 'not a combined-stream message: no "stream" name such as "btcusdt@trade"');
  return stream;
}

function kindOf(stream: string): RecordingLineKind {
  if (stream.startsWith('exsim@')) return 'note';
  const name = stream.slice(stream.indexOf('@'));
  if (name === '@trade') return 'trade';
  if (name === '@depth' || name === '@depth@100ms' || name === '@depth@1000ms') return 'depth';
  if (name === '@bookTicker') return 'bookTicker';
  if (name === SNAPSHOT_STREAM_SUFFIX) return 'snapshot';
  return 'other';
}

interface FileEnd {
  /** The gzip data stopped in the middle of a member. */
  readonly torn: boolean;
  /** A last line without its line break: dropped when torn. */
  readonly partial: string;
}

/** The lines of one file with their 1-based numbers; `.gz` files are gunzipped (several members read as one). */
async function* fileLines(file: string): AsyncGenerator<[string, number], FileEnd> {
  const source = createReadStream(file, { highWaterMark: 1 << 20 });
  const gzipped = file.endsWith('.gz');
  const bytes = gzipped ? source.pipe(createGunzip()) : source;
  if (gzipped) source.on('error', (error) => bytes.destroy(error));
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let line = 0;
  let torn = false;
  try {
    for await (const chunk of bytes) {
      const text = rest + decoder.write(chunk as Buffer);
      let start = 0;
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
        yield [text.slice(start, end), ++line];
        start = end + 1;
      }
      rest = text.slice(start);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // zlib's "unexpected end of file": the member stops short, everything before it is good.
    if (code === 'Z_BUF_ERROR') torn = true;
    else if (code === 'Z_DATA_ERROR') throw new DataFormatError(file, line + 1, undefined, `corrupt gzip data after line ${line} (${(error as Error).message})`);
    else throw new DataFormatError(file, 0, undefined, `cannot read: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    source.destroy();
    bytes.destroy();
  }
  rest += decoder.end();
  if (!torn && rest !== '') {
    yield [rest, ++line];
    rest = '';
  }
  return { torn, partial: rest };
}
