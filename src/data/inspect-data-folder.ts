/**
 * What a data folder holds, for `exsim data inspect` and for checking a download before a long
 * backtest: the series (symbol × kind × interval) found by file name, Binance dumps, Tardis files
 * and exsim recordings alike, the dates they cover and the dates missing between, and, reading
 * every row through the same parser and row rules a replay uses, row counts, time ranges, time
 * units and gaps (missing trade or aggTrade ids, missing kline bars, files that overlap; depth has
 * no ids to miss, so none), the L2 updates skipped before a file's first snapshot and the Tardis
 * rows restamped. A recording's series (its parts of every day) is read through the recording
 * readers (recording/scan-recording.ts): messages per stream, and its gaps as notes, since a live
 * recording has them and a replay bridges them; a torn file end or a malformed line is a problem.
 */
import { basename, relative } from 'node:path';
import type { KlineInterval, UnitScale } from './tape.ts';
import type { DumpSchema } from './dump-schema.ts';
import { DumpParser, type RowSink, type TimeUnit } from './dump-parser.ts';
import { comparePeriods, dropUnpackedTwins, isTardisFileName, marketOfPath, parseDataFilePath, priceKlinesFolder, RECORDING_KIND, type DataFileName, type DataKind, type MarketFileName, type RecordingDataFileName } from './data-file-name.ts';
import { kindSchema } from './data-kinds.ts';
import { depthKindInfo } from './depth-kinds.ts';
import type { DepthRowSink } from './depth-batch-builder.ts';
import { listDataFiles } from './dump-sources.ts';
import { parseDumpFile } from './read-dump.ts';
import { parseFundingRateFileName } from './read-funding-rates.ts';
import { KlineGrid } from './history/kline-calendar.ts';
import { formatUtcDay, MS_PER_DAY } from './utc-date.ts';
import type { RecordingGap } from './recording/recording-gap.ts';
import { scanRecording, type RecordingMessageKind } from './recording/scan-recording.ts';

export interface InspectOptions {
  /** Read every row (counts, times, gaps). Default true; false looks at names only. */
  readonly scan?: boolean;
  /** Precisions to read amounts with; dumps print 8 decimals, the default. */
  readonly scale?: UnitScale;
  /** Gaps listed per series (all are counted). Default 20. */
  readonly maxGaps?: number;
}

export interface DataFolderReport {
  readonly dir: string;
  readonly series: SeriesReport[];
  /** .csv/.zip/.gz files whose names are in neither scheme (relative to dir). */
  readonly otherFiles: string[];
  /**
   * USDⓈ-M files that are no prints but that `--futures` reads (relative to dir): fundingRate
   * dumps (the recorded fundings) and mark/index/premium price klines (the recorded mark).
   */
  readonly futuresInputs: string[];
}

export interface SeriesReport {
  readonly symbol: string;
  readonly kind: DataKind;
  /** `um`: USDⓈ-M futures files (`futures/um/...`, Tardis `binance-futures`); absent for spot. */
  readonly market?: 'um';
  /** Tardis files: the exchanges their names say (one, unless the folder mixes markets). */
  readonly exchanges?: readonly string[];
  readonly interval?: KlineInterval;
  readonly files: FileReport[];
  /** First and last day covered by the files' names (YYYY-MM-DD, inclusive). */
  readonly firstDay: string;
  readonly lastDay: string;
  /** Days in between that no file covers, as inclusive ranges. */
  readonly missingDays: DayRange[];
  /** Totals over the files that were read. */
  rows: number;
  /** µs, when scanned and not empty. */
  firstTime?: number;
  lastTime?: number;
  /** Missing ids (trades, aggTrades) or bars (fixed-interval klines) inside and between files. */
  readonly gaps: Gap[];
  /** The gaps counted: missing ids or bars, or a recording's gaps. */
  gapCount: number;
  /** Recordings: messages per stream (rows counts them all). */
  messages?: Record<RecordingMessageKind, number>;
  /** Recordings: the gaps the readers bridge (lost connections, skipped ids), the first `maxGaps` by time; notes, not problems. */
  recordingGaps?: RecordingGap[];
  /** Unreadable files, overlapping files, mixed time units: anything a replay would trip on. */
  readonly problems: string[];
}

export interface FileReport {
  /** Relative to the inspected folder. */
  readonly path: string;
  readonly date: string;
  readonly period: 'daily' | 'monthly';
  /** Recordings: 1 for the day's first file, 2, 3, ... for later runs. */
  readonly part?: number;
  /** Rows (a recording's messages). */
  rows?: number;
  timeUnit?: TimeUnit;
  firstTime?: number;
  lastTime?: number;
  /** incremental_book_L2: updates before the file's first snapshot, which no book can take (skipped). */
  skippedUpdates?: number;
  /** Tardis files: rows stamped up to 1 s before the row before them in the file, which a replay restamps to its time. */
  restampedRows?: number;
  error?: string;
}

export interface DayRange {
  readonly from: string;
  readonly to: string;
}

/** Between two consecutive rows: `missing` ids or bars are absent. Times in µs. */
export interface Gap {
  readonly afterTime: number;
  readonly beforeTime: number;
  /** The ids (trades, aggTrades) or bar open times (klines) on either side. */
  readonly after: number;
  readonly before: number;
  readonly missing: number;
}

const DEFAULT_SCALE: UnitScale = { quotePrecision: 8, basePrecision: 8 };

export async function inspectDataFolder(dir: string, options: InspectOptions = {}): Promise<DataFolderReport> {
  const scan = options.scan ?? true;
  const scale = options.scale ?? DEFAULT_SCALE;
  const maxGaps = options.maxGaps ?? 20;
  const groups = new Map<string, { parsed: MarketFileName; path: string }[]>();
  const otherFiles: string[] = [];
  const futuresInputs: string[] = [];
  for (const path of await listDataFiles(dir)) {
    // COIN-M files (futures/cm) are not read: listed with the other files.
    const parsed = parseDataFilePath(path);
    if (parsed === null) {
      const forFutures = marketOfPath(path) === 'um' && (parseFundingRateFileName(basename(path)) !== null || priceKlinesFolder(path) !== null);
      (forFutures ? futuresInputs : otherFiles).push(relative(dir, path));
      continue;
    }
    // A futures dump is its own series beside the spot one of the same name; Tardis files keep one
    // series per symbol and kind, whose mixed exchanges are a problem the report names.
    const market = isTardisFileName(parsed) ? '' : parsed.market;
    const key = `${parsed.symbol}\0${parsed.kind}\0${parsed.interval ?? ''}\0${market}`;
    const list = groups.get(key) ?? [];
    list.push({ parsed, path });
    groups.set(key, list);
  }
  const series: SeriesReport[] = [];
  for (const key of [...groups.keys()].sort()) {
    // An unpacked CSV beside its packed twin is the same data: report the packed one.
    const kept = dropUnpackedTwins(groups.get(key)!, (f) => f.path);
    kept.sort((a, b) => comparePeriods(a.parsed, b.parsed) || (a.path < b.path ? -1 : 1));
    series.push(await inspectSeries(dir, kept, scan, scale, maxGaps));
  }
  return { dir, series, otherFiles, futuresInputs };
}

async function inspectSeries(
  dir: string,
  files: { parsed: MarketFileName; path: string }[],
  scan: boolean,
  scale: UnitScale,
  maxGaps: number,
): Promise<SeriesReport> {
  const first = files[0]!.parsed;
  const exchanges = [...new Set(files.flatMap((f) => (isTardisFileName(f.parsed) ? [f.parsed.exchange] : [])))].sort();
  const start = Math.min(...files.map((f) => f.parsed.start));
  const end = Math.max(...files.map((f) => f.parsed.end));
  const report: SeriesReport = {
    symbol: first.symbol,
    kind: first.kind,
    ...(first.market === 'um' && !isTardisFileName(first) ? { market: 'um' as const } : {}),
    ...(first.interval === undefined ? {} : { interval: first.interval }),
    ...(exchanges.length === 0 ? {} : { exchanges }),
    files: files.map((f) => ({ path: relative(dir, f.path), date: f.parsed.date, period: f.parsed.period, ...('part' in f.parsed ? { part: f.parsed.part } : {}) })),
    firstDay: formatUtcDay(start),
    lastDay: formatUtcDay(end - MS_PER_DAY),
    missingDays: missingDays(files.map((f) => f.parsed), start, end),
    rows: 0,
    gaps: [],
    gapCount: 0,
    problems: [],
  };
  // A replay reads one market's files: two exchanges' books or trades are not one series.
  if (exchanges.length > 1) report.problems.push(`the files are of several exchanges (${exchanges.join(', ')}): keep one market's files in the folder`);
  if (!scan) return report;
  if (first.kind === RECORDING_KIND) {
    await scanRecordingSeries(report, files as { parsed: RecordingDataFileName; path: string }[], scale, maxGaps);
    return report;
  }
  const schema = kindSchema(first.kind, first.market);
  // Depth rows go on through their kind's sink, which checks what parsing cannot (snapshot levels, quote sides) and counts skipped updates.
  const depthSink = depthKindInfo(first.kind)?.csv?.sink(4096, scale);
  const tracker = new GapTracker(schema, first.interval, report, maxGaps, depthSink);
  const units = new Set<TimeUnit>();
  for (let i = 0; i < files.length; i++) {
    const fileReport = report.files[i]!;
    const counts = { restampedRows: 0 };
    const parser = new DumpParser(schema, scale, tracker, counts);
    tracker.startFile();
    const skippedBefore = depthSink?.skippedRows ?? 0;
    try {
      await parseDumpFile(parser, files[i]!.path, files[i]!.parsed);
    } catch (error) {
      fileReport.error = error instanceof Error ? error.message : String(error);
      report.problems.push(fileReport.error);
    }
    fileReport.rows = tracker.fileRows;
    if (tracker.fileRows === 0 && fileReport.error === undefined) {
      fileReport.error = `${fileReport.path}: no rows: an empty ${schema.kind} file`;
      report.problems.push(fileReport.error);
    }
    const skipped = (depthSink?.skippedRows ?? 0) - skippedBefore;
    if (first.kind === 'tardis:incremental_book_L2') fileReport.skippedUpdates = skipped;
    if (schema.maxStepBack !== undefined) fileReport.restampedRows = counts.restampedRows;
    if (skipped > 0 && skipped === tracker.fileRows && fileReport.error === undefined) {
      fileReport.error = `${fileReport.path}: no snapshot: its ${skipped} updates have no book to apply to`;
      report.problems.push(fileReport.error);
    }
    report.rows += tracker.fileRows;
    if (parser.timeUnit !== undefined) {
      fileReport.timeUnit = parser.timeUnit;
      units.add(parser.timeUnit);
    }
    if (tracker.fileRows > 0) {
      fileReport.firstTime = tracker.fileFirstTime;
      fileReport.lastTime = tracker.fileLastTime;
    }
  }
  if (isTardisFileName(first)) {
    const inMs = report.files.filter((f) => f.timeUnit === 'ms').map((f) => f.path);
    if (inMs.length > 0) report.problems.push(`timestamps in milliseconds in ${inMs.join(', ')}: Tardis files are in microseconds`);
  } else if (first.kind === 'bookTicker') {
    if (units.size > 1) report.problems.push('the files mix millisecond and microsecond timestamps');
  } else {
    // Binance's spot dumps switched from ms to µs on 2025-01-01: mixing is a problem only off that rule.
    const unitOffRule = report.files.some((f) => f.timeUnit !== undefined && (f.timeUnit === 'us') !== (f.date >= '2025-01'));
    if (units.size > 1 && unitOffRule) report.problems.push('the files mix millisecond and microsecond timestamps (Binance: ms before 2025-01-01, µs from then on)');
  }
  return report;
}

/** A recording series: every file read through the recording readers; its gaps are notes, torn ends and refused lines problems. */
async function scanRecordingSeries(report: SeriesReport, files: { parsed: RecordingDataFileName; path: string }[], scale: UnitScale, maxGaps: number): Promise<void> {
  const scan = await scanRecording(
    files.map((f) => f.path),
    { scale, symbol: report.symbol },
  );
  report.messages = scan.messages;
  report.recordingGaps = scan.gaps.slice(0, maxGaps);
  report.gapCount = scan.gaps.length;
  report.problems.push(...scan.warnings, ...scan.errors);
  scan.files.forEach((file, i) => {
    const fileReport = report.files[i]!;
    fileReport.rows = file.messages;
    report.rows += file.messages;
    if (file.firstTime !== undefined) {
      fileReport.firstTime = file.firstTime;
      fileReport.lastTime = file.lastTime!;
      report.firstTime = Math.min(report.firstTime ?? file.firstTime, file.firstTime);
      report.lastTime = Math.max(report.lastTime ?? file.lastTime!, file.lastTime!);
    }
    const own = [...scan.warnings, ...scan.errors].find((problem) => problem.startsWith(`${file.path}:`));
    if (own !== undefined) fileReport.error = own;
  });
}

/** Collects counts, time ranges and gaps as rows stream past (and hands depth rows on to their sink). */
class GapTracker implements RowSink {
  fileRows = 0;
  fileFirstTime = 0;
  fileLastTime = 0;
  private lastKey = Number.NaN;
  private lastTime = Number.NaN;
  /** The column whose steps are counted as gaps, or -1 (depth: nothing to count). */
  private readonly keyColumn: number;
  /** Klines: the bar grid that says which open time comes next. */
  private readonly grid: KlineGrid | undefined;

  constructor(
    private readonly schema: DumpSchema,
    interval: KlineInterval | undefined,
    private readonly report: SeriesReport,
    private readonly maxGaps: number,
    private readonly depth: DepthRowSink | undefined,
  ) {
    // Ids for trades and aggTrades; bar open times for klines.
    this.keyColumn = schema.idColumn >= 0 ? schema.idColumn : interval !== undefined ? schema.timeColumn : -1;
    this.grid = schema.idColumn < 0 && interval !== undefined ? new KlineGrid(interval) : undefined;
  }

  startFile(): void {
    this.fileRows = 0;
    this.depth?.beginFile('');
  }

  row(values: Float64Array): void {
    if (this.depth !== undefined) {
      this.depth.row(values);
      this.depth.takeReady();
    }
    const time = values[this.schema.timeColumn]!;
    const key = this.keyColumn >= 0 ? values[this.keyColumn]! : Number.NaN;
    const report = this.report;
    if (this.fileRows === 0) {
      this.fileFirstTime = time;
      // A step back a replay restamps (Tardis, schema.maxStepBack) is not an overlap.
      if (!Number.isNaN(this.lastTime) && this.lastTime - time > (this.schema.maxStepBack ?? 0)) {
        report.problems.push(`a file starting at ${formatUtcDay(time / 1000)} overlaps the previous file (time runs backwards across them)`);
      }
    }
    if (!Number.isNaN(this.lastKey)) {
      const missing = missingIn(this.grid, this.lastKey, key);
      if (missing > 0) {
        report.gapCount++;
        if (report.gaps.length < this.maxGaps) report.gaps.push({ afterTime: this.lastTime, beforeTime: time, after: this.lastKey, before: key, missing });
      }
    }
    if (report.firstTime === undefined) report.firstTime = time;
    report.lastTime = time;
    this.fileLastTime = time;
    this.lastKey = key;
    this.lastTime = time;
    this.fileRows++;
  }
}

/** Ids or bars strictly between two consecutive rows' keys. */
function missingIn(grid: KlineGrid | undefined, last: number, key: number): number {
  if (grid === undefined) return Math.max(0, key - last - 1);
  const next = grid.next(last);
  if (key <= next) return 0;
  // Every interval but 1M has a fixed width; months are few enough to count one by one.
  if (grid.interval !== '1M') return Math.round((key - last) / (next - last)) - 1;
  let missing = 0;
  for (let t = next; t < key; t = grid.next(t)) missing++;
  return missing;
}

/** Days between start and end (ms) that none of the files' periods covers. */
function missingDays(files: readonly DataFileName[], start: number, end: number): DayRange[] {
  const ranges: DayRange[] = [];
  let runStart: number | undefined;
  for (let day = start; day < end; day += MS_PER_DAY) {
    const covered = files.some((f) => f.start <= day && day < f.end);
    if (!covered && runStart === undefined) runStart = day;
    if (covered && runStart !== undefined) {
      ranges.push({ from: formatUtcDay(runStart), to: formatUtcDay(day - MS_PER_DAY) });
      runStart = undefined;
    }
  }
  if (runStart !== undefined) ranges.push({ from: formatUtcDay(runStart), to: formatUtcDay(end - MS_PER_DAY) });
  return ranges;
}
