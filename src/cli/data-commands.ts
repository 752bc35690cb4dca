/**
 * `exsim data inspect DIR` and `exsim data gen`: the data layer's folder report (Binance dumps,
 * Tardis files, exsim recordings) and synthetic market writers (Binance dumps, or with --l2 Tardis
 * L2 and trades files) as commands. A generated symbol takes its tick and step from the rules exsim
 * knows for it (the sample market, the bundled Binance snapshot); when it has none, or the grid is
 * set otherwise, the folder's exsim-market.json gets the rules the data was written on, so the folder
 * backtests as it is. Every mistake a user can make (a missing folder, a bad date, a
 * bad number) is an `InputError` (src/data's one user-error type), which main.ts prints as one line
 * with a non-zero exit.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { formatRecordingGap, InputError, knownSymbolRules, MARKET_CONFIG_FILE, inspectDataFolder, type DataFolderReport, writeSyntheticDays, writeSyntheticL2Days, KLINE_INTERVALS, type KlineInterval, formatUtcMicros, MS_PER_DAY, parseUtcPeriod } from '../data/index.ts';
import { parseUnits, type SymbolConfig, type SymbolFilter } from '../engine/index.ts';
import { gridSymbol, writeMarketRules } from './data-import.ts';


async function requireFolder(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => null);
  if (info === null) throw new InputError(`no such folder: ${dir}`);
  if (!info.isDirectory()) throw new InputError(`not a folder: ${dir}`);
}

/** The report as a table: one line per series, then its gaps, missing days and problems. */
export function formatDataReport(report: DataFolderReport): string {
  const lines: string[] = [`${report.dir}: ${report.series.length} series`];
  const header = ['symbol', 'kind', 'files', 'days', 'rows', 'first trade/bar (UTC)', 'last trade/bar (UTC)', 'gaps', 'missing days'];
  const rows = report.series.map((s) => [
    s.symbol,
    // A futures dump has the name of the spot one: its folder (market) tells them apart.
    `${s.market === 'um' ? 'futures/um ' : ''}${s.interval === undefined ? s.kind : `${s.kind} ${s.interval}`}`,
    String(s.files.length),
    `${s.firstDay}..${s.lastDay}`,
    s.rows.toLocaleString('en-US'),
    s.firstTime === undefined ? '-' : formatUtcMicros(s.firstTime),
    s.lastTime === undefined ? '-' : formatUtcMicros(s.lastTime),
    String(s.gapCount),
    String(s.missingDays.length === 0 ? 'none' : s.missingDays.map((d) => (d.from === d.to ? d.from : `${d.from}..${d.to}`)).join(', ')),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ').trimEnd();
  lines.push(line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line));
  for (const s of report.series) {
    for (const problem of s.problems) lines.push(`problem ${s.symbol} ${s.kind}: ${problem}`);
    const skipped = s.files.reduce((n, f) => n + (f.skippedUpdates ?? 0), 0);
    if (skipped > 0) lines.push(`skipped ${s.symbol} ${s.kind}: ${skipped.toLocaleString('en-US')} updates before their file's first snapshot (no book to apply them to)`);
    const restamped = s.files.reduce((n, f) => n + (f.restampedRows ?? 0), 0);
    if (restamped > 0) lines.push(`restamped ${s.symbol} ${s.kind}: ${restamped.toLocaleString('en-US')} rows stamped up to 1 s before the row before them (Tardis writes rows in receive order), replayed at that row's time`);
    if (s.messages !== undefined) {
      const counts = Object.entries(s.messages).filter(([, n]) => n > 0).map(([kind, n]) => `${n.toLocaleString('en-US')} ${kind}`);
      lines.push(`messages ${s.symbol} ${s.kind}: ${counts.length === 0 ? 'none' : counts.join(', ')}`);
    }
    if (s.recordingGaps !== undefined && s.gapCount > 0) {
      const listed = s.recordingGaps.length < s.gapCount ? ` (the first ${s.recordingGaps.length} listed)` : '';
      lines.push(`note ${s.symbol} ${s.kind}: ${s.gapCount} gaps${listed}, as live recordings have: a replay bridges each (the book empty until the next snapshot)`);
      for (const gap of s.recordingGaps) lines.push(`note ${formatRecordingGap(gap)}`);
    }
    for (const gap of s.gaps) {
      lines.push(`gap ${s.symbol} ${s.kind}${s.interval === undefined ? '' : ` ${s.interval}`}: ${gap.missing} missing between ${formatUtcMicros(gap.afterTime)} and ${formatUtcMicros(gap.beforeTime)}`);
    }
  }
  if (report.futuresInputs.length > 0) lines.push(`USDⓈ-M funding and price klines (read by --futures; not scanned): ${report.futuresInputs.join(', ')}`);
  if (report.otherFiles.length > 0) lines.push(`not data files (ignored): ${report.otherFiles.join(', ')}`);
  return lines.join('\n');
}

/** The report as text or JSON, and how many problems it found (the command exits 1 when any; notes, such as a recording's gaps, do not count). */
export async function inspectCommand(dir: string, options: { scan: boolean; json: boolean }): Promise<{ output: string; problems: number }> {
  await requireFolder(dir);
  const report = await inspectDataFolder(dir, { scan: options.scan });
  const problems = report.series.reduce((n, s) => n + s.problems.length, 0);
  return { output: options.json ? JSON.stringify(report) : formatDataReport(report), problems };
}

export interface GenOptions {
  out: string;
  symbol: string;
  from: string;
  days: string;
  seed: string;
  price: string;
  /** Default 60000 for dumps, 1500000 with --l2 (a BTCUSDT-like day). */
  tradesPerDay?: string | undefined;
  volatility: string;
  /** Default: the symbol's known tickSize (sample market, Binance snapshot), else 0.01. */
  tick?: string | undefined;
  /** Default: the symbol's known LOT_SIZE stepSize, else 0.00001. */
  step?: string | undefined;
  medianQty: string;
  /** Dumps only; default 1m. */
  klines?: string | undefined;
  aggTrades?: boolean | undefined;
  /** False (`--no-trades`): only the klines and/or aggTrades, as a user without trade dumps has. */
  trades?: boolean;
  csv: boolean;
  /** Write an order-book market as Tardis files (incremental_book_L2 + trades) instead of Binance dumps. */
  l2?: boolean | undefined;
  /** --l2: depth update rows per day (default 20000000). */
  depthPerDay?: string | undefined;
}

/** Amounts are read with 8 decimals, as dumps print them. */
function amount(text: string, what: string): number {
  const units = parseUnits(text, 8);
  if (units === null || units <= 0) throw new InputError(`--${what} must be a positive decimal with at most 8 places, got "${text}"`);
  return units;
}

function positiveInteger(text: string, what: string, max: number): number {
  const n = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(n) || n < 1 || n > max) throw new InputError(`--${what} must be an integer 1..${max}, got "${text}"`);
  return n;
}

/** A filter field of known rules (the decimal string as exchangeInfo writes it). */
function filterField(rules: SymbolConfig | undefined, type: SymbolFilter['filterType'], field: string): string | undefined {
  const filter = rules?.filters?.find((f) => f.filterType === type) as Record<string, unknown> | undefined;
  return filter === undefined ? undefined : (filter[field] as string | undefined);
}

/** The known rules with the price and quantity grid the data was written on (their minimums raised to one tick, one step at least). */
function onGrid(rules: SymbolConfig, tick: string, step: string): SymbolConfig {
  const filters = (rules.filters ?? []).map((f): SymbolFilter => {
    if (f.filterType === 'PRICE_FILTER') return { ...f, tickSize: tick, minPrice: tick };
    if (f.filterType === 'LOT_SIZE') return { ...f, stepSize: step, minQty: step };
    return f;
  });
  return { ...rules, filters };
}

/**
 * Writes the synthetic dump (or with --l2 the Tardis L2 market); returns the paths written.
 * `onNote` hears where the symbol's rules were written, when they were.
 */
export async function genCommand(options: GenOptions, onNote: (line: string) => void = () => {}): Promise<string[]> {
  if (!/^[A-Z0-9]{2,20}$/.test(options.symbol)) throw new InputError(`--symbol must be upper-case letters and digits, got "${options.symbol}"`);
  const known = knownSymbolRules(options.symbol);
  const tick = options.tick ?? filterField(known?.symbol, 'PRICE_FILTER', 'tickSize') ?? '0.01';
  const step = options.step ?? filterField(known?.symbol, 'LOT_SIZE', 'stepSize') ?? '0.00001';
  const fromMs = /^\d{4}-\d{2}-\d{2}$/.test(options.from) ? parseUtcPeriod(options.from) : null;
  if (fromMs === null) throw new InputError(`--from must be a date YYYY-MM-DD, got "${options.from}"`);
  const days = positiveInteger(options.days, 'days', 366);
  const volatility = Number(options.volatility);
  if (!(volatility > 0 && volatility < 1)) throw new InputError(`--volatility must be a daily fraction between 0 and 1, got "${options.volatility}"`);
  const startTime = fromMs * 1000;
  const common = {
    symbol: options.symbol,
    seed: options.seed,
    scale: { quotePrecision: 8, basePrecision: 8 },
    tickSize: amount(tick, 'tick'),
    stepSize: amount(step, 'step'),
    startPrice: amount(options.price, 'price'),
    startTime,
    endTime: startTime + days * MS_PER_DAY * 1000,
    dailyVolatility: volatility,
    medianQty: amount(options.medianQty, 'median-qty'),
    firstTradeId: 1,
  };
  // Decided before any file is written: a symbol whose quote asset cannot be read off its name fails here.
  const rules = rulesToWrite(options.symbol, known?.symbol, tick, step, common.tickSize, common.stepSize);
  if (options.l2 === true) {
    const dumpOnly = [options.klines !== undefined && '--klines', options.aggTrades === true && '--agg-trades', options.trades === false && '--no-trades'].filter((x) => x !== false);
    if (dumpOnly.length > 0) throw new InputError(`${dumpOnly.join(', ')}: Binance dump options; --l2 writes Tardis incremental_book_L2 and trades files`);
    if (common.startPrice < 4 * common.tickSize) throw new InputError(`--price must be at least 4 ticks with --l2, got "${options.price}"`);
    const written = await writeSyntheticL2Days(
      options.out,
      {
        ...common,
        tradesPerDay: positiveInteger(options.tradesPerDay ?? '1500000', 'trades-per-day', 50_000_000),
        depthRowsPerDay: positiveInteger(options.depthPerDay ?? '20000000', 'depth-per-day', 500_000_000),
      },
      { extension: options.csv ? 'csv' : 'csv.gz' },
    );
    writeRules(options, rules, known === undefined, tick, step, onNote);
    return written;
  }
  if (options.depthPerDay !== undefined) throw new InputError('--depth-per-day sets the depth of an --l2 market');
  const intervals = (options.klines ?? '1m') === '' ? [] : (options.klines ?? '1m').split(',');
  for (const interval of intervals) {
    if (!(KLINE_INTERVALS as readonly string[]).includes(interval)) throw new InputError(`--klines: unknown interval "${interval}" (one of ${KLINE_INTERVALS.join(', ')})`);
    if (interval === '3d' || interval === '1w' || interval === '1M') throw new InputError(`--klines: daily files hold klines up to 1d, not ${interval}`);
  }
  if (options.trades === false && intervals.length === 0 && options.aggTrades !== true) throw new InputError('--no-trades needs --klines or --agg-trades (something to write)');
  const written = await writeSyntheticDays(
    options.out,
    {
      ...common,
      tradesPerDay: positiveInteger(options.tradesPerDay ?? '60000', 'trades-per-day', 50_000_000),
      // Dumps from 2025 on stamp trades in µs; earlier ones in ms.
      timeUnit: fromMs >= Date.UTC(2025, 0, 1) ? 'us' : 'ms',
    },
    { klineIntervals: intervals as KlineInterval[], extension: options.csv ? 'csv' : 'zip', trades: options.trades !== false, ...(options.aggTrades === true ? { firstAggTradeId: 1 } : {}) },
  );
  writeRules(options, rules, known === undefined, tick, step, onNote);
  return written;
}

/** The rules the data is written on, or null when the rules exsim knows for the symbol already fit its grid. */
function rulesToWrite(symbol: string, known: SymbolConfig | undefined, tick: string, step: string, tickUnits: number, stepUnits: number): SymbolConfig | null {
  const knownTick = filterField(known, 'PRICE_FILTER', 'tickSize');
  const knownStep = filterField(known, 'LOT_SIZE', 'stepSize');
  if (known !== undefined && knownTick !== undefined && knownStep !== undefined && parseUnits(knownTick, 8) === tickUnits && parseUnits(knownStep, 8) === stepUnits) return null;
  return known === undefined ? gridSymbol(symbol, tick, step) : onGrid(known, tick, step);
}

function writeRules(options: GenOptions, rules: SymbolConfig | null, unknown: boolean, tick: string, step: string, onNote: (line: string) => void): void {
  if (rules === null) return;
  writeMarketRules(options.out, [{ symbol: rules, assets: [rules.baseAsset, rules.quoteAsset].map((asset) => ({ asset, precision: 8 })) }]);
  onNote(`rules of ${options.symbol} (tick ${tick}, step ${step}${unknown ? ', no other filters: edit them for a real market' : ''}): ${join(options.out, MARKET_CONFIG_FILE)}`);
}
